// Steps 1 and 2 of the Peta-Shock export (docs/DESIGN.md §5) over a run of consecutive blocks: the
// intake keeps each block's position keys and listed moves; once every block's keys are in
// the node index, the run's edges are made from its positions' legal moves. A run stands on
// its own, so `horu peta` reads a big file as two runs on two threads: each thread reads its
// half of the file and makes that half's edges, and only the index (built in block order
// from both runs' keys, in shared memory) joins them.

import { Position } from "../rules/position.js";
import { scanSfen, type ScannedPosition, type SfenScan } from "../rules/sfen.js";
import { HAND_MAX, Z_HAND_HI, Z_HAND_LO, Z_PIECE_HI, Z_PIECE_LO, Z_SIDE_HI, Z_SIDE_LO } from "../rules/zobrist.js";

export const VALUE_WIN = 32000;
export const clampValue = (v: number): number => (v > VALUE_WIN ? VALUE_WIN : v < -VALUE_WIN ? -VALUE_WIN : v);

// Edge kinds in a child array: a node id (internal edge), or one of these.
export const LEAF = -1;
export const REMOVED = -2;
/** The value of an internal edge whose move was not listed. */
export const NOT_LISTED = -32768;

// ---- growing typed arrays ----

export class IntList {
  data: Int32Array<ArrayBuffer>;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(Math.ceil(this.data.length * 1.5) + 16);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  append(src: Int32Array): void {
    if (this.length + src.length > this.data.length) {
      const next = new Int32Array(this.length + src.length);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.set(src, this.length);
    this.length += src.length;
  }
}

/** A growing Uint16Array / Int16Array. */
export class ShortList<T extends Uint16Array<ArrayBuffer> | Int16Array<ArrayBuffer>> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(Math.ceil(this.data.length * 1.5) + 16);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  append(src: T): void {
    if (this.length + src.length > this.data.length) {
      const next = this.make(this.length + src.length);
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data.set(src, this.length);
    this.length += src.length;
  }
}
export const u16 = (n: number) => new Uint16Array(n);
export const i16 = (n: number) => new Int16Array(n);

// ---- the node index ----

/** The index's memory, to hand to another thread (shared when built with `shared`). */
export interface NodeIndexBuffers {
  slots: Int32Array<ArrayBufferLike>;
  filter: Int32Array<ArrayBufferLike>;
}

/**
 * Open addressing on 64-bit keys (hi, lo) to node ids; setting a key again replaces it.
 * Slots are [lo, hi, id + 1] side by side, so a probe touches one cache line. Most probes
 * of an export miss (legal moves to positions outside the book), and at a million
 * positions the slots are far larger than the caches: a filter of 2 bits per key in one
 * 32-bit word, small enough to stay in the core's own cache, answers most misses first.
 */
export class NodeIndex {
  private constructor(
    private readonly slots: Int32Array<ArrayBufferLike>,
    private readonly filter: Int32Array<ArrayBufferLike>,
  ) {
    this.mask = slots.length / 3 - 1;
    this.filterMask = filter.length - 1;
  }
  private readonly mask: number;
  private readonly filterMask: number;

  /** An empty index for up to `keys` keys (at most half full), in shared memory when asked. */
  static forKeys(keys: number, shared = false): NodeIndex {
    let capacity = 1 << 12;
    while (capacity < keys * 2) capacity *= 2;
    const words = Math.max(capacity / FILTER_SLOTS_PER_WORD, 64);
    const make = (n: number) => (shared ? new Int32Array(new SharedArrayBuffer(n * 4)) : new Int32Array(n));
    return new NodeIndex(make(capacity * 3), make(words));
  }

  /** An index over another thread's buffers (read only there). */
  static attach(b: NodeIndexBuffers): NodeIndex {
    return new NodeIndex(b.slots, b.filter);
  }

  buffers(): NodeIndexBuffers {
    return { slots: this.slots, filter: this.filter };
  }

