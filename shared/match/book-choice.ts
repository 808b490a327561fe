// How a player takes a move from its book: the best move only, or a random choice among the
// moves within a window of the best (weighted by their play counts when the book has them);
// it leaves the book when the best value falls below a threshold or past a ply.

/** A book's move as the match sees it: the value is from the side to move. */
export interface BookEntryMove {
  move: string;
  value: number;
  count?: number;
  depth?: number;
}

export interface BookChoiceOptions {
  mode: "best" | "weighted";
  /** For "weighted": moves within this many cp of the best. */
  windowCp: number;
  /** Leave the book when the best value is below this (from the side to move). */
  leaveBelow: number;
  /** No book moves at or beyond this ply of the game (counted from the start position). */
  maxPly: number;
}

export const DEFAULT_BOOK_CHOICE: BookChoiceOptions = { mode: "best", windowCp: 30, leaveBelow: -32000, maxPly: 256 };

/**
 * The book move to play, or undefined to leave the book. `moves` must be legal here; the
 * first of equal best values wins (books list best first). `random` returns [0, 1).
 */
export function chooseBookMove(
  moves: readonly BookEntryMove[],
  ply: number,
  opts: BookChoiceOptions,
  random: () => number,
): BookEntryMove | undefined {
  if (moves.length === 0 || ply >= opts.maxPly) return undefined;
  let best = moves[0]!;
  for (const m of moves) if (m.value > best.value) best = m;
  if (best.value < opts.leaveBelow) return undefined;
  if (opts.mode === "best") return best;
  const near = moves.filter((m) => m.value >= best.value - opts.windowCp);
  const counted = near.some((m) => (m.count ?? 0) > 0);
  const weights = near.map((m) => (counted ? Math.max(0, m.count ?? 0) : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return best;
  let r = random() * total;
  for (let i = 0; i < near.length; i++) {
    r -= weights[i]!;
    if (r < 0) return near[i];
  }
  return near[near.length - 1];
}
