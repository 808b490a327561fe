// A value written with its sign, as the page, the command line and the records write it.

/** "+139", "-45", "0". */
export function signedValue(v: number): string {
  return v > 0 ? `+${v}` : `${v}`;
}
