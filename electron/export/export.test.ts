import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { OpenBook } from "../book/open-book.js";
import { importDb2016 } from "../book/import.js";
import { exportBook } from "./export.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { compareSfenBytes, parseDb2016 } from "../../shared/formats/db2016.js";
import { missing } from "../testing/missing.js";

const source = path.join(TEST_DATA, "books", "book_yaneuraou.db");

describe.skipIf(missing(existsSync(source), source))("exporting a book", () => {
  it("leaves out whole positions decided beyond the eval limit, counts what it writes, and keeps byte order", async () => {
    const dir = tempDir();
    const file = path.join(dir, "b.horu");
    OpenBook.create(file).close();
    const store = BookStore.open(file);
    await importDb2016(store, source);
    store.close();
    const book = OpenBook.open(file);
    const all = path.join(dir, "all.db"),
      limited = path.join(dir, "limited.db");
    await exportBook(book, { path: all, format: "db", mode: "raw" });
    const r = await exportBook(book, { path: limited, format: "db", mode: "raw", evalLimit: 30 });
    book.close();
    const full = parseDb2016(readFileSync(all, "utf8"));
    const cut = parseDb2016(readFileSync(limited, "utf8"));
    // The start position's best move is valued 63: beyond 30, so the block goes, not just its move.
    const best = (b: (typeof full.blocks)[number]) => Math.max(...b.moves.map((m) => m.value ?? 0));
    const expected = full.blocks.filter((b) => b.moves.length === 0 || Math.abs(best(b)) <= 30).map((b) => b.sfen);
    expect(cut.blocks.map((b) => b.sfen)).toEqual(expected);
    expect(expected.length).toBeLessThan(full.blocks.length);
    expect(cut.reader.noe).toBe(cut.blocks.length);
    expect(r.positions).toBe(cut.blocks.length);
    const sfens = full.blocks.map((b) => b.sfen);
    expect([...sfens].sort(compareSfenBytes)).toEqual(sfens);
  });

  it("fails with the target's name and leaves an existing file alone when it cannot write", async () => {
    const dir = tempDir();
    const file = path.join(dir, "b.horu");
    OpenBook.create(file).close();
    const target = path.join(dir, "missing-folder", "out.db");
    const book = OpenBook.open(file);
    await expect(exportBook(book, { path: target, format: "db", mode: "minimax" })).rejects.toThrow(
      `${path.dirname(target)} is not a folder: create it first`,
    );
    const existing = path.join(dir, "keep.db");
    writeFileSync(existing, "old");
    await expect(exportBook(book, { path: existing, format: "db", mode: "minimax" })).rejects.toThrow(/already exists/);
    expect(readFileSync(existing, "utf8")).toBe("old");
    await exportBook(book, { path: existing, format: "db", mode: "minimax", overwrite: true });
    book.close();
    expect(readFileSync(existing, "utf8").startsWith("#YANEURAOU-DB2016")).toBe(true);
  });
});

describe("exporting beside the dig", () => {
  it("runs on its own thread: the file is written while this thread is held busy, and results stored meanwhile do not disturb it", async () => {
    const { writeSyntheticBook } = await import("../bench/books/synthetic-book.js");
    const dir = tempDir();
    const file = path.join(dir, "big.horu");
    // Big enough that the export takes a while, small enough to finish on a loaded machine
    // within the deadline below (30,000 positions did not, at load 12 on 2 cores).
    writeSyntheticBook(file, 5_000);
    const book = OpenBook.open(file);
    const out = path.join(dir, "big.db");
    const exporting = exportBook(book, { path: out, format: "db", mode: "minimax" });
    // This thread stores a result, then stays busy without yielding: an export running here
    // could not make progress, so the file appears only if another thread writes it.
    book.store.thoughts.add({
      sfen: "9/9/9/9/4k4/9/9/9/4K4 b G 1",
      keyHi: 1,
      keyLo: 2,
      candidates: [{ move: "G*5f", value: 10, depth: 1, pv: ["G*5f"] }],
      provenance: { kind: "import", file: "t" },
      thoughtAt: Date.now(),
    });
    const deadline = Date.now() + 60_000;
    while (!existsSync(out) && Date.now() < deadline) {
      // held busy on purpose
    }
    expect(existsSync(out)).toBe(true);
    const r = await exporting;
    book.close();
    const blocks = parseDb2016(readFileSync(out, "utf8")).blocks;
    expect(blocks.length).toBe(r.positions);
    expect(r.positions).toBeGreaterThanOrEqual(4_800);
  });
});
