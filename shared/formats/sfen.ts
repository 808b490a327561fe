// A small SFEN reader/writer for the formats layer: book keys and normalized position
// text without going through a full rules position (no legality, no move generation).
import { BLACK, WHITE, type Color, PROMOTED, makePiece, colorOf } from "../rules/types.js";

const TYPE_OF_LETTER: { [ch: string]: number } = { p: 1, l: 2, n: 3, s: 4, b: 5, r: 6, g: 7, k: 8 };
/** Hand order in SFEN text: rook, bishop, gold, silver, knight, lance, pawn (the usual order). */
const HAND_ORDER = [6, 5, 7, 4, 3, 2, 1];
/** Most pieces of one type a side can hold: 18 pawns, 4 of the minors, 2 of the majors. */
const HAND_MAX = [0, 18, 4, 4, 4, 2, 2, 4];

export const STARTPOS_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

export interface SfenParts {
  /** Piece per square (our layout: (file-1)*9 + rank-1), 0 = empty. */
  board: Uint8Array;
  /** Hands: count of type t for colour c at [c*8 + t]. */
  hands: Uint8Array;
  side: Color;
  /** The ply field when present, else undefined. */
  ply?: number;
}

/** Parses "<board> <b|w> <hands> [ply]"; returns an error text instead of throwing. */
export function parseSfen(sfen: string): SfenParts | string {
  const f = sfen.trim().split(/\s+/);
  if (f.length < 3) return `SFEN needs board, side and hands: "${sfen.slice(0, 80)}"`;
  const board = new Uint8Array(81);
  const rows = f[0].split("/");
  if (rows.length !== 9) return `SFEN board needs 9 ranks: "${f[0].slice(0, 80)}"`;
  for (let r = 0; r < 9; r++) {
    let file = 9;
    let promoted = false;
    for (const ch of rows[r]) {
      if (ch === "+") { if (promoted) return `SFEN board: "++" in rank ${r + 1}`; promoted = true; continue; }
      if (ch >= "1" && ch <= "9") {
        if (promoted) return `SFEN board: "+" before a digit in rank ${r + 1}`;
        file -= ch.charCodeAt(0) - 48;
        if (file < 0) return `SFEN board: rank ${r + 1} is longer than 9 squares`;
        continue;
      }
      const lower = ch.toLowerCase();
      const t = TYPE_OF_LETTER[lower];
      if (t === undefined) return `SFEN board: unknown piece "${ch}"`;
      if (file < 1) return `SFEN board: rank ${r + 1} is longer than 9 squares`;
      if (promoted && (t === 7 || t === 8)) return `SFEN board: "${ch}" cannot be promoted`;
      const color: Color = ch === lower ? WHITE : BLACK;
      board[(file - 1) * 9 + r] = makePiece(color, promoted ? t | PROMOTED : t);
      promoted = false;
      file--;
    }
    if (file !== 0 || promoted) return `SFEN board: rank ${r + 1} does not have 9 squares`;
  }
  let side: Color;
  if (f[1] === "b") side = BLACK;
  else if (f[1] === "w") side = WHITE;
  else return `SFEN side to move must be b or w, not "${f[1]}"`;
  const hands = new Uint8Array(16);
  if (f[2] !== "-") {
    let n = 0;
    let digits = 0;
    for (const ch of f[2]) {
      if (ch >= "0" && ch <= "9") {
        n = n * 10 + ch.charCodeAt(0) - 48;
        if (++digits > 2) return `SFEN hands: count too large in "${f[2]}"`;
        continue;
      }
      const lower = ch.toLowerCase();
      const t = TYPE_OF_LETTER[lower];
      if (t === undefined || t === 8) return `SFEN hands: unknown piece "${ch}"`;
      const c = ch === lower ? WHITE : BLACK;
      const count = digits ? n : 1;
      const total = hands[c * 8 + t] + count;
      if (total > HAND_MAX[t]) return `SFEN hands: too many "${ch}"`;
      hands[c * 8 + t] = total;
      n = 0;
      digits = 0;
    }
    if (digits) return `SFEN hands: count without a piece in "${f[2]}"`;
  }
  let ply: number | undefined;
  if (f.length >= 4) {
    if (!/^\d{1,9}$/.test(f[3])) return `SFEN ply must be a number, not "${f[3].slice(0, 20)}"`;
    ply = Number(f[3]);
  }
  return { board, hands, side, ply };
}

// Letters by piece type 1..8 (P L N S B R G K); promoted types print "+" and the base letter.
const LETTER_CODES = " PLNSBRGK";
const keyBuf = new Uint8Array(160);
const asciiDecoder = new TextDecoder();

/**
 * "<board> <b|w> <hands>" with hands in the usual order (R B G S N L P, black first),
 * the same text as the rules core's sfenKey(). Built in a char buffer and made into a
 * string in one step: a key built with `+=` is a rope of ~100 pieces until flattened,
 * and keeping 270k such ropes (records2016) tripled the parse time through GC.
 * Board letters: capitals for black (char code - 32 from lower case).
 */
export function formatSfenKey(board: ArrayLike<number>, hands: ArrayLike<number>, side: Color): string {
  const buf = keyBuf;
  let n = 0;
  for (let r = 0; r < 9; r++) {
    let empty = 0;
    for (let f = 8; f >= 0; f--) {
      const p = board[f * 9 + r];
      if (!p) { empty++; continue; }
      if (empty) { buf[n++] = 48 + empty; empty = 0; }
      const t = p & 15;
      if (t > PROMOTED) buf[n++] = 43; // "+"
      const code = LETTER_CODES.charCodeAt(t === 8 ? 8 : t & 7);
      buf[n++] = colorOf(p) === WHITE ? code + 32 : code;
    }
    if (empty) buf[n++] = 48 + empty;
    if (r < 8) buf[n++] = 47; // "/"
  }
  buf[n++] = 32;
  buf[n++] = side === BLACK ? 98 : 119;
  buf[n++] = 32;
  const handStart = n;
  for (let c = 0; c < 2; c++) {
    for (const t of HAND_ORDER) {
      const k = hands[c * 8 + t];
      if (!k) continue;
      if (k >= 10) { buf[n++] = 48 + Math.floor(k / 10); buf[n++] = 48 + (k % 10); }
      else if (k > 1) buf[n++] = 48 + k;
      buf[n++] = LETTER_CODES.charCodeAt(t) + (c ? 32 : 0);
    }
  }
  if (n === handStart) buf[n++] = 45; // "-"
  // TextDecoder beats String.fromCharCode.apply by 2x here and returns a flat string.
  return asciiDecoder.decode(buf.subarray(0, n));
}

/** Normalizes any SFEN (ply dropped, hands reordered); undefined when it does not parse. */
export function normalizeSfen(sfen: string): string | undefined {
  const p = parseSfen(sfen);
  return typeof p === "string" ? undefined : formatSfenKey(p.board, p.hands, p.side);
}
