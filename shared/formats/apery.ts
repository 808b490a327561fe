// Apery / dlshogi / cshogi binary books (.bin): 16-byte little-endian records
// { u64 key, u16 fromToPro, u16 count, i32 score }, sorted by key.
//
// The key is Apery's book Zobrist hash, worked out against book_apery.bin:
// mt19937_64 with its default seed (5489) fills, in this order,
//   piece table [piece 0..30][square 0..80]   (piece = colour << 4 | type, our layout),
//   hand table  [hand slot 0..6][count 0..18] (slots P L N S G B R: gold before bishop;
//               the file confirms the pawn and bishop slots, no position in it holds a
//               gold, lance, knight, silver or rook),
//   turn        (one value).
// key = XOR of piece[p][sq] over occupied squares
//     ^ XOR of hand[slot][count] over the hand of the side to move only
//     ^ (turn if white is to move).
// fromToPro is our Move layout (to | from << 7 | promote << 14, drop from = 80 + type).
//
// Kept as one file over 600 lines: the key tables' derivation, the reader and the writer must agree
// bit for bit, and one file keeps them from drifting apart.
import {
  BLACK,
  WHITE,
  type Color,
  type Move,
  typeOf,
  isDrop,
  dropType,
  moveFrom,
  moveTo,
  isPromotion,
  PROMOTED,
  makePiece,
  clampValue,
} from "../rules/types.js";
import { Position } from "../rules/position.js";
import { parseSfen, formatSfenKey } from "../rules/sfen.js";
import type { ThoughtPosition } from "../book/records.js";
import { grown } from "../util/typed-array.js";

// ---------------------------------------------------------------------------
// mt19937_64 (the published reference algorithm; BigInt is fine: ~2,700 draws once).

const MASK64 = (1n << 64n) - 1n;

export class Mt19937_64 {
  private readonly mt: bigint[] = new Array<bigint>(312);
  private index = 312;

  constructor(seed: bigint = 5489n) {
    this.mt[0] = seed & MASK64;
    for (let i = 1; i < 312; i++) {
      const prev = this.mt[i - 1];
      this.mt[i] = (6364136223846793005n * (prev ^ (prev >> 62n)) + BigInt(i)) & MASK64;
    }
  }

  next(): bigint {
    const mt = this.mt;
    if (this.index >= 312) {
      for (let i = 0; i < 312; i++) {
        const x = (mt[i] & 0xffffffff80000000n) | (mt[(i + 1) % 312] & 0x7fffffffn);
        let xa = x >> 1n;
        if (x & 1n) xa ^= 0xb5026f5aa96619e9n;
        mt[i] = mt[(i + 156) % 312] ^ xa;
      }
      this.index = 0;
    }
    let x = mt[this.index++];
    x ^= (x >> 29n) & 0x5555555555555555n;
    x ^= (x << 17n) & 0x71d67fffeda60000n;
    x ^= (x << 37n) & 0xfff7eee000000000n;
    x ^= x >> 43n;
    return x;
  }
}

// ---------------------------------------------------------------------------
// Zobrist tables as 32-bit halves, so key arithmetic on the walk stays in numbers.

const PIECE_SLOTS = 31;
const HAND_COUNTS = 19;
/** Hand slot of our piece type (1..7 = P L N S B R G) in Apery's order P L N S G B R. */
const HAND_SLOT = [-1, 0, 1, 2, 3, 5, 6, 4];

interface Tables {
  pieceHi: Uint32Array;
  pieceLo: Uint32Array;
  handHi: Uint32Array;
  handLo: Uint32Array;
  turnHi: number;
  turnLo: number;
}

let tables: Tables | undefined;

function getTables(): Tables {
  if (tables) return tables;
  const rng = new Mt19937_64();
  const pieceHi = new Uint32Array(PIECE_SLOTS * 81);
  const pieceLo = new Uint32Array(PIECE_SLOTS * 81);
  for (let i = 0; i < PIECE_SLOTS * 81; i++) {
    const v = rng.next();
    pieceHi[i] = Number(v >> 32n);
    pieceLo[i] = Number(v & 0xffffffffn);
  }
  const handHi = new Uint32Array(7 * HAND_COUNTS);
  const handLo = new Uint32Array(7 * HAND_COUNTS);
  for (let i = 0; i < 7 * HAND_COUNTS; i++) {
    const v = rng.next();
    handHi[i] = Number(v >> 32n);
    handLo[i] = Number(v & 0xffffffffn);
  }
  const t = rng.next();
  tables = { pieceHi, pieceLo, handHi, handLo, turnHi: Number(t >> 32n), turnLo: Number(t & 0xffffffffn) };
  return tables;
}

