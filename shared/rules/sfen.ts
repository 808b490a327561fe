// The one SFEN reader and writer. Everything that reads "<board> <b|w> <hands> [ply]"
// (positions, book formats, the exporter's byte records, the renderer's board) goes through
// scanSfen, which works on bytes so the exporter can read a book file without making a
// string per position; text callers use parseSfen / readSfen. Syntax and piece counts in
// hand only: whether the position could arise (kings, dead pieces, two pawns) is
// Position.fromSfen's business.
import { BLACK, WHITE, type Color, PROMOTED, KING, GOLD, colorOf } from "./types.js";

export class SfenError extends Error {
  override name = "SfenError";
}

export const STARTPOS_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/** Letters by piece type 1..8 (P L N S B R G K); upper case is black. */
const LETTERS = " PLNSBRGK";
/** Hand order in SFEN text: rook, bishop, gold, silver, knight, lance, pawn (the usual order). */
const HAND_ORDER = [6, 5, 7, 4, 3, 2, 1];
/** Pieces of each base type in a full set (both colours): no hand holds more. */
export const PIECE_LIMITS = [0, 18, 4, 4, 4, 2, 2, 4, 2];
export const TYPE_NAMES = ["", "pawns", "lances", "knights", "silvers", "bishops", "rooks", "golds", "kings"];
export const COLOR_NAMES = ["black", "white"];
const RANK_NAMES = "abcdefghi";

/** Byte -> piece code (colour << 4 | type), 0 for anything that is not a piece letter. */
const PIECE_OF_BYTE = new Uint8Array(256);
for (let t = 1; t <= 8; t++) {
  PIECE_OF_BYTE[LETTERS.charCodeAt(t)] = t;
  PIECE_OF_BYTE[LETTERS.charCodeAt(t) + 32] = 16 | t;
}

/** A position as scanSfen read it: board[sq], hands[colour * 8 + type], side to move. */
export interface ScannedPosition {
  board: Uint8Array;
  hands: Uint8Array;
  side: Color;
}

/** What scanSfen read besides board and hands. */
export interface SfenScan {
  side: Color;
  /** The ply field, 0 when absent. */
  ply: number;
  /** Index just after the last field read (ply or hands). */
  end: number;
}

const utf8 = new TextDecoder();
function text(src: Uint8Array, from: number, to: number): string {
  return utf8.decode(src.subarray(from, to));
}
/** The character (UTF-8 sequence) starting at src[i]. */
function charAt(src: Uint8Array, i: number, end: number): string {
  let j = i + 1;
  while (j < end && (src[j] & 0xc0) === 0x80) j++;
  return text(src, i, j);
}

/**
 * Reads "<board> <b|w> <hands> [ply]" from src[start..end) (fields separated by runs of
 * whitespace; anything after the ply is left for the caller, see out.end). Board pieces go to
 * board[boardAt + sq] (sq = (file - 1) * 9 + rank - 1), hands to hands[handsAt + colour * 8 +
 * type]; both are cleared first. Returns null, or what is wrong as text.
 */
