// An Apery .bin holds only position keys: it is read by walking legal moves from a root. The
// root is given as a book's root is ("startpos moves ...", "sfen ... moves ..."), and an
// import into a book with its own root walks from that root unless told otherwise. (The walk
// took only a bare SFEN: a book made with `--root "startpos moves 2g2f"` imported nothing.)
import { afterEach, describe, expect, it, vi } from "vitest";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { convertCommand } from "./convert.js";
import { UsageError } from "../command.js";
import { readBookFile } from "../../formats/book-files.js";
import { BookStore } from "../../store/book-store.js";
import { OpenBook } from "../../book/open-book.js";
import { HORU, TEST_DATA, tempDir } from "../../testing/paths.js";
import { Position } from "../../../shared/rules/position.js";

const BIN = path.join(TEST_DATA, "books", "book_apery.bin");
const ROOT = "startpos moves 2g2f 3c3d";
const START = Position.fromUsi("startpos").sfenKey();
const AFTER_2G2F = Position.fromUsi("startpos moves 2g2f").sfenKey();
const AT_ROOT = Position.fromUsi(ROOT).sfenKey();

afterEach(() => vi.restoreAllMocks());

describe("an Apery .bin walked from a root", () => {
  it("horu convert --root walks from it: the positions before it are not reached", async () => {
    const dir = tempDir();
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    expect(await convertCommand.run([BIN, path.join(dir, "all.db")])).toBe(0);
    expect(await convertCommand.run([BIN, path.join(dir, "part.db"), "--root", ROOT])).toBe(0);
    const all = readBookFile(path.join(dir, "all.db")).map((b) => b.sfen);
    const part = readBookFile(path.join(dir, "part.db")).map((b) => b.sfen);
    expect(all).toContain(START);
    expect(part).toContain(AT_ROOT);
    expect(part).not.toContain(START);
    expect(part).not.toContain(AFTER_2G2F);
    expect(part.length).toBe(all.length - 2);
    // Only a .bin is walked: another format names its positions, so a root there is refused.
    await expect(convertCommand.run([path.join(dir, "all.db"), path.join(dir, "x.sbk"), "--root", ROOT])).rejects.toThrow(UsageError);
    await expect(convertCommand.run([BIN, path.join(dir, "y.db"), "--root", "startpos moves 9a9b"])).rejects.toThrow(
      /book_apery\.bin: the root to walk it from is not a position: startpos moves 9a9b/,
    );
  });

  it("horu import walks from the book's own root by default, and from --root given as a dig takes it", () => {
    const dir = tempDir();
    const sfens = (file: string) => {
      const s = BookStore.open(file, { readonly: true });
      try {
        return [...s.thoughts.iterateBySfen()].map((t) => t.sfen);
      } finally {
        s.close();
      }
    };
    const own = path.join(dir, "own.horu");
    OpenBook.create(own, { root: ROOT }).close();
    const a = spawnSync(process.execPath, [HORU, "import", "--book", own, BIN], { encoding: "utf8" });
    expect(a.status, a.stderr).toBe(0);
    expect(sfens(own)).toContain(AT_ROOT);
    expect(sfens(own)).not.toContain(START);

    const given = path.join(dir, "given.horu");
    const b = spawnSync(process.execPath, [HORU, "import", "--book", given, "--root", ROOT, BIN], { encoding: "utf8" });
    expect(b.status, b.stderr).toBe(0);
    expect(sfens(given).sort()).toEqual(sfens(own).sort());
  });
});
