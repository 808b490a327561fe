// The mate-threat (詰めろ) predictor of docs/DESIGN.md §11.3: a logistic model that reads the position
// just after a move and says whether the move threatens mate next turn if ignored. The
// quiescence search uses it to generate checks only two plies after a predicted threat.
import { FILE0, STEP } from "../rules/tables.js";
import { KING } from "../rules/types.js";
import type { Move } from "../rules/types.js";
import type { Position } from "../rules/position.js";
import { PIECE_VALUE, attackCount, pieceAttacks } from "./attacks.js";
import { DIR_BETWEEN } from "../rules/tables.js";
import { THREAT_WEIGHTS } from "./weights.js";

export const THREAT_FEATURES = [
  "bias",
  "the move captured",
  "captured piece value / 1000",
  "the move was a drop",
  "the move gave check",
  "king neighbours the moved piece attacks",
  "king neighbours the mover attacks",
  "mover's attackers on king neighbours (sum)",
  "king escape squares",
  "defender's gold/silver-like pieces next to the king",
  "mover's non-pawn pieces in hand",
  "mover's rooks and bishops in hand",
  "mover's golds and silvers in hand",
  "distance of the move's target to the king",
  "empty king neighbours",
  "king neighbours covered by the defender more than attacked",
  "game phase (0 opening .. 1 endgame)",
] as const;
export const N_THREAT = THREAT_FEATURES.length;

const cheb = (a: number, b: number): number => Math.max(Math.abs(FILE0[a] - FILE0[b]), Math.abs((a % 9) - (b % 9)));

/**
 * Features of `lastMove`, read from `pos` (the position after it, the defender to move).
 * `captured` is the type the move took (0 for none), `phase` the game phase 0..1.
 */
export function threatFeatures(pos: Position, lastMove: Move, captured: number, phase: number, out: Float64Array): void {
  out.fill(0);
  out[0] = 1;
  const board = pos.board;
  const defender = pos.side,
    mover = defender ^ 1;
  const ksq = pos.kingSq[defender];
  const to = lastMove & 127,
    from = (lastMove >> 7) & 127;
  out[1] = captured ? 1 : 0;
  out[2] = captured ? PIECE_VALUE[captured] / 1000 : 0;
  out[3] = from >= 81 ? 1 : 0;
  out[4] = pos.inCheck() ? 1 : 0;
  const hb = mover * 8;
  out[10] = pos.hands[hb + 2] + pos.hands[hb + 3] + pos.hands[hb + 4] + pos.hands[hb + 5] + pos.hands[hb + 6] + pos.hands[hb + 7];
  out[11] = pos.hands[hb + 5] + pos.hands[hb + 6];
  out[12] = pos.hands[hb + 4] + pos.hands[hb + 7];
  out[16] = phase;
  if (ksq < 0) return;
  const moved = board[to];
  let pieceN = 0,
    moverN = 0,
    sum = 0,
    escapes = 0,
    guards = 0,
    empty = 0,
    held = 0;
  for (let d = 0; d < 8; d++) {
    const s = STEP[ksq * 8 + d];
    if (s < 0) continue;
    const a = attackCount(board, s, mover);
    const dcov = attackCount(board, s, defender);
    const p = board[s];
    if (moved !== 0 && pieceAttacks(board, moved, to, s, DIR_BETWEEN)) pieceN++;
    if (a > 0) moverN++;
    sum += a;
    if ((p === 0 || p >> 4 === mover) && a === 0) escapes++;
    if (p !== 0 && p >> 4 === defender && (p & 15) !== KING && [4, 7, 9, 10, 11, 12].includes(p & 15)) guards++;
    if (p === 0) empty++;
    if (dcov > a) held++;
  }
  out[5] = pieceN;
  out[6] = moverN;
  out[7] = sum;
  out[8] = escapes;
  out[9] = guards;
  out[13] = cheb(to, ksq);
  out[14] = empty;
  out[15] = held;
}

let weights = Float64Array.from(THREAT_WEIGHTS.length === N_THREAT ? THREAT_WEIGHTS : defaultWeights());

/** Before fitting: a hand-set guess (attacks next to the king and pieces in hand mean danger). */
function defaultWeights(): number[] {
  const w = new Array<number>(N_THREAT).fill(0);
  w[0] = -4;
  w[5] = 0.6;
  w[6] = 0.5;
  w[8] = -0.4;
  w[10] = 0.3;
  w[13] = -0.2;
  return w;
}

export function setThreatWeights(w: ArrayLike<number>): void {
  if (w.length !== N_THREAT) throw new Error(`expected ${N_THREAT} threat weights, got ${w.length}`);
  weights = Float64Array.from(w);
}

const scratch = new Float64Array(N_THREAT);

/** Probability that lastMove (just made, leading to pos) threatens mate. */
export function threatProbability(pos: Position, lastMove: Move, captured: number, phase: number): number {
  threatFeatures(pos, lastMove, captured, phase, scratch);
  let z = 0;
  for (let i = 0; i < N_THREAT; i++) z += weights[i] * scratch[i];
  return 1 / (1 + Math.exp(-z));
}
