// YaneuraOu binary books (`.ybb`, "YANE-BINBOOK-V1"), from the format's published
// description: a 32-byte header (magic, u64 record count, u64 flags), an index of 44-byte
// records sorted by their 32-byte packed position (packed SFEN, u64 offset of the moves
// relative to the moves area, u16 ply, u16 move count), then the moves: u16 move16,
// i16 eval and, when flags bit 0 is set, u16 depth. All little-endian.
//
// The packed position (YaneuraOu's PackedSfen, 256 bits, written from the lowest bit of
// byte 0 up): side to move (1 bit), black and white king squares (7 bits each), every
// other square from 1a, 1b, ... 9i as a Huffman code (empty 0; pawn 01, lance 0011,
// knight 1011, silver 0111, gold 01111, bishop 011111, rook 111111, codes read from the
// first bit written), a promotion bit (not for gold) and a colour bit; then the pieces in
// hand, black's then white's, in the order P L N S G B R, each as its board code without
// the first bit, a zero promotion bit and the colour bit; then any pieces in neither
// (a piece box: the hand code with the promotion bit set).
import { GOLD, KING, PAWN, type Color } from "../rules/types.js";
import { formatSfenKey, parseSfen } from "../rules/sfen.js";
import { Position } from "../rules/position.js";
import { parseUsiMove } from "../rules/usi.js";

export const YBB_MAGIC = "YANE-BINBOOK-V1\0";
const HEADER = 32;
const RECORD = 44;
const FLAG_DEPTH = 1n;

/** Huffman codes by piece type (PAWN 1 .. GOLD 7): [bits as written, first bit lowest; length]. */
const CODE: readonly [number, number][] = [
  [0, 1],
  [0b01, 2],
  [0b0011, 4],
  [0b1011, 4],
  [0b0111, 4],
  [0b011111, 6],
  [0b111111, 6],
  [0b01111, 5],
];
/** Hand pieces are written pawn, lance, knight, silver, gold, bishop, rook. */
const HAND_ORDER = [PAWN, 2, 3, 4, GOLD, 5, 6];
/** Pieces of each type in a full set. */
const FULL = [0, 18, 4, 4, 4, 2, 2, 4];

class Bits {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  write(value: number, n: number): void {
    for (let i = 0; i < n; i++, this.pos++) {
      if (this.pos >= 256) throw new Error("packed position overflows 256 bits");
      if ((value >> i) & 1) this.bytes[this.pos >> 3]! |= 1 << (this.pos & 7);
    }
  }
  read(): number {
    if (this.pos >= 256) throw new Error("packed position ends early");
    const b = (this.bytes[this.pos >> 3]! >> (this.pos & 7)) & 1;
    this.pos++;
    return b;
  }
  readN(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v |= this.read() << i;
    return v;
  }
}

/** Packs a position (board[81] by our Square, hands[16] as in the rules core, side). */
export function packPosition(board: ArrayLike<number>, hands: ArrayLike<number>, side: Color): Uint8Array {
  const out = new Uint8Array(32);
  const w = new Bits(out);
  const counts = FULL.slice();
  const kings = [81, 81];
  for (let sq = 0; sq < 81; sq++) {
    const p = board[sq]!;
    if ((p & 15) === KING) kings[p >> 4] = sq;
  }
  w.write(side, 1);
  w.write(kings[0]!, 7);
  w.write(kings[1]!, 7);
  for (let sq = 0; sq < 81; sq++) {
    const p = board[sq]!;
    if (p === 0) {
      w.write(0, 1);
      continue;
    }
    const t = p & 15;
    if (t === KING) continue;
    const base = t === GOLD ? GOLD : t & 7;
    counts[base]!--;
    w.write(CODE[base]![0], CODE[base]![1]);
    if (base !== GOLD) w.write(t > 8 ? 1 : 0, 1);
    w.write(p >> 4, 1);
  }
  for (let c = 0; c < 2; c++) {
    for (const t of HAND_ORDER) {
      const n = hands[c * 8 + t]!;
      for (let i = 0; i < n; i++) {
        counts[t]!--;
        w.write(CODE[t]![0] >> 1, CODE[t]![1] - 1);
        if (t !== GOLD) w.write(0, 1);
        w.write(c, 1);
      }
    }
  }
  for (const t of HAND_ORDER) {
    if (counts[t]! < 0) throw new Error(`more than ${FULL[t]} pieces of one kind`);
    for (let i = 0; i < counts[t]!; i++) {
      // A piece in the box: the hand code with the promotion bit set, colour 0. Gold has no
      // promotion bit to set, so a position missing a gold cannot be written.
      if (t === GOLD) throw new Error("a position with a gold in neither board nor hand cannot be packed");
      w.write(CODE[t]![0] >> 1, CODE[t]![1] - 1);
      w.write(1, 1);
      w.write(0, 1);
    }
  }
  if (w.pos !== 256) throw new Error(`packed position has ${w.pos} bits, not 256`);
  return out;
}

