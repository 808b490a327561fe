import { afterEach, describe, expect, test, vi } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { convertCommand } from "./convert.js";
import { matchCommand } from "./match.js";
import { UsageError } from "../command.js";
import { readBookFile } from "../../formats/book-files.js";
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
    const key = (f: string) =>
      readBookFile(f)
        .flatMap((b) => b.moves.map((m) => `${b.sfen} ${m.move} ${m.value}`))
        .sort();
    expect(key(path.join(dir, "a.db"))).toEqual(key(src));
    expect(JSON.parse(out.text().trim().split("\n").pop()!)).toMatchObject({ from: "sbk", to: "db", positions: 5 });
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
