import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseRecordFile, parseRecordText, type ParsedGame } from "./kifu.js";
import { Position } from "../rules/position.js";
import Encoding from "encoding-japanese";
import { randomGameLines } from "../testing/random-play.js";

const DATA = fileURLToPath(new URL("./testdata/", import.meta.url));
const read = (rel: string): Uint8Array => new Uint8Array(readFileSync(DATA + rel));

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/** Replays a line with the rules core: the listed positions must be what the moves give. */
function checkMainLine(g: ParsedGame): void {
  const pos = Position.fromSfen(g.start);
  expect(g.positions[0]).toBe(pos.sfenKey());
  g.moves.forEach((m, i) => {
    const mv = pos.legalMoves().find((x) => moveText(x) === m);
    expect(mv, `move ${i + 1} ${m}`).toBeDefined();
    pos.doMove(mv!);
    if (i + 1 < g.positions.length && g.plies[i + 1] === i + 1) expect(g.positions[i + 1]).toBe(pos.sfenKey());
  });
}
const moveText = (m: number): string => {
  const sq = (s: number): string => `${Math.floor(s / 9) + 1}${"abcdefghi"[s % 9]}`;
  const from = (m >> 7) & 127;
  return from >= 81 ? `${" PLNSBRG"[from - 80]}*${sq(m & 127)}` : sq(from) + sq(m & 127) + (m & 16384 ? "+" : "");
};

interface Expect {
  format: string;
  encoding: string;
  moves: number;
  positions: number;
  first: string;
  result?: string;
  ending?: string;
  branches?: number;
  start?: string;
}

// Counts written literally (by inspection of each file; conversion_input_kif-sjis.kif,
// kif_fork.kif and ki2_20091203.ki2 were also read move by move by hand).
const FILES: { [file: string]: Expect } = {
  "book_source-with-score_src01.kifu": {
    format: "kif",
    encoding: "utf-8",
    moves: 10,
    positions: 11,
    first: "7g7f 8c8d 2h6h 3c3d 6g6f 8d8e 8h7g 7a6b 1g1f 5a4b",
  },
  "book_source_src01.ki2": {
    format: "ki2",
    encoding: "shift_jis",
    moves: 10,
    positions: 11,
    first: "2g2f 8c8d 7g7f 8d8e 8h7g 3c3d 7i8h 4a3b 6i7h 2b7g+",
  },
  "book_source_src03.csa": {
    format: "csa",
    encoding: "utf-8",
    moves: 10,
    positions: 11,
    first: "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 3i3h 7a7b 9g9f 9c9d",
  },
  "conversion_input_csa-sjis.csa": {
    format: "csa",
    encoding: "shift_jis",
    moves: 20,
    positions: 21,
    first: "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 5i5h 5a5b 7g7f 8e8f",
  },
  "conversion_input_kif-sjis.kif": {
    format: "kif",
    encoding: "shift_jis",
    moves: 6,
    positions: 7,
    first: "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b",
    result: "white",
    ending: "resign",
  },
  "conversion_input_kifu-utf8.kifu": {
    format: "kif",
    encoding: "utf-8",
    moves: 19,
    positions: 20,
    first: "2g2f 3c3d 7g7f 5c5d 3i4h 8b5b 5i6h 5d5e 6h7h 3a4b",
  },
  "csa_v2.csa": {
    format: "csa",
    encoding: "utf-8",
    moves: 196,
    positions: 197,
    first: "7g7f 8c8d 5g5f 8d8e 8h7g 7a6b 3i4h 3c3d 6g6f 3a3b",
    result: "white",
    ending: "resign",
  },
  "ki2_20091203.ki2": {
    format: "ki2",
    encoding: "shift_jis",
    moves: 172,
    positions: 173,
    first: "7g7f 8c8d 7i6h 3c3d 6g6f 7a6b 5g5f 6c6d 6i7h 6b6c",
    result: "white",
    ending: "resign",
  },
  "ki2_8mai.ki2u": {
    format: "ki2",
    encoding: "utf-8",
    moves: 25,
    positions: 26,
    first: "6a7b 7g7f 4a3b 2g2f 6c6d 2f2e 6d6e 2e2d 2c2d 2h2d",
    ending: "interrupt",
    start: "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
  },
  "kif_fork.kif": {
    format: "kif",
    encoding: "shift_jis",
    moves: 3,
    positions: 15,
    first: "7g7f 3c3d 2g2f",
    result: "black",
    ending: "resign",
    branches: 7,
  },
  "kif_shogidokoro.kifu": {
    format: "kif",
    encoding: "utf-8",
    moves: 19,
    positions: 20,
    first: "R*5b G*3b B*3a 2b3a 5a4b 3b4b N*4c 3a2b 5b4b+ R*3b",
    start: "4+B2n1/7k1/6pp1/7gp/4P3P/9/9/9/9 b RBSNr3g3s2n4l13p 1",
  },
};

