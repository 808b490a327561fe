// The evaluation: fixed material plus a linear model of placement and king safety whose
// weights are fitted to game records (electron/cli/commands/horu-engine/fit-eval.ts, docs/ENGINE.md).
//
// Every term is a feature counted for black minus the same feature for white, so one
// weight vector serves both sides and the fitting sees plain linear features.
import { FILE0, KNIGHT_TO, REL_RANK, SLIDE_MASK, STEP, STEP_MASK } from "../rules/tables.js";
import { GOLD, KING, KNIGHT, SILVER } from "../rules/types.js";
import type { Position } from "../rules/position.js";
import { PIECE_VALUE } from "./attacks.js";
import { EVAL_WEIGHTS } from "./weights.js";

/** Placement: piece type (1..14, the king is 8) x rank counted from the far side (0..8). */
export const F_PST = 0;
/** King file counted from the nearest edge (0..4). */
export const F_KING_FILE = 15 * 9;
/** Each piece in hand beyond its material value, by type 1..7. */
export const F_HAND = F_KING_FILE + 5;
/** King safety, each about the side's own king (see KS_NAMES). */
export const F_KS = F_HAND + 8;
export const KS_NAMES = [
  "king neighbours attacked by the enemy",
  "king neighbours covered by own pieces",
  "own gold/silver-like pieces next to the king",
  "own gold/silver-like pieces two squares from the king",
  "king escape squares",
  "enemy non-pawn hand pieces x empty king neighbours / 4",
  "enemy pieces within two squares of the king",
  "enemy attacks on the king's neighbours (counted per attacker)",
];
export const N_FEATURES = F_KS + KS_NAMES.length;

