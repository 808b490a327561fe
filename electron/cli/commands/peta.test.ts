import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { petaCommand, petaFile } from "./peta.js";
import { makeSyntheticBook } from "../../../shared/synth/synth-book.js";
import { moveToUsi } from "../../../shared/rules/usi.js";
import { rng } from "../../../shared/util/rng.js";
import { UsageError } from "../command.js";
import { parseDb2016, writeDb2016 } from "../../../shared/formats/db2016.js";
import { exportPetaShock } from "../../../shared/export/export.js";

const BOOK = [
  "#YANEURAOU-DB2016 1.00",
  "sfen 4k4/9/9/9/9/9/P8/9/4K4 b - 1",
  "5i5h none 0",
  "9g9f none -100",
  "sfen 4k4/9/9/9/9/9/P8/4K4/9 w - 2",
  "5a5b none 0",
  "5a4a none -100",
  "sfen 9/4k4/9/9/9/9/P8/4K4/9 b - 3",
  "5h5i none 0",
  "9g9f none -100",
  "sfen 9/4k4/9/9/9/9/P8/9/4K4 w - 4",
  "5b5a none 0",
  "5b4b none -100",
];

describe("horu peta", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "horu-peta-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const quiet = () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    return { out, err, restore: () => (out.mockRestore(), err.mockRestore()) };
  };

  it("streams a BOM+CRLF book through the export; same text as the library", async () => {
    const input = join(dir, "in.db");
    const output = join(dir, "out.db");
    writeFileSync(input, "\uFEFF" + BOOK.join("\r\n") + "\r\n");
    const io = quiet();
    try {
      expect(await petaCommand.run([input, output, "--draw-black", "-50", "--draw-white", "30", "--json"])).toBe(0);
      const last = String(io.out.mock.calls.at(-1)?.[0]);
      expect(JSON.parse(last)).toMatchObject({ positions: 4, moves: 8, writtenPositions: 4, writtenMoves: 8 });
    } finally {
      io.restore();
    }
    const expected = writeDb2016(exportPetaShock(parseDb2016(BOOK.join("\n")).blocks, { drawBlack: -50, drawWhite: 30 }).blocks, {
      presorted: true,
    });
    expect(readFileSync(output, "utf8")).toBe(expected);
    expect(expected).toContain("5i5h none -50 9999");
  });

  it("names the file and line of a malformed line (--strict), or skips it with a warning", async () => {
    const input = join(dir, "bad.db");
    writeFileSync(input, BOOK.slice(0, 3).join("\n") + "\n5i4h none x\n");
    const io = quiet();
    try {
      await expect(petaCommand.run([input, join(dir, "o.db"), "--strict"])).rejects.toThrow(`${input}:4: value is not an integer: 'x'`);
      expect(await petaCommand.run([input, join(dir, "o.db")])).toBe(0);
      expect(io.err.mock.calls.map((c) => String(c[0])).join("")).toContain(`${input}:4: value is not an integer: 'x' (skipped)`);
    } finally {
      io.restore();
    }
  });

  it("refuses a file that is no DB2016 book, and keeps the output it would have replaced", async () => {
    const good = join(dir, "keep.db");
    writeFileSync(good, BOOK.join("\n") + "\n");
    const before = readFileSync(good, "utf8");
    const binary = join(dir, "random.bin");
    writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 73 + 11) % 256)));
    const horuBook = join(dir, "a.horu");
    writeFileSync(horuBook, "SQLite format 3\0" + "x".repeat(2000) + "\n" + "y".repeat(300) + "\n");
    const v2 = join(dir, "v2.db");
    writeFileSync(v2, ["#YANEURAOU-DB2016 2.00", ...BOOK.slice(1)].join("\n") + "\n");
    const io = quiet();
    try {
      for (const input of [binary])
        await expect(petaCommand.run([input, good, "--force"])).rejects.toThrow(
          new RegExp(
            `^${input.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not a YaneuraOu DB2016 book: no position read, .* nothing written$`,
          ),
        );
      // An SQLite file is said to be one (peta-not-db.test.ts), with horu export for a horu book.
      await expect(petaCommand.run([horuBook, good, "--force"])).rejects.toThrow(
        `${horuBook}: an SQLite database (a horu book, or another program's), not a YaneuraOu DB2016 text book`,
      );
      await expect(petaCommand.run([v2, good, "--force"])).rejects.toThrow(`${v2}:1: unknown book version '#YANEURAOU-DB2016 2.00'`);
    } finally {
      io.restore();
    }
    expect(readFileSync(good, "utf8")).toBe(before);
    // A book with a header and no position is a book: converted, empty.
    const empty = join(dir, "empty.db");
    writeFileSync(empty, "#YANEURAOU-DB2016 1.00\n");
    const io2 = quiet();
    try {
      expect(await petaCommand.run([empty, join(dir, "empty-out.db")])).toBe(0);
    } finally {
      io2.restore();
    }
  });

  it("reports a missing file and bad arguments", async () => {
    await expect(petaCommand.run([join(dir, "nope.db"), join(dir, "never-written.db")])).rejects.toThrow(
      `${join(dir, "nope.db")}: no such file`,
    );
    await expect(petaCommand.run(["a.db"])).rejects.toThrow(UsageError);
    await expect(petaCommand.run(["a.db", "b.db", "--draw-black"])).rejects.toThrow(UsageError);
    await expect(petaCommand.run(["a.db", "b.db", "--frobnicate"])).rejects.toThrow(UsageError);
  });

  it("reads and writes in pieces, on one thread or two: the same output as the library on sorted and shuffled books", async () => {
    const book = makeSyntheticBook(3000, 5);
    const blocks = book.sfens.map((sfen, i) => {
      const moves = [];
      for (let j = book.moveStart[i]; j < book.moveStart[i + 1]; j++)
        moves.push({ move: moveToUsi(book.moves[j]), ponder: null, value: book.values[j], depth: 20, count: 1 });
      // "none" and duplicate lines that must be ignored (and comments, below).
      return { sfen, moves: i % 7 ? moves : [...moves, { move: "none", value: 5 }, moves[0]] };
    });
    const r = rng(3);
    const shuffled = blocks
      .map((b) => ({ b, k: r() }))
      .sort((x, y) => x.k - y.k)
      .map((x) => x.b);
    // Each half in order, the second half first: on two threads each part may be sorted while the whole is not.
    const sortedText = writeDb2016(blocks);
    const header = sortedText.slice(0, sortedText.indexOf("\nsfen ") + 1);
    const body = sortedText.slice(header.length);
    const mid = body.indexOf("\nsfen ", body.length >> 1) + 1;
    const swapped = header + body.slice(mid) + body.slice(0, mid);
    for (const [name, input] of [
      ["sorted", sortedText],
      ["shuffled", writeDb2016(shuffled, { presorted: true }).replace(/\n/g, "  # note\r\n")],
      ["swapped", swapped],
    ] as const) {
      const file = join(dir, `${name}.db`);
      writeFileSync(file, input);
      const expected = writeDb2016(exportPetaShock(parseDb2016(input).blocks).blocks, { presorted: true });
      for (const threads of [1, 2] as const) {
        for (const chunkBytes of [1000, 65536]) {
          const out = join(dir, `${name}-${chunkBytes}-${threads}.out.db`);
          const got = await petaFile({ input: file, output: out, chunkBytes, threads });
          expect(got.threads).toBe(threads);
          expect(got.sorted, name).toBe(name === "sorted");
          expect(got.positions).toBe(3000);
          expect(readFileSync(out, "utf8"), `${name}, pieces of ${chunkBytes} bytes, ${threads} threads`).toBe(expected);
        }
      }
    }
  });

  it("two threads: malformed lines of both parts named by their lines in the whole file; strict stops at the second part's", async () => {
    const book = makeSyntheticBook(400, 9);
    const lines = ["#YANEURAOU-DB2016 1.00"];
    const bad: number[] = [];
    book.sfens.forEach((sfen, i) => {
      lines.push(`sfen ${sfen}`);
      for (let j = book.moveStart[i]; j < book.moveStart[i + 1]; j++) lines.push(`${moveToUsi(book.moves[j])} none ${book.values[j]} 20 1`);
      if (i === 50 || i === 350) {
        lines.push(`${moveToUsi(book.moves[book.moveStart[i]])} none x 20 1`);
        bad.push(lines.length);
      }
    });
    const file = join(dir, "bad-parts.db");
    writeFileSync(file, lines.join("\n") + "\n");
    const expected = writeDb2016(exportPetaShock(parseDb2016(lines.join("\n")).blocks).blocks, { presorted: true });
    for (const threads of [1, 2] as const) {
      const out = join(dir, `bad-parts-${threads}.out.db`);
      const got = await petaFile({ input: file, output: out, threads, chunkBytes: 4096 });
      expect(got.threads).toBe(threads);
      expect(got.malformedLines).toBe(2);
      expect(got.errors).toEqual(bad.map((line) => ({ line, message: "value is not an integer: 'x'" })));
      expect(readFileSync(out, "utf8")).toBe(expected);
    }
    // Strict: the first part is clean up to line bad[1] only when the first error is gone.
    lines.splice(bad[0] - 1, 1);
    writeFileSync(file, lines.join("\n") + "\n");
    await expect(petaFile({ input: file, output: join(dir, "never.db"), threads: 2, strict: true })).rejects.toThrow(
      `${file}:${bad[1] - 1}: value is not an integer: 'x'`,
    );
  });

  it("says when the worker script is missing", async () => {
    const file = join(dir, "w.db");
    writeFileSync(file, BOOK.concat(BOOK.slice(1)).join("\n") + "\n");
    await expect(
      petaFile({ input: file, output: join(dir, "w-out.db"), threads: 2, workerFile: join(dir, "no-worker.cjs") }),
    ).rejects.toThrow("no-worker.cjs is missing");
  });
});
