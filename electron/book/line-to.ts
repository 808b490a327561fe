// The shortest line from the root to a position through the book.
import type { BookGraph } from "../../shared/book/graph.js";
import { thoughtParents } from "../../shared/book/link.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";

/**
 * The shortest line from the root to a thought position through the book (breadth-first,
 * bounded); with viaParent, also to an unthought one through a thought parent. Null when none is found.
 */
export function lineTo(
  book: { readonly graph: BookGraph; readonly root: Position; readonly rootNode: number },
  sfen: string,
  opts: { viaParent?: boolean } = {},
): string[] | null {
  const target = Position.fromSfen(sfen);
  const g = book.graph;
  const start = book.rootNode;
  if (target.keyHi === book.root.keyHi && target.keyLo === book.root.keyLo) return [];
  if (start < 0) return null;
  // The target need not be thought: reaching a thought parent of it is enough.
  const parents = new Map<number, number>();
  const goal = g.find(target.keyHi, target.keyLo);
  if (goal < 0 && !opts.viaParent) return null;
  if (goal < 0)
    for (const p of thoughtParents(g, target)) {
      const id = g.find(p.keyHi, p.keyLo);
      if (id >= 0) parents.set(id, p.move);
    }
  const prev = new Map<number, [number, number]>([[start, [-1, 0]]]);
  const queue = [start];
  const reached = (n: number) => n === goal || parents.has(n);
  // Stopped when the goal is first seen, not when its turn in the queue comes: the same line
  // (breadth first, the first parent to see it), without expanding the nodes queued before it
  // (on a 15M book, most of a whole ply).
  let found = reached(start) ? start : -1;
  for (let i = 0; found < 0 && i < queue.length && i < 200_000; i++) {
    const n = queue[i];
    g.forEachEdge(n, (move, child) => {
      if (found >= 0 || child < 0 || prev.has(child)) return;
      prev.set(child, [n, move]);
      if (reached(child)) found = child;
      else queue.push(child);
    });
  }
  if (found < 0) return null;
  const moves: string[] = [];
  if (found !== goal) moves.push(moveToUsi(parents.get(found)!));
  for (let n = found; n !== start;) {
    const [p, m] = prev.get(n)!;
    moves.push(moveToUsi(m));
    n = p;
  }
  return moves.reverse();
}
