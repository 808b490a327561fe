// Files that are no book of the kind their name says: a picture, a horu book named .db or given
// to import, a horu book cut short. Each is refused in one sentence naming the file and what it
// is; they were read as DB2016 text ("line 1: move line before any 'sfen' line (and 12 more)",
// a list of "damaged lines" for a horu book) or refused in SQLite's words without the file.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HORU, TEST_DATA, tempDir } from "../testing/paths.js";
import { BookStore } from "../store/book-store.js";
import { openMatchBook, readBookFileFull } from "./book-files.js";

const PNG = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.from(Array.from({ length: 2560 }, (_, i) => i % 256))]);

function horuBook(dir: string, name: string): string {
  const book = path.join(dir, name);
  const r = spawnSync(process.execPath, [HORU, "import", "--book", book, path.join(TEST_DATA, "books", "book_yaneuraou.db")], {
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return book;
}

describe("a file that is no DB2016 text", () => {
  it("is refused by convert and a match's book as binary data, naming the file", () => {
    const dir = tempDir();
    const png = path.join(dir, "board.png");
    writeFileSync(png, PNG);
    expect(() => readBookFileFull(png)).toThrow(`${png}: binary data (a NUL byte at offset 8), not a YaneuraOu DB2016 text book`);
    expect(() => openMatchBook(png)).toThrow(/board\.png: binary data .* its name ends in none of \.bin, \.ybb, \.sbk/);
    const r = spawnSync(process.execPath, [HORU, "convert", png, path.join(dir, "out.db")], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `horu convert: ${png}: binary data (a NUL byte at offset 8), not a YaneuraOu DB2016 text book (read as one: its name ends in none of .bin, .ybb, .sbk and it has no horu or .ybb signature)\n`,
    );
  });

  it("import refuses a horu book given as a file to import (named .horu or .db), saying what it is, and stores nothing", () => {
    const dir = tempDir();
    const other = horuBook(dir, "other.horu");
    const asDb = path.join(dir, "other-book.db");
    copyFileSync(other, asDb);
    const book = path.join(dir, "main.horu");
    const kif = path.join(TEST_DATA, "kifu", "kif_fork.kif");
    for (const file of [other, asDb]) {
      const r = spawnSync(process.execPath, [HORU, "import", "--book", book, file, kif], { encoding: "utf8" });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        `horu import: ${file}: refused, nothing imported: an SQLite database (a horu book, or another program's), not a YaneuraOu DB2016 text book`,
      );
      expect(r.stderr).toContain(`\`horu export --book ${file} --out FILE.db --raw\``);
      expect(r.stderr).not.toMatch(/move line before any 'sfen' line|not a game record/);
      // The game record beside it still went in.
      expect(r.stdout).toMatch(/kif_fork\.kif: kif \(shift_jis\), 1 record\(s\)/);
    }
    const s = BookStore.open(book, { readonly: true });
    try {
      expect(s.thoughts.count()).toBe(0);
      expect(s.imports.list()).toEqual([]);
    } finally {
      s.close();
    }
  });

  it("import refuses binary data named .db in one sentence, not a list of damaged lines", () => {
    const dir = tempDir();
    const bad = path.join(dir, "pic.db");
    writeFileSync(bad, PNG);
    const book = path.join(dir, "b.horu");
    const r = spawnSync(process.execPath, [HORU, "import", "--book", book, bad], { encoding: "utf8" });
    expect(r.status).toBe(1);
    // The book made for it holds nothing and goes again (import-many.test.ts).
    expect(r.stderr).toBe(
      `horu import: ${bad}: refused, nothing imported: binary data (a NUL byte at offset 8), not a YaneuraOu DB2016 text book\n` +
        `horu import: ${book} not kept: nothing went into the book just created\n`,
    );
  });
});

describe("a horu book cut short", () => {
  it("is refused by convert and a match's book naming the file", () => {
    const dir = tempDir();
    const book = horuBook(dir, "whole.horu");
    const cut = path.join(dir, "cut.horu");
    const bytes = readFileSync(book);
    expect(statSync(book).size).toBeGreaterThan(8192);
    writeFileSync(cut, bytes.subarray(0, 8192));
    expect(() => openMatchBook(cut)).toThrow(/^.*cut\.horu: /);
    const r = spawnSync(process.execPath, [HORU, "convert", cut, path.join(dir, "out.db")], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^horu convert: ${cut.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `));
  });
});

describe("a DB2016 book with a NUL byte in a line", () => {
  it("is still read as a book (the damaged line is damage, not the file binary data)", () => {
    const dir = tempDir();
    const text = readFileSync(path.join(TEST_DATA, "books", "book_yaneuraou.db"), "latin1");
    const file = path.join(dir, "nul.db");
    const at = text.indexOf("\n", text.indexOf("sfen ") + 1) + 3;
    writeFileSync(file, Buffer.from(text.slice(0, at) + "\0" + text.slice(at + 1), "latin1"));
    expect(() => readBookFileFull(file)).toThrow(/nul\.db: line \d+: /);
  });
});

describe("an empty file", () => {
  it("is refused by convert and import as empty, not converted to an empty book", () => {
    const dir = tempDir();
    const empty = path.join(dir, "e.db");
    writeFileSync(empty, "");
    const out = path.join(dir, "o.ybb");
    const c = spawnSync(process.execPath, [HORU, "convert", empty, out], { encoding: "utf8" });
    expect(c.status).toBe(1);
    expect(c.stderr).toBe(`horu convert: ${empty}: an empty file (0 bytes), no book\n`);
    expect(existsSync(out)).toBe(false);
    const book = path.join(dir, "b.horu");
    const i = spawnSync(process.execPath, [HORU, "import", "--book", book, empty], { encoding: "utf8" });
    expect(i.status).toBe(1);
    expect(i.stderr).toBe(
      `horu import: ${empty}: refused, nothing imported: an empty file (0 bytes), no book\n` +
        `horu import: ${book} not kept: nothing went into the book just created\n`,
    );
  });
});