/** Hi/lo halves of a key; out[0] = high 32 bits, out[1] = low 32 bits (both unsigned). */
export type KeyHalves = [number, number];

/** The hand part of the key for colour c's hand. */
function handPart(hands: ArrayLike<number>, c: Color, out: KeyHalves): void {
  const T = getTables();
  let hi = 0;
  let lo = 0;
  for (let t = 1; t <= 7; t++) {
    const n = Math.min(hands[c * 8 + t], HAND_COUNTS - 1);
    const i = HAND_SLOT[t] * HAND_COUNTS + n;
    hi ^= T.handHi[i];
    lo ^= T.handLo[i];
  }
  out[0] = hi >>> 0;
  out[1] = lo >>> 0;
}

/** The board part of the key (no hands, no turn). */
function boardPart(board: ArrayLike<number>, out: KeyHalves): void {
  const T = getTables();
  let hi = 0;
  let lo = 0;
  for (let sq = 0; sq < 81; sq++) {
    const p = board[sq];
    if (!p || p >= PIECE_SLOTS) continue;
    hi ^= T.pieceHi[p * 81 + sq];
    lo ^= T.pieceLo[p * 81 + sq];
  }
  out[0] = hi >>> 0;
  out[1] = lo >>> 0;
}

/** Apery's book key of a position given as arrays (our layout), as hi/lo halves. */
export function aperyKeyHalves(board: ArrayLike<number>, hands: ArrayLike<number>, side: Color, out: KeyHalves = [0, 0]): KeyHalves {
  const T = getTables();
  const b: KeyHalves = [0, 0];
  const h: KeyHalves = [0, 0];
  boardPart(board, b);
  handPart(hands, side, h);
  out[0] = (b[0] ^ h[0] ^ (side === WHITE ? T.turnHi : 0)) >>> 0;
  out[1] = (b[1] ^ h[1] ^ (side === WHITE ? T.turnLo : 0)) >>> 0;
  return out;
}

export const halvesToBigint = (k: KeyHalves): bigint => (BigInt(k[0]) << 32n) | BigInt(k[1]);

/** Apery's book key of a position. */
export function aperyKey(board: ArrayLike<number>, hands: ArrayLike<number>, side: Color): bigint {
  return halvesToBigint(aperyKeyHalves(board, hands, side));
}

/** Apery's book key of an SFEN (ply ignored); undefined when the SFEN does not parse. */
export function aperyKeyOfSfen(sfen: string): bigint | undefined {
  const p = parseSfen(sfen);
  return typeof p === "string" ? undefined : aperyKey(p.board, p.hands, p.side);
}

/**
 * The key of the child after move m, from the parent's board without making the move.
 * Only the new side to move's hand enters the key, and a move never changes the hand of
 * the side that did not move, so the child's hand part is the opponent's current hand.
 */
function childKeyHalves(
  board: ArrayLike<number>,
  parentBoard: KeyHalves,
  opponentHand: KeyHalves,
  side: Color,
  m: Move,
  out: KeyHalves,
): void {
  const T = getTables();
  let hi = parentBoard[0];
  let lo = parentBoard[1];
  const to = moveTo(m);
  if (isDrop(m)) {
    const i = makePiece(side, dropType(m)) * 81 + to;
    hi ^= T.pieceHi[i];
    lo ^= T.pieceLo[i];
  } else {
    const from = moveFrom(m);
    const p = board[from];
    const captured = board[to];
    const moved = isPromotion(m) ? p | PROMOTED : p;
    hi ^= T.pieceHi[p * 81 + from] ^ T.pieceHi[moved * 81 + to];
    lo ^= T.pieceLo[p * 81 + from] ^ T.pieceLo[moved * 81 + to];
    if (captured) {
      hi ^= T.pieceHi[captured * 81 + to];
      lo ^= T.pieceLo[captured * 81 + to];
    }
  }
  // The child has the other side to move: turn toggles.
  out[0] = (hi ^ opponentHand[0] ^ (side === BLACK ? T.turnHi : 0)) >>> 0;
  out[1] = (lo ^ opponentHand[1] ^ (side === BLACK ? T.turnLo : 0)) >>> 0;
}

