import { describe, expect, it } from "vitest";
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { VALUE_MATE } from "../rules/types.js";
import { Searcher } from "./search.js";
import type { QuiescenceChecks } from "./search.js";
import { TranspositionTable, BOUND_LOWER } from "./tt.js";
import { MateSearch } from "./mate.js";
import { see } from "./attacks.js";
import { N_FEATURES, evalWeights, evaluate, evaluateBlack, features } from "./eval.js";
import { samplePositions } from "../testing/random-play.js";
import { usiScore } from "./info.js";

const newSearcher = (opts = {}) => new Searcher(new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(4))), opts);

// Mate problems, black to move, with no shorter mate (found by a random generator and
// checked here by two different searches: the checks-only mate search and alpha-beta).
const MATES: Array<{ sfen: string; plies: number }> = [
  { sfen: "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", plies: 1 },
  { sfen: "8k/9/8P/9/9/9/9/9/4K4 b G 1", plies: 1 },
  { sfen: "9/k8/9/+P8/9/9/9/9/4K4 b 2R 1", plies: 3 },
  { sfen: "7k1/9/7B1/6+R2/6Ss1/9/9/9/4K4 b R 1", plies: 3 },
  { sfen: "3kS4/3g5/9/2L6/5+B3/9/9/9/4K4 b R 1", plies: 5 },
  { sfen: "7k1/9/5+P3/8S/8+R/9/9/9/4K4 b L 1", plies: 5 },
];

describe("mate search and alpha-beta on mate problems", () => {
  for (const p of MATES) {
    it(`mate in ${p.plies}: ${p.sfen}`, () => {
      const pos = Position.fromSfen(p.sfen);
      const ms = new MateSearch(2_000_000);
      const line = ms.solve(pos, 7)!;
      expect(line).not.toBeNull();
      expect(line.length).toBe(p.plies);
      // The line is a real mate: legal moves ending with no legal reply.
      const q = pos.clone();
      for (const m of line) {
        expect(q.isLegal(m)).toBe(true);
        q.doMove(m);
      }
      expect(q.legalMoves().length).toBe(0);
      expect(q.inCheck()).toBe(true);
      // Alpha-beta finds a mate at least as short (its first move need not check), and its
      // PV is that mate.
      const r = newSearcher().search(pos, { depth: p.plies + 1 });
      const n = VALUE_MATE - r.value;
      expect(n % 2).toBe(1);
      expect(n).toBeLessThanOrEqual(p.plies);
      expect(usiScore(r.value)).toBe(`mate ${n}`);
      const after = pos.clone();
      for (const m of r.lines[0].pv) {
        expect(after.isLegal(m)).toBe(true);
        after.doMove(m);
      }
      expect(r.lines[0].pv.length).toBe(n);
      expect(after.legalMoves().length).toBe(0);
      expect(pos.toSfen()).toBe(Position.fromSfen(p.sfen).toSfen());
    });
  }

  it("reports no mate where there is none, and a mated side's value", () => {
    const pos = Position.startpos();
    expect(new MateSearch().solve(pos, 3)).toBeNull();
    const mated = Position.fromSfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    expect(mated.legalMoves().length).toBe(0);
    const r = newSearcher().search(mated, { depth: 3 });
    expect(r.best).toBe(0);
    expect(r.value).toBe(-VALUE_MATE);
  });
});

