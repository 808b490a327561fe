import { describe, expect, it } from "vitest";
import { movesNotation, lineNotation, lineText, moveNotation, kifPosition } from "./notation.js";
import { parseRecordText } from "./kifu.js";

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
const LINE = ["7g7f", "3c3d", "8h2b+", "3a2b"];

describe("the notation players read", () => {
  it("writes moves with ▲/△, 同 for a recapture, and USI for a move that is not legal", () => {
    expect(lineNotation(START, LINE)).toEqual(["▲７六歩", "△３四歩", "▲２二角成", "△同\u3000銀"]);
    expect(lineNotation("startpos", ["2g2f"])).toEqual(["▲２六歩"]);
    expect(moveNotation(START, "5e5d")).toBe("5e5d");
    expect(lineNotation(START, ["7g7f", "7g7f", "3c3d"])).toEqual(["▲７六歩", "7g7f", "3c3d"]);
    expect(movesNotation(START, ["7g7f", "2h7h", "1a1b"])).toEqual(["▲７六歩", "▲７八飛", "1a1b"]);
  });
});

describe("copying a line or a position", () => {
  it("KIF, KI2 and CSA are records with the moves that read back to the same line", () => {
    const kif = lineText("kif", START, LINE);
    expect(kif).toContain("２二角成(88)");
    expect(kif).toMatch(/4 同\u3000銀\(31\)/);
    expect(lineText("ki2", START, LINE)).toContain("▲７六歩    △３四歩    ▲２二角成  △同\u3000銀");
    const csa = lineText("csa", START, LINE);
    expect(csa).toContain("+8822UM");
    for (const [text, name] of [
      [kif, "a.kif"],
      [lineText("ki2", START, LINE), "a.ki2"],
      [csa, "a.csa"],
    ] as const) {
      const r = parseRecordText(text, name);
      expect(r.errors, name).toEqual([]);
      expect(r.games[0].moves, name).toEqual(LINE);
    }
  });

  it("USI is a position command, SFEN the position reached with its move number", () => {
    expect(lineText("usi", START, LINE)).toBe("position startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    expect(lineText("sfen", START, LINE)).toBe("sfen lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5");
    expect(lineText("sfen", START, [])).toBe(`sfen ${START} 1`);
    const mid = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    expect(lineText("usi", mid, ["2g2f"])).toBe(`position sfen ${mid} moves 2g2f`);
    expect(lineText("sfen", mid, ["2g2f"])).toMatch(/ w - 4$/);
    // A position alone: a KIF with its board diagram and no moves.
    expect(lineText("kif", mid, [])).toBe(kifPosition(mid));
    expect(lineText("kif", mid, [])).toContain("後手の持駒");
  });
});
