// horu peta given a horu book or an empty file: a horu book was read as DB2016 text ("23 lines
// not understood ... move line before any 'sfen' line"), an empty file wrote an empty book and
// exited 0. Both are refused in words naming the file, and nothing is written.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HORU, TEST_DATA, tempDir } from "../../testing/paths.js";

const horu = (...args: string[]) => spawnSync(process.execPath, [HORU, ...args], { encoding: "utf8" });

describe("horu peta with no DB2016 book", () => {
  it("refuses a horu book, saying that horu export writes its minimax", () => {
    const dir = tempDir();
    const book = path.join(dir, "b.horu");
    expect(horu("import", "--book", book, path.join(TEST_DATA, "books", "book_yaneuraou.db")).status).toBe(0);
    const out = path.join(dir, "o.db");
    const r = horu("peta", book, out);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `horu peta: ${book}: an SQLite database (a horu book, or another program's), not a YaneuraOu DB2016 text book: for a horu book, \`horu export --book ${book} --out OUT.db\` writes its Peta-Shock minimax as a DB2016 book; nothing written\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("refuses an empty file", () => {
    const dir = tempDir();
    const empty = path.join(dir, "e.db");
    writeFileSync(empty, "");
    const out = path.join(dir, "o.db");
    const r = horu("peta", empty, out);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`horu peta: ${empty}: an empty file (0 bytes), no book; nothing written\n`);
    expect(existsSync(out)).toBe(false);
  });
});
