// A disk that fills during horu import: the book keeps no import record of a file none of
// which went in (it was an import to undo that stored nothing), and the command says what of
// the file went in, not a dig's "the last result was not stored (earlier results are intact)".
import { afterEach, describe, expect, it, vi } from "vitest";
import path from "node:path";
import { writeFileSync } from "node:fs";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import type Database from "better-sqlite3";
import { BookStore, StoreFullError } from "../store/book-store.js";
import { importDb2016 } from "./import.js";
import { importCommand } from "../cli/commands/import.js";
import { tempDir } from "../testing/paths.js";

/** A DB2016 book of `n` positions along one line of first legal moves, each with all its legal moves: more than a fresh book's pages hold. */
function bigDb(dir: string, n: number): string {
  const lines = ["#YANEURAOU-DB2016 1.00"];
  const pos = Position.startpos();
  for (let i = 0; i < n; i++) {
    const moves = pos.legalMoves();
    if (moves.length === 0) break;
    lines.push(`sfen ${pos.toSfen()}`);
    moves.forEach((m, k) => lines.push(`${moveToUsi(m)} none ${k} 20 1`));
    pos.doMove(moves[i % moves.length]!);
  }
  const file = path.join(dir, "big.db");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

/** The store's own connection may grow by `pages` pages only: SQLite then fails writes with SQLITE_FULL, as a full disk does. */
function limit(store: BookStore, pages: number): void {
  const db = (store as unknown as { db: Database.Database }).db;
  db.pragma(`max_page_count = ${(db.pragma("page_count", { simple: true }) as number) + pages}`);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a full disk during an import", () => {
  it("leaves no empty import record when the file's first chunk does not fit", async () => {
    const dir = tempDir();
    const DB = bigDb(dir, 200);
    const file = path.join(dir, "b.horu");
    const store = BookStore.create(file);
    try {
      limit(store, 0);
      await expect(importDb2016(store, DB)).rejects.toBeInstanceOf(StoreFullError);
      expect(store.thoughts.count()).toBe(0);
      expect(store.imports.list()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it("horu import says the disk is full and what of the file went in", async () => {
    const dir = tempDir();
    const DB = bigDb(dir, 200);
    const file = path.join(dir, "b.horu");
    BookStore.create(file).close();
    const open = BookStore.open.bind(BookStore);
    vi.spyOn(BookStore, "open").mockImplementation((p, o) => {
      const s = open(p, o);
      if (!o?.readonly) limit(s, 0);
      return s;
    });
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await expect(importCommand.run(["--book", file, DB])).rejects.toThrow(
      `${file}: the disk is full while importing ${DB}: nothing of it went in`,
    );
    vi.restoreAllMocks();
    const s = BookStore.open(file, { readonly: true });
    try {
      expect(s.imports.list()).toEqual([]);
      expect(s.integrityCheck()).toBe("ok");
    } finally {
      s.close();
    }
  });
});