  /** The node id, or -1. */
  get(hi: number, lo: number): number {
    hi |= 0;
    lo |= 0;
    const h = lo ^ Math.imul(hi, 0x9e3779b1);
    const bits = (1 << (h & 31)) | (1 << ((h >>> 5) & 31));
    if ((this.filter[(h >>> 10) & this.filterMask] & bits) !== bits) return -1;
    const slots = this.slots;
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i * 3;
      const id = slots[at + 2];
      if (id === 0 || (slots[at] === lo && slots[at + 1] === hi)) return id - 1;
    }
  }

  /**
   * get() for keys (hi[k], lo[k]), k < count, into out[k]. The filter words of all keys are
   * read first in a loop without branches, so their cache misses overlap instead of
   * waiting one after another.
   */
  getAll(hi: Int32Array, lo: Int32Array, count: number, out: Int32Array): void {
    const filter = this.filter;
    const filterMask = this.filterMask;
    for (let k = 0; k < count; k++) {
      const h = lo[k] ^ Math.imul(hi[k], 0x9e3779b1);
      const bits = (1 << (h & 31)) | (1 << ((h >>> 5) & 31));
      out[k] = (filter[(h >>> 10) & filterMask] & bits) ^ bits; // 0: maybe in the index
    }
    const slots = this.slots;
    const mask = this.mask;
    for (let k = 0; k < count; k++) {
      if (out[k] !== 0) {
        out[k] = -1;
        continue;
      }
      const khi = hi[k];
      const klo = lo[k];
      for (let i = (klo ^ Math.imul(khi, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
        const at = i * 3;
        const id = slots[at + 2];
        if (id === 0 || (slots[at] === klo && slots[at + 1] === khi)) {
          out[k] = id - 1;
          break;
        }
      }
    }
  }

  set(hi: number, lo: number, id: number): void {
    hi |= 0;
    lo |= 0;
    const h = lo ^ Math.imul(hi, 0x9e3779b1);
    this.filter[(h >>> 10) & this.filterMask] |= (1 << (h & 31)) | (1 << ((h >>> 5) & 31));
    const slots = this.slots;
    const mask = this.mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i * 3;
      if (slots[at + 2] === 0) {
        slots[at] = lo;
        slots[at + 1] = hi;
        slots[at + 2] = id + 1;
        return;
      }
      if (slots[at] === lo && slots[at + 1] === hi) {
        slots[at + 2] = id + 1;
        return;
      }
    }
  }
}

/** Slots per filter word: 16 slots (at most 8 keys) share 32 bits, 2 of them per key. */
const FILTER_SLOTS_PER_WORD = 16;

// ---- position keys ----

const HAND_SLOTS = HAND_MAX + 1;

/**
 * The Zobrist key of a position (board[boardAt + sq], hands[handsAt + colour * 8 + type],
 * side to move) into key[0..1], and its colour-flipped twin's (board turned 180 degrees,
 * colours and hands swapped, the other side to move) into key[2..3].
 */
export function positionKeys(board: Uint8Array, boardAt: number, hands: Uint8Array, handsAt: number, side: number, key: Uint32Array): void {
  let hi = 0;
  let lo = 0;
  let fhi = 0;
  let flo = 0;
  for (let sq = 0; sq < 81; sq++) {
    const p = board[boardAt + sq];
    if (p === 0) continue;
    hi ^= Z_PIECE_HI[p * 81 + sq];
    lo ^= Z_PIECE_LO[p * 81 + sq];
    fhi ^= Z_PIECE_HI[(p ^ 16) * 81 + 80 - sq];
    flo ^= Z_PIECE_LO[(p ^ 16) * 81 + 80 - sq];
  }
  for (let t = 1; t < 8; t++) {
    const b = hands[handsAt + t];
    const w = hands[handsAt + 8 + t];
    if (b !== 0) {
      hi ^= Z_HAND_HI[t * HAND_SLOTS + b];
      lo ^= Z_HAND_LO[t * HAND_SLOTS + b];
      fhi ^= Z_HAND_HI[(8 + t) * HAND_SLOTS + b];
      flo ^= Z_HAND_LO[(8 + t) * HAND_SLOTS + b];
    }
    if (w !== 0) {
      hi ^= Z_HAND_HI[(8 + t) * HAND_SLOTS + w];
      lo ^= Z_HAND_LO[(8 + t) * HAND_SLOTS + w];
      fhi ^= Z_HAND_HI[t * HAND_SLOTS + w];
      flo ^= Z_HAND_LO[t * HAND_SLOTS + w];
    }
  }
  // The twin has the other side to move.
  if (side === 1) {
    hi ^= Z_SIDE_HI;
    lo ^= Z_SIDE_LO;
  } else {
    fhi ^= Z_SIDE_HI;
    flo ^= Z_SIDE_LO;
  }
  key[0] = hi >>> 0;
  key[1] = lo >>> 0;
  key[2] = fhi >>> 0;
  key[3] = flo >>> 0;
}

const sfenScan: SfenScan = { side: 0, ply: 0, end: 0 };

/**
 * Reads "<board> <b|w> <hands> [ply]" from src[start..end) into a position record (board at
 * 0..80, hands at 80 + colour * 8 + type, side at 88, the one slot no hand uses) and sets
 * key[0..1] to its Zobrist key and key[2..3] to its colour-flipped twin's, without building
 * a Position. False when the text is not an SFEN (scanSfen); kings, dead pieces and the
 * like are not checked.
 */
export function readSfenRecordBytes(src: Uint8Array, start: number, end: number, rec: Uint8Array, at: number, key: Uint32Array): boolean {
  if (scanSfen(src, start, end, rec, at, rec, at + 80, sfenScan) !== null) return false;
  positionKeys(rec, at, rec, at + 80, sfenScan.side, key);
  if (sfenScan.side === 1) rec[at + 88] = 1;
  return true;
}

// ---- step 1: the intake of a run of blocks ----

/**
 * Blocks in input order, kept compact: per block its two keys (itself and its twin) and
 * whether its SFEN is a position, and its listed moves (the first line of each well-formed
 * USI move, values clamped).
 */
export class BlockIntake {
  count = 0;
  /** 4 words per block: key hi, lo, twin key hi, lo (zero for a bad block). */
  keys = new Uint32Array(4096);
  /** 1 when the block's SFEN is not a position. */
  bad = new Uint8Array(1024);
  readonly listedStart = new IntList();
  readonly listedMove = new ShortList(new Uint16Array(1024), u16);
  readonly listedValue = new ShortList(new Int16Array(1024), i16);
  ignoredMoves = 0;
  private inBlock = false;
  private readonly record = new Uint8Array(96);
  private readonly key = new Uint32Array(4);

