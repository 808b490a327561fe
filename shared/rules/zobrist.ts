// Zobrist keys: 64 bits held as two uint32 halves (hi, lo), because JS bit operations are
// 32-bit and BigInt would allocate on every move.
//
// Collisions: a 64-bit key is what the in-memory graph indexes by. At 15M positions the
// chance of any collision is about 15e6^2 / 2^65, roughly 6e-6, so the store keeps the
// normalized SFEN beside each key and compares it on insert (done in the store, not
// here): a mismatch is reported rather than silently merging two positions.
//
// Tables come from a fixed-seed generator so keys are stable across runs and builds;
// changing SEED or the fill order changes every stored key.

const SEED = 0x686f7275; // "horu"

/** A small counter-based mixer (splitmix-style, 32-bit): deterministic, good avalanche. */
function makeRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Max count of one type in one hand (18 pawns), so counts index 0..18. */
export const HAND_MAX = 18;

/** Piece × square, index piece * 81 + sq for piece codes 0..31 (empty and unused codes stay 0). */
export const Z_PIECE_HI = new Uint32Array(32 * 81);
export const Z_PIECE_LO = new Uint32Array(32 * 81);
/** Hand slot × count, index (color * 8 + type) * 19 + count; count 0 is 0 so an empty hand adds nothing. */
export const Z_HAND_HI = new Uint32Array(16 * (HAND_MAX + 1));
export const Z_HAND_LO = new Uint32Array(16 * (HAND_MAX + 1));
/** XORed in when white is to move. */
export let Z_SIDE_HI = 0;
export let Z_SIDE_LO = 0;

{
  const rng = makeRng(SEED);
  for (let c = 0; c < 2; c++) {
    for (let t = 1; t <= 14; t++) {
      const p = (c << 4) | t;
      for (let sq = 0; sq < 81; sq++) {
        Z_PIECE_HI[p * 81 + sq] = rng();
        Z_PIECE_LO[p * 81 + sq] = rng();
      }
    }
  }
  for (let c = 0; c < 2; c++) {
    for (let t = 1; t <= 7; t++) {
      for (let n = 1; n <= HAND_MAX; n++) {
        Z_HAND_HI[(c * 8 + t) * (HAND_MAX + 1) + n] = rng();
        Z_HAND_LO[(c * 8 + t) * (HAND_MAX + 1) + n] = rng();
      }
    }
  }
  Z_SIDE_HI = rng();
  Z_SIDE_LO = rng();
}
