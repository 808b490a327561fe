// Precomputed geometry for the mailbox board. Everything the move generator touches per
// square is a flat typed-array lookup, so the hot loops never branch on board edges.
import { BISHOP, DRAGON, GOLD, HORSE, KING, LANCE, PAWN, PRO_KNIGHT, PRO_LANCE, PRO_PAWN, PRO_SILVER, ROOK, SILVER } from "./types.js";

/**
 * Eight directions as (rank delta, file delta), in circular order so that the opposite
 * of d is d ^ 4. Direction 0 is black's forward (towards rank a).
 */
export const DIR_DR = [-1, -1, 0, 1, 1, 1, 0, -1] as const;
export const DIR_DF = [0, 1, 1, 1, 0, -1, -1, -1] as const;

/** STEP[sq * 8 + d]: the neighbour of sq in direction d, or -1 off the board. */
export const STEP = new Int8Array(81 * 8);
/** KNIGHT_TO[(color * 81 + sq) * 2 + i]: the knight targets of a `color` knight on sq, or -1. */
export const KNIGHT_TO = new Int8Array(2 * 81 * 2);
/** DIR_BETWEEN[a * 81 + b]: direction from a to b when they share a line, else -1. */
export const DIR_BETWEEN = new Int8Array(81 * 81);
/** REL_RANK[color * 81 + sq]: rank 0..8 counted from the colour's far side (0 = last rank). */
export const REL_RANK = new Uint8Array(2 * 81);
export const FILE0 = new Uint8Array(81);
/** Step and slide direction masks per piece code (color << 4 | type), 0..31. */
export const STEP_MASK = new Uint8Array(32);
export const SLIDE_MASK = new Uint8Array(32);

const mirror = (mask: number): number => {
  // Flip rank deltas for white: 0<->4, 1<->3, 7<->5, 2 and 6 stay.
  const map = [4, 3, 2, 1, 0, 7, 6, 5];
  let out = 0;
  for (let d = 0; d < 8; d++) if (mask & (1 << d)) out |= 1 << map[d];
  return out;
};

{
  for (let sq = 0; sq < 81; sq++) {
    const f = Math.floor(sq / 9),
      r = sq % 9;
    FILE0[sq] = f;
    REL_RANK[sq] = r;
    REL_RANK[81 + sq] = 8 - r;
    for (let d = 0; d < 8; d++) {
      const rr = r + DIR_DR[d],
        ff = f + DIR_DF[d];
      STEP[sq * 8 + d] = rr >= 0 && rr < 9 && ff >= 0 && ff < 9 ? ff * 9 + rr : -1;
    }
    for (let c = 0; c < 2; c++) {
      const rr = r + (c === 0 ? -2 : 2);
      for (let i = 0; i < 2; i++) {
        const ff = f + (i === 0 ? -1 : 1);
        KNIGHT_TO[(c * 81 + sq) * 2 + i] = rr >= 0 && rr < 9 && ff >= 0 && ff < 9 ? ff * 9 + rr : -1;
      }
    }
  }
  DIR_BETWEEN.fill(-1);
  for (let a = 0; a < 81; a++) {
    for (let d = 0; d < 8; d++) {
      let s = STEP[a * 8 + d];
      while (s >= 0) {
        DIR_BETWEEN[a * 81 + s] = d;
        s = STEP[s * 8 + d];
      }
    }
  }
  const ALL = 0xff,
    ORTH = 0b01010101,
    DIAG = 0b10101010;
  const GOLD_STEPS = (1 << 0) | (1 << 1) | (1 << 7) | (1 << 2) | (1 << 6) | (1 << 4);
  const SILVER_STEPS = (1 << 0) | (1 << 1) | (1 << 7) | (1 << 3) | (1 << 5);
  const steps: Record<number, number> = {
    [PAWN]: 1,
    [SILVER]: SILVER_STEPS,
    [GOLD]: GOLD_STEPS,
    [KING]: ALL,
    [PRO_PAWN]: GOLD_STEPS,
    [PRO_LANCE]: GOLD_STEPS,
    [PRO_KNIGHT]: GOLD_STEPS,
    [PRO_SILVER]: GOLD_STEPS,
    [HORSE]: ORTH,
    [DRAGON]: DIAG,
  };
  const slides: Record<number, number> = { [LANCE]: 1, [BISHOP]: DIAG, [ROOK]: ORTH, [HORSE]: DIAG, [DRAGON]: ORTH };
  for (let t = 1; t <= 14; t++) {
    STEP_MASK[t] = steps[t] ?? 0;
    SLIDE_MASK[t] = slides[t] ?? 0;
    STEP_MASK[16 + t] = mirror(STEP_MASK[t]);
    SLIDE_MASK[16 + t] = mirror(SLIDE_MASK[t]);
  }
}