  constructor() {
    this.listedStart.push(0);
  }

  /** A block whose SFEN text is src[start..end); its move lines follow with addMove(). */
  beginBlock(src: Uint8Array, start: number, end: number): void {
    const id = this.open();
    if (readSfenRecordBytes(src, start, end, this.record, 0, this.key)) this.keys.set(this.key, id * 4);
    else this.bad[id] = 1;
  }

  /** beginBlock() for a block whose SFEN its reader has already scanned. */
  beginScannedBlock(p: ScannedPosition): void {
    const id = this.open();
    positionKeys(p.board, 0, p.hands, 0, p.side, this.key);
    this.keys.set(this.key, id * 4);
  }

  private open(): number {
    if (this.inBlock) this.endBlock();
    this.inBlock = true;
    const id = this.count++;
    if (id === this.bad.length) {
      const bad = new Uint8Array(id * 2);
      bad.set(this.bad);
      this.bad = bad;
      const keys = new Uint32Array(id * 8);
      keys.set(this.keys);
      this.keys = keys;
    }
    return id;
  }

  /** A listed move of the open block: its code (-1: not a move, ignored) and value (null counts as 0). */
  addMove(code: number, value: number | null): void {
    if (code <= 0) {
      this.ignoredMoves++;
      return;
    }
    const listed = this.listedMove.data;
    for (let j = this.listedStart.data[this.count - 1]; j < this.listedMove.length; j++) {
      if (listed[j] === code) {
        this.ignoredMoves++; // a duplicate line: the first is kept
        return;
      }
    }
    this.listedMove.push(code);
    this.listedValue.push(clampValue(Math.trunc(value ?? 0)));
  }