describe("alpha-beta", () => {
  it("returns a legal move, a PV of legal moves, and leaves the position untouched", () => {
    for (const pos of samplePositions(12, 5)) {
      if (pos.legalMoves().length === 0) continue;
      const before = pos.toSfen();
      const r = newSearcher().search(pos, { depth: 3 });
      expect(pos.toSfen()).toBe(before);
      expect(pos.isLegal(r.best)).toBe(true);
      const q = pos.clone();
      for (const m of r.lines[0].pv) {
        expect(q.isLegal(m), `${moveToUsi(m)} in ${q.toSfen()}`).toBe(true);
        q.doMove(m);
      }
    }
  });

  it("MultiPV gives distinct root moves, best first, the first equal to a single-PV search's value", () => {
    const pos = Position.fromUsi("startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    const r = newSearcher({ multiPV: 4 }).search(pos, { depth: 3 });
    expect(r.lines.length).toBe(4);
    expect(new Set(r.lines.map((l) => l.move)).size).toBe(4);
    for (let i = 1; i < r.lines.length; i++) expect(r.lines[i].value).toBeLessThanOrEqual(r.lines[i - 1].value);
    const single = newSearcher().search(pos, { depth: 3 });
    expect(r.lines[0].value).toBe(single.value);
    // Black must take back the bishop's worth: B*... is in hand, and the value says so.
    expect(r.lines[0].value).toBeGreaterThan(-300);
  });

  it("takes a hanging rook", () => {
    const pos = Position.fromSfen("4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1");
    const r = newSearcher().search(pos, { depth: 2 });
    expect(moveToUsi(r.best)).toBe("5h5e");
    expect(r.value).toBeGreaterThan(1000);
  });

  it("stops on the node limit and on the stop callback, keeping the last full iteration", () => {
    const pos = Position.startpos();
    const s = newSearcher();
    const r = s.search(pos, { nodes: 3000 });
    expect(r.depth).toBeGreaterThanOrEqual(1);
    expect(s.nodes).toBeLessThan(3000 + 1100);
    let calls = 0;
    const r2 = newSearcher().search(pos, { stop: () => ++calls > 2 });
    expect(pos.isLegal(r2.best)).toBe(true);
  });

  it("searchmoves restricts the root", () => {
    const pos = Position.startpos();
    const only = parseUsiMove("9g9f")!;
    const r = newSearcher().search(pos, { depth: 2, searchMoves: [only] });
    expect(r.best).toBe(only);
  });
});

describe("quiescence variants (docs/DESIGN.md §11.3)", () => {
  const variants: QuiescenceChecks[] = ["none", "threat", "all"];
  it("checks add nodes, and a check that mates is seen only by the variants that generate it", () => {
    const pos = Position.fromSfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    const values: Record<string, number> = {};
    const nodes: Record<string, number> = {};
    for (const v of variants) {
      const s = newSearcher({ qChecks: v, threatThreshold: v === "threat" ? 0 : 0.5 });
      values[v] = s.quiescenceOnly(pos, 4);
      nodes[v] = s.nodes;
    }
    expect(values.all).toBe(VALUE_MATE - 1);
    expect(values.none).toBeLessThan(5000);
    expect(nodes.all).toBeGreaterThan(nodes.none);
  });

  it("the threat variant generates checks only two plies after a predicted threat", () => {
    const pos = Position.fromUsi("startpos moves 7g7f 3c3d 2g2f 8c8d");
    const never = newSearcher({ qChecks: "threat", threatThreshold: 1.01 });
    const always = newSearcher({ qChecks: "threat", threatThreshold: 0 });
    const none = newSearcher({ qChecks: "none" });
    const all = newSearcher({ qChecks: "all" });
    const r = [never, always, none, all].map((s) => s.search(pos.clone(), { depth: 3 }));
    expect(never.nodes).toBe(none.nodes);
    expect(r[0].value).toBe(r[2].value);
    expect(always.threatAsked).toBeGreaterThan(0);
    expect(always.threatSaid).toBe(always.threatAsked);
    expect(never.threatSaid).toBe(0);
  });
});

describe("evaluation and exchange", () => {
  it("evaluate is material + weights . features, antisymmetric under colour flip", () => {
    const f = new Float64Array(N_FEATURES);
    const w = evalWeights();
    for (const pos of samplePositions(30, 3)) {
      const mat = features(pos, f);
      let v = mat;
      for (let i = 0; i < N_FEATURES; i++) v += w[i] * f[i];
      expect(evaluateBlack(pos)).toBeCloseTo(v, 6);
      const twin = pos.flipped();
      expect(evaluate(twin)).toBe(evaluate(pos));
    }
  });

  it("SEE: a defended pawn is not worth a rook, an undefended one is", () => {
    const pos = Position.fromSfen("4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1");
    const take = parseUsiMove("5h5d")!;
    expect(see(pos.board, take, 0)).toBeLessThan(0);
    const free = Position.fromSfen("4k4/9/9/4p4/9/9/9/4R4/4K4 b - 1");
    expect(see(free.board, take, 0)).toBeGreaterThan(0);
  });

  it("the transposition table keeps what it is given", () => {
    const tt = new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(1)));
    tt.store(0x12345678, 0x9abcdef0, 1234, -567, 7, BOUND_LOWER, 89);
    const hit = { move: 0, value: 0, depth: 0, bound: 0, eval: 0 };
    expect(tt.probe(0x12345678, 0x9abcdef0, hit)).toBe(true);
    expect(hit).toEqual({ move: 1234, value: -567, depth: 7, bound: BOUND_LOWER, eval: 89 });
    expect(tt.probe(0x12345679, 0x9abcdef0, hit)).toBe(false);
  });
});
