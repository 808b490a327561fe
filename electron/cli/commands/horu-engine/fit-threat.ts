// Fits the mate-threat (詰めろ) predictor. Positions come from record openings
// continued by self-play (electron/engines/horu/positions.ts). For each position the move played
// and a few other legal moves are labelled by the mate search: a quiet move is a threat when,
// if the defender passed, the mover would mate within 3 plies; a check is a threat when
// every evasion allows a mate in 1. The predictor is a logistic regression over the
// features of shared/horu-engine/threat.ts (maximum likelihood with a small L2 penalty).
import { parseArgs } from "node:util";
import path from "node:path";
import { Position } from "../../../../shared/rules/position.js";
import { MateSearch, MateBudgetExceeded } from "../../../../shared/horu-engine/mate.js";
import { N_THREAT, THREAT_FEATURES, threatFeatures } from "../../../../shared/horu-engine/threat.js";
import { progress } from "../../../../shared/horu-engine/eval.js";
import { rng } from "../../../../shared/util/rng.js";
import { wholeNumber } from "../../command.js";
import { continuedGames } from "../../../engines/horu/positions.js";
import { writeWeights } from "./fit-eval.js";
import type { Move } from "../../../../shared/rules/types.js";

/** 1: the move (just made, pos after it) threatens mate; 0: it does not; null: undecided within the budget. */
export function threatLabel(pos: Position, move: Move, budget = 20000): 0 | 1 | null {
  void move;
  const ms = new MateSearch(budget);
  try {
    if (pos.inCheck()) return ms.defend(pos, 2) ? 1 : 0;
    // The defender passes: the mover moves again.
    const passed = Position.fromParts(pos.board, pos.hands, (pos.side ^ 1) as 0 | 1);
    return ms.attack(passed, 3) !== 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof MateBudgetExceeded) return null;
    throw e;
  }
}

export interface ThreatSample {
  x: Float64Array;
  y: number;
}

export function threatSamples(games: number, seed: number, othersPerPosition = 3, log: (s: string) => void = () => {}): ThreatSample[] {
  const r = rng(seed + 1);
  const out: ThreatSample[] = [];
  const gamesList = continuedGames(games, seed);
  let n = 0;
  for (const game of gamesList) {
    for (const gp of game) {
      if (gp.ply < 20) continue;
      const pos = Position.fromUsi(gp.usi);
      const legal = pos.legalMoves();
      const chosen = new Set<Move>();
      const played = legal.find((m) => moveUsi(m) === gp.next);
      if (played !== undefined) chosen.add(played);
      for (let k = 0; k < othersPerPosition && legal.length; k++) chosen.add(legal[Math.floor(r() * legal.length)]);
      const phase = progress(pos);
      for (const m of chosen) {
        const captured = ((m >> 7) & 127) < 81 ? pos.board[m & 127] & 15 : 0;
        pos.doMove(m);
        const y = threatLabel(pos, m);
        if (y !== null) {
          const x = new Float64Array(N_THREAT);
          threatFeatures(pos, m, captured, phase, x);
          out.push({ x, y });
        }
        pos.undoMove();
      }
    }
    if (++n % 10 === 0) log(`  ${n}/${gamesList.length} games, ${out.length} labelled moves, ${out.filter((s) => s.y).length} threats`);
  }
  return out;
}

function moveUsi(m: number): string {
  const RANKS = "abcdefghi",
    DROPS = " PLNSBRG";
  const to = m & 127,
    from = (m >> 7) & 127;
  const sq = (s: number) => String(Math.floor(s / 9) + 1) + RANKS[s % 9];
  if (from >= 81) return DROPS[from - 80] + "*" + sq(to);
  return sq(from) + sq(to) + (m & 16384 ? "+" : "");
}

export interface ThreatFit {
  weights: number[];
  train: number;
  test: number;
  positives: number;
  accuracy: number;
  /** Share of real threats the predictor calls threats (the seed's "true positive"). */
  truePositive: number;
  /** Share of non-threats it calls non-threats. */
  trueNegative: number;
}

