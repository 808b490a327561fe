// Open-addressing hash index from 64-bit position keys (two uint32 halves) to int32
// values. Zobrist keys are already uniformly random, so the low half is the hash and
// linear probing stays short at a load factor of at most one half.

const EMPTY = -1;

export class KeyIndex {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private val: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 1024) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.val = new Int32Array(cap).fill(EMPTY);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held by the index's arrays. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.val.byteLength;
  }

  /** The value stored for the key, or -1. */
  get(keyHi: number, keyLo: number): number {
    keyHi >>>= 0;
    keyLo >>>= 0;
    const mask = this.mask;
    for (let i = (keyLo ^ Math.imul(keyHi, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const v = this.val[i];
      if (v === EMPTY) return EMPTY;
      if (this.lo[i] === keyLo && this.hi[i] === keyHi) return v;
    }
  }

  has(keyHi: number, keyLo: number): boolean {
    return this.get(keyHi, keyLo) !== EMPTY;
  }

  /** Stores value (>= 0) for the key, replacing an earlier one. */
  set(keyHi: number, keyLo: number, value: number): void {
    if ((this.count + 1) * 2 > this.val.length) this.grow();
    this.place(keyHi >>> 0, keyLo >>> 0, value);
  }

  /** Removes the key; returns whether it was there. Backward-shift deletion keeps probes short. */
  delete(keyHi: number, keyLo: number): boolean {
    keyHi >>>= 0;
    keyLo >>>= 0;
    const mask = this.mask;
    let i = (keyLo ^ Math.imul(keyHi, 0x9e3779b1)) & mask;
    for (; ; i = (i + 1) & mask) {
      if (this.val[i] === EMPTY) return false;
      if (this.lo[i] === keyLo && this.hi[i] === keyHi) break;
    }
    this.val[i] = EMPTY;
    this.count--;
    for (let j = (i + 1) & mask; this.val[j] !== EMPTY; j = (j + 1) & mask) {
      const home = (this.lo[j] ^ Math.imul(this.hi[j], 0x9e3779b1)) & mask;
      // Move the entry back into the hole when its home does not lie in (i, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        this.hi[i] = this.hi[j];
        this.lo[i] = this.lo[j];
        this.val[i] = this.val[j];
        this.val[j] = EMPTY;
        i = j;
      }
    }
    return true;
  }

  clear(): void {
    this.val.fill(EMPTY);
    this.count = 0;
  }

  *entries(): IterableIterator<[number, number, number]> {
    for (let i = 0; i < this.val.length; i++) if (this.val[i] !== EMPTY) yield [this.hi[i], this.lo[i], this.val[i]];
  }

  private place(keyHi: number, keyLo: number, value: number): void {
    const mask = this.mask;
    for (let i = (keyLo ^ Math.imul(keyHi, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const v = this.val[i];
      if (v === EMPTY) {
        this.hi[i] = keyHi;
        this.lo[i] = keyLo;
        this.val[i] = value;
        this.count++;
        return;
      }
      if (this.lo[i] === keyLo && this.hi[i] === keyHi) {
        this.val[i] = value;
        return;
      }
    }
  }

  private grow(): void {
    const { hi, lo, val } = this;
    const cap = val.length * 2;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.val = new Int32Array(cap).fill(EMPTY);
    this.mask = cap - 1;
    this.count = 0;
    for (let i = 0; i < val.length; i++) if (val[i] !== EMPTY) this.place(hi[i], lo[i], val[i]);
  }
}