export function packSfen(sfen: string): Uint8Array {
  const p = parseSfen(sfen);
  if (typeof p === "string") throw new Error(`not a position: ${p}`);
  return packPosition(p.board, p.hands, p.side);
}

function readCode(r: Bits, hand: boolean): number {
  let code = 0;
  for (let n = 1; n <= 6; n++) {
    code |= r.read() << (n - 1);
    for (let t = hand ? PAWN : 0; t <= GOLD; t++) {
      const [c, len] = CODE[t]!;
      if (hand ? len - 1 === n && c >> 1 === code : len === n && c === code) return t;
    }
  }
  throw new Error("packed position holds an unknown piece code");
}

/** The normalized SFEN key (no ply) of a packed position; throws on a damaged one. */
export function unpackSfen(bytes: Uint8Array): string {
  const r = new Bits(bytes);
  const board = new Uint8Array(81);
  const hands = new Uint8Array(16);
  const side = r.read() as Color;
  const kings = [r.readN(7), r.readN(7)];
  for (let c = 0; c < 2; c++) {
    const k = kings[c]!;
    if (k > 81) throw new Error(`king square ${k} is off the board`);
    if (k < 81) board[k] = (c << 4) | KING;
  }
  for (let sq = 0; sq < 81; sq++) {
    if (sq === kings[0] || sq === kings[1]) continue;
    const t = readCode(r, false);
    if (t === 0) continue;
    const promoted = t !== GOLD && r.read() === 1;
    const c = r.read();
    board[sq] = (c << 4) | (promoted ? t | 8 : t);
  }
  while (r.pos < 256) {
    const t = readCode(r, true);
    const promoted = t !== GOLD ? r.read() === 1 : false;
    const c = r.read();
    if (promoted) continue; // the piece box
    hands[c * 8 + t]!++;
  }
  return formatSfenKey(board, hands, side);
}

/** YaneuraOu's move16: to (7 bits), from (7 bits) or the dropped piece type, drop flag 1<<14, promotion 1<<15. */
export function usiToMove16(usi: string): number | undefined {
  const sq = (f: string, r: string) => (Number(f) - 1) * 9 + (r.charCodeAt(0) - 97);
  let m = /^([PLNSBRG])\*([1-9])([a-i])$/.exec(usi);
  if (m) return sq(m[2]!, m[3]!) | (("PLNSBRG".indexOf(m[1]!) + 1) << 7) | (1 << 14);
  m = /^([1-9])([a-i])([1-9])([a-i])(\+?)$/.exec(usi);
  if (m) return sq(m[3]!, m[4]!) | (sq(m[1]!, m[2]!) << 7) | (m[5] ? 1 << 15 : 0);
  return undefined;
}

export function move16ToUsi(m: number): string | undefined {
  const to = m & 127;
  const from = (m >> 7) & 127;
  if (to >= 81) return undefined;
  const name = (s: number) => `${Math.floor(s / 9) + 1}${String.fromCharCode(97 + (s % 9))}`;
  if (m & (1 << 14)) {
    if (from < PAWN || from > GOLD || m & (1 << 15)) return undefined;
    return `${"PLNSBRG"[from - 1]}*${name(to)}`;
  }
  if (from >= 81 || from === to) return undefined;
  return `${name(from)}${name(to)}${m & (1 << 15) ? "+" : ""}`;
}

export interface YbbMove {
  move: string;
  value: number;
  depth: number;
}

