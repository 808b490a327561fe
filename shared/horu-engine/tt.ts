// The transposition table: 16-byte entries in one Int32Array. The buffer may be a
// SharedArrayBuffer, so the Monte-Carlo thread can read alpha-beta's best moves and mates
// (sharing as in docs/DESIGN.md §11.2). Readers on another thread may see a torn entry; they check the key
// and the move's legality, so a torn read costs nothing but a miss.
import { VALUE_MATE_BOUND } from "../rules/types.js";

export const BOUND_NONE = 0,
  BOUND_UPPER = 1,
  BOUND_LOWER = 2,
  BOUND_EXACT = 3;

export interface TTHit {
  move: number;
  value: number;
  depth: number;
  bound: number;
  eval: number;
}

export class TranspositionTable {
  readonly table: Int32Array;
  private mask: number;
  generation = 0;

  constructor(buffer: ArrayBufferLike) {
    this.table = new Int32Array(buffer);
    const entries = this.table.length >> 2;
    // Largest power of two that fits.
    let size = 1;
    while (size * 2 <= entries) size *= 2;
    this.mask = size - 1;
  }

  static bytesFor(megabytes: number): number {
    let size = 1;
    while (size * 2 * 16 <= megabytes * 1024 * 1024) size *= 2;
    return size * 16;
  }

  clear(): void {
    this.table.fill(0);
  }

  newSearch(): void {
    this.generation = (this.generation + 1) & 63;
  }

  /** Fills hit and returns true on a key match. */
  probe(keyHi: number, keyLo: number, hit: TTHit): boolean {
    const i = (keyLo & this.mask) << 2;
    const t = this.table;
    if (t[i] !== (keyHi | 0) || t[i + 1] === 0) return false;
    const data = t[i + 1];
    hit.move = data & 0xffff;
    hit.depth = ((data >>> 16) & 0xff) - 1;
    hit.bound = (data >>> 24) & 3;
    hit.value = t[i + 2];
    hit.eval = t[i + 3];
    return true;
  }

  store(keyHi: number, keyLo: number, move: number, value: number, depth: number, bound: number, staticEval: number): void {
    const i = (keyLo & this.mask) << 2;
    const t = this.table;
    const old = t[i + 1];
    const oldDepth = ((old >>> 16) & 0xff) - 1;
    const oldGen = (old >>> 26) & 63;
    // Replace unless the slot holds a deeper result for the same key of this search.
    if (t[i] === (keyHi | 0) && oldGen === this.generation && oldDepth > depth + 2 && bound !== BOUND_EXACT) return;
    if (move === 0 && t[i] === (keyHi | 0)) move = old & 0xffff;
    const d = Math.max(0, Math.min(254, depth + 1));
    t[i] = keyHi | 0;
    t[i + 2] = value;
    t[i + 3] = staticEval;
    t[i + 1] = (move & 0xffff) | (d << 16) | (bound << 24) | (this.generation << 26) | 0;
  }

  /** Permille of the first thousand slots used in this search (USI hashfull). */
  hashfull(): number {
    let n = 0;
    const t = this.table;
    const count = Math.min(1000, this.mask + 1);
    for (let i = 0; i < count; i++) if (t[(i << 2) + 1] !== 0 && ((t[(i << 2) + 1] >>> 26) & 63) === this.generation) n++;
    return Math.round((n * 1000) / count);
  }
}

/** Mate values are stored relative to the node, read back relative to the root. */
export function valueToTT(v: number, ply: number): number {
  return v >= VALUE_MATE_BOUND ? v + ply : v <= -VALUE_MATE_BOUND ? v - ply : v;
}

export function valueFromTT(v: number, ply: number): number {
  return v >= VALUE_MATE_BOUND ? v - ply : v <= -VALUE_MATE_BOUND ? v + ply : v;
}
