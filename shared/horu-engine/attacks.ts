// Attack queries and static exchange evaluation on the rules core's mailbox board. The
// rules core answers "is this square attacked"; the engine needs counts, the attacker
// that moved, and the cheapest attacker, so it has its own scans over the same tables.
import { KNIGHT_TO, SLIDE_MASK, STEP, STEP_MASK } from "../rules/tables.js";
import { KING, KNIGHT } from "../rules/types.js";
import type { Move } from "../rules/types.js";

/**
 * Piece values in centipawns by type 1..14 (P L N S B R G K +P +L +N +S +B +R), fixed, not
 * fitted: the seed-002 engine keeps its piece values out of learning too.
 */
export const PIECE_VALUE = new Int32Array([0, 90, 300, 330, 450, 780, 900, 520, 15000, 530, 520, 520, 520, 1000, 1150]);
/** What a captured piece is worth to the capturer beyond its board value: it goes to hand unpromoted. */
export const CAPTURE_GAIN = new Int32Array(15);
for (let t = 1; t <= 14; t++) CAPTURE_GAIN[t] = t === KING ? 15000 : PIECE_VALUE[t] + PIECE_VALUE[t & 7 || t];

/** How many pieces of colour `by` attack `sq` (x-rays not counted). */
export function attackCount(board: Uint8Array, sq: number, by: number): number {
  let n = 0;
  const base = sq * 8;
  for (let d = 0; d < 8; d++) {
    let s = STEP[base + d];
    if (s < 0) continue;
    const rd = d ^ 4;
    let p = board[s];
    if (p !== 0) {
      if (p >> 4 === by && ((STEP_MASK[p] | SLIDE_MASK[p]) >> rd) & 1) n++;
      continue;
    }
    for (;;) {
      s = STEP[s * 8 + d];
      if (s < 0) break;
      p = board[s];
      if (p !== 0) {
        if (p >> 4 === by && (SLIDE_MASK[p] >> rd) & 1) n++;
        break;
      }
    }
  }
  const kn = (by << 4) | KNIGHT,
    kb = ((by ^ 1) * 81 + sq) * 2;
  let k = KNIGHT_TO[kb];
  if (k >= 0 && board[k] === kn) n++;
  k = KNIGHT_TO[kb + 1];
  if (k >= 0 && board[k] === kn) n++;
  return n;
}

/** Does the piece `p` standing on `from` attack `to` on this board? */
export function pieceAttacks(board: Uint8Array, p: number, from: number, to: number, dirBetween: Int8Array): boolean {
  if ((p & 15) === KNIGHT) {
    const kb = ((p >> 4) * 81 + from) * 2;
    return KNIGHT_TO[kb] === to || KNIGHT_TO[kb + 1] === to;
  }
  const d = dirBetween[from * 81 + to];
  if (d < 0) return false;
  if (STEP[from * 8 + d] === to) return (((STEP_MASK[p] | SLIDE_MASK[p]) >> d) & 1) === 1;
  if (((SLIDE_MASK[p] >> d) & 1) === 0) return false;
  for (let s = STEP[from * 8 + d]; s !== to; s = STEP[s * 8 + d]) if (board[s] !== 0) return false;
  return true;
}

/** The square of the cheapest piece of `by` attacking `sq`, or -1. */
function cheapestAttacker(board: Uint8Array, sq: number, by: number): number {
  let best = -1,
    bestValue = 1 << 30;
  const base = sq * 8;
  for (let d = 0; d < 8; d++) {
    let s = STEP[base + d];
    if (s < 0) continue;
    const rd = d ^ 4;
    let p = board[s];
    if (p !== 0) {
      if (p >> 4 === by && ((STEP_MASK[p] | SLIDE_MASK[p]) >> rd) & 1 && PIECE_VALUE[p & 15] < bestValue) {
        best = s;
        bestValue = PIECE_VALUE[p & 15];
      }
      continue;
    }
    for (;;) {
      s = STEP[s * 8 + d];
      if (s < 0) break;
      p = board[s];
      if (p !== 0) {
        if (p >> 4 === by && (SLIDE_MASK[p] >> rd) & 1 && PIECE_VALUE[p & 15] < bestValue) {
          best = s;
          bestValue = PIECE_VALUE[p & 15];
        }
        break;
      }
    }
  }
  const kn = (by << 4) | KNIGHT,
    kb = ((by ^ 1) * 81 + sq) * 2;
  for (let i = 0; i < 2; i++) {
    const k = KNIGHT_TO[kb + i];
    if (k >= 0 && board[k] === kn && PIECE_VALUE[KNIGHT] < bestValue) {
      best = k;
      bestValue = PIECE_VALUE[KNIGHT];
    }
  }
  return best;
}

const seeBoard = new Uint8Array(81);
const gain = new Int32Array(40);

/**
 * Static exchange evaluation of move m by `us`: the material balance of the best capture
 * sequence on the target square, each side free to stop. Pins are ignored (as usual); a
 * king only recaptures last. Promotions on the recaptures are ignored too.
 */
export function see(board: Uint8Array, m: Move, us: number): number {
  seeBoard.set(board);
  const to = m & 127,
    from = (m >> 7) & 127;
  let onSquare: number;
  if (from >= 81) {
    onSquare = (us << 4) | (from - 80);
    gain[0] = 0;
  } else {
    const p = seeBoard[from];
    const q = seeBoard[to];
    gain[0] = q ? CAPTURE_GAIN[q & 15] : 0;
    onSquare = m & 16384 ? p | 8 : p;
    if (m & 16384) gain[0] += PIECE_VALUE[(p & 15) | 8] - PIECE_VALUE[p & 15];
    seeBoard[from] = 0;
  }
  seeBoard[to] = onSquare;
  let side = us ^ 1;
  let n = 1;
  while (n < 40) {
    const a = cheapestAttacker(seeBoard, to, side);
    if (a < 0) break;
    const attacker = seeBoard[a];
    if ((attacker & 15) === KING) {
      // A king may only take last: not into a square the other side still covers.
      seeBoard[a] = 0;
      const covered = cheapestAttacker(seeBoard, to, side ^ 1) >= 0;
      seeBoard[a] = attacker;
      if (covered) break;
    }
    gain[n] = CAPTURE_GAIN[seeBoard[to] & 15] - gain[n - 1];
    seeBoard[a] = 0;
    seeBoard[to] = attacker;
    side ^= 1;
    n++;
  }
  while (--n > 0) gain[n - 1] = -Math.max(-gain[n - 1], gain[n]);
  return gain[0];
}