export const FEATURE_NAMES: string[] = (() => {
  const names: string[] = [];
  const types = ["-", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R"];
  for (let t = 0; t < 15; t++) for (let r = 0; r < 9; r++) names.push(`placement ${types[t]} rank ${r + 1} (from the far side)`);
  for (let f = 0; f < 5; f++) names.push(`king file ${f + 1} from the edge`);
  for (let t = 0; t < 8; t++) names.push(`in hand ${types[t]}`);
  for (const n of KS_NAMES) names.push(n);
  return names;
})();

const GOLDLIKE = new Uint8Array(15);
for (const t of [SILVER, GOLD, 9, 10, 11, 12]) GOLDLIKE[t] = 1;

// Attack counts per colour and square, rebuilt by each evaluation in one pass over the pieces.
const ATT = new Uint8Array(2 * 81);

function buildAttacks(board: Uint8Array): void {
  ATT.fill(0);
  for (let from = 0; from < 81; from++) {
    const p = board[from];
    if (p === 0) continue;
    const base = (p >> 4) * 81;
    const sm = STEP_MASK[p],
      lm = SLIDE_MASK[p];
    for (let d = 0; d < 8; d++) {
      if ((sm >> d) & 1) {
        const to = STEP[from * 8 + d];
        if (to >= 0) ATT[base + to]++;
      } else if ((lm >> d) & 1) {
        let to = from;
        for (;;) {
          to = STEP[to * 8 + d];
          if (to < 0) break;
          ATT[base + to]++;
          if (board[to] !== 0) break;
        }
      }
    }
    if ((p & 15) === KNIGHT) {
      const kb = ((p >> 4) * 81 + from) * 2;
      if (KNIGHT_TO[kb] >= 0) ATT[base + KNIGHT_TO[kb]]++;
      if (KNIGHT_TO[kb + 1] >= 0) ATT[base + KNIGHT_TO[kb + 1]]++;
    }
  }
}

/**
 * The evaluation and its features in one routine, so the fitted model and the engine can
 * never disagree: with `out`, features are accumulated there (black minus white) and the
 * material is returned; without, material + weights . features is returned.
 */
function evalCore(pos: Position, out: Float64Array | null, w: Float64Array): number {
  const board = pos.board,
    hands = pos.hands;
  // Written out at each term rather than through a helper closure: this is the engine's
  // hottest function.
  let v = 0,
    material = 0;
  const acc = out !== null;
  for (let sq = 0; sq < 81; sq++) {
    const p = board[sq];
    if (p === 0) continue;
    const c = p >> 4,
      t = p & 15;
    const sign = c === 0 ? 1 : -1;
    if (t !== KING) material += sign * PIECE_VALUE[t];
    else {
      const f = FILE0[sq];
      const kf = F_KING_FILE + Math.min(f, 8 - f);
      if (acc) out![kf] += sign;
      else v += w[kf] * sign;
    }
    if (acc) out![F_PST + t * 9 + REL_RANK[c * 81 + sq]] += sign;
    else v += w[F_PST + t * 9 + REL_RANK[c * 81 + sq]] * sign;
  }
  for (let t = 1; t <= 7; t++) {
    const n = hands[t] - hands[8 + t];
    if (n === 0) continue;
    material += n * PIECE_VALUE[t];
    if (acc) out![F_HAND + t] += n;
    else v += w[F_HAND + t] * n;
  }
  buildAttacks(board);
  for (let c = 0; c < 2; c++) {
    const ksq = pos.kingSq[c];
    if (ksq < 0) continue;
    const sign = c === 0 ? 1 : -1;
    const them = c ^ 1;
    let attackedN = 0,
      coveredN = 0,
      escapes = 0,
      empties = 0,
      attackers = 0;
    for (let d = 0; d < 8; d++) {
      const s = STEP[ksq * 8 + d];
      if (s < 0) continue;
      const a = ATT[them * 81 + s];
      const own = ATT[c * 81 + s] - 1; // the king itself covers every neighbour
      attackers += a;
      if (a > 0) attackedN++;
      const p = board[s];
      if (p === 0) empties++;
      if ((p === 0 || p >> 4 === them) && a === 0) escapes++;
      if (own > 0) coveredN++;
    }
    let near1 = 0,
      near2 = 0,
      enemyNear = 0;
    const f0 = FILE0[ksq],
      r0 = ksq % 9;
    const fLo = f0 > 2 ? f0 - 2 : 0,
      fHi = f0 < 6 ? f0 + 2 : 8,
      rLo = r0 > 2 ? r0 - 2 : 0,
      rHi = r0 < 6 ? r0 + 2 : 8;
    for (let f = fLo; f <= fHi; f++) {
      for (let r = rLo; r <= rHi; r++) {
        const s = f * 9 + r;
        const p = board[s];
        if (p === 0 || s === ksq) continue;
        if (p >> 4 === c) {
          if (GOLDLIKE[p & 15]) {
            const df = f > f0 ? f - f0 : f0 - f,
              dr = r > r0 ? r - r0 : r0 - r;
            if (df <= 1 && dr <= 1) near1++;
            else near2++;
          }
        } else if ((p & 15) !== 1) enemyNear++;
      }
    }
    let enemyHand = 0;
    for (let t = 2; t <= 7; t++) enemyHand += hands[them * 8 + t];
    if (acc) out![F_KS + 0] += sign * attackedN;
    else v += w[F_KS + 0] * (sign * attackedN);
    if (acc) out![F_KS + 1] += sign * coveredN;
    else v += w[F_KS + 1] * (sign * coveredN);
    if (acc) out![F_KS + 2] += sign * near1;
    else v += w[F_KS + 2] * (sign * near1);
    if (acc) out![F_KS + 3] += sign * near2;
    else v += w[F_KS + 3] * (sign * near2);
    if (acc) out![F_KS + 4] += sign * escapes;
    else v += w[F_KS + 4] * (sign * escapes);
    if (acc) out![F_KS + 5] += (sign * enemyHand * empties) / 4;
    else v += w[F_KS + 5] * ((sign * enemyHand * empties) / 4);
    if (acc) out![F_KS + 6] += sign * enemyNear;
    else v += w[F_KS + 6] * (sign * enemyNear);
    if (acc) out![F_KS + 7] += sign * attackers;
    else v += w[F_KS + 7] * (sign * attackers);
  }
  return out ? material : material + v;
}

/** The feature vector of a position (black minus white); returns its material in centipawns for black. */
export function features(pos: Position, out: Float64Array): number {
  out.fill(0);
  return evalCore(pos, out, weights);
}

// Whole-centipawn weights keep every sum exact, so a position and its colour-flipped twin
// evaluate to exactly opposite values whatever the summation order.
let weights: Float64Array = Float64Array.from(
  EVAL_WEIGHTS.length === N_FEATURES ? EVAL_WEIGHTS : new Array<number>(N_FEATURES).fill(0),
  Math.round,
);

/** Replaces the placement/king-safety weights (the fitting script uses this). */
export function setEvalWeights(w: ArrayLike<number>): void {
  if (w.length !== N_FEATURES) throw new Error(`expected ${N_FEATURES} weights, got ${w.length}`);
  weights = Float64Array.from(w, Math.round);
}

export function evalWeights(): Float64Array {
  return weights;
}

/** Black's view: material + weights . features, in centipawns. */
export function evaluateBlack(pos: Position): number {
  return evalCore(pos, null, weights);
}

/** The side to move's view, rounded to whole centipawns. */
export function evaluate(pos: Position): number {
  const b = evalCore(pos, null, weights);
  const v = b >= 0 ? Math.round(b) : -Math.round(-b);
  return pos.side === 0 ? v : 0 - v;
}

/** Game phase 0 (opening) .. 1 (endgame) from the material off the opening squares and in hands. */
export function progress(pos: Position): number {
  let inHand = 0;
  for (let t = 1; t <= 7; t++) inHand += (pos.hands[t] + pos.hands[8 + t]) * (t === 1 ? 1 : 3);
  let promoted = 0,
    advanced = 0;
  for (let sq = 0; sq < 81; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    if ((p & 15) > KING) promoted += 2;
    if (REL_RANK[(p >> 4) * 81 + sq] <= 2 && (p & 15) !== KING) advanced++;
  }
  return Math.min(1, (inHand + promoted + advanced) / 40);
}
