// A plain full-window negamax over the book: no pruning, no cache, every path searched.
// Exponential, so only for small books; it is the yardstick the selection search is
// tested against (docs/DESIGN.md §3: on books without cycles both must agree exactly).

import { VALUE_MATE, clampValue } from "../rules/types.js";
import { BookGraph, EDGE_IN_FLIGHT, EDGE_KIFU, NODE_DECLARATION_WIN, NODE_IN_CHECK, NODE_NO_MOVES, NODE_WHITE } from "../book/graph.js";

export interface ReferenceResult {
  value: number;
  /** Moves of the principal variation from the root. */
  moves: number[];
  end: "leaf" | "repetition" | "terminal" | "ply-cap";
}

export function referenceNegamax(
  g: BookGraph,
  root: number,
  maxPly = 256,
  drawValue: readonly [number, number] = [0, 0],
): ReferenceResult | null {
  const path: number[] = [];

  function visit(node: number, ply: number): ReferenceResult | null {
    const flags = g.flags[node];
    if (flags & NODE_NO_MOVES) return { value: -VALUE_MATE, moves: [], end: "terminal" };
    if (flags & NODE_DECLARATION_WIN) return { value: VALUE_MATE, moves: [], end: "terminal" };
    const us = flags & NODE_WHITE;
    path.push(node);
    let best: ReferenceResult | null = null;
    g.forEachEdge(node, (move, child, _value, e) => {
      if (g.isBanned(node, move)) return;
      let r: ReferenceResult | null;
      if (child < 0) {
        if (g.eFlags[e] & EDGE_IN_FLIGHT) return;
        const v = g.eValue[e] + (g.eFlags[e] & EDGE_KIFU ? g.kifuBonus : 0);
        r = { value: clampValue(v), moves: [move], end: "leaf" };
      } else if (g.flags[child] & NODE_NO_MOVES) {
        // A mating move: mate in one ply from here (the mated position is -VALUE_MATE).
        r = { value: VALUE_MATE - 1, moves: [move], end: "terminal" };
      } else if (isEmpty(child)) {
        // A thought position without edges keeps its parent's listed value (unlisted: no
        // move); the edge is internal, so it gets no kifu bonus (docs/DESIGN.md §3.2).
        if (e < 0) return;
        r = { value: g.eValue[e], moves: [move], end: "terminal" };
      } else if (path.includes(child)) {
        r = { value: cycleValue(child, us), moves: [move], end: "repetition" };
      } else if (ply + 1 >= maxPly) {
        r = { value: drawValue[us], moves: [move], end: "ply-cap" };
      } else {
        const sub = visit(child, ply + 1);
        if (!sub) return;
        r = { value: -sub.value, moves: [move, ...sub.moves], end: sub.end };
      }
      if (!best || r.value > best.value) best = r;
    });
    path.pop();
    return best;
  }

  function isEmpty(node: number): boolean {
    let edges = 0;
    g.forEachEdge(node, () => edges++);
    return edges === 0 && (g.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) === 0;
  }

  // The path is path[0..] then the move back into `child`; its moves alternate sides, ours last.
  function cycleValue(child: number, us: number): number {
    const first = path.indexOf(child);
    const after = [...path.slice(first + 1), child];
    let ours = true,
      theirs = true;
    for (let i = after.length - 1, mine = true; i >= 0; i--, mine = !mine) {
      const check = (g.flags[after[i]] & NODE_IN_CHECK) !== 0;
      if (mine) ours &&= check;
      else theirs &&= check;
    }
    if (ours && !theirs) return -VALUE_MATE;
    if (theirs && !ours) return VALUE_MATE;
    return drawValue[us];
  }

  return visit(root, 0);
}
