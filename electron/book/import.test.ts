import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { OpenBook } from "./open-book.js";
import { importAperyFile, importDb2016 } from "./import.js";
import { bookRows } from "../testing/intact.js";
import { exportBook } from "../export/export.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { parseDb2016 } from "../../shared/formats/db2016.js";
import { readApery } from "../../shared/formats/apery.js";

const books = path.join(TEST_DATA, "books");

function newBook(): { file: string; dir: string } {
  const dir = tempDir();
  const file = path.join(dir, "b.horu");
  OpenBook.create(file).close();
  return { file, dir };
}

describe("importing books (the test books of other programs)", () => {
  it("reads the four DB2016 variants (plain, CRLF, BOM+CRLF, no header) to the same positions", async () => {
    const seen: string[] = [];
    for (const name of ["book_yaneuraou.db", "book_yaneuraou-crlf.db", "book_yaneuraou-bom-crlf.db", "book_yaneuraou-no-header.db"]) {
      const { file } = newBook();
      const store = BookStore.open(file);
      const r = await importDb2016(store, path.join(books, name));
      expect(r.errorCount, r.errors.join("\n")).toBe(0);
      expect([r.positions, r.moves]).toEqual([5, 18]);
      seen.push(
        JSON.stringify([...store.thoughts.iterate()].map((t) => [t.sfen, t.candidates.map((c) => [c.move, c.value, c.depth, c.pv])])),
      );
      store.close();
    }
    expect(new Set(seen).size).toBe(1);
  });

  it("round-trips .db -> book -> .db with moves, values, depths, ponders and counts", async () => {
    const { file, dir } = newBook();
    const store = BookStore.open(file);
    await importDb2016(store, path.join(books, "book_yaneuraou.db"));
    store.close();
    const book = OpenBook.open(file);
    const out = path.join(dir, "out.db");
    await exportBook(book, { path: out, format: "db", mode: "raw" });
    book.close();
    const original = parseDb2016(readFileSync(path.join(books, "book_yaneuraou.db"), "utf8")).blocks;
    const written = parseDb2016(readFileSync(out, "utf8")).blocks;
    const norm = (blocks: typeof original) =>
      blocks
        .map((b) => [b.sfen.replace(/ \d+$/, ""), b.moves.map((m) => [m.move, m.ponder, m.value ?? 0, m.depth ?? 0, m.count]).sort()])
        .sort();
    expect(norm(written)).toEqual(norm(original));
    // The file's plies are not kept, by design: a horu book is keyed by the position without its
    // move number (docs/MATCH.md, Book files); DB2016 allows a position without one.
    expect(original.some((b) => / \d+$/.test(b.sfen))).toBe(true);
    expect(written.filter((b) => / \d+$/.test(b.sfen))).toEqual([]);
    // Each block's moves come in the format's order: count, then value, descending.
    for (const b of written) {
      const keys = b.moves.map((m) => [m.count ?? 0, m.value ?? 0] as const);
      for (let i = 1; i < keys.length; i++)
        expect(keys[i - 1]![0] > keys[i]![0] || (keys[i - 1]![0] === keys[i]![0] && keys[i - 1]![1] >= keys[i]![1])).toBe(true);
    }
    // The start position: by count first, and 2h7h before 3g3f (both count 1) by value.
    const start = written.find((b) => b.sfen.startsWith("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/"))!;
    expect(start.moves.map((m) => [m.move, m.count])).toEqual([
      ["2g2f", 935],
      ["7g7f", 6],
      ["5g5f", 3],
      ["2h7h", 1],
      ["3g3f", 1],
    ]);
  });

  it("round-trips .bin -> book -> .bin byte for byte (keys, moves, counts and scores)", async () => {
    const { file, dir } = newBook();
    const store = BookStore.open(file);
    const r = importAperyFile(store, path.join(books, "book_apery.bin"));
    expect(r.unreachable).toBe(0);
    store.close();
    const book = OpenBook.open(file);
    const out = path.join(dir, "out.bin");
    await exportBook(book, { path: out, format: "bin", mode: "raw" });
    book.close();
    const a = readApery(readFileSync(path.join(books, "book_apery.bin"))).records.map((x) => [x.key, x.fromToPro, x.count, x.score]);
    const b = readApery(readFileSync(out)).records.map((x) => [x.key, x.fromToPro, x.count, x.score]);
    expect(b).toEqual(a);
    expect(Buffer.compare(readFileSync(out), readFileSync(path.join(books, "book_apery.bin")))).toBe(0);
  });

  it("a file with malformed lines: strict refuses it naming the first (every row as it was); else each is left out and listed", async () => {
    const { file, dir } = newBook();
    const store = BookStore.open(file);
    await importDb2016(store, path.join(books, "book_yaneuraou.db"));
    const before = bookRows(file);
    const bad = path.join(dir, "bad.db");
    // Line 3 is well formed and a new position: strict must not store it either.
    writeFileSync(
      bad,
      "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 10 5\nzz99 none 1 1\nsfen nonsense b - 1\n2g2f none 1 1\nsfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h none x 1\n",
    );
    // Strict stops at the first and stores nothing.
    await expect(importDb2016(store, bad, { strict: true })).rejects.toThrow(
      `${bad}: refused, nothing imported: a damaged line:\n  ${bad}:4: not a USI move: 'zz99'`,
    );
    expect(bookRows(file)).toBe(before);
    // Else each damaged line is left out and listed, the rest stored.
    const r = await importDb2016(store, bad);
    expect(r.errors).toEqual([
      `${bad}:4: not a USI move: 'zz99'; the line left out`,
      `${bad}:5: board rank a: unknown piece letter 'o'; the position and its moves left out`,
      `${bad}:8: value is not an integer: 'x'; the line left out`,
    ]);
    expect(r).toMatchObject({ positions: 1, moves: 1, leftOut: 3 });
    // An illegal move (seen when its position's moves end) before a malformed line in the same
    // position: strict names the illegal one, the first (it named the later malformed one).
    const order = path.join(dir, "order.db");
    writeFileSync(
      order,
      "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 10 5\n9a9b none 1 1\nzzzz none 1 1\n",
    );
    await expect(importDb2016(store, order, { strict: true })).rejects.toThrow(
      new RegExp(`a damaged line:\\n  ${order.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4: `),
    );
    store.close();
  });

  it("lists every damaged line of a file with many, and stores the rest", async () => {
    const { file, dir } = newBook();
    const store = BookStore.open(file);
    const bad = path.join(dir, "many.db");
    const lines = ["#YANEURAOU-DB2016 1.00", "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"];
    for (let i = 0; i < 30; i++) lines.push(`7g7f none ${i}x 1`);
    lines.push("2g2f none 5 1");
    writeFileSync(bad, lines.join("\n") + "\n");
    const r = await importDb2016(store, bad);
    expect(r.errors).toEqual(Array.from({ length: 30 }, (_, i) => `${bad}:${i + 3}: value is not an integer: '${i}x'; the line left out`));
    expect(r).toMatchObject({ positions: 1, moves: 1, errorCount: 30, leftOut: 30 });
    store.close();
  });

  it("keeps going past a move-field word that is no move (resign, none), saying so", async () => {
    const { file, dir } = newBook();
    const store = BookStore.open(file);
    const src = path.join(dir, "words.db");
    writeFileSync(
      src,
      "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none 10 5\nresign none 0 0\n2g2f none 5 5\n",
    );
    const r = await importDb2016(store, src);
    expect(r.errors).toEqual([`${src}:4: 'resign' is not a move; left out`]);
    expect(store.thoughts.get("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")?.candidates.map((c) => c.move)).toEqual([
      "7g7f",
      "2g2f",
    ]);
    store.close();
  });
});