/** Apery key of the position after move m (legal in `pos`), without making the move. */
export function aperyChildKey(pos: { board: ArrayLike<number>; hands: ArrayLike<number>; side: Color }, m: Move): bigint {
  const b: KeyHalves = [0, 0];
  const h: KeyHalves = [0, 0];
  const out: KeyHalves = [0, 0];
  boardPart(pos.board, b);
  handPart(pos.hands, (pos.side ^ 1) as Color, h);
  childKeyHalves(pos.board, b, h, pos.side, m, out);
  return halvesToBigint(out);
}

// ---------------------------------------------------------------------------
// Records.

export interface AperyRecord {
  key: bigint;
  /** Apery's move16, identical to our Move layout. */
  fromToPro: number;
  count: number;
  score: number;
}

export interface AperyReadResult {
  records: AperyRecord[];
  /** Bytes after the last whole record (a truncated file), 0 when none. */
  truncatedBytes: number;
  errors: { offset?: number; message: string }[];
}

/** Reads all whole records; a partial tail and an unsorted file are reported, not thrown. */
export function readApery(bytes: Uint8Array): AperyReadResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.floor(bytes.length / 16);
  const records: AperyRecord[] = new Array(n);
  const errors: AperyReadResult["errors"] = [];
  let prev = -1n;
  let unsorted = 0;
  for (let i = 0; i < n; i++) {
    const o = i * 16;
    const key = (BigInt(view.getUint32(o + 4, true)) << 32n) | BigInt(view.getUint32(o, true));
    if (key < prev && unsorted++ === 0)
      errors.push({ offset: o, message: `record ${i} is out of key order (the file is not sorted; engines binary-search it)` });
    prev = key;
    records[i] = { key, fromToPro: view.getUint16(o + 8, true), count: view.getUint16(o + 10, true), score: view.getInt32(o + 12, true) };
  }
  const truncatedBytes = bytes.length - n * 16;
  if (truncatedBytes)
    errors.push({ offset: n * 16, message: `truncated: ${truncatedBytes} trailing bytes do not form a whole 16-byte record` });
  return { records, truncatedBytes, errors };
}

/**
 * Writes records sorted by key (unsigned), a key's moves in input order: readers
 * binary-search the key and take its moves in file order, so a book read and written
 * again keeps the order its author gave (book_apery.bin's is by count, descending).
 */
export function writeApery(records: readonly AperyRecord[]): Uint8Array {
  const w = new ColumnWriter(records.length);
  for (const r of records) {
    const k = r.key & MASK64;
    w.push(Number(k >> 32n), Number(k & 0xffffffffn), r.fromToPro, r.count, r.score);
  }
  return w.finish();
}

/** Growable record columns, sorted and serialized at the end (no object per record). */
class ColumnWriter {
  n = 0;
  private hi: Uint32Array;
  private lo: Uint32Array;
  private move: Uint16Array;
  private count: Uint16Array;
  private score: Int32Array;

  constructor(capacity = 1024) {
    const c = Math.max(16, capacity);
    this.hi = new Uint32Array(c);
    this.lo = new Uint32Array(c);
    this.move = new Uint16Array(c);
    this.count = new Uint16Array(c);
    this.score = new Int32Array(c);
  }

  push(hi: number, lo: number, move: number, count: number, score: number): void {
    if (this.n === this.hi.length) this.grow();
    const i = this.n++;
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.move[i] = move & 0xffff;
    this.count[i] = Math.max(0, Math.min(0xffff, Math.trunc(count) || 0));
    this.score[i] = Math.max(-0x80000000, Math.min(0x7fffffff, Math.trunc(score) || 0));
  }

  private grow(): void {
    const c = this.hi.length * 2;
    this.hi = grown(this.hi, c);
    this.lo = grown(this.lo, c);
    this.move = grown(this.move, c);
    this.count = grown(this.count, c);
    this.score = grown(this.score, c);
  }

  /** Sorted by unsigned key, then input order. */
  finish(): Uint8Array {
    const { n, hi, lo, move, count, score } = this;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => hi[a] - hi[b] || lo[a] - lo[b] || a - b);
    const out = new Uint8Array(n * 16);
    const view = new DataView(out.buffer);
    for (let i = 0; i < n; i++) {
      const r = order[i];
      const o = i * 16;
      view.setUint32(o, lo[r], true);
      view.setUint32(o + 4, hi[r], true);
      view.setUint16(o + 8, move[r], true);
      view.setUint16(o + 10, count[r], true);
      view.setInt32(o + 12, score[r], true);
    }
    return out;
  }
}

// ---------------------------------------------------------------------------
// Move text <-> fromToPro (pure bit layout, so no position is needed).