describe("game record files in testdata/kifu", () => {
  for (const [file, e] of Object.entries(FILES)) {
    test(file, () => {
      const r = parseRecordFile(read("kifu/" + file), file);
      expect(r.errors).toEqual([]);
      expect(r.format).toBe(e.format);
      expect(r.encoding).toBe(e.encoding);
      expect(r.games).toHaveLength(1);
      const g = r.games[0];
      expect(g.moves).toHaveLength(e.moves);
      expect(g.positions).toHaveLength(e.positions);
      expect(g.plies).toHaveLength(e.positions);
      expect(g.moves.slice(0, 10).join(" ")).toBe(e.first);
      expect(g.result).toBe(e.result);
      expect(g.ending).toBe(e.ending);
      expect(g.branches).toBe(e.branches ?? 0);
      expect(g.start).toBe(e.start ?? START);
      checkMainLine(g);
    });
  }

  test("conversion_input_kif-sjis.kif: final position read by hand", () => {
    const g = parseRecordFile(read("kifu/conversion_input_kif-sjis.kif"), "conversion_input_kif-sjis.kif").games[0];
    // ２六歩 ８四歩 ２五歩 ８五歩 ７八金(69) ３二金(41), then black resigns (まで6手で後手の勝ち).
    expect(g.positions[6]).toBe("lnsgk1snl/1r4gb1/p1ppppppp/9/1p5P1/9/PPPPPPP1P/1BG4R1/LNS1KGSNL b -");
  });

  test("kif_fork.kif: every variation, its own ending and result", () => {
    const g = parseRecordFile(read("kifu/kif_fork.kif"), "kif_fork.kif").games[0];
    const lines = g.variations.map((v) => `${v.startPly}:${v.moves.join(",")}:${v.ending}:${v.result ?? "-"}`);
    expect(lines.sort()).toEqual([
      "0:2g2f,3c3d,2f2e:foulWin:white", // 変化1手, 反則勝ち by white (まで3手で後手の反則勝ち)
      "1:8c8d,2f2e:mate:black", // 変化2手 inside the 2g2f line, 詰み
      "1:8c8d,7i6h:impass:draw", // 変化2手, 持将棋
      "2:2g2f:timeout:black", // 変化3手, 切れ負け (先手の勝ち)
      "2:7f7e:interrupt:-", // 変化3手, 中断
      "2:7g7f:noMate:-", // 不詰
      "2:7g7f:repetitionDraw:draw", // 千日手
    ]);
    // Variation positions follow the main line's 4 and each start from a listed position.
    expect(g.positions.length).toBe(4 + 11);
    for (const v of g.variations) expect(g.positions).toContain(v.parentKey);
  });

  test("book_source_src05.sfen: two position lines", () => {
    const r = parseRecordFile(read("kifu/book_source_src05.sfen"), "book_source_src05.sfen");
    expect(r.format).toBe("usi");
    expect(r.errors).toEqual([]);
    expect(r.games.map((g) => g.moves.join(" "))).toEqual(["7g7f 7a6b 2h7h 5c5d 7i6h", "7g7f 2c2d 2g2f 3c3d 5i6h 5c5d"]);
    expect(r.games.map((g) => g.positions.length)).toEqual([6, 7]);
    expect(r.games.map((g) => g.line)).toEqual([1, 2]);
  });

  test("root_sfens.txt: comments skipped, the one uncommented root read", () => {
    const r = parseRecordFile(read("positions/root_sfens.txt"), "root_sfens.txt");
    expect(r.format).toBe("usi");
    expect(r.errors).toEqual([]);
    // The file's only non-comment line is "startpos" (its other examples are commented out).
    expect(r.games).toHaveLength(1);
    expect(r.games[0].start).toBe(START);
    expect(r.games[0].moves).toEqual([]);
  });

  test("a collection of 10,000 `startpos moves` lines of 24 plies", () => {
    const text = randomGameLines(10_000, 24, 7);
    const bytes = new TextEncoder().encode(text);
    const t0 = performance.now();
    const r = parseRecordFile(bytes, "collection.sfen");
    const ms = performance.now() - t0;
    console.log(`collection: parsed ${r.games.length} games in ${ms.toFixed(0)} ms`);
    expect(r.errors).toEqual([]);
    expect(r.format).toBe("usi");
    expect(r.games).toHaveLength(10_000);
    const plies = text
      .trim()
      .split("\n")
      .reduce((a, l) => a + l.split(" ").length - 2, 0);
    expect(r.games.reduce((a, g) => a + g.moves.length, 0)).toBe(plies);
    expect(r.games.every((g) => g.positions.length === g.moves.length + 1)).toBe(true);
    // Spot check one game against the rules core.
    checkMainLine(r.games[5000]);
    expect(r.games[9999].line).toBe(10_000);
  });
});

