// Several files in one `horu import`: a damaged one is refused whole and named, and the files
// after it still go in (the import stopped at it, and the record after it was never read).
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HORU, TEST_DATA, tempDir } from "../../testing/paths.js";
import { BookStore } from "../../store/book-store.js";

describe("horu import of several files, one damaged", () => {
  it("refuses the damaged one, imports the others, says which, and exits 1", () => {
    const dir = tempDir();
    const db = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    const ybb = path.join(dir, "t.ybb");
    expect(spawnSync(process.execPath, [HORU, "convert", db, ybb]).status).toBe(0);
    const bad = path.join(dir, "bad.ybb");
    writeFileSync(bad, readFileSync(ybb).subarray(0, 150));
    const kif = path.join(TEST_DATA, "kifu", "kif_fork.kif");
    const book = path.join(dir, "m.horu");
    const r = spawnSync(process.execPath, [HORU, "import", "--book", book, db, bad, kif], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`horu import: ${bad}: `);
    expect(r.stderr).toContain(`horu import: refused ${bad} (nothing of it stored); the other files went in as listed above`);
    expect(r.stdout).toMatch(/book_yaneuraou\.db: 5 positions/);
    expect(r.stdout).toMatch(/kif_fork\.kif: kif \(shift_jis\), 1 record\(s\)/);
    const s = BookStore.open(book, { readonly: true });
    try {
      expect(s.thoughts.count()).toBe(5);
      expect(s.imports.list().map((i) => path.basename(i.file))).toEqual(["book_yaneuraou.db"]);
    } finally {
      s.close();
    }
  });

  it("does not leave behind a book it created when nothing went in, and keeps one that existed", () => {
    const dir = tempDir();
    const bad = path.join(dir, "bad.db");
    writeFileSync(bad, Buffer.from([0, 1, 2, 3, 0, 5]));
    const empty = path.join(dir, "empty.kif");
    writeFileSync(empty, "");
    const book = path.join(dir, "new.horu");
    const r = spawnSync(process.execPath, [HORU, "import", "--book", book, bad, empty], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`horu import: ${book} not kept: nothing went into the book just created`);
    for (const side of ["", "-wal", "-shm"]) expect(existsSync(book + side), book + side).toBe(false);
    // A book that was there stays, refused file or not.
    const db = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    expect(spawnSync(process.execPath, [HORU, "import", "--book", book, db]).status).toBe(0);
    const again = spawnSync(process.execPath, [HORU, "import", "--book", book, bad], { encoding: "utf8" });
    expect(again.status).toBe(1);
    expect(again.stderr).not.toContain("not kept");
    const s = BookStore.open(book, { readonly: true });
    try {
      expect(s.thoughts.count()).toBe(5);
    } finally {
      s.close();
    }
  });
});
