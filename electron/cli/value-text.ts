// Values on the command line as the page writes them: signed, and said with whose they are.
import { BLACK } from "../../shared/rules/types.js";

/** "+139", "-45", "0". */
export function signedValue(v: number): string {
  return v > 0 ? `+${v}` : `${v}`;
}

/** The side's name in the command line's words. */
export function sideName(side: number): "Black" | "White" {
  return side === BLACK ? "Black" : "White";
}