describe("mixed USI line forms and errors", () => {
  test("startpos, position sfen, bare SFEN with and without ply, moves", () => {
    const text = [
      "# comment",
      "startpos",
      "position startpos moves 7g7f 3c3d",
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f",
      "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 5g5f",
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 3",
      "",
      "startpos moves 7g7f 3c3d 8h2b+ resign",
    ].join("\r\n");
    const r = parseRecordText(text, "roots.txt");
    expect(r.errors).toEqual([]);
    expect(r.games.map((g) => g.moves.length)).toEqual([0, 2, 1, 1, 0, 3]);
    expect(r.games[4].start).toBe("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 3");
    expect(r.games[5].positions[3]).toBe("lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B");
    expect(r.games.map((g) => g.line)).toEqual([2, 3, 4, 5, 6, 8]);
  });

  test("an illegal move keeps the game's legal prefix and names line and move", () => {
    const r = parseRecordText("startpos moves 7g7f 3c3d 7f7e\nstartpos moves 7g7f 7g7f\nsfen bogus b - moves 7g7f\n", "x.sfen");
    expect(r.games.map((g) => g.moves.length)).toEqual([3, 1]);
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toMatchObject({ file: "x.sfen", line: 2 });
    expect(r.errors[0].message).toMatch(/move 2 "7g7f" is illegal/);
    expect(r.errors[1]).toMatchObject({ file: "x.sfen", line: 3 });
  });

  test("empty files", () => {
    for (const name of ["e.kif", "e.csa", "e.sfen", "e.jkf"]) {
      const r = parseRecordText(" \r\n", name);
      expect(r.games).toEqual([]);
      expect(r.errors).toEqual([{ file: name, message: "empty file" }]);
    }
  });

  test("not a record", () => {
    const r = parseRecordText("hello world", "notes.txt");
    expect(r.games).toEqual([]);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0].file).toBe("notes.txt");
  });

  test("CSA with several games separated by /", () => {
    const game = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    const r = parseRecordText(game + "/\n" + game + "/\n" + "V2.2\nPI\n+\n+2726FU\n", "multi.csa");
    expect(r.errors).toEqual([]);
    expect(r.games.map((g) => [g.moves.join(" "), g.result, g.line])).toEqual([
      ["7g7f 3c3d", "white", 1],
      ["7g7f 3c3d", "white", 8],
      ["2g2f", undefined, 15],
    ]);
  });

  test("CSA V3.0 in Shift_JIS with its 'CSA encoding= header, millisecond times, floodgate comments", () => {
    const v3 =
      "'CSA encoding=SHIFT_JIS\nV3.0\nN+先手\nN-後手\n$TIME_LIMIT:600+10+0\nPI\n+\n+7776FU,T1.234\n'** 35 -3334FU\n-3334FU,T0.5\n+2726FU\n-8384FU\n%TORYO,T3.0\n";
    const bytes = new Uint8Array(Encoding.convert(Encoding.stringToCode(v3), { to: "SJIS", from: "UNICODE" }));
    const r = parseRecordFile(bytes, "v3.csa");
    expect(r.encoding).toBe("shift_jis");
    expect(r.format).toBe("csa");
    expect(r.errors).toEqual([]);
    expect(r.games[0].moves).toEqual(["7g7f", "3c3d", "2g2f", "8c8d"]);
    expect(r.games[0].result).toBe("white");
  });

  test("a KI2 file named .kif is read as KI2", () => {
    const r = parseRecordText("手合割：平手\n▲７六歩 △３四歩 ▲２二角成 △同　銀\nまで4手で先手の勝ち\n", "mislabelled.kif");
    expect(r.format).toBe("ki2");
    expect(r.games[0].moves).toEqual(["7g7f", "3c3d", "8h2b+", "3a2b"]);
  });

  test("JKF and USEN", () => {
    const jkf = JSON.stringify({
      header: {},
      initial: { preset: "HIRATE" },
      moves: [{}, { move: { from: { x: 7, y: 7 }, to: { x: 7, y: 6 }, color: 0, piece: "FU" } }, { special: "TORYO" }],
    });
    const r = parseRecordText(jkf, "g.jkf");
    expect(r.errors).toEqual([]);
    expect(r.format).toBe("jkf");
    expect(r.games[0].moves).toEqual(["7g7f"]);
    expect(r.games[0].result).toBe("black");
    const usen = parseRecordText("~0.7ku2jm6y236e5t24be9qc.", "g.usen");
    expect(usen.format).toBe("usen");
    expect(usen.errors).toEqual([]);
    expect(usen.games[0].moves.length).toBeGreaterThan(0);
  });
});

