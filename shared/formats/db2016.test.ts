import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareSfenBytes, Db2016Error, Db2016Reader, parseDb2016, writeDb2016, type Db2016Block } from "./db2016.js";

const BOOKS = fileURLToPath(new URL("./testdata/books/", import.meta.url));
const VARIANTS = ["book_yaneuraou.db", "book_yaneuraou-crlf.db", "book_yaneuraou-bom-crlf.db", "book_yaneuraou-no-header.db"];

describe("DB2016 reader on the sample books", () => {
  const parsed = VARIANTS.map((f) => parseDb2016(readFileSync(join(BOOKS, f), "utf8"), { strict: true }));

  it.each(VARIANTS.map((f, i) => [f, i] as const))("%s: 5 blocks, 18 moves, no errors", (_f, i) => {
    const { blocks, errors } = parsed[i];
    expect(errors).toEqual([]);
    expect(blocks.map((b) => b.moves.length)).toEqual([3, 4, 3, 5, 3]);
  });

  it("all variants read the same (apart from line numbers)", () => {
    const strip = (bs: Db2016Block[]) => bs.map((b) => ({ sfen: b.sfen, moves: b.moves.map(({ lineNo: _l, ...m }) => m) }));
    for (const p of parsed) expect(strip(p.blocks)).toEqual(strip(parsed[0].blocks));
  });

  it("reads fields, none, comments and ShogiHome's empty fields", () => {
    const [, , , startpos, last] = parsed[0].blocks;
    expect(startpos.sfen).toBe("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    expect(startpos.lineNo).toBe(17);
    // Comment lines after a move line are that move's, and so is a trailing one.
    expect(startpos.moves[0]).toEqual({
      move: "2g2f",
      ponder: "3c3d",
      value: 63,
      depth: 27,
      count: 935,
      lineNo: 18,
      comment: "multi line comment 1\nmulti line comment 2",
    });
    expect(startpos.moves[1]).toMatchObject({ move: "7g7f", ponder: null, value: 20, depth: 25, count: 6, comment: "single line comment" });
    expect(startpos.moves[2]!.comment).toBeUndefined();
    // Comment lines between the sfen line and the first move are the position's.
    expect(parsed[0].blocks[1]!.comment).toBe("position comment 1\nposition comment 2");
    expect(parsed[0].blocks[1]!.moves.every((m) => m.comment === undefined)).toBe(true);
    expect(startpos.comment).toBeUndefined();
    expect(parsed[0].blocks[0].moves[0]).toMatchObject({ move: "2b8h+", ponder: null, value: null, depth: null, count: 103 });
    // "7i6h none   8": value and depth empty, count 8.
    expect(last.moves[0]).toMatchObject({ move: "7i6h", value: null, depth: null, count: 8 });
    expect(parsed[0].reader.header).toBe("#YANEURAOU-DB2016 1.00");
    expect(parsed[3].reader.header).toBeNull();
  });
});

describe("DB2016 reader edge cases", () => {
  it("fields after the move are optional; NOE, // comments and blank lines", () => {
    const text = [
      "#YANEURAOU-DB2016 1.00",
      "# NOE:1",
      "",
      "// a comment",
      "sfen 4k4/9/9/9/9/9/9/9/4K4 b P",
      "P*5e",
      "5i5h None",
      "5i4h none -12 // trailing",
      "5i6h\tnone\t7\t3\t2",
    ].join("\n");
    const { blocks, errors, reader } = parseDb2016(text);
    expect(errors).toEqual([]);
    expect(reader.noe).toBe(1);
    expect(blocks).toEqual([
      {
        sfen: "4k4/9/9/9/9/9/9/9/4K4 b P",
        lineNo: 5,
        moves: [
          { move: "P*5e", ponder: null, value: null, depth: null, count: null, lineNo: 6 },
          { move: "5i5h", ponder: null, value: null, depth: null, count: null, lineNo: 7 },
          { move: "5i4h", ponder: null, value: -12, depth: null, count: null, lineNo: 8, comment: "trailing" },
          { move: "5i6h", ponder: null, value: 7, depth: 3, count: 2, lineNo: 9 },
        ],
      },
    ]);
  });

  it("reports malformed lines with their numbers and goes on", () => {
    const text = [
      "#YANEURAOU-DB2016 1.00", // 1
      "7g7f none 1 2 3", // 2: before any sfen
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", // 3
      "7g7f none abc 2 3", // 4: bad value
      "xx none 1", // 5: not a move
      "2g2f none 1 2 3 4", // 6: too many fields
      "5g5f none 1 2", // 7: fine
      "6g6f none 1 x", // 8: bad depth
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", // 9: 8 ranks
      "7g7f none 1", // 10: skipped with its bad block
      "sfen 9/9/9/9/9/9/9/9/9 x - 1", // 11: bad side
      "sfen 4k4/9/9/9/9/9/9/9/4K4 w - 1", // 12
      "resign", // 13: kept, the exporter ignores it
    ].join("\r\n");
    const { blocks, errors } = parseDb2016(text);
    expect(errors).toEqual([
      { line: 2, message: "move line before any 'sfen' line" },
      { line: 4, message: "value is not an integer: 'abc'" },
      { line: 5, message: "not a USI move: 'xx'" },
      { line: 6, message: "too many fields (6); expected 'move ponder value depth count'" },
      { line: 8, message: "depth is not an integer: 'x'" },
      { line: 9, message: "board field must have 9 ranks separated by '/', got 8", kind: "position" },
      { line: 11, message: 'side to move must be "b" or "w", got "x"', kind: "position" },
    ]);
    expect(blocks.map((b) => [b.lineNo, b.moves.map((m) => m.move)])).toEqual([
      [3, ["5g5f"]],
      [12, ["resign"]],
    ]);
  });

  it("strict mode throws at the first error, naming the line", () => {
    const text = "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\n5i5h none 1\n5i4h none 1.5\n5i6h none q";
    expect(() => parseDb2016(text, { strict: true })).toThrow(Db2016Error);
    expect(() => parseDb2016(text, { strict: true })).toThrow("line 3: value is not an integer: '1.5'");
  });

  it("incremental: blocks are handed over as soon as the next one starts", () => {
    const got: string[] = [];
    const r = new Db2016Reader((b) => got.push(b.sfen));
    r.push("\uFEFFsfen 4k4/9/9/9/9/9/9/9/4K4 b - 1\r", 1);
    r.push("5i5h", 2);
    expect(got).toEqual([]);
    r.push("sfen 4k4/9/9/9/9/9/9/9/4K4 w - 2", 3);
    expect(got).toEqual(["4k4/9/9/9/9/9/9/9/4K4 b - 1"]);
    r.end();
    expect(got).toHaveLength(2);
    expect(r.blockCount).toBe(2);
    expect(r.moveCount).toBe(1);
  });
});

describe("DB2016 writer", () => {
  it("sorts blocks byte-wise ('+' < digits < upper < lower), header and NOE first", () => {
    const blocks = [
      { sfen: "l8/9/9/9/9/9/9/9/9 b - 1", moves: [{ move: "1a1b", value: 5, depth: 2 }] },
      { sfen: "9/9/9/9/9/9/9/9/9 b - 1", moves: [] },
      { sfen: "+P8/9/9/9/9/9/9/9/9 b - 1", moves: [{ move: "9a9b", ponder: "1a1b", value: -3, depth: 1, count: 7 }] },
      { sfen: "L8/9/9/9/9/9/9/9/9 b - 1", moves: [{ move: "P*5e" }] },
    ];
    expect(writeDb2016(blocks)).toBe(
      [
        "#YANEURAOU-DB2016 1.00",
        "# NOE:4",
        "sfen +P8/9/9/9/9/9/9/9/9 b - 1",
        "9a9b 1a1b -3 1 7",
        "sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "sfen L8/9/9/9/9/9/9/9/9 b - 1",
        "P*5e none none none",
        "sfen l8/9/9/9/9/9/9/9/9 b - 1",
        "1a1b none 5 2",
        "",
      ].join("\n"),
    );
    // localeCompare would put "l" before "L" and "+" elsewhere; the byte order does not.
    expect(compareSfenBytes("L", "l")).toBeLessThan(0);
    expect(compareSfenBytes("+", "1")).toBeLessThan(0);
    expect(compareSfenBytes("a b", "a")).toBeGreaterThan(0);
    expect(compareSfenBytes("\uffff", "\u{10000}")).toBeLessThan(0);
  });

  it("round trip: read, write, read again gives the same blocks", () => {
    const text = readFileSync(join(BOOKS, "book_yaneuraou-bom-crlf.db"), "utf8");
    const a = parseDb2016(text, { strict: true }).blocks;
    const written = writeDb2016(a);
    const b = parseDb2016(written, { strict: true }).blocks;
    const strip = (bs: Db2016Block[]) =>
      bs.map((x) => ({ sfen: x.sfen, moves: x.moves.map(({ lineNo: _l, ...m }) => m) })).sort((x, y) => compareSfenBytes(x.sfen, y.sfen));
    expect(strip(b)).toEqual(strip(a));
    expect(writeDb2016(b)).toBe(written);
    expect(written.split("\n")[1]).toBe("# NOE:5");
  });
});

describe("DB2016 write back", () => {
  it("a ShogiHome book written back reads the same: order, none, counts, ponder moves and comments", () => {
    const src = parseDb2016(readFileSync(join(BOOKS, "book_yaneuraou.db"), "utf8"), { strict: true });
    const out = writeDb2016(
      src.blocks.map((b) => ({
        sfen: b.sfen,
        comment: b.comment,
        moves: b.moves.map((m) => ({ ...m })),
      })),
    );
    expect(out).toContain("2b8h+ none none none 103\n");
    expect(out).toContain(
      "sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/3P5/PPP1PPPPP/1BS4R1/LN1GKGSNL w - 1\n#position comment 1\n#position comment 2\n7a6b",
    );
    expect(out).toContain("2g2f 3c3d 63 27 935\n#multi line comment 1\n#multi line comment 2\n7g7f none 20 25 6\n#single line comment\n");
    const back = parseDb2016(out, { strict: true });
    const strip = (bs: Db2016Block[]) =>
      bs
        .map((b) => ({ sfen: b.sfen, comment: b.comment, moves: b.moves.map(({ lineNo: _l, ...m }) => m) }))
        .sort((a, b) => compareSfenBytes(a.sfen, b.sfen));
    expect(strip(back.blocks)).toEqual(strip(src.blocks));
    // The file's move order, not re-sorted by count or value.
    expect(back.blocks.find((b) => b.sfen.startsWith("lnsgkgsnl/1r7/"))!.moves.map((m) => m.move)).toEqual(["7i6h", "3g3f", "6i7h"]);
  });

  it("a header naming another version is an error on line 1 (strict: thrown)", () => {
    const text = "#YANEURAOU-DB2016 2.00\nsfen 4k4/9/9/9/9/9/9/9/4K4 b P 1\nP*5e none 1 2 3\n";
    const { errors, blocks } = parseDb2016(text);
    expect(errors).toEqual([
      { line: 1, message: "unknown book version '#YANEURAOU-DB2016 2.00': horu reads '#YANEURAOU-DB2016 1.00' books" },
    ]);
    expect(blocks).toHaveLength(1);
    expect(() => parseDb2016(text, { strict: true })).toThrow(Db2016Error);
    expect(parseDb2016("# my own notes\nsfen 4k4/9/9/9/9/9/9/9/4K4 b P 1\n").errors).toEqual([]);
    // The version is read as the header's second word: a comment after it is no other version.
    expect(parseDb2016("#YANEURAOU-DB2016 1.00  # note\nsfen 4k4/9/9/9/9/9/9/9/4K4 b P 1\n").errors).toEqual([]);
    expect(parseDb2016("#YANEURAOU-DB2016 2.00 # note\n").errors[0]?.message).toMatch(/^unknown book version '#YANEURAOU-DB2016 2.00':/);
  });
});