const DROP_LETTERS = "PLNSBRG";

export function fromToProToUsi(m: number): string | undefined {
  const to = m & 127;
  const from = (m >> 7) & 127;
  if (to > 80) return undefined;
  const sq = (s: number): string => `${Math.floor(s / 9) + 1}${String.fromCharCode(97 + (s % 9))}`;
  if (from >= 81) {
    if (from > 87 || m & (1 << 14)) return undefined;
    return `${DROP_LETTERS[from - 81]}*${sq(to)}`;
  }
  if (from === to) return undefined;
  return sq(from) + sq(to) + (m & (1 << 14) ? "+" : "");
}

export function usiToFromToPro(usi: string): number | undefined {
  const m = /^(?:([1-9])([a-i])|([PLNSBRG])\*)([1-9])([a-i])(\+?)$/.exec(usi);
  if (!m) return undefined;
  const to = (Number(m[4]) - 1) * 9 + (m[5].charCodeAt(0) - 97);
  if (m[3]) return m[6] ? undefined : to | ((81 + DROP_LETTERS.indexOf(m[3])) << 7);
  const from = (Number(m[1]) - 1) * 9 + (m[2].charCodeAt(0) - 97);
  if (from === to) return undefined;
  return to | (from << 7) | (m[6] ? 1 << 14 : 0);
}

// ---------------------------------------------------------------------------
// Book <-> position blocks.

export interface AperyCandidate {
  move: string;
  value: number;
  depth: number;
  count: number;
}

export interface AperyBlock {
  /** Normalized SFEN "<board> <b|w> <hands>". */
  sfen: string;
  candidates: AperyCandidate[];
  /** Plies from the import root (import only). */
  ply?: number;
}

/** Records as columns: 16 bytes per record in memory too, so a 15M-record book fits. */
export interface AperyColumns {
  n: number;
  hi: Uint32Array;
  lo: Uint32Array;
  move: Uint16Array;
  count: Uint16Array;
  score: Int32Array;
  truncatedBytes: number;
  /** False when the file was not sorted by key (the columns are sorted anyway, stably). */
  sorted: boolean;
  /** When not sorted: each column row's record number in the file. */
  origin?: Uint32Array;
}

/** Reads a book into key-sorted columns (sorting a copy when the file is not sorted). */
export function readAperyColumns(bytes: Uint8Array): AperyColumns {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.floor(bytes.length / 16);
  const hi = new Uint32Array(n),
    lo = new Uint32Array(n),
    move = new Uint16Array(n),
    count = new Uint16Array(n),
    score = new Int32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const o = i * 16;
    lo[i] = view.getUint32(o, true);
    hi[i] = view.getUint32(o + 4, true);
    move[i] = view.getUint16(o + 8, true);
    count[i] = view.getUint16(o + 10, true);
    score[i] = view.getInt32(o + 12, true);
    if (i && (hi[i] < hi[i - 1] || (hi[i] === hi[i - 1] && lo[i] < lo[i - 1]))) sorted = false;
  }
  const cols: AperyColumns = { n, hi, lo, move, count, score, truncatedBytes: bytes.length - n * 16, sorted };
  if (!sorted) {
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => hi[a] - hi[b] || lo[a] - lo[b] || a - b);
    cols.hi = Uint32Array.from(order, (i) => hi[i]);
    cols.lo = Uint32Array.from(order, (i) => lo[i]);
    cols.move = Uint16Array.from(order, (i) => move[i]);
    cols.count = Uint16Array.from(order, (i) => count[i]);
    cols.score = Int32Array.from(order, (i) => score[i]);
    cols.origin = Uint32Array.from(order);
  }
  return cols;
}

/** Index of the first record with this key, or -1 (binary search over sorted columns). */
function findKey(c: AperyColumns, hi: number, lo: number): number {
  let a = 0;
  let b = c.n;
  while (a < b) {
    const m = (a + b) >>> 1;
    const h = c.hi[m];
    if (h < hi || (h === hi && c.lo[m] < lo)) a = m + 1;
    else b = m;
  }
  return a < c.n && c.hi[a] === hi && c.lo[a] === lo ? a : -1;
}

export interface AperyImportOptions {
  /** Stop after this many positions (default unlimited), for bounded imports. */
  maxPositions?: number;
  /** Receive blocks as they are found instead of collecting them (large books). */
  onBlock?: (block: AperyBlock) => void;
}

