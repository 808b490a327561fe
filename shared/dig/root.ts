// A dig's root as the settings give it, read the same way by the book (background) and the
// board (renderer).
import { Position, SfenError } from "../rules/position.js";
import { KING, colorOf, typeOf } from "../rules/types.js";

/** Parses a dig root: "startpos", "startpos moves ...", "sfen ... [moves ...]" or a bare SFEN [moves ...]. */
export function parseRoot(root: string): Position {
  const text = root.trim();
  if (text.startsWith("startpos") || text.startsWith("sfen ") || text.startsWith("position ")) return Position.fromUsi(text);
  // A bare SFEN with moves after it, as the root field's help allows.
  if (/ moves( |$)/.test(text)) return Position.fromUsi(`sfen ${text}`);
  return Position.fromSfen(text);
}

/**
 * A root a book is created with or given: one king a side, as engines cannot think a position
 * without (or with two), and check and mate would mean nothing from it. (A book made before
 * this check still opens with its root.)
 */
export function parseNewRoot(root: string): Position {
  const pos = parseRoot(root);
  const problem = kingsProblem(pos);
  if (problem) throw new SfenError(`not a book's root: ${problem}`);
  // Mated: nothing to think or dig from it (a dig of it "finished" at once, saying the book mates).
  if (pos.legalMoves().length === 0)
    throw new SfenError(`not a book's root: ${pos.side === 0 ? "black" : "white"}, to move, has no legal move (mated)`);
  return pos;
}

/** What is wrong with the kings of a position for a root, or null when each side has one. */
export function kingsProblem(pos: Position): string | null {
  const kings = [0, 0];
  for (const p of pos.board) if (p !== 0 && typeOf(p) === KING) kings[colorOf(p)]++;
  const said = (n: number, side: string) => (n === 0 ? `${side} has no king` : `${side} has ${n} kings`);
  const wrong = [kings[0] !== 1 ? said(kings[0], "black") : null, kings[1] !== 1 ? said(kings[1], "white") : null].filter(Boolean);
  return wrong.length ? `${wrong.join(" and ")} (a root needs one king a side)` : null;
}
