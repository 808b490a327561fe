// Benchmarks of horu's engine: search speed (`horu bench engine`) and the quiescence
// measurement of quiescence move generation (`horu bench quiescence`).
import { Position } from "../../shared/rules/position.js";
import type { Move } from "../../shared/rules/types.js";
import { VALUE_MATE, matedIn } from "../../shared/rules/types.js";
import { Searcher } from "../../shared/horu-engine/search.js";
import type { QuiescenceChecks } from "../../shared/horu-engine/search.js";
import { TranspositionTable } from "../../shared/horu-engine/tt.js";
import { Mcts } from "../../shared/horu-engine/mcts.js";
import { evaluate } from "../../shared/horu-engine/eval.js";
import { see } from "../../shared/horu-engine/attacks.js";
import { progress } from "../../shared/horu-engine/eval.js";
import { threatProbability } from "../../shared/horu-engine/threat.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { continuedGames, phaseOf } from "../engines/horu/positions.js";

const newTT = (mb: number) => new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(mb)));

const BENCH_POSITIONS = [
  "startpos",
  "startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 7b8b 4i5h 9c9d",
  "sfen ln1g3nl/1r1sk1g2/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL b Bb 19",
  "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
];

/** Alpha-beta nodes/s and Monte-Carlo playouts/s, each for `seconds` per position. */
export function benchEngine(seconds: number, print: (s: string) => void): void {
  let nodes = 0,
    ms = 0,
    playouts = 0,
    pms = 0;
  for (const text of BENCH_POSITIONS) {
    const pos = Position.fromUsi(text);
    const s = new Searcher(newTT(64));
    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    const r = s.search(pos, { stop: () => performance.now() > deadline });
    const dt = performance.now() - t0;
    nodes += s.nodes;
    ms += dt;
    const m = new Mcts();
    const t1 = performance.now();
    const deadline2 = t1 + seconds * 1000;
    const mr = m.run(pos, Infinity, () => performance.now() > deadline2);
    const dt2 = performance.now() - t1;
    playouts += mr.playouts;
    pms += dt2;
    print(
      `${text.slice(0, 60).padEnd(60)}  alpha-beta depth ${r.depth}, ${Math.round((s.nodes * 1000) / dt).toLocaleString("en")} nodes/s; Monte-Carlo ${Math.round((mr.playouts * 1000) / dt2).toLocaleString("en")} playouts/s`,
    );
  }
  print(
    `alpha-beta: ${Math.round((nodes * 1000) / ms).toLocaleString("en")} nodes/s; Monte-Carlo: ${Math.round((playouts * 1000) / pms).toLocaleString("en")} playouts/s (one thread each)`,
  );
}

/** Full-width alpha-beta to `depth` with the static evaluation at the leaves: the reference. */
class FullWidth {
  nodes = 0;
  private bufs: Uint16Array[] = [];
  search(pos: Position, depth: number, alpha: number, beta: number, ply = 0): number {
    this.nodes++;
    if (depth === 0) return evaluate(pos);
    while (this.bufs.length <= ply) this.bufs.push(new Uint16Array(600));
    const buf = this.bufs[ply];
    const n = pos.generateLegal(buf);
    if (n === 0) return matedIn(ply);
    // Captures first (by SEE) so the cut-offs come early; the result does not depend on it.
    const moves: Move[] = Array.from(buf.subarray(0, n));
    const key = (m: Move) => (((m >> 7) & 127) < 81 && pos.board[m & 127] !== 0 ? 100000 + see(pos.board, m, pos.side) : 0);
    moves.sort((a, b) => key(b) - key(a));
    let best = -VALUE_MATE - 1;
    for (const m of moves) {
      pos.doMove(m);
      const v = -this.search(pos, depth - 1, -beta, -alpha, ply + 1);
      pos.undoMove();
      if (v > best) best = v;
      if (v > alpha) alpha = v;
      if (alpha >= beta) break;
    }
    return best;
  }
}

type Variant = { name: string; qChecks: QuiescenceChecks; standPatOnly?: boolean };
const VARIANTS: Variant[] = [
  { name: "Eval (no search)", qChecks: "none", standPatOnly: true },
  { name: "captures + promotions", qChecks: "none" },
  { name: "+ all checks", qChecks: "all" },
  { name: "+ threat checks", qChecks: "threat" },
];