describe("error locations", () => {
  test("an illegal move tsshogi lets through is cut and located (KIF, KI2, CSA)", () => {
    const kif = parseRecordText(
      "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角成(88)\n",
      "x.kif",
    );
    expect(kif.games[0].moves).toEqual(["7g7f", "3c3d"]);
    expect(kif.errors).toEqual([{ file: "x.kif", line: 5, message: expect.stringMatching(/move 3 "8h5e\+" is illegal/) }]);
    const ki2 = parseRecordText("手合割：平手\n▲７六歩 △３四歩\n▲２六歩 △８八角成\n", "x.ki2");
    expect(ki2.games[0].moves).toEqual(["7g7f", "3c3d", "2g2f", "2b8h+"]);
    const csa = parseRecordText("V2.2\nPI\n+\n+7776FU\n-3334FU\n/\nV2.2\nPI\n+\n+7776FU,T1\n-8384FU\n+9999XX\n", "x.csa");
    // The game tsshogi gives up on at its line 12 keeps the moves before it.
    expect(csa.games.map((g) => g.moves)).toEqual([
      ["7g7f", "3c3d"],
      ["7g7f", "8c8d"],
    ]);
    expect(csa.errors).toEqual([
      { file: "x.csa", line: 12, message: expect.stringMatching(/XX.*; the record is read up to the line before$/) },
    ]);
  });

  test("a move tsshogi cannot read that also stands earlier, played legally: the record is kept up to the later one", () => {
    const csa = parseRecordText("V2.2\nPI\n+\n+7776FU\n-3334FU\n+7776FU\n-8384FU\n", "again.csa");
    expect(csa.games.map((g) => g.moves)).toEqual([["7g7f", "3c3d"]]);
    expect(csa.errors).toEqual([
      { file: "again.csa", line: 6, message: expect.stringMatching(/7776FU.*; the record is read up to the line before$/) },
    ]);
  });

  test("a record tsshogi gives up on at a later move names the illegal move that caused it, and keeps the moves before", () => {
    // Move 12 (a silver from 4b to 9i) is no silver move; tsshogi lets it through and gives up
    // at move 14, whose silver is then not on 3c: the record was dropped whole at line 21.
    const text = new TextDecoder().decode(read("kifu/conversion_input_kifu-utf8.kifu")).replace("  12 ３三銀(42)", "  12 ９九銀(42)");
    const r = parseRecordText(text, "bad.kifu");
    expect(r.games).toHaveLength(1);
    expect(r.games[0].moves).toHaveLength(11);
    expect(r.errors.map((e) => [e.line, e.message.slice(0, 40)])).toEqual([
      [19, 'game 1: main line move 12 "4b9i" is ille'],
      [21, expect.stringMatching(/^Invalid move: +14 ４四銀\(33\)/)],
    ]);
  });

  test("a KIF move line tsshogi passes over is named first, with its line: unreadable, or numbered out of turn", () => {
    const garbage = parseRecordText(
      "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 xyzzy\n   3 ２六歩(27)\n",
      "g.kif",
    );
    expect(garbage.errors[0]).toEqual({ file: "g.kif", line: 4, message: expect.stringMatching(/move 2 "xyzzy" is not a move/) });
    // A move whose square is damaged after its first digit (a byte lost in an encoding) was let
    // through as an ending, and the record said "variation move 4 ... is illegal" at the next move.
    const damaged = parseRecordText(
      "手合割：平手\n手数----指手---------消費時間--\n   1 ２六歩(27)\n   2 ８四歩(83)\n   3 ２五歩(26)\n   4 ８%%歩(84)\n   5 ７八金(69)\n",
      "d.kif",
    );
    expect(damaged.errors[0]).toEqual({ file: "d.kif", line: 6, message: expect.stringMatching(/move 4 "８%%歩\(84\)" is not a move/) });
    const undecoded = parseRecordText(
      "手合割：平手\n手数----指手---------消費時間--\n   1 \ufffd\ufffd六歩(77)\n   2 ３四歩(33)\n",
      "u.kif",
    );
    expect(undecoded.errors[0]).toEqual({
      file: "u.kif",
      line: 3,
      message: expect.stringMatching(/move 1 "\ufffd\ufffd六歩\(77\)" is not a move/),
    });
    const marked = parseRecordText("手合割：平手\n手数----指手---------消費時間--\n   1 ▲７x六歩(77)\n   2 ３四歩(33)\n", "m.kif");
    expect(marked.errors[0]).toEqual({ file: "m.kif", line: 3, message: expect.stringMatching(/move 1 "▲７x六歩\(77\)" is not a move/) });
    const skipped = parseRecordText(
      "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   5 ２五歩(26)\n",
      "s.kif",
    );
    expect(skipped.errors[0]).toEqual({ file: "s.kif", line: 6, message: expect.stringMatching(/move number 5 follows 3/) });
    // A whole record, an ending and a variation: nothing said.
    const fine = parseRecordText(
      "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n\n変化：2手\n   2 ８四歩(83)\n",
      "f.kif",
    );
    expect(fine.errors).toEqual([]);
  });
});
