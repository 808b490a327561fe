import { describe, expect, it } from "vitest";
import { SfenError, STARTPOS_SFEN } from "./sfen.js";
import { UsiPositionError, formatUsiPosition, parseUsiPosition } from "./usi-position.js";

const GOLD_MATE = "4k4/9/9/9/9/9/9/9/4K4 b G 7";

describe("USI position arguments", () => {
  it("reads startpos, sfen and bare SFENs, with and without moves and the word position", () => {
    expect(parseUsiPosition("startpos")).toEqual({ start: "startpos", moves: [] });
    expect(parseUsiPosition("position startpos moves 7g7f 3c3d")).toEqual({ start: "startpos", moves: ["7g7f", "3c3d"] });
    expect(parseUsiPosition(`  sfen ${GOLD_MATE} moves G*5b `)).toEqual({ start: GOLD_MATE, moves: ["G*5b"] });
    expect(parseUsiPosition("4k4/9/9/9/9/9/9/9/4K4 w -   moves 5a4a")).toEqual({ start: "4k4/9/9/9/9/9/9/9/4K4 w -", moves: ["5a4a"] });
    expect(parseUsiPosition("startpos moves")).toEqual({ start: "startpos", moves: [] });
  });

  it("keeps the first maxMoves moves and does not read past them", () => {
    expect(parseUsiPosition("startpos moves 7g7f 3c3d resign", 2)).toEqual({ start: "startpos", moves: ["7g7f", "3c3d"] });
    expect(parseUsiPosition("startpos moves 7g7f", 0)).toEqual({ start: "startpos", moves: [] });
  });

  it("writes startpos as is and an SFEN after 'sfen' with its move number", () => {
    expect(formatUsiPosition({ start: "startpos", moves: [] })).toBe("startpos");
    expect(formatUsiPosition({ start: "startpos", moves: ["7g7f", "8c8d"] })).toBe("startpos moves 7g7f 8c8d");
    expect(formatUsiPosition({ start: "4k4/9/9/9/9/9/9/9/4K4 b G", moves: [] })).toBe("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1");
    expect(formatUsiPosition({ start: GOLD_MATE, moves: ["G*5b"] })).toBe(`sfen ${GOLD_MATE} moves G*5b`);
  });

  it("round trips: what it writes reads back the same, and writing again changes nothing", () => {
    for (const text of [
      "startpos",
      "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
      `sfen ${STARTPOS_SFEN}`,
      `sfen ${GOLD_MATE} moves G*5b`,
      "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2P3p 12 moves 8c8d",
    ]) {
      const p = parseUsiPosition(text);
      expect(formatUsiPosition(p)).toBe(text);
      expect(parseUsiPosition(formatUsiPosition(p))).toEqual(p);
    }
    // A bare SFEN gains "sfen" and a move number once, then stays.
    const once = formatUsiPosition(parseUsiPosition("4k4/9/9/9/9/9/9/9/4K4 b G moves G*5b"));
    expect(once).toBe("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b");
    expect(formatUsiPosition(parseUsiPosition(once))).toBe(once);
  });

  it("says what is wrong with text that is not a position", () => {
    const bad: [string, RegExp][] = [
      ["", /needs "startpos" or an SFEN, got nothing/],
      ["position", /got nothing/],
      ["moves 7g7f", /needs "startpos" or an SFEN before "moves"/],
      ["b - moves 7g7f", /SFEN needs "<board> <side> <hands> \[ply\]", got 2 field/],
      ["startpos 7g7f", /"startpos" takes only "moves \.\.\." after it, got "7g7f"/],
      ["sfen", /"sfen" needs an SFEN after it/],
      ["sfen 4k4/9/9 b - 1", /9 ranks/],
      ["4k4/9/9/9/9/9/9/9/4K4 x - 1", /side to move must be "b" or "w", got "x"/],
      ["startpos moves 7g7f 7g7", /move 2 "7g7" is not a USI move/],
      [`sfen ${GOLD_MATE} moves G*5j`, /move 1 "G\*5j" is not a USI move/],
    ];
    for (const [text, message] of bad) {
      expect(() => parseUsiPosition(text), text).toThrow(message);
      expect(() => parseUsiPosition(text), text).toThrow(UsiPositionError);
    }
    // Callers that catch SFEN errors catch these too.
    expect(() => parseUsiPosition("sfen")).toThrow(SfenError);
  });
});
