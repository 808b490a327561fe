// The "cover" dig (issue 41): think first where the book's games would leave it. A book plays
// its minimax move; its opponent plays one of its own engine's likely moves. Walking that
// from the root, once for each side the book may play, reaches positions the book does not
// hold: each is where a game runs out of book, with the chance that a game gets there. The
// likeliest go to the engines first; positions reached less often than `minReach` are left
// to Super Tera-Shock selection. Book-against-book matches were decided by the first
// position one book lacked on the other's line (docs/MATCH.md), and a complete breadth-first
// book of the first plies beat every selective one: this covers the same replies along the
// lines the book actually plays, which breadth first spends its time around.
import { Position } from "../rules/position.js";
import { BLACK } from "../rules/types.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { bookChoice, likelyReplies, type MoveChoice, type QBook } from "./quality.js";

export interface CoverOptions {
  /** Leave out positions a game reaches with a lower chance than this. */
  minReach: number;
  /** An opponent's likely replies: its engine's candidates within this many cp of its best. */
  replyWindowCp: number;
  /** At most this many replies per position (best first). */
  maxReplies: number;
  /** Positions deeper than this many plies from the root are left out (0: 256, a walk's cap where a book line cycles). */
  maxPly: number;
  /** Moves valued beyond +-evalLimit are not followed, as selection digs no further there (0 = no limit). */
  evalLimit: number;
  /** How the book picks its move (default minimax; a settled book plays "robust", shared/book/settle.ts). */
  choice?: MoveChoice;
}

/** The default: the quality report's opponent (replies within 50 cp, at most 3). */
export const DEFAULT_COVER: Omit<CoverOptions, "minReach"> = { replyWindowCp: 50, maxReplies: 3, maxPly: 0, evalLimit: 0 };

/** A position out of the book where games would leave it. */
export interface CoverLeaf {
  /** USI moves from the root (the first way the walk found). */
  line: string[];
  ply: number;
  /** The share of the book's games that get here: half are played as each side, summed over the sides and every way. */
  reach: number;
  position: Position;
  /** The book's position it is a move of, on the way the walk found first (null for the root). */
  parent: Position | null;
}

/** A position the walk reached, with the first way it came and the share of games that get there. */
interface Step {
  pos: Position;
  line: string[];
  reach: number;
  parent: Position | null;
}

/**
 * The positions a game leaves the book at, likeliest first (then nearest the root), each
 * reached by at least `o.minReach` of the book's games. The opponent picks among its likely replies
 * uniformly; the book its move by `o.choice` (its minimax move by default). A line ends at a position the book holds no move in.
 */
export function coverLeaves(book: QBook, root: Position, o: CoverOptions): CoverLeaf[] {
  const out = new Map<string, CoverLeaf>();
  const maxPly = o.maxPly > 0 ? o.maxPly : 256;
  for (const side of [0, 1] as const) {
    // Level by level, so a position's chance adds up over transpositions before it is followed.
    let level = new Map<string, Step>([[root.sfenKey(), { pos: root, line: [], reach: 0.5, parent: null }]]);
    for (let ply = 0; level.size > 0; ply++) {
      const next = new Map<string, Step>();
      const follow = (from: Step, move: string, value: number, reach: number): void => {
        if (o.evalLimit > 0 && Math.abs(value) > o.evalLimit) return;
        const m = parseUsiMove(move);
        if (m === null || !from.pos.isLegal(m)) return;
        const pos = from.pos.clone();
        pos.doMove(m);
        const key = pos.sfenKey();
        const seen = next.get(key);
        if (seen) seen.reach += reach;
        else next.set(key, { pos, line: [...from.line, moveToUsi(m)], reach, parent: from.pos });
      };
      for (const [key, at] of level) {
        // Under half the threshold in this side's games, the other side's cannot lift it over.
        if (at.reach < o.minReach / 2) continue;
        const p = book.lookup(key);
        if (!p) {
          const seen = out.get(key);
          if (seen) seen.reach += at.reach;
          else out.set(key, { line: at.line, ply, reach: at.reach, position: at.pos, parent: at.parent });
          continue;
        }
        if (ply >= maxPly) continue;
        const toMove = at.pos.side === BLACK ? 0 : 1;
        if (toMove === side) {
          const b = bookChoice(p, o.choice);
          if (b) follow(at, b.move, b.value, at.reach);
        } else {
          const replies = likelyReplies(p, o);
          for (const r of replies) follow(at, r.move, r.value, at.reach / replies.length);
        }
      }
      level = next;
    }
  }
  return [...out.values()]
    .filter((l) => l.reach >= o.minReach)
    .sort((a, b) => b.reach - a.reach || a.ply - b.ply || (a.line.join(" ") < b.line.join(" ") ? -1 : 1));
}
