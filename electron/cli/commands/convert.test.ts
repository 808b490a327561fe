import { afterEach, describe, expect, test, vi } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { convertCommand } from "./convert.js";
import { matchCommand } from "./match.js";
import { UsageError } from "../command.js";
import { readBookFile } from "../../formats/book-files.js";
import { parseDb2016 } from "../../../shared/formats/db2016.js";
import { TEST_DATA, tempDir } from "../../testing/paths.js";

function capture(): { text: () => string } {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return { text: () => out };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("horu convert", () => {
  test(".db -> .ybb -> .sbk -> .db keeps the moves and values", async () => {
    const dir = tempDir();
    const src = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    const out = capture();
    expect(await convertCommand.run([src, path.join(dir, "a.ybb")])).toBe(0);
    expect(await convertCommand.run([path.join(dir, "a.ybb"), path.join(dir, "a.sbk")])).toBe(0);
    expect(await convertCommand.run([path.join(dir, "a.sbk"), path.join(dir, "a.db"), "--json"])).toBe(0);
    expect(out.text()).toMatch(/a\.ybb \(ybb\) -> .*a\.sbk \(sbk\): 5 positions, 18 moves/);
    // .ybb has no "none": the 10 moves without a value come back as 0, and convert says so.
    const key = (f: string) =>
      readBookFile(f)
        .flatMap((b) => b.moves.map((m) => `${b.sfen} ${m.move} ${m.value ?? 0}`))
        .sort();
    expect(key(path.join(dir, "a.db"))).toEqual(key(src));
    expect(out.text()).toMatch(/ybb cannot hold everything; left out:\n(.*\n)* {2}13 missing value\(s\) or depth\(s\) written as 0/);
    expect(out.text()).toMatch(/ {2}2 move comment\(s\) \(only \.db keeps them\)/);
    expect(JSON.parse(out.text().trim().split("\n").pop()!)).toMatchObject({ from: "sbk", to: "db", positions: 5 });
  });

  test(".db -> .db keeps everything: order, none, counts, ponder moves, comments", async () => {
    const dir = tempDir();
    const src = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    capture();
    expect(await convertCommand.run([src, path.join(dir, "same.db")])).toBe(0);
    const text = readFileSync(path.join(dir, "same.db"), "utf8");
    expect(text).toContain(
      "\n2g2f 3c3d 63 27 935\n#multi line comment 1\n#multi line comment 2\n7g7f none 20 25 6\n#single line comment\n",
    );
    expect(text).toContain("\n2b8h+ none none none 103\n4c4d none none none 3\n4a3b none none none 2\n");
    const strip = (f: string) =>
      parseDb2016(readFileSync(f, "utf8"), { strict: true })
        .blocks.map((b) => ({ sfen: b.sfen, comment: b.comment, moves: b.moves.map(({ lineNo: _l, ...m }) => m) }))
        .sort((a, b) => (a.sfen < b.sfen ? -1 : 1));
    expect(strip(path.join(dir, "same.db"))).toEqual(strip(src));
  });

  test(".db -> .sbk -> .db keeps none, order, counts, ponder moves and position comments; says it drops move comments", async () => {
    const dir = tempDir();
    const src = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    const out = capture();
    expect(await convertCommand.run([src, path.join(dir, "b.sbk")])).toBe(0);
    expect(out.text()).toMatch(/sbk cannot hold everything; left out:\n {2}2 move comment\(s\)/);
    expect(await convertCommand.run([path.join(dir, "b.sbk"), path.join(dir, "b.db")])).toBe(0);
    const orig = readBookFile(src);
    const back = new Map(readBookFile(path.join(dir, "b.db")).map((b) => [b.sfen, b]));
    for (const b of orig) {
      const got = back.get(b.sfen)!;
      expect(got.comment).toEqual(b.comment);
      expect(got.moves.map(({ comment: _c, ...m }) => m)).toEqual(b.moves.map(({ comment: _c, ...m }) => m));
    }
  });

  test("bad names and damaged input are clear errors", async () => {
    const dir = tempDir();
    await expect(convertCommand.run(["x.db"])).rejects.toThrow(UsageError);
    await expect(convertCommand.run([path.join(TEST_DATA, "books", "book_yaneuraou.db"), path.join(dir, "out.txt")])).rejects.toThrow(
      /OUT must end in/,
    );
    const bad = path.join(dir, "bad.ybb");
    const header = Buffer.alloc(32);
    header.write("YANE-BINBOOK-V1\0", "latin1");
    header.writeBigUInt64LE(1000n, 16); // 1000 positions promised, none there
    header.writeBigUInt64LE(1n, 24);
    writeFileSync(bad, header);
    await expect(convertCommand.run([bad, path.join(dir, "o.db")])).rejects.toThrow(
      /bad\.ybb: the header says 1000 positions, but the file holds at most 0/,
    );
  });
});

describe("horu match arguments", () => {
  test("usage errors name the option", async () => {
    const dir = tempDir();
    await expect(matchCommand.run([])).rejects.toThrow(/--out DIR is required/);
    // --out alone resumes: a folder with no match in it (a typo) starts nothing.
    await expect(matchCommand.run(["--out", path.join(dir, "typo")])).rejects.toThrow(/typo holds no match to resume/);
    expect(existsSync(path.join(dir, "typo"))).toBe(false);
    await expect(
      matchCommand.run(["--out", path.join(dir, "a"), "--engine", "/bin/true", "--nodes", "5", "--movetime", "9"]),
    ).rejects.toThrow(/give one of --nodes, --movetime/);
    await expect(matchCommand.run(["--out", path.join(dir, "b"), "--engine", "/bin/true", "--sprt", "5"])).rejects.toThrow(
      /--sprt wants ELO0,ELO1/,
    );
    await expect(
      matchCommand.run(["--out", path.join(dir, "c"), "--engine", "/bin/true", "--book1", path.join(dir, "missing.db")]),
    ).rejects.toThrow(/missing\.db: no such file/);
    await expect(matchCommand.run(["--out", path.join(dir, "d"), "--engine", "/bin/true", "--book-mode", "random"])).rejects.toThrow(
      /--book-mode must be best or weighted/,
    );
  });
});

describe("horu convert of a .db with an illegal move", () => {
  test("refuses it, naming the line and move, and writes nothing (a .ybb horu refused, a .sbk silently short)", async () => {
    const dir = tempDir();
    const src = path.join(dir, "illegal.db");
    writeFileSync(
      src,
      "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 0 0 32 1\n9a9b 1 2 3 4\n",
    );
    capture();
    for (const out of ["ill.ybb", "ill.sbk", "ill.bin"]) {
      await expect(convertCommand.run([src, path.join(dir, out)])).rejects.toThrow(
        /illegal\.db: line 4: 9a9b is not a legal move in lnsgkgsnl/,
      );
      expect(existsSync(path.join(dir, out))).toBe(false);
    }
  });
});

describe("a DB2016 book saved as UTF-16", () => {
  test("is refused as UTF-16 by convert and import, not read as lines of damage", async () => {
    const dir = tempDir();
    const text = readFileSync(path.join(TEST_DATA, "books", "book_yaneuraou.db"), "utf8");
    const src = path.join(dir, "wide.db");
    writeFileSync(src, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    capture();
    await expect(convertCommand.run([src, path.join(dir, "out.ybb")])).rejects.toThrow(
      /wide\.db: UTF-16 text \(a byte-order mark\), not UTF-8/,
    );
    const bare = path.join(dir, "bare.db");
    writeFileSync(bare, Buffer.from(text, "utf16le"));
    await expect(convertCommand.run([bare, path.join(dir, "out2.ybb")])).rejects.toThrow(/bare\.db: UTF-16 text, not UTF-8/);
    const { BookStore } = await import("../../store/book-store.js");
    const { importDb2016 } = await import("../../book/import.js");
    const store = BookStore.create(path.join(dir, "b.horu"));
    try {
      await expect(importDb2016(store, src)).rejects.toThrow(/wide\.db:1: UTF-16 text \(a byte-order mark\)/);
      expect(store.thoughts.count()).toBe(0);
    } finally {
      store.close();
    }
  });
});