export function scanSfen(
  src: Uint8Array,
  start: number,
  end: number,
  board: Uint8Array,
  boardAt: number,
  hands: Uint8Array,
  handsAt: number,
  out: SfenScan,
): string | null {
  board.fill(0, boardAt, boardAt + 81);
  hands.fill(0, handsAt, handsAt + 16);
  let i = start;
  while (i < end && src[i] <= 32) i++;
  if (i >= end) return `SFEN needs "<board> <side> <hands> [ply]", got nothing`;
  // Board: ranks a..i separated by '/', each from file 9 down to file 1.
  let rank = 0;
  let rowStart = i;
  let file = 8; // file index from 9 (8) down to 1 (0)
  let promoted = 0;
  for (; i < end; i++) {
    const c = src[i];
    if (c <= 32) break;
    if (c === 47) {
      // "/"
      if (promoted) return `board rank ${RANK_NAMES[rank]}: '+' at the end`;
      if (file !== -1) return `board rank ${RANK_NAMES[rank]} has ${8 - file} squares, not 9: "${text(src, rowStart, i)}"`;
      if (++rank > 8) return `board field must have 9 ranks separated by '/', got more`;
      file = 8;
      rowStart = i + 1;
    } else if (c === 43) {
      // "+"
      if (promoted) return `board rank ${RANK_NAMES[rank]}: double '+'`;
      promoted = PROMOTED;
    } else if (c >= 49 && c <= 57) {
      if (promoted) return `board rank ${RANK_NAMES[rank]}: '+' before a digit`;
      file -= c - 48;
      if (file < -1) return `board rank ${RANK_NAMES[rank]} has more than 9 squares`;
    } else {
      const piece = PIECE_OF_BYTE[c];
      if (piece === 0) return `board rank ${RANK_NAMES[rank]}: unknown piece letter '${charAt(src, i, end)}'`;
      if (file < 0) return `board rank ${RANK_NAMES[rank]} has more than 9 squares`;
      const t = piece & 15;
      if (promoted && (t === GOLD || t === KING))
        return `board: '+${String.fromCharCode(c)}' on ${file + 1}${RANK_NAMES[rank]} cannot be promoted`;
      board[boardAt + file * 9 + rank] = piece | promoted;
      promoted = 0;
      file--;
    }
  }
  if (rank !== 8) return `board field must have 9 ranks separated by '/', got ${rank + 1}`;
  if (promoted) return `board rank i: '+' at the end`;
  if (file !== -1) return `board rank i has ${8 - file} squares, not 9: "${text(src, rowStart, i)}"`;
  while (i < end && src[i] <= 32) i++;
  const s = i < end ? src[i] : -1;
  if ((s !== 98 && s !== 119) || (i + 1 < end && src[i + 1] > 32)) {
    let j = i;
    while (j < end && src[j] > 32) j++;
    return `side to move must be "b" or "w", got "${text(src, i, j)}"`;
  }
  out.side = s === 98 ? BLACK : WHITE;
  i++;
  while (i < end && src[i] <= 32) i++;
  const handStart = i;
  if (i >= end) return `SFEN needs "<board> <side> <hands> [ply]": no hands field`;
  if (src[i] === 45 && (i + 1 >= end || src[i + 1] <= 32)) {
    // "-"
    i++;
  } else {
    let count = -1;
    for (; i < end && src[i] > 32; i++) {
      const c = src[i];
      if (c >= 48 && c <= 57) {
        count = (count < 0 ? 0 : count * 10) + c - 48;
        if (count > 99) return `hands: count too large in "${handField(src, handStart, end)}"`;
        continue;
      }
      const piece = PIECE_OF_BYTE[c];
      const t = piece & 15;
      if (t < 1 || t > 7) return `hands: unknown piece letter '${charAt(src, i, end)}' in "${handField(src, handStart, end)}"`;
      if (count === 0) return `hands: zero count for '${String.fromCharCode(c)}' in "${handField(src, handStart, end)}"`;
      const slot = handsAt + (piece >> 4) * 8 + t;
      const n = hands[slot] + (count < 0 ? 1 : count);
      if (n > PIECE_LIMITS[t]) return `too many ${TYPE_NAMES[t]} for ${COLOR_NAMES[piece >> 4]}: ${n}`;
      hands[slot] = n;
      count = -1;
    }
    if (count >= 0) return `hands: count without a piece at the end of "${handField(src, handStart, end)}"`;
  }
  out.end = i;
  out.ply = 0;
  while (i < end && src[i] <= 32) i++;
  if (i < end && src[i] >= 48 && src[i] <= 57) {
    const plyStart = i;
    let ply = 0;
    for (; i < end && src[i] > 32; i++) {
      const c = src[i];
      if (c < 48 || c > 57) return `move number must be a positive integer, got "${handField(src, plyStart, end)}"`;
      ply = ply * 10 + c - 48;
      if (ply > MAX_PLY) return `move number must be a positive integer up to ${MAX_PLY}, got "${handField(src, plyStart, end)}"`;
    }
    if (ply < 1) return `move number must be a positive integer, got "${handField(src, plyStart, end)}"`;
    out.ply = ply;
    out.end = i;
  }
  return null;
}

/** The largest move number an SFEN may carry: far beyond any game, small enough to stay exact everywhere. */
export const MAX_PLY = 1_000_000;

function handField(src: Uint8Array, from: number, end: number): string {
  let j = from;
  while (j < end && src[j] > 32) j++;
  return text(src, from, j);
}

export interface SfenParts {
  /** Piece per square (our layout: (file-1)*9 + rank-1), 0 = empty. */
  board: Uint8Array;
  /** Hands: count of type t for colour c at [c*8 + t]. */
  hands: Uint8Array;
  side: Color;
  /** The ply field when present, else undefined. */
  ply?: number;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256);