export interface YbbBlock {
  /** Normalized SFEN without ply. */
  sfen: string;
  ply: number;
  moves: YbbMove[];
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

const clamp16 = (v: number) => Math.max(-32767, Math.min(32767, Math.round(v)));

/**
 * Writes a .ybb (depth kept, flags bit 0 set). Positions are sorted by packed bytes;
 * a position given twice keeps its first block; moves that are not USI moves are left out.
 */
export function writeYbb(blocks: readonly YbbBlock[]): Uint8Array {
  const seen = new Set<string>();
  const rows: { key: Uint8Array; b: YbbBlock; moves: { m16: number; v: number; d: number }[] }[] = [];
  for (const b of blocks) {
    const key = packSfen(b.sfen);
    const id = String.fromCharCode(...key);
    if (seen.has(id)) continue;
    seen.add(id);
    const moves: { m16: number; v: number; d: number }[] = [];
    for (const m of b.moves) {
      const m16 = usiToMove16(m.move);
      if (m16 !== undefined) moves.push({ m16, v: clamp16(m.value), d: Math.max(0, Math.min(65535, m.depth | 0)) });
    }
    rows.push({ key, b, moves: moves.slice(0, 65535) });
  }
  rows.sort((x, y) => compareBytes(x.key, y.key));
  const moveBytes = rows.reduce((a, r) => a + r.moves.length * 6, 0);
  const out = new Uint8Array(HEADER + rows.length * RECORD + moveBytes);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 16; i++) out[i] = YBB_MAGIC.charCodeAt(i);
  view.setBigUint64(16, BigInt(rows.length), true);
  view.setBigUint64(24, FLAG_DEPTH, true);
  const movesStart = HEADER + rows.length * RECORD;
  let mo = 0;
  rows.forEach((r, i) => {
    const at = HEADER + i * RECORD;
    out.set(r.key, at);
    view.setBigUint64(at + 32, BigInt(mo), true);
    view.setUint16(at + 40, Math.max(0, Math.min(65535, r.b.ply | 0)), true);
    view.setUint16(at + 42, r.moves.length, true);
    for (const m of r.moves) {
      view.setUint16(movesStart + mo, m.m16, true);
      view.setInt16(movesStart + mo + 2, m.v, true);
      view.setUint16(movesStart + mo + 4, m.d, true);
      mo += 6;
    }
  });
  return out;
}

/** Thrown for a file that is not a well-formed .ybb; says where. */
export class YbbError extends Error {}

/** Reads a whole .ybb; any damage is a YbbError naming the record or offset. */
export function readYbb(bytes: Uint8Array): YbbBlock[] {
  if (bytes.length < HEADER) throw new YbbError(`too short for a YANE-BINBOOK header (${bytes.length} bytes)`);
  for (let i = 0; i < 16; i++)
    if (bytes[i] !== YBB_MAGIC.charCodeAt(i)) throw new YbbError('no "YANE-BINBOOK-V1" signature: not a YaneuraOu binary book');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getBigUint64(16, true);
  const flags = view.getBigUint64(24, true);
  if (flags & ~FLAG_DEPTH) throw new YbbError(`unknown flags 0x${flags.toString(16)} (a newer format?)`);
  const size = flags & FLAG_DEPTH ? 6 : 4;
  if (count > BigInt(Math.floor((bytes.length - HEADER) / RECORD)))
    throw new YbbError(`the header says ${count} positions, but the file holds at most ${Math.floor((bytes.length - HEADER) / RECORD)}`);
  const n = Number(count);
  const movesStart = HEADER + n * RECORD;
  const out: YbbBlock[] = [];
  let prev: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const at = HEADER + i * RECORD;
    const key = bytes.subarray(at, at + 32);
    if (prev && compareBytes(prev, key) >= 0)
      throw new YbbError(`record ${i}: positions are not in sorted order (engines binary-search them)`);
    prev = key;
    let sfen: string;
    let pos: Position;
    try {
      sfen = unpackSfen(key);
      pos = Position.fromSfen(sfen); // a damaged position fails here (too many golds, a pawn on the last rank, ...)
    } catch (e) {
      throw new YbbError(`record ${i} (offset ${at}): ${e instanceof Error ? e.message : String(e)}`);
    }
    const off = view.getBigUint64(at + 32, true);
    const ply = view.getUint16(at + 40, true);
    const moveCount = view.getUint16(at + 42, true);
    const start = BigInt(movesStart) + off;
    if (start + BigInt(moveCount * size) > BigInt(bytes.length))
      throw new YbbError(`record ${i}: its ${moveCount} moves at offset ${off} run past the end of the file`);
    const moves: YbbMove[] = [];
    for (let k = 0; k < moveCount; k++) {
      const o = Number(start) + k * size;
      const m16 = view.getUint16(o, true);
      const usi = move16ToUsi(m16);
      if (usi === undefined) throw new YbbError(`record ${i} move ${k + 1} (offset ${o}): 0x${m16.toString(16)} is not a move`);
      const m = parseUsiMove(usi);
      if (m === null || !pos.isLegal(m))
        throw new YbbError(`record ${i} move ${k + 1} (offset ${o}): ${usi} is not a legal move in ${sfen}`);
      moves.push({ move: usi, value: view.getInt16(o + 2, true), depth: size === 6 ? view.getUint16(o + 4, true) : 0 });
    }
    out.push({ sfen, ply, moves });
  }
  return out;
}
