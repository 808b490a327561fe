// Growing the typed arrays that hold books, searches and histories: a new array of the
// same kind, the old values copied, the new tail filled.

type Growable = Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array;

/** A copy of `a` with room for `size` values; the new ones are `fill`. */
export function grown<T extends Growable>(a: T, size: number, fill = 0): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}