const scratchBoard = new Uint8Array(81);
const scratchHands = new Uint8Array(16);
const scratchOut: SfenScan = { side: BLACK, ply: 0, end: 0 };

/** Scans text into the scratch board/hands; what is wrong, or null. */
function scanText(body: string): string | null {
  if (scratch.length < body.length * 3) scratch = new Uint8Array(body.length * 3);
  const n = encoder.encodeInto(body, scratch).written;
  const err = scanSfen(scratch, 0, n, scratchBoard, 0, scratchHands, 0, scratchOut);
  if (err !== null) {
    const fields = body.split(/\s+/).filter((f) => f).length;
    return fields < 3 ? `SFEN needs "<board> <side> <hands> [ply]", got ${fields} field(s): "${body.slice(0, 120)}"` : err;
  }
  let i = scratchOut.end;
  while (i < n && scratch[i] <= 32) i++;
  if (i < n) return `unexpected text after the SFEN: "${body.slice(body.length - (n - i)).slice(0, 60)}"`;
  return null;
}

/** What is wrong with "<board> <b|w> <hands> [ply]" text, or null when it reads. */
export function checkSfen(sfen: string): string | null {
  return scanText(sfen);
}

/**
 * An SFEN as text: "<board> <b|w> <hands> [ply]", optionally after "sfen", or "startpos".
 * Nothing may follow the ply (moves are for Position.fromUsi). Throws SfenError.
 */
export function readSfen(sfen: string): SfenParts {
  let body = sfen.trim();
  if (body === "startpos") body = STARTPOS_SFEN;
  else if (/^startpos\s/.test(body)) throw new SfenError(`"startpos" takes nothing after it in an SFEN (moves are for fromUsi): "${body}"`);
  else if (/^sfen\s/.test(body)) body = body.slice(4).trimStart();
  const err = scanText(body);
  if (err !== null) throw new SfenError(err);
  return { board: scratchBoard.slice(), hands: scratchHands.slice(), side: scratchOut.side, ply: scratchOut.ply || undefined };
}

/** readSfen without throwing: the parts, or what is wrong as text. */
export function parseSfen(sfen: string): SfenParts | string {
  try {
    return readSfen(sfen);
  } catch (e) {
    if (e instanceof SfenError) return e.message;
    throw e;
  }
}

const keyBuf = new Uint8Array(160);
const asciiDecoder = new TextDecoder();

/**
 * "<board> <b|w> <hands>" with hands in the usual order (R B G S N L P, black first): the
 * position key text (Position.sfenKey). Built in a char buffer and made into a string in one
 * step: a key built with `+=` is a rope of ~100 pieces until flattened, and keeping 270k such
 * ropes (records2016) tripled the parse time through GC.
 */
export function formatSfenKey(board: ArrayLike<number>, hands: ArrayLike<number>, side: Color): string {
  const buf = keyBuf;
  let n = 0;
  for (let r = 0; r < 9; r++) {
    let empty = 0;
    for (let f = 8; f >= 0; f--) {
      const p = board[f * 9 + r];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) {
        buf[n++] = 48 + empty;
        empty = 0;
      }
      const t = p & 15;
      if (t > PROMOTED) buf[n++] = 43; // "+"
      const code = LETTERS.charCodeAt(t === KING ? KING : t & 7);
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
      if (k >= 10) {
        buf[n++] = 48 + Math.floor(k / 10);
        buf[n++] = 48 + (k % 10);
      } else if (k > 1) buf[n++] = 48 + k;
      buf[n++] = LETTERS.charCodeAt(t) + (c ? 32 : 0);
    }
  }
  if (n === handStart) buf[n++] = 45; // "-"
  // TextDecoder beats String.fromCharCode.apply by 2x here and returns a flat string.
  return asciiDecoder.decode(buf.subarray(0, n));
}

/**
 * A bare SFEN (no "sfen " before it, no moves after it) with a move number: a book's keys
 * have three fields, while the USI grammar and other programs want four ("1" when missing).
 */
export function withMoveNumber(sfen: string): string {
  const text = sfen.trim();
  return / \d+$/.test(text) ? text : `${text} 1`;
}

/** Normalizes any SFEN (ply dropped, hands reordered); undefined when it does not parse. */
export function normalizeSfen(sfen: string): string | undefined {
  const p = parseSfen(sfen);
  return typeof p === "string" ? undefined : formatSfenKey(p.board, p.hands, p.side);
}
