// A move that goes back to a position already on the line from the root closes a cycle: the
// selection scores it by the rule of docs/DESIGN.md §3.7 (Selector.repetitionValue), not by
// what lies below it. This names the cycle for the views: which ply it repeats, and the rule
// that gives its value, so the Book table and the tree can say why the move is valued so.
import { Position } from "../rules/position.js";
import { parseUsiMove } from "../rules/usi.js";
import { VALUE_MATE } from "../rules/types.js";

export interface Cycle {
  /** The ply (from the root, 0 the root itself) of the position the move goes back to. */
  ply: number;
  /** "draw": sennichite; "perpetual": one side checked with every one of its moves in the cycle, and loses. */
  rule: "draw" | "perpetual";
  /** With "perpetual", the side that checked throughout (and loses). */
  checker?: "black" | "white";
  /** The value the selection gives the move, from the moving side's view. */
  value: number;
}

/**
 * Whether `move`, played after `line` from `rootSfen`, goes back to a position on the line
 * (the root included), and how the selection values it; null when it does not. `drawValue`
 * is the book's draw value per side (black, white). A line that is not legal gives null.
 */
export function cycleOf(rootSfen: string, line: readonly string[], move: string, drawValue: readonly [number, number]): Cycle | null {
  let pos: Position;
  try {
    pos = Position.fromSfen(rootSfen);
  } catch {
    return null;
  }
  const keys = [key(pos)];
  // checks[i]: the move at ply i (0-based) gave check.
  const checks: boolean[] = [];
  for (const usi of [...line, move]) {
    const m = parseUsiMove(usi);
    if (m === null || !pos.isLegal(m)) return null;
    pos.doMove(m);
    keys.push(key(pos));
    checks.push(pos.inCheck());
  }
  const n = line.length; // the closing move's index
  const ply = keys.lastIndexOf(keys[n + 1]!, n);
  if (ply < 0) return null;
  const us = (pos.side ^ 1) as 0 | 1; // the side that made the closing move
  let ourChecks = true,
    theirChecks = true;
  for (let j = n; j >= ply; j--) {
    if ((n - j) % 2 === 0) ourChecks &&= checks[j]!;
    else theirChecks &&= checks[j]!;
  }
  const side = (c: number) => (c === 0 ? "black" : "white");
  if (ourChecks && !theirChecks) return { ply, rule: "perpetual", checker: side(us), value: -VALUE_MATE };
  if (theirChecks && !ourChecks) return { ply, rule: "perpetual", checker: side(us ^ 1), value: VALUE_MATE };
  return { ply, rule: "draw", value: drawValue[us] };
}

function key(p: Position): string {
  return `${p.keyHi}:${p.keyLo}`;
}
