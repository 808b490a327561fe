import { describe, expect, it } from "vitest";
import { Game, parseOpenings, pointsFor } from "./game.js";
import { chooseBookMove, DEFAULT_BOOK_CHOICE } from "./book-choice.js";
import { rng } from "../util/rng.js";
import { BLACK, WHITE } from "../rules/types.js";

const noAdj = { maxPlies: 0, resignScore: 0, resignMoves: 0 };

describe("a match game under the rules core", () => {
  it("ends in mate when the side to move has no legal move", () => {
    // Fool's-mate-like: a gold drop mates a bare king in the corner.
    const g = new Game({ sfen: "8k/9/8G/9/9/9/9/9/K8 b G 1", moves: [] }, noAdj);
    expect(g.play({ usi: "G*1b", book: false, timeMs: 0 })).toEqual({ winner: BLACK, reason: "mate" });
  });

  it("fourfold repetition is a draw", () => {
    const g = new Game({ sfen: "startpos", moves: [] }, noAdj);
    const cycle = ["5i4h", "5a4b", "4h5i", "4b5a"];
    let r = null;
    for (let i = 0; i < 3 && !r; i++) for (const m of cycle) r = g.play({ usi: m, book: false, timeMs: 0 }) ?? r;
    expect(r).toEqual({ winner: null, reason: "repetition" });
    expect(g.played.length).toBe(12);
  });

  it("perpetual check loses for the checker", () => {
    // Black's rook checks the white king back and forth; the white king shuffles.
    const g = new Game({ sfen: "4k4/9/9/9/9/9/9/9/R3K4 b - 1", moves: [] }, noAdj);
    const cycle = ["5a5b", "9a9b", "5b5a", "9b9a"];
    let r = g.play({ usi: "9i9a", book: false, timeMs: 0 });
    for (const m of [...cycle, ...cycle, ...cycle, ...cycle]) {
      if (r) break;
      r = g.play({ usi: m, book: false, timeMs: 0 });
    }
    expect(r).toEqual({ winner: WHITE, reason: "perpetual-check" });
  });

  it("an illegal move loses, and a move cap draws", () => {
    const g = new Game({ sfen: "startpos", moves: ["7g7f"] }, noAdj);
    expect(g.play({ usi: "7g7f", book: false, timeMs: 0 })).toEqual({ winner: BLACK, reason: "illegal-move" });
    const c = new Game({ sfen: "startpos", moves: [] }, { maxPlies: 2, resignScore: 0, resignMoves: 0 });
    expect(c.play({ usi: "7g7f", book: false, timeMs: 0 })).toBeNull();
    expect(c.play({ usi: "3c3d", book: false, timeMs: 0 })).toEqual({ winner: null, reason: "max-moves" });
  });

  it("a false declaration loses, a true one wins", () => {
    expect(new Game({ sfen: "startpos", moves: [] }, noAdj).declare()).toEqual({ winner: WHITE, reason: "false-declaration" });
    // Black king in the white camp with 10+ pieces and 28+ points.
    const sfen = "K+R+B+P+P+P+P+P+P/1+P+P+P+P4/9/9/9/9/9/9/8k b RBGGGGSSSSNNNNLLLLPPPPPPPP 1";
    expect(new Game({ sfen, moves: [] }, noAdj).declare()).toEqual({ winner: BLACK, reason: "declaration" });
  });

  it("adjudicates when the loser's score stayed low and the winner agrees", () => {
    const g = new Game({ sfen: "startpos", moves: [] }, { maxPlies: 0, resignScore: 1000, resignMoves: 2 });
    const moves = ["7g7f", "3c3d", "2g2f", "4c4d"];
    const scores = [1500, -1200, 1600, -1300];
    let r = null;
    for (let i = 0; i < moves.length; i++) r = g.play({ usi: moves[i]!, book: false, score: scores[i], timeMs: 0 });
    expect(r).toEqual({ winner: BLACK, reason: "adjudication" });
    expect(pointsFor(r!, BLACK)).toBe(1);
    expect(pointsFor({ winner: null, reason: "repetition" }, WHITE)).toBe(0.5);
  });

  it("gives the position command the engines get", () => {
    const g = new Game({ sfen: "startpos", moves: ["7g7f"] }, noAdj);
    g.play({ usi: "3c3d", book: true, timeMs: 0 });
    expect(g.positionCommand()).toBe("startpos moves 7g7f 3c3d");
    expect(g.ply).toBe(2);
  });
});

describe("openings from an SFEN file", () => {
  it("reads startpos, sfen and bare lines, cuts moves, drops duplicates, names bad lines", () => {
    const text =
      "# c\nstartpos moves 7g7f 3c3d 2g2f\nstartpos moves 7g7f 3c3d 6g6f\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2\n";
    const o = parseOpenings(text, "x.sfen", 2);
    expect(o).toEqual([
      { sfen: "startpos", moves: ["7g7f", "3c3d"] },
      { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2", moves: [] },
    ]);
    expect(() => parseOpenings("startpos moves 7g7f\nstartpos moves 7g7f 7g7f\n", "y.sfen")).toThrow(/y\.sfen:2: .*"7g7f" is not legal/);
    expect(() => parseOpenings("\n# none\n", "z.sfen")).toThrow(/z\.sfen: no positions/);
  });

  it("a collection cut at a ply: move orders that transpose are one opening", () => {
    const text = [
      "startpos moves 7g7f 3c3d 2g2f 8c8d",
      "startpos moves 2g2f 3c3d 7g7f 8c8d 2f2e",
      "startpos moves 2g2f 8c8d 7g7f 3c3d",
    ].join("\n");
    // Cut at 4 plies all three reach the same position; at 3, two different ones.
    expect(parseOpenings(text, "c.sfen", 4)).toEqual([{ sfen: "startpos", moves: ["7g7f", "3c3d", "2g2f", "8c8d"] }]);
    expect(parseOpenings(text, "c.sfen", 3)).toHaveLength(2);
  });
});

describe("book move choice", () => {
  const moves = [
    { move: "7g7f", value: 50, count: 1 },
    { move: "2g2f", value: 40, count: 3 },
    { move: "5g5f", value: -100, count: 100 },
  ];
  it("best only, leave below a value, max ply", () => {
    expect(chooseBookMove(moves, 0, DEFAULT_BOOK_CHOICE, Math.random)?.move).toBe("7g7f");
    expect(chooseBookMove(moves, 0, { ...DEFAULT_BOOK_CHOICE, leaveBelow: 60 }, Math.random)).toBeUndefined();
    expect(chooseBookMove(moves, 10, { ...DEFAULT_BOOK_CHOICE, maxPly: 10 }, Math.random)).toBeUndefined();
  });
  it("weighted within a window by count", () => {
    const r = rng(7);
    const tally = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const m = chooseBookMove(moves, 0, { ...DEFAULT_BOOK_CHOICE, mode: "weighted", windowCp: 20 }, r)!.move;
      tally.set(m, (tally.get(m) ?? 0) + 1);
    }
    expect(tally.get("5g5f")).toBeUndefined();
    const share = tally.get("2g2f")! / 4000;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
  });
});
