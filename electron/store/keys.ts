// Position keys cross the API as two uint32 halves (what the rules core computes) and
// live in SQLite as one signed 64-bit INTEGER. Reads split the column in SQL (see
// KEY_HI_SQL / KEY_LO_SQL) so the hot paths never allocate a BigInt.

const U32 = 0x1_0000_0000;

function checkHalf(name: string, v: number): number {
  if (!Number.isInteger(v) || v < -0x8000_0000 || v >= U32) {
    throw new RangeError(`${name} must be a 32-bit integer, got ${v}`);
  }
  return v >>> 0; // accept signed int32 from bit operations too
}

/** The signed 64-bit column value for a key given as two 32-bit halves. */
export function keyToInt64(hi: number, lo: number): bigint {
  const h = checkHalf("keyHi", hi);
  const l = checkHalf("keyLo", lo);
  return BigInt.asIntN(64, (BigInt(h) << 32n) | BigInt(l));
}

/** The two unsigned 32-bit halves of a stored key column value. */
export function int64ToKey(v: bigint): { keyHi: number; keyLo: number } {
  const u = BigInt.asUintN(64, v);
  return { keyHi: Number(u >> 32n), keyLo: Number(u & 0xffff_ffffn) };
}

/** SQL expressions that split a key column into unsigned halves (plain JS numbers). */
export const keyHiSql = (col: string): string => `((${col} >> 32) & 4294967295)`;
export const keyLoSql = (col: string): string => `(${col} & 4294967295)`;
