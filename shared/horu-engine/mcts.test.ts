import { describe, expect, it } from "vitest";
import { Position } from "../rules/position.js";
import { moveToUsi } from "../rules/usi.js";
import { Mcts } from "./mcts.js";
import type { MctsResult } from "./mcts.js";
import { DEFAULT_HYBRID, decide } from "./hybrid.js";
import { Searcher } from "./search.js";
import { TranspositionTable } from "./tt.js";
import { VALUE_MATE } from "../rules/types.js";

describe("Monte-Carlo tree search (docs/DESIGN.md §11.2)", () => {
  it("plays only legal root moves, counts its playouts, and leaves the position as found", () => {
    const pos = Position.fromUsi("startpos moves 7g7f 3c3d");
    const before = pos.toSfen();
    const r = new Mcts({}, null, 1).run(pos, 400);
    expect(pos.toSfen()).toBe(before);
    expect(r.playouts).toBe(400);
    expect(pos.isLegal(r.best)).toBe(true);
    expect(r.moves.reduce((a, s) => a + s.visits, 0)).toBe(400);
    for (const s of r.moves) expect(s.rate).toBeGreaterThanOrEqual(0);
  });

  it("proves a mate in one through the tree and stops early", () => {
    const pos = Position.fromSfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    const r = new Mcts({}, null, 2).run(pos, 20000);
    expect(moveToUsi(r.best)).toBe("G*5b");
    expect(r.proven).toBe("win");
    expect(r.playouts).toBeLessThan(20000);
  });

  it("reads mates alpha-beta stored in the shared table", () => {
    const tt = new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(2)));
    const pos = Position.fromSfen("9/k8/9/+P8/9/9/9/9/4K4 b 2R 1");
    const ab = new Searcher(tt).search(pos, { depth: 4 });
    expect(ab.value).toBe(VALUE_MATE - 3);
    const r = new Mcts({}, tt, 3).run(pos, 3000);
    expect(r.proven).toBe("win");
    const after = pos.clone();
    after.doMove(r.best);
    // The move Monte-Carlo settled on is a mating one: alpha-beta confirms.
    const check = new Searcher(new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(1)))).search(after, { depth: 3 });
    expect(check.value).toBeLessThanOrEqual(-(VALUE_MATE - 2));
  });

  it("keeps rates near even in a level position (the best child is not the luckiest one-playout child)", () => {
    // Taking the maximum over every child, however few its playouts, drove all root rates
    // to about 0 at the start position, and the hybrid rule then handed every move over.
    const pos = Position.startpos();
    const r = new Mcts({}, null, 5).run(pos, 3000);
    const best = r.moves.find((s) => s.move === r.best)!;
    expect(best.rate).toBeGreaterThan(0.25);
    expect(best.rate).toBeLessThan(0.75);
    // The five most visited moves are the plausible ones: none of them looks lost.
    const top = [...r.moves].sort((a, b) => b.visits - a.visits).slice(0, 5);
    expect(top.reduce((a, s) => a + s.rate, 0) / top.length).toBeGreaterThan(0.2);
  });

  it("judges a node by its best child: a winning capture beats a move with a good average", () => {
    // Black can take a free rook; the search must prefer it after a few thousand playouts.
    const pos = Position.fromSfen("4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1");
    const r = new Mcts({}, null, 4).run(pos, 3000);
    expect(moveToUsi(r.best)).toBe("5h5e");
  });
});

describe("the hybrid final-move rule", () => {
  const stat = (best: number, playouts: number, rates: Record<number, number>): MctsResult => ({
    best,
    playouts,
    rate: rates[best] ?? 0.5,
    proven: null,
    moves: Object.entries(rates).map(([m, rate]) => ({ move: Number(m), visits: 40, rate })),
  });
  it("follows each rule", () => {
    const rules = DEFAULT_HYBRID;
    expect(decide({ move: 1, value: VALUE_MATE - 5 }, stat(2, 10000, { 1: 0.1, 2: 0.9 }), rules).move).toBe(1);
    expect(decide({ move: 1, value: 0 }, stat(2, 10, { 1: 0.1, 2: 0.9 }), rules).move).toBe(1);
    expect(decide({ move: 1, value: 0 }, stat(2, 10000, { 1: 0.1, 2: 0.9 }), rules).move).toBe(2);
    expect(decide({ move: 1, value: -1000 }, stat(2, 10000, { 1: 0.5, 2: 0.6 }), rules).move).toBe(2);
    expect(decide({ move: 1, value: 100 }, stat(2, 10000, { 1: 0.5, 2: 0.6 }), rules).move).toBe(1);
    expect(decide({ move: 1, value: 0 }, stat(2, 10000, { 1: 0.1, 2: 0.9 }), { ...rules, lowWinRate: 0 }).move).toBe(1);
    expect(decide({ move: 1, value: VALUE_MATE - 5 }, stat(2, 10000, { 1: 0.1, 2: 0.9 }), { ...rules, mateWins: false }).move).toBe(2);
    // Rates with too few visits behind them do not count.
    expect(decide({ move: 1, value: 0 }, stat(2, 10000, { 1: 0.1, 2: 0.9 }), { ...rules, minVisits: 41 }).move).toBe(1);
    expect(decide({ move: 1, value: -1000 }, stat(2, 10000, { 1: 0.5, 2: 0.6 }), { ...rules, minVisits: 41 }).move).toBe(1);
  });
});
