import { describe, expect, test } from "vitest";
import { formatSfenKey, normalizeSfen, parseSfen, withMoveNumber } from "./sfen.js";
import { Position } from "./position.js";

describe("formats SFEN helpers", () => {
  test("gives a book's three-field key its move number and keeps one that is there", () => {
    expect(withMoveNumber("4k4/9/9/9/9/9/9/9/4K4 w 2P")).toBe("4k4/9/9/9/9/9/9/9/4K4 w 2P 1");
    expect(withMoveNumber(" 4k4/9/9/9/9/9/9/9/4K4 b - 37 ")).toBe("4k4/9/9/9/9/9/9/9/4K4 b - 37");
  });

  test("normalizes hand order and drops the ply", () => {
    expect(normalizeSfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")).toBe(
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
    );
    expect(normalizeSfen("4k4/9/9/9/9/9/9/9/4K4 w p2PbGr12P 7")).toBe("4k4/9/9/9/9/9/9/9/4K4 w G14Prbp");
  });

  test("rejects malformed SFEN with a message", () => {
    for (const bad of [
      "",
      "9/9/9 b -",
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x -",
      "10/9/9/9/9/9/9/9/9 b -",
      "9/9/9/9/9/9/9/9/+K8 b -",
      "9/9/9/9/9/9/9/9/9 b 19P",
      "9/9/9/9/9/9/9/9/9 b 3",
    ]) {
      expect(typeof parseSfen(bad), bad).toBe("string");
    }
  });

  test("formatSfenKey is the rules core's sfenKey on random games", () => {
    let seed = 99;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let g = 0; g < 20; g++) {
      const pos = Position.startpos();
      for (let ply = 0; ply < 150; ply++) {
        const moves = pos.legalMoves();
        if (!moves.length) break;
        pos.doMove(moves.find((m) => pos.board[m & 127] !== 0 && rand(2) === 0) ?? moves[rand(moves.length)]);
        expect(formatSfenKey(pos.board, pos.hands, pos.side)).toBe(pos.sfenKey());
        expect(normalizeSfen(pos.toSfen())).toBe(pos.sfenKey());
      }
    }
  });
});