export interface AperyImportResult {
  /** Reached positions in breadth-first order (empty when `onBlock` is given). */
  blocks: AperyBlock[];
  /** Number of blocks produced. */
  positions: number;
  records: number;
  /** Records whose key no walked position had. */
  unreachable: number;
  /** Records of reached positions whose move is not legal there (key collisions, damage). */
  illegal: number;
  truncatedBytes: number;
  errors: { offset?: number; message: string }[];
}

/** A frontier entry: the position's arrays packed as board[81], hands[16], side. */
const PACKED = 98;

/**
 * Walks legal moves breadth-first from the root through positions whose key is in the
 * book, up to `maxPly` plies; each reached position becomes a block with the book's moves
 * for its key. A child's key is computed from the parent without making the move, looked
 * up by binary search behind a bitmap prefilter, and only children in the book are made.
 * `rootSfen` is an SFEN or "startpos". Never throws.
 */
export function importApery(bytes: Uint8Array, rootSfen = "startpos", maxPly = 256, options: AperyImportOptions = {}): AperyImportResult {
  const maxPositions = options.maxPositions ?? Number.POSITIVE_INFINITY;
  const cols = readAperyColumns(bytes);
  const errors: AperyImportResult["errors"] = [];
  if (!cols.sorted) errors.push({ message: "the file is not sorted by key (engines binary-search it); read in sorted order" });
  if (cols.truncatedBytes)
    errors.push({ offset: cols.n * 16, message: `truncated: ${cols.truncatedBytes} trailing bytes do not form a whole 16-byte record` });
  const result: AperyImportResult = {
    blocks: [],
    positions: 0,
    records: cols.n,
    unreachable: cols.n,
    illegal: 0,
    truncatedBytes: cols.truncatedBytes,
    errors,
  };
  let root: Position;
  try {
    root = Position.fromSfen(rootSfen);
  } catch (e) {
    errors.push({ message: `root position: ${e instanceof Error ? e.message : String(e)}` });
    return result;
  }
  // 2^24-bit prefilter on the low key bits: most children are not in the book.
  const bloom = new Uint8Array(1 << 21);
  for (let i = 0; i < cols.n; i++) bloom[(cols.lo[i] & 0xffffff) >>> 3] |= 1 << (cols.lo[i] & 7);
  const inBook = (hi: number, lo: number): number => ((bloom[(lo & 0xffffff) >>> 3] >> (lo & 7)) & 1 ? findKey(cols, hi, lo) : -1);
  const used = new Uint8Array(cols.n);
  const visited = new Uint8Array(cols.n); // by the first record of a key
  const emit = options.onBlock ?? ((b: AperyBlock) => result.blocks.push(b));
  const here: KeyHalves = [0, 0],
    parentBoard: KeyHalves = [0, 0],
    oppHand: KeyHalves = [0, 0],
    child: KeyHalves = [0, 0];
  const legal = new Uint16Array(600);
  aperyKeyHalves(root.board, root.hands, root.side, here);
  const rootIndex = inBook(here[0], here[1]);
  let frontier: Uint8Array[] = [];
  if (rootIndex >= 0) {
    visited[rootIndex] = 1;
    frontier.push(pack(root.board, root.hands, root.side));
  }
  try {
    for (let ply = 0; ply <= maxPly && frontier.length && result.positions < maxPositions; ply++) {
      const next: Uint8Array[] = [];
      for (const packed of frontier) {
        if (result.positions >= maxPositions) break;
        const side = packed[97] as Color;
        const pos = Position.fromParts(packed.subarray(0, 81), packed.subarray(81, 97), side);
        const nLegal = pos.generateLegal(legal);
        aperyKeyHalves(pos.board, pos.hands, side, here);
        const candidates: AperyCandidate[] = [];
        for (let i = findKey(cols, here[0], here[1]); i >= 0 && i < cols.n && cols.hi[i] === here[0] && cols.lo[i] === here[1]; i++) {
          used[i] = 1;
          const m = cols.move[i] & 0x7fff;
          let ok = false;
          for (let k = 0; k < nLegal; k++)
            if (legal[k] === m) {
              ok = true;
              break;
            }
          const usi = ok ? fromToProToUsi(m) : undefined;
          if (usi === undefined) {
            // A damaged record (or, very rarely, another position's under the same key).
            if (result.illegal++ < 100) {
              const record = cols.origin ? cols.origin[i] : i;
              errors.push({
                offset: record * 16,
                message: `record ${record} (offset ${record * 16}): move 0x${cols.move[i].toString(16).padStart(4, "0")} is not a legal move in ${formatSfenKey(pos.board, pos.hands, side)}`,
              });
            }
            continue;
          }
          candidates.push({ move: usi, value: clampValue(cols.score[i]), depth: 0, count: cols.count[i] });
        }
        emit({ sfen: formatSfenKey(pos.board, pos.hands, side), candidates, ply });
        result.positions++;
        if (ply === maxPly) continue;
        boardPart(pos.board, parentBoard);
        handPart(pos.hands, (side ^ 1) as Color, oppHand);
        for (let k = 0; k < nLegal; k++) {
          const m = legal[k];
          childKeyHalves(pos.board, parentBoard, oppHand, side, m, child);
          const idx = inBook(child[0], child[1]);
          if (idx < 0 || visited[idx]) continue;
          visited[idx] = 1;
          next.push(packChild(packed, m));
        }
      }
      frontier = next;
    }
  } catch (e) {
    errors.push({ message: `walk stopped: ${e instanceof Error ? e.message : String(e)}` });
  }
  let unreachable = 0;
  for (let i = 0; i < cols.n; i++) if (!used[i]) unreachable++;
  result.unreachable = unreachable;
  if (result.illegal > 100) errors.push({ message: `${result.illegal - 100} more records with a move that is not legal` });
  if (unreachable) errors.push({ message: `${unreachable} of ${cols.n} records were not reached from the root within ${maxPly} plies` });
  return result;
}

