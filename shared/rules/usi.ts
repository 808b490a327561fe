// USI move and square text, position-free.
import type { Move, Square } from "./types.js";

const RANKS = "abcdefghi";
/** Hand-type letters by type 1..7 (P L N S B R G). */
export const DROP_LETTERS = " PLNSBRG";

export function squareToUsi(sq: Square): string {
  return String(Math.floor(sq / 9) + 1) + RANKS[sq % 9];
}

/** "7g" -> 60; null when the text is not a square. */
export function parseUsiSquare(text: string): Square | null {
  if (text.length !== 2) return null;
  const f = text.charCodeAt(0) - 49,
    r = text.charCodeAt(1) - 97;
  if (f < 0 || f > 8 || r < 0 || r > 8) return null;
  return f * 9 + r;
}

/** "7g7f", "8h2b+", "P*5e"; 0 (no move) prints as "none". */
export function moveToUsi(m: Move): string {
  if (m === 0) return "none";
  const to = m & 127,
    from = (m >> 7) & 127;
  if (from >= 81) return DROP_LETTERS[from - 80] + "*" + squareToUsi(to);
  return squareToUsi(from) + squareToUsi(to) + (m & 16384 ? "+" : "");
}

/** Syntax only: the move's encoding, or null for anything that is not a board move or drop. */
export function parseUsiMove(text: string): Move | null {
  if (text.length === 4 && text[1] === "*") {
    const t = DROP_LETTERS.indexOf(text[0]);
    const to = parseUsiSquare(text.slice(2));
    if (t < 1 || to === null) return null;
    return to | ((80 + t) << 7);
  }
  if (text.length !== 4 && !(text.length === 5 && text[4] === "+")) return null;
  const from = parseUsiSquare(text.slice(0, 2)),
    to = parseUsiSquare(text.slice(2, 4));
  if (from === null || to === null || from === to) return null;
  return to | (from << 7) | (text.length === 5 ? 16384 : 0);
}

/** DROP_LETTERS by byte: type 1..7 for P L N S B R G, else 0. */
const DROP_TYPE_OF_BYTE = new Uint8Array(128);
for (let t = 1; t <= 7; t++) DROP_TYPE_OF_BYTE[DROP_LETTERS.charCodeAt(t)] = t;

/** parseUsiMove over bytes src[start..end): the move's encoding, or -1. */
export function parseUsiMoveBytes(src: Uint8Array, start: number, end: number): Move {
  const len = end - start;
  if (len === 4 && src[start + 1] === 42) {
    // "*"
    const t = src[start] < 128 ? DROP_TYPE_OF_BYTE[src[start]] : 0;
    const f = src[start + 2] - 49,
      r = src[start + 3] - 97;
    if (t === 0 || f < 0 || f > 8 || r < 0 || r > 8) return -1;
    return (f * 9 + r) | ((80 + t) << 7);
  }
  if (len !== 4 && !(len === 5 && src[start + 4] === 43)) return -1;
  const ff = src[start] - 49,
    fr = src[start + 1] - 97,
    tf = src[start + 2] - 49,
    tr = src[start + 3] - 97;
  if (ff < 0 || ff > 8 || fr < 0 || fr > 8 || tf < 0 || tf > 8 || tr < 0 || tr > 8) return -1;
  const from = ff * 9 + fr,
    to = tf * 9 + tr;
  if (from === to) return -1;
  return to | (from << 7) | (len === 5 ? 16384 : 0);
}
