// Values on the command line as the page writes them: signed, and said with whose they are.
import { BLACK } from "../../shared/rules/types.js";

export { signedValue } from "../../shared/util/signed.js";

/** The side's name in the command line's words. */
export function sideName(side: number): "Black" | "White" {
  return side === BLACK ? "Black" : "White";
}
