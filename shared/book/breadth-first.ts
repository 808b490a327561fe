// The breadth-first dig policy: the alternative to Super Tera-Shock selection (select.ts)
// that people script by hand. Think every position reachable from the root through moves
// within the window of the best, level by level: every such position at ply n is thought
// before any at ply n+1. It covers the first plies completely and goes no deeper until
// they are done, where selection goes deep along the lines that decide the root's value.
//
// A position's ply is its distance from the root through thought positions and window
// moves (the shortest, so a transposition belongs to its earliest level). The moves of a
// thought position that count are its listed moves (what the engine found) whose value,
// plus the kifu bonus for a move into a seeded game-record position, is within windowCp
// of its best; banned moves, moves into positions valued beyond evalLimit and positions
// past maxPly are left out, as selection leaves them.
import { EDGE_KIFU, NODE_DECLARATION_WIN, type BookGraph } from "./graph.js";
import type { Position } from "../rules/position.js";

export interface BreadthFirstOptions {
  /** A move is in the window when its value is at least the best move's value minus this. */
  windowCp: number;
  /** Positions deeper than this many plies from the root are not thought (0 = no limit). */
  maxPly: number;
  /** Moves into positions valued beyond +-evalLimit are not followed (0 = no limit). */
  evalLimit: number;
}

/** An unthought position within the window: the line to it from the root. */
export interface BreadthFirstLeaf {
  ply: number;
  /** Moves (packed) from the root. */
  line: number[];
  /** The thought position it is a move of, and its key. */
  parent: number;
  childHi: number;
  childLo: number;
}

export interface BreadthFirstLevel {
  /** The shallowest ply that still has positions to think. */
  ply: number;
  /** Its positions that are free to hand out (not thought, not in flight, not failed), in BFS order. */
  leaves: BreadthFirstLeaf[];
  /** Its positions being thought now: the next level waits for them. */
  thinking: number;
}

/**
 * The current level of a breadth-first dig from `root` (a thought node): the shallowest
 * ply with positions within the window that are not thought. Null when every position
 * within the window (and the limits) is thought or failed. `thinking(hi, lo)` says
 * whether a position the graph marks in flight is being thought now (otherwise it has
 * failed for good and is passed over). `rootPosition` is the root node's position: the graph
 * keeps no child keys, so a leaf's key is made by its move from its parent's position.
 */
export function breadthFirstLevel(
  g: BookGraph,
  root: number,
  rootPosition: Position,
  o: BreadthFirstOptions,
  thinking: (keyHi: number, keyLo: number) => boolean,
): BreadthFirstLevel | null {
  if (root < 0) return null;
  const prevNode = new Int32Array(g.nodeCount).fill(-2); // -2: not reached
  const prevMove = new Uint16Array(g.nodeCount);
  prevNode[root] = -1;
  const lineTo = (node: number): number[] => {
    const moves: number[] = [];
    for (let n = node; prevNode[n]! >= 0; n = prevNode[n]!) moves.push(prevMove[n]!);
    return moves.reverse();
  };
  const keyOut = new Uint32Array(2);
  let level = [root];
  for (let ply = 1; level.length > 0; ply++) {
    if (o.maxPly > 0 && ply > o.maxPly) return null;
    const next: number[] = [];
    const leaves: BreadthFirstLeaf[] = [];
    const seen = new Set<string>();
    let busy = 0;
    for (const u of level) {
      if (g.flags[u]! & NODE_DECLARATION_WIN) continue; // the game ends here
      let here: Position | null = null; // u's position, made when a leaf of it needs its key
      const start = g.edgeStart[u]!,
        end = start + g.edgeCount[u]!;
      let best = -Infinity;
      for (let e = start; e < end; e++) best = Math.max(best, windowValue(g, e));
      for (let e = start; e < end; e++) {
        if (windowValue(g, e) < best - o.windowCp) continue;
        if (o.evalLimit > 0 && Math.abs(g.eValue[e]!) > o.evalLimit) continue;
        const move = g.eMove[e]!;
        if (g.isBanned(u, move)) continue;
        const child = g.eChild[e]!;
        if (child >= 0) {
          if (prevNode[child] === -2) {
            prevNode[child] = u;
            prevMove[child] = move;
            next.push(child);
          }
          continue;
        }
        if (!here) {
          here = rootPosition.clone();
          for (const m of lineTo(u)) here.doMove(m);
        }
        here.keyAfter(move, keyOut);
        const hi = keyOut[0]!,
          lo = keyOut[1]!;
        const key = `${hi}:${lo}`;
        if (seen.has(key)) continue; // two parents at this level: one position
        seen.add(key);
        if (g.isInFlight(hi, lo)) {
          if (thinking(hi, lo)) busy++;
          continue;
        }
        leaves.push({ ply, line: [...lineTo(u), move], parent: u, childHi: hi, childLo: lo });
      }
    }
    if (leaves.length > 0 || busy > 0) return { ply, leaves, thinking: busy };
    level = next;
  }
  return null;
}

/** A listed move's value for the window: the engine's, plus the kifu bonus into a seeded position. */
function windowValue(g: BookGraph, e: number): number {
  return g.eValue[e]! + (g.eFlags[e]! & EDGE_KIFU ? g.kifuBonus : 0);
}

/**
 * The policy's hand-out queue: one level computed at a time (a walk over the book), handed
 * out in order, computed again when it runs dry. A level is complete once computed: its
 * positions are moves of thought positions of the levels above, all thought already. When
 * the rest of a level is being thought, nothing is handed out (`null`) until it is back.
 */
export class BreadthFirstQueue {
  private queue: BreadthFirstLeaf[] = [];
  private at = 0;
  private optionsKey = "";
  /**
   * Every position within the window and limits was thought when the level was last
   * computed: not walked again (a walk allocates per node of the book, which a dig that
   * goes on below the breadth-first plies would pay at every selection) until the root or
   * an option changes.
   */
  done = false;
  /** The ply of the level being handed out (0 before the first). */
  ply = 0;

  constructor(private readonly graph: BookGraph) {}

  next(
    root: number,
    rootPosition: Position,
    o: BreadthFirstOptions,
    thinking: (keyHi: number, keyLo: number) => boolean,
  ): BreadthFirstLeaf | null {
    const key = `${root} ${o.windowCp} ${o.maxPly} ${o.evalLimit}`;
    if (key !== this.optionsKey) {
      this.optionsKey = key;
      this.queue = [];
      this.at = 0;
      this.done = false;
    }
    if (this.done) return null;
    for (let pass = 0; pass < 2; pass++) {
      while (this.at < this.queue.length) {
        const leaf = this.queue[this.at++]!;
        // Thought or taken meanwhile (think now, an import, a result from another route).
        if (this.graph.find(leaf.childHi, leaf.childLo) >= 0 || this.graph.isInFlight(leaf.childHi, leaf.childLo)) continue;
        return leaf;
      }
      if (pass === 1) break;
      const level = breadthFirstLevel(this.graph, root, rootPosition, o, thinking);
      if (!level) {
        this.done = true;
        return null;
      }
      this.ply = level.ply;
      this.queue = level.leaves;
      this.at = 0;
    }
    return null;
  }
}
