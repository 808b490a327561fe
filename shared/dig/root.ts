// A dig's root as the settings give it, read the same way by the book (background) and the
// board (renderer).
import { Position } from "../rules/position.js";

/** Parses a dig root: "startpos", "startpos moves ...", "sfen ... [moves ...]" or a bare SFEN. */
export function parseRoot(root: string): Position {
  const text = root.trim();
  if (text.startsWith("startpos") || text.startsWith("sfen ") || text.startsWith("position ")) return Position.fromUsi(text);
  return Position.fromSfen(text);
}