function pack(board: ArrayLike<number>, hands: ArrayLike<number>, side: Color): Uint8Array {
  const p = new Uint8Array(PACKED);
  p.set(board as Uint8Array, 0);
  p.set(hands as Uint8Array, 81);
  p[97] = side;
  return p;
}

/** The child's packed arrays after a legal move (no Position needed). */
function packChild(parent: Uint8Array, m: Move): Uint8Array {
  const p = parent.slice();
  const side = parent[97];
  const to = moveTo(m);
  if (isDrop(m)) {
    const t = dropType(m);
    p[81 + side * 8 + t]--;
    p[to] = makePiece(side as Color, t);
  } else {
    const from = moveFrom(m);
    const captured = p[to];
    if (captured) {
      // Promoted pieces go back to hand unpromoted; a legal move never captures a king.
      const t = typeOf(captured);
      p[81 + side * 8 + (t > PROMOTED ? t - PROMOTED : t)]++;
    }
    p[to] = isPromotion(m) ? p[from] | PROMOTED : p[from];
    p[from] = 0;
  }
  p[97] = side ^ 1;
  return p;
}

export interface AperyExportResult {
  bytes: Uint8Array;
  /** Candidates skipped: unusable move text, or a block whose SFEN does not parse. */
  skipped: number;
  errors: { message: string }[];
}

/** Writes blocks as an Apery book; a candidate without a count gets 1. */
export function exportApery(
  blocks: readonly { sfen: string; candidates: readonly { move: string; value: number; count?: number }[] }[],
): AperyExportResult {
  const w = new ColumnWriter(blocks.length * 4);
  const errors: { message: string }[] = [];
  let skipped = 0;
  // Books repeat a few thousand move texts millions of times.
  const moveCache = new Map<string, number>();
  const key: KeyHalves = [0, 0];
  for (const b of blocks) {
    const p = parseSfen(b.sfen);
    if (typeof p === "string") {
      skipped += b.candidates.length;
      if (errors.length < 100) errors.push({ message: `${b.sfen.slice(0, 80)}: ${p}` });
      continue;
    }
    aperyKeyHalves(p.board, p.hands, p.side, key);
    for (const c of b.candidates) {
      let m = moveCache.get(c.move);
      if (m === undefined) {
        m = usiToFromToPro(c.move) ?? -1;
        moveCache.set(c.move, m);
      }
      if (m < 0) {
        skipped++;
        continue;
      }
      w.push(key[0], key[1], m, c.count ?? 1, c.value);
    }
  }
  return { bytes: w.finish(), skipped, errors };
}

/**
 * Imported blocks as the book's thought positions (count is Apery's own weight and has
 * no place there; the value is kept, depth 0, the PV is the move alone).
 */
export function aperyBlocksToThoughts(blocks: readonly AperyBlock[], file: string, thoughtAt: number): ThoughtPosition[] {
  return blocks.map((b) => ({
    sfen: b.sfen,
    candidates: b.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth, pv: [c.move] })),
    provenance: { kind: "import", file },
    thoughtAt,
  }));
}
