// Random abstract books for tests: nodes are random 64-bit keys, moves random 15-bit
// codes, and the structure (transpositions, cycles, unlisted internal moves, checks,
// mates) is drawn from a seeded generator. No shogi rules are involved, so the graph and
// the searches can be checked against brute force on thousands of shapes.

import {
  BookGraph,
  NODE_IN_CHECK,
  NODE_NO_MOVES,
  NODE_WHITE,
  type LegalMoves,
  type ListedMove,
  type NodeInput,
  type ParentLink,
} from "../book/graph.js";
import { makeMove } from "../rules/types.js";
import { rng } from "../util/rng.js";
import { ChildKeys } from "./child-keys.js";

export { rng };

export interface RandomNode {
  keyHi: number;
  keyLo: number;
  flags: number;
  listed: ListedMove[];
  /** Unlisted legal moves whose child is a thought node of this book. */
  unlisted: Array<{ move: number; childHi: number; childLo: number }>;
}

export interface RandomBookOptions {
  nodes: number;
  /** Allow edges back to earlier nodes (cycles). */
  cycles: boolean;
  maxListed?: number;
  /** Chance that a listed move leads to another thought node rather than a new leaf. */
  linkChance?: number;
}

export function randomBook(seed: number, o: RandomBookOptions): RandomNode[] {
  const r = rng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const key = () => [int(2 ** 32), int(2 ** 32)] as const;
  const maxListed = o.maxListed ?? 4;
  const linkChance = o.linkChance ?? 0.4;
  // Node 0 is the root (black to move); sides alternate with a node's parity class.
  const nodes: RandomNode[] = [];
  for (let i = 0; i < o.nodes; i++) {
    const [keyHi, keyLo] = key();
    const white = i === 0 ? 0 : int(2);
    let flags = white ? NODE_WHITE : 0;
    if (r() < 0.2) flags |= NODE_IN_CHECK;
    nodes.push({ keyHi, keyLo, flags, listed: [], unlisted: [] });
  }
  const side = (i: number) => nodes[i].flags & NODE_WHITE;
  for (let i = 0; i < o.nodes; i++) {
    const targets = nodes.map((_, j) => j).filter((j) => j !== i && side(j) !== side(i) && (o.cycles || j > i));
    const used = new Set<number>();
    const freshMove = () => {
      for (;;) {
        const from = int(81),
          to = int(81);
        if (from === to) continue;
        const m = makeMove(from, to, r() < 0.2);
        if (!used.has(m)) {
          used.add(m);
          return m;
        }
      }
    };
    const count = r() < 0.05 ? 0 : 1 + int(maxListed);
    const usedChildren = new Set<number>();
    for (let k = 0; k < count; k++) {
      const move = freshMove();
      let value = int(601) - 300;
      if (r() < 0.03) value = r() < 0.5 ? 31990 + int(9) : -(31990 + int(9));
      if (targets.length && r() < linkChance) {
        const j = targets[int(targets.length)];
        if (usedChildren.has(j)) continue;
        usedChildren.add(j);
        nodes[i].listed.push({ move, value, childHi: nodes[j].keyHi, childLo: nodes[j].keyLo });
      } else {
        const [childHi, childLo] = key();
        nodes[i].listed.push({ move, value, childHi, childLo });
      }
    }
    if (targets.length && r() < 0.3) {
      const j = targets[int(targets.length)];
      if (!usedChildren.has(j)) nodes[i].unlisted.push({ move: freshMove(), childHi: nodes[j].keyHi, childLo: nodes[j].keyLo });
    }
    if (count === 0 && nodes[i].unlisted.length === 0 && r() < 0.5) nodes[i].flags |= NODE_NO_MOVES;
  }
  return nodes;
}

export function nodeInput(n: RandomNode): NodeInput {
  return { keyHi: n.keyHi, keyLo: n.keyLo, flags: n.flags, listed: n.listed };
}

export function legalOf(n: RandomNode): LegalMoves {
  const all = [...n.listed, ...n.unlisted];
  return { count: all.length, moves: all.map((m) => m.move), childHi: all.map((m) => m.childHi), childLo: all.map((m) => m.childLo) };
}

/** Every (parent, move) of the book that leads to `n`, as a retrograde generator would find them. */
export function parentsOf(book: RandomNode[], n: RandomNode): ParentLink[] {
  const out: ParentLink[] = [];
  for (const p of book) {
    for (const m of [...p.listed, ...p.unlisted]) {
      if (m.childHi === n.keyHi && m.childLo === n.keyLo) out.push({ keyHi: p.keyHi, keyLo: p.keyLo, move: m.move });
    }
  }
  return out;
}

/** The child keys of the book's listed moves (the graph keeps none). */
export function keysOf(book: RandomNode[]): ChildKeys {
  return ChildKeys.of(book.map(nodeInput));
}

/** Builds the graph by a full pass: all nodes first, then every node's moves linked. */
export function buildFull(book: RandomNode[]): BookGraph {
  const g = new BookGraph(book.length);
  const ids = book.map((n) => g.addNode(nodeInput(n)));
  book.forEach((n, i) => g.linkForward(ids[i], legalOf(n)));
  return g;
}

/** Builds the graph by inserting nodes one by one in the given order. */
export function buildIncremental(book: RandomNode[], order: number[]): BookGraph {
  const g = new BookGraph(4);
  for (const i of order) g.insert(nodeInput(book[i]), legalOf(book[i]), parentsOf(book, book[i]));
  return g;
}