  endBlock(): void {
    if (!this.inBlock) return;
    this.inBlock = false;
    this.listedStart.push(this.listedMove.length);
  }

  /** Frees the keys and listed moves once the edges are made (the counts stay). */
  release(): void {
    this.keys = new Uint32Array(0);
    this.listedMove.data = new Uint16Array(0);
    this.listedValue.data = new Int16Array(0);
    this.listedStart.data = new Int32Array(0);
  }

  /** Blocks with a position (each gives two keys to the index). */
  positions(): number {
    let good = 0;
    for (let i = 0; i < this.count; i++) good += 1 - this.bad[i];
    return good;
  }
}

/**
 * Every block's keys into the index, in block order, the first block of the run being node
 * `firstId`: the last block with a key (or its twin's) owns it.
 */
export function indexKeys(index: NodeIndex, keys: Uint32Array, bad: Uint8Array, count: number, firstId: number): void {
  for (let i = 0; i < count; i++) {
    if (bad[i]) continue;
    index.set(keys[i * 4], keys[i * 4 + 1], firstId + i);
    index.set(keys[i * 4 + 2], keys[i * 4 + 3], firstId + i);
  }
}

// ---- step 2: edges ----

/**
 * Every block's SFEN bytes, in input order: visit(id, src, start, end) once per block, ids
 * 0, 1, 2, ... of the run. The intake keeps no positions; a file reader passes a source that
 * reads the file again.
 */
export type SfenSource = (visit: (id: number, src: Uint8Array, start: number, end: number) => void) => void;

/** A run's edges, ready to be joined with the other runs' into the exporter's graph. */
export interface RunEdges {
  count: number;
  /** Edges of block i (of the run) are start[i]..start[i + 1]. */
  start: Int32Array<ArrayBuffer>;
  /** Node id (internal edge), LEAF or REMOVED. */
  child: Int32Array<ArrayBuffer>;
  move: Uint16Array<ArrayBuffer>;
  /** Leaf value; for an internal edge, the listed value (NOT_LISTED when not listed). */
  value: Int16Array<ArrayBuffer>;
  /** 1 when the block's SFEN is not a position. */
  bad: Uint8Array<ArrayBuffer>;
  inCheck: Uint8Array<ArrayBuffer>;
  side: Uint8Array<ArrayBuffer>;
  internal: number;
  leaf: number;
}

/** The growing edge arrays that runs are made into (or appended to), one after another. */
export class EdgeLists {
  readonly child: IntList;
  readonly move: ShortList<Uint16Array<ArrayBuffer>>;
  readonly value: ShortList<Int16Array<ArrayBuffer>>;
  /** `capacity`: the expected edges (more is fine: the arrays grow). */
  constructor(capacity: number) {
    this.child = new IntList(capacity);
    this.move = new ShortList(new Uint16Array(capacity), u16);
    this.value = new ShortList(new Int16Array(capacity), i16);
  }
  get length(): number {
    return this.child.length;
  }
}

/** About as many edges as listed moves, plus unlisted moves between book positions. */
export const expectedEdges = (listed: number, blocks: number): number => listed + (blocks >> 1) + 1024;

/**
 * Step 2 for a run: every legal move whose child is a node is an internal edge, listed or
 * not; the other listed moves are leaves (legal or not) with their own value at depth 0.
 * Edge order: internal edges in move-generation order, then leaves in listed order (ties
 * are written in this order). The edges go to the end of `into`; the result's arrays are
 * views of this run's part of it.
 */
export function buildRunEdges(intake: BlockIntake, index: NodeIndex, source: SfenSource, into?: EdgeLists): RunEdges {
  const n = intake.count;
  const lists = into ?? new EdgeLists(expectedEdges(intake.listedMove.length, n));
  const first = lists.length;
  const { child, move, value } = lists;
  const bad = intake.bad.slice(0, n);
  const inCheck = new Uint8Array(n);
  const side = new Uint8Array(n);
  const start = new Int32Array(n + 1);
  const listedStart = intake.listedStart.data;
  const listedMove = intake.listedMove.data;
  const listedValue = intake.listedValue.data;
  const legal = new Uint16Array(600);
  const key = new Uint32Array(2);
  const keyHi = new Int32Array(600);
  const keyLo = new Int32Array(600);
  const found = new Int32Array(600);
  let used = new Uint8Array(64); // which listed moves became internal edges
  let internal = 0;
  let leaf = 0;
  const pos = new Position();
  let next = 0;
  source((i, src, s0, s1) => {
    if (i !== next++ || i >= n) throw new Error(`export: the SFEN source gave block ${i}, expected ${next - 1}`);
    start[i] = child.length - first;
    if (bad[i] || pos.loadSfenBytes(src, s0, s1) !== null) {
      bad[i] = 1;
      return;
    }
    inCheck[i] = pos.inCheck() ? 1 : 0;
    side[i] = pos.side;
    const l0 = listedStart[i];
    const l1 = listedStart[i + 1];
    if (l1 - l0 > used.length) used = new Uint8Array(l1 - l0);
    used.fill(0, 0, l1 - l0);
    const count = pos.generateLegal(legal);
    for (let k = 0; k < count; k++) {
      pos.keyAfter(legal[k], key);
      keyHi[k] = key[0];
      keyLo[k] = key[1];
    }
    index.getAll(keyHi, keyLo, count, found);
    for (let k = 0; k < count; k++) {
      const to = found[k];
      if (to < 0) continue;
      const m = legal[k];
      let listed = NOT_LISTED;
      for (let j = l0; j < l1; j++) {
        if (listedMove[j] === m) {
          used[j - l0] = 1;
          listed = listedValue[j];
          break;
        }
      }
      child.push(to);
      move.push(m);
      value.push(listed);
      internal++;
    }
    for (let j = l0; j < l1; j++) {
      if (used[j - l0]) continue;
      child.push(LEAF);
      move.push(listedMove[j]);
      value.push(listedValue[j]);
      leaf++;
    }
  });
  if (next !== n) throw new Error(`export: the SFEN source gave ${next} blocks of ${n}`);
  start[n] = child.length - first;
  return {
    count: n,
    start,
    child: child.data.subarray(first, child.length),
    move: move.data.subarray(first, move.length),
    value: value.data.subarray(first, value.length),
    bad,
    inCheck,
    side,
    internal,
    leaf,
  };
}

/**
 * Run `a` (made into `lists`, which it ends) followed by run `b` (made elsewhere), as one
 * run: b's edges are appended to `lists`, so only b is ever held twice.
 */
export function joinRuns(lists: EdgeLists, a: RunEdges, b: RunEdges): RunEdges {
  const first = lists.length - a.child.length;
  lists.child.append(b.child);
  lists.move.append(b.move);
  lists.value.append(b.value);
  const n = a.count + b.count;
  const start = new Int32Array(n + 1);
  start.set(a.start.subarray(0, a.count));
  for (let i = 0; i <= b.count; i++) start[a.count + i] = a.child.length + b.start[i];
  const cat = <T extends Uint8Array<ArrayBuffer>>(x: T, y: T, make: (n: number) => T): T => {
    const out = make(n);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  const bytes = (k: number) => new Uint8Array(k);
  return {
    count: n,
    start,
    child: lists.child.data.subarray(first, lists.length),
    move: lists.move.data.subarray(first, lists.length),
    value: lists.value.data.subarray(first, lists.length),
    bad: cat(a.bad, b.bad, bytes),
    inCheck: cat(a.inCheck, b.inCheck, bytes),
    side: cat(a.side, b.side, bytes),
    internal: a.internal + b.internal,
    leaf: a.leaf + b.leaf,
  };
}
