// Ctrl-C part way through `horu import` of a big book: the chunks stored so far stay in the
// book as that file's import. It used to end silently (exit 130, nothing printed) with part of
// the book in; now it says how much went in and how to take it back, and `--undo` does.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../../store/book-store.js";
import { HORU, tempDir } from "../../testing/paths.js";
import { makeSyntheticBook } from "../../../shared/synth/synth-book.js";
import { moveToUsi } from "../../../shared/rules/usi.js";
import { writeDb2016 } from "../../../shared/formats/db2016.js";

/** Imports recorded in the book so far (read-only, beside the import), and their positions. */
function imported(file: string): { batches: number; positions: number } {
  if (!existsSync(file)) return { batches: 0, positions: 0 };
  try {
    const s = BookStore.open(file, { readonly: true });
    try {
      const list = s.imports.list();
      return { batches: list.length, positions: list[0]?.positions ?? 0 };
    } finally {
      s.close();
    }
  } catch {
    return { batches: 0, positions: 0 }; // being created
  }
}

describe("horu import interrupted", () => {
  it("says what went in and how to take it back; --undo takes it back", { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const synth = makeSyntheticBook(150_000, 4);
    const blocks = synth.sfens.map((sfen, i) => {
      const moves = [];
      for (let j = synth.moveStart[i]; j < synth.moveStart[i + 1]; j++)
        moves.push({ move: moveToUsi(synth.moves[j]), ponder: null, value: synth.values[j], depth: 20, count: 1 });
      return { sfen, moves };
    });
    const db = path.join(dir, "big.db");
    writeFileSync(db, writeDb2016(blocks));
    const book = path.join(dir, "b.horu");
    const child = spawn(process.execPath, [HORU, "import", "--book", book, db], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    // Once a chunk is stored, Ctrl-C.
    const until = Date.now() + 120_000;
    while (imported(book).positions === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(imported(book).positions).toBeGreaterThan(0);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const m =
      /interrupted while importing .*big\.db: ([\d,]+) position\(s\) of it went in and stay in .*b\.horu as its import; `horu import --book .*b\.horu --undo` takes them back/.exec(
        stderr,
      );
    expect(m, stderr).not.toBeNull();
    const said = Number(m![1]!.replace(/,/g, ""));
    expect(said).toBeLessThan(blocks.length); // part of it
    const store = BookStore.open(book, { readonly: true });
    expect(store.integrityCheck()).toBe("ok");
    expect(store.thoughts.count()).toBe(said);
    store.close();
    const undo = spawnSync(process.execPath, [HORU, "import", "--book", book, "--undo"], { encoding: "utf8" });
    expect(undo.status, undo.stderr).toBe(0);
    const after = BookStore.open(book, { readonly: true });
    expect(after.thoughts.count()).toBe(0);
    after.close();
  });
});
