import { describe, expect, it } from "vitest";
import { Position } from "../rules/position.js";
import { handBook, key } from "../testing/played-book.js";
import {
  accuracyByBand,
  coverageFigures,
  likelyReplies,
  mean,
  oracleNeeds,
  playedPositions,
  proportion,
  samplePositions,
  scorePositions,
  simulateCoverage,
  stabilityFigures,
  type OracleResult,
} from "./quality.js";

describe("quality: the positions a book plays into", () => {
  it("follows the book's best for its side and the opponent's likely replies for the other", () => {
    const played = playedPositions(handBook(), Position.startpos());
    const byKey = new Map(played.map((p) => [p.sfen, p]));
    const root = byKey.get(key(""))!;
    expect(root).toMatchObject({ ply: 0, side: 0, reach: 1, bookMove: "2g2f", bookValue: 50, engineMove: "7g7f", engineValue: 30 });
    expect(byKey.get(key("2g2f 8c8d"))).toMatchObject({ ply: 2, side: 0, reach: 0.5, bookMove: "2f2e" });
    expect(byKey.get(key("2g2f 3c3d"))).toMatchObject({ ply: 2, side: 0, reach: 0.5, bookMove: "7g7f", engineMove: "2f2e" });
    // White's side: black's likely replies at the root are 7g7f and 2g2f (within 50 of 30); only 2g2f is in the book.
    expect(byKey.get(key("2g2f"))).toMatchObject({ ply: 1, side: 1, reach: 0.5, bookMove: "8c8d" });
    expect(played).toHaveLength(4);
    expect(likelyReplies(handBook().lookup(key("2g2f"))!, { replyWindowCp: 50, maxReplies: 3 }).map((r) => r.move)).toEqual([
      "8c8d",
      "3c3d",
    ]);
  });

  it("samples the likeliest positions of each band", () => {
    const played = playedPositions(handBook(), Position.startpos());
    const s = samplePositions(played, 1);
    expect(s.map((p) => p.ply)).toEqual([0, 2]);
  });
});

describe("quality: accuracy against an oracle", () => {
  // The oracle: 7g7f is best at the root (+35); 2g2f is worth 10 (the position after it -10
  // for white); after 2g2f 3c3d the oracle prefers 2f2e (+40), 7g7f is worth -30; after
  // 2g2f 8c8d it agrees with the book (2f2e, +20).
  const oracle = new Map<string, OracleResult>([
    [key(""), { move: "7g7f", value: 35 }],
    [key("2g2f"), { move: "8c8d", value: -10 }],
    [key("2g2f 3c3d"), { move: "2f2e", value: 40 }],
    [key("2g2f 3c3d 7g7f"), { move: "4a3b", value: 30 }],
    [key("2g2f 8c8d"), { move: "2f2e", value: 20 }],
  ]);
  const look = (s: string) => oracle.get(s);

  it("asks for the positions after moves that are not the oracle's best", () => {
    const played = playedPositions(handBook(), Position.startpos()).filter((p) => p.side === 0);
    const partial = (s: string) => (s === key("") || s === key("2g2f 3c3d") ? oracle.get(s) : undefined);
    const need = oracleNeeds(played, partial).map((n) => n.sfen);
    expect(new Set(need)).toEqual(new Set([key("2g2f"), key("2g2f 8c8d"), key("2g2f 3c3d 7g7f")]));
    expect(oracleNeeds(played, look)).toEqual([]);
  });

  it("scores the book and the engine alone, by band and paired", () => {
    const played = playedPositions(handBook(), Position.startpos()).filter((p) => p.side === 0);
    const scored = scorePositions(played, look);
    expect(scored).toHaveLength(3);
    const rows = accuracyByBand(played, scored, 50);
    const first = rows.find((r) => r.band === "0-1")!;
    // Root: the book's 2g2f is not the oracle's best, 25 cp worse (within 50); the engine's 7g7f is.
    expect(first.book.best.value).toBe(0);
    expect(first.book.near.value).toBe(1);
    expect(first.book.loss.value).toBe(25);
    expect(first.book.valueError.value).toBe(15);
    expect(first.engine.best.value).toBe(1);
    expect(first.engine.valueError.value).toBe(-5);
    expect(first.gainBest.value).toBe(-1);
    const second = rows.find((r) => r.band === "2-3")!;
    // After 2g2f 8c8d both play 2f2e (best); after 2g2f 3c3d the book's 7g7f loses 70 cp, the engine's 2f2e is best.
    expect(second.book.best.value).toBe(0.5);
    expect(second.book.near.value).toBe(0.5);
    expect(second.book.loss.value).toBe(35);
    expect(second.engine.best.value).toBe(1);
    expect(second.gainLoss.value).toBe(-35);
    const all = rows.find((r) => r.band === "all")!;
    expect(all.book.best.n).toBe(3);
    expect(all.book.best.value).toBeCloseTo(1 / 3);
    expect(all.played).toBe(3);
  });

  it("intervals: Wilson for proportions, normal for means", () => {
    const p = proportion(8, 10);
    expect(p.lo).toBeCloseTo(0.4902, 3);
    expect(p.hi).toBeCloseTo(0.9433, 3);
    const m = mean([1, 2, 3, 4]);
    expect(m.value).toBe(2.5);
    expect(m.sd).toBeCloseTo(1.291, 3);
    expect(m.hi - m.value).toBeCloseTo((1.96 * 1.291) / 2, 3);
    expect(Number.isNaN(proportion(0, 0).value)).toBe(true);
  });
});

describe("quality: coverage and stability", () => {
  it("plays the book against the opponent's replies until the book's side has no move", async () => {
    // The opponent answers 2g2f with 8c8d in even runs, 3c3d in odd ones; after that the book has one
    // more move each (2f2e / 7g7f), then nothing. As white the book is out at once (the opponent's
    // 7g7f leads out of the book), or after one move when the opponent plays 2g2f.
    const reply = async (sfen: string, run: number): Promise<string | undefined> => {
      if (sfen === key("")) return run % 2 === 0 ? "2g2f" : "7g7f";
      if (sfen === key("2g2f")) return run % 2 === 0 ? "8c8d" : "3c3d";
      return "4a3b";
    };
    const runs = await simulateCoverage(handBook(), Position.startpos(), 4, reply);
    const black = runs.filter((r) => r.side === 0);
    expect(black.map((r) => r.bookMoves)).toEqual([2, 2, 2, 2]);
    expect(black.map((r) => r.plies)).toEqual([4, 4, 4, 4]);
    const white = runs.filter((r) => r.side === 1);
    expect(white.map((r) => r.bookMoves)).toEqual([1, 0, 1, 0]);
    const f = coverageFigures(runs);
    expect(f[0]!.plies.value).toBe(4);
    expect(f[1]!.bookMoves.value).toBe(0.5);
  });

  it("counts the root's moves and value range over the last results", () => {
    const s = stabilityFigures([
      { thought: 300, value: 20, move: "2g2f" },
      { thought: 100, value: 40, move: "7g7f" },
      { thought: 200, value: 10, move: "2g2f" },
      { thought: 400, value: 25, move: "2g2f" },
    ])!;
    expect(s).toMatchObject({ points: 4, span: 300, valueMin: 10, valueMax: 40, valueDrift: -15, moveChanges: 1 });
    expect(s.moves).toEqual([
      { move: "2g2f", points: 3 },
      { move: "7g7f", points: 1 },
    ]);
    expect(stabilityFigures([])).toBeUndefined();
  });
});