/** Logistic regression with class weights balancing threats and non-threats. */
export function fitLogistic(samples: ThreatSample[], iters = 600, lambda = 1e-3): ThreatFit {
  const nTest = Math.floor(samples.length / 5);
  const test = samples.slice(0, nTest),
    train = samples.slice(nTest);
  const pos = train.filter((s) => s.y === 1).length;
  const wPos = pos > 0 ? train.length / (2 * pos) : 1,
    wNeg = train.length / (2 * Math.max(1, train.length - pos));
  const w = new Float64Array(N_THREAT);
  const m1 = new Float64Array(N_THREAT),
    m2 = new Float64Array(N_THREAT),
    g = new Float64Array(N_THREAT);
  for (let it = 1; it <= iters; it++) {
    g.fill(0);
    for (const s of train) {
      let z = 0;
      for (let i = 0; i < N_THREAT; i++) z += w[i] * s.x[i];
      const p = 1 / (1 + Math.exp(-z));
      const d = (p - s.y) * (s.y ? wPos : wNeg);
      for (let i = 0; i < N_THREAT; i++) g[i] += d * s.x[i];
    }
    for (let i = 0; i < N_THREAT; i++) {
      const gi = g[i] / train.length + (i > 0 ? lambda * w[i] : 0);
      m1[i] = 0.9 * m1[i] + 0.1 * gi;
      m2[i] = 0.999 * m2[i] + 0.001 * gi * gi;
      w[i] -= (0.05 * (m1[i] / (1 - 0.9 ** it))) / (Math.sqrt(m2[i] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  let tp = 0,
    fn = 0,
    tn = 0,
    fp = 0;
  for (const s of test) {
    let z = 0;
    for (let i = 0; i < N_THREAT; i++) z += w[i] * s.x[i];
    const said = z >= 0;
    if (s.y && said) tp++;
    else if (s.y) fn++;
    else if (said) fp++;
    else tn++;
  }
  return {
    weights: Array.from(w, (x) => Math.round(x * 1e4) / 1e4),
    train: train.length,
    test: test.length,
    positives: samples.filter((s) => s.y).length,
    accuracy: (tp + tn) / Math.max(1, test.length),
    truePositive: tp / Math.max(1, tp + fn),
    trueNegative: tn / Math.max(1, tn + fp),
  };
}

export async function fitThreatCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { games: { type: "string" }, out: { type: "string" }, seed: { type: "string" } } });
  const games = wholeNumber("games", values.games, 1) ?? 120;
  const seed = wholeNumber("seed", values.seed, 0) ?? 11;
  const say = (s: string) => process.stdout.write(s + "\n");
  const t0 = performance.now();
  say(`labelling moves of ${games} record openings continued by self-play (mate search: 3 plies after a pass)`);
  const samples = threatSamples(games, seed, 3, say);
  // Shuffle so the held-out fifth is not one block of games.
  const r = rng(seed + 2);
  for (let i = samples.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [samples[i], samples[j]] = [samples[j], samples[i]];
  }
  const fit = fitLogistic(samples);
  say(
    `${samples.length} labelled moves, ${fit.positives} threats; held out ${fit.test}: accuracy ${(100 * fit.accuracy).toFixed(1)}%, threats found ${(100 * fit.truePositive).toFixed(1)}%, non-threats found ${(100 * fit.trueNegative).toFixed(1)}%`,
  );
  for (let i = 0; i < N_THREAT; i++) say(`  ${fit.weights[i].toFixed(4).padStart(9)}  ${THREAT_FEATURES[i]}`);
  const out = values.out ?? path.resolve("shared", "horu-engine", "weights.ts");
  writeWeights(out, "THREAT_WEIGHTS", fit.weights);
  say(`wrote THREAT_WEIGHTS to ${out} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return 0;
}