interface Acc {
  n: number;
  sum: number;
  sq: number;
  nodes: number;
}

/**
 * The measurement of docs/DESIGN.md §11.3: on positions from record openings continued by self-play, each
 * quiescence variant limited to `depth` plies against a full-width search of the same
 * depth: mean and variance of the value difference, and nodes, by game phase.
 */
export function benchQuiescence(o: { games: number; depth: number; every: number; print: (s: string) => void }): void {
  const { print } = o;
  const games = continuedGames(o.games, 2024);
  const positions: Array<{ pos: Position; phase: string; rootThreat: boolean }> = [];
  let rootThreats = 0;
  for (const g of games) {
    for (const gp of g) {
      if (gp.ply < 16 || gp.ply % o.every !== 0) continue;
      const pos = Position.fromUsi(gp.usi);
      if (pos.legalMoves().length === 0) continue;
      // The side to move's own last move in the game, two plies back: did it threaten mate?
      const before = Position.fromUsi(g[gp.ply - 2].usi);
      const last = parseUsiMove(g[gp.ply - 2].next)!;
      const captured = ((last >> 7) & 127) < 81 ? before.board[last & 127] & 15 : 0;
      const after = Position.fromUsi(g[gp.ply - 1].usi);
      const rootThreat = threatProbability(after, last, captured, progress(after)) >= 0.5;
      if (rootThreat) rootThreats++;
      positions.push({ pos, phase: phaseOf(gp.ply), rootThreat });
    }
  }
  const phases = ["opening", "middle", "end", "all"];
  const acc = new Map<string, Acc>();
  const get = (v: string, p: string) => {
    const k = `${v}|${p}`;
    if (!acc.has(k)) acc.set(k, { n: 0, sum: 0, sq: 0, nodes: 0 });
    return acc.get(k)!;
  };
  const clampV = (v: number) => Math.max(-5000, Math.min(5000, v));
  const counts: Record<string, number> = {};
  const t0 = performance.now();
  for (const { pos, phase, rootThreat } of positions) {
    counts[phase] = (counts[phase] ?? 0) + 1;
    const fw = new FullWidth();
    const ref = clampV(fw.search(pos, o.depth, -VALUE_MATE - 1, VALUE_MATE + 1));
    for (const p of [phase, "all"]) get("Full width", p).nodes += fw.nodes;
    for (const v of VARIANTS) {
      const s = new Searcher(newTT(1), { qChecks: v.qChecks, qCheckPlies: o.depth });
      const value = clampV(s.quiescenceOnly(pos, v.standPatOnly ? 0 : o.depth, rootThreat));
      for (const p of [phase, "all"]) {
        const a = get(v.name, p);
        a.n++;
        a.sum += value - ref;
        a.sq += (value - ref) ** 2;
        a.nodes += s.nodes;
      }
    }
  }
  counts.all = positions.length;
  print(
    `${positions.length} positions (opening ${counts.opening ?? 0}, middle ${counts.middle ?? 0}, end ${counts.end ?? 0}) from ${o.games} record openings continued by self-play; ${rootThreats} after a predicted threat; full-width depth ${o.depth}; values clamped to +-5000; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  print("");
  print(`| variant | phase | positions | mean diff | variance | std. dev. | nodes |`);
  print(`|---|---|---:|---:|---:|---:|---:|`);
  for (const v of [...VARIANTS.map((x) => x.name), "Full width"]) {
    for (const p of phases) {
      const a = get(v, p);
      if (v === "Full width") {
        print(`| ${v} depth ${o.depth} | ${p} | ${counts[p] ?? 0} | - | - | - | ${a.nodes.toLocaleString("en")} |`);
        continue;
      }
      if (a.n === 0) continue;
      const mean = a.sum / a.n,
        variance = a.sq / a.n - mean * mean;
      print(
        `| ${v} | ${p} | ${a.n} | ${mean.toFixed(1)} | ${Math.round(variance).toLocaleString("en")} | ${Math.sqrt(variance).toFixed(1)} | ${a.nodes.toLocaleString("en")} |`,
      );
    }
  }
}
