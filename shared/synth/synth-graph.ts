// Synthetic books of realistic shape for benchmarks: grown the way a dig grows a book.
// Each new node expands a leaf found by a walk from the root that mostly follows the
// best move (so the book is deep along the PV and bushy near it), has 4 to 8 candidates
// whose values are correlated with the value that led to it, shares some leaf children
// with other nodes (transpositions) and now and then points back at an existing node of
// the right side (cycles). Positions are abstract 64-bit keys: no rules are involved, so
// a 15M-position book can be made in minutes.

import { BookGraph, NODE_IN_CHECK, NODE_WHITE, type ListedMove, type ParentLink } from "../book/graph.js";
import { makeMove } from "../rules/types.js";
import { rng } from "../util/rng.js";
import { KeyIndex } from "../book/key-index.js";
import { grown } from "../util/typed-array.js";

export interface SynthOptions {
  positions: number;
  seed?: number;
  /** Chance that a candidate's child is a leaf shared with an earlier node (transposition). */
  transposition?: number;
  /** Chance that a candidate leads to an existing thought node (which may close a cycle). */
  cycle?: number;
  onProgress?: (done: number) => void;
}

export interface SynthBook {
  graph: BookGraph;
  root: number;
  /** Thinks one more leaf the way the generator does (for dig-like benchmarks). */
  expand(parent: number, edge: number): number;
  /**
   * The key of a listed edge's child. The graph keeps none (a dig makes a leaf's key from its
   * position); abstract positions have no rules to make them, so the generator keeps them.
   */
  childKey(edge: number): [number, number];
  /** The (parent, move) links into the child of listed edge `edge` of `node`: setInFlight's and addKifu's parents. */
  parentsInto(node: number, edge: number): ParentLink[];
}

export function synthBook(o: SynthOptions): SynthBook {
  const r = rng(o.seed ?? 1);
  const int = (n: number) => Math.floor(r() * n);
  const gauss = () => (r() + r() + r() + r() - 2) * 1.7;
  const pTrans = o.transposition ?? 0.05;
  const pCycle = o.cycle ?? 0.002;
  const graph = new BookGraph(o.positions + 16);

  // Recent leaf keys by side to move of the child, for transpositions.
  const recentLeaves: Array<Array<[childHi: number, childLo: number, parentHi: number, parentLo: number, move: number]>> = [[], []];
  // Parents of leaves that more than one node lists (the retrograde links of synthetic
  // books), as typed linked lists so a 15M-position book does not fill the heap.
  const sharedHead = new KeyIndex(1024);
  // A shared leaf's first parent, in the same lists: for parentsInto only (not linked when the
  // leaf is thought, so the books grow as they did before parentsInto existed).
  const firstHead = new KeyIndex(1024);
  let shared = { hi: new Uint32Array(1024), lo: new Uint32Array(1024), move: new Uint16Array(1024), next: new Int32Array(1024), n: 0 };
  const addLink = (head: KeyIndex, childHi: number, childLo: number, p: ParentLink) => {
    if (shared.n === shared.hi.length) {
      const size = shared.n * 2;
      shared = {
        hi: grown(shared.hi, size),
        lo: grown(shared.lo, size),
        move: grown(shared.move, size),
        next: grown(shared.next, size),
        n: shared.n,
      };
    }
    const i = shared.n++;
    shared.hi[i] = p.keyHi;
    shared.lo[i] = p.keyLo;
    shared.move[i] = p.move;
    shared.next[i] = head.get(childHi, childLo);
    head.set(childHi, childLo, i);
  };
  const linksOf = (head: KeyIndex, keyHi: number, keyLo: number): ParentLink[] => {
    const out: ParentLink[] = [];
    for (let i = head.get(keyHi, keyLo); i >= 0; i = shared.next[i])
      out.push({ keyHi: shared.hi[i], keyLo: shared.lo[i], move: shared.move[i] });
    return out;
  };
  const sharedParentsOf = (keyHi: number, keyLo: number) => linksOf(sharedHead, keyHi, keyLo);
  const thoughtBySide: number[][] = [[], []];
  const moves = new Uint16Array(8);

  function candidates(value: number, white: number, keyHi: number, keyLo: number): ListedMove[] {
    const count = 4 + int(5);
    const best = Math.round(value + gauss() * 15);
    const out: ListedMove[] = [];
    let used = 0;
    for (let i = 0; i < count; i++) {
      let move: number;
      do move = makeMove(int(81), int(81), r() < 0.1);
      while (((move >> 7) & 127) === (move & 127) || moves.subarray(0, used).includes(move));
      moves[used++] = move;
      const v = i === 0 ? best : Math.round(best - Math.abs(gauss()) * 60 - i * 10);
      const childSide = white ^ 1;
      let childHi: number, childLo: number;
      const roll = r();
      if (roll < pCycle && thoughtBySide[childSide].length > 0) {
        const t = thoughtBySide[childSide][int(thoughtBySide[childSide].length)];
        childHi = graph.keyHi[t];
        childLo = graph.keyLo[t];
      } else if (roll < pCycle + pTrans && recentLeaves[childSide].length > 0) {
        const leaf = recentLeaves[childSide][int(recentLeaves[childSide].length)];
        [childHi, childLo] = leaf;
        if (firstHead.get(childHi, childLo) < 0) addLink(firstHead, childHi, childLo, { keyHi: leaf[2], keyLo: leaf[3], move: leaf[4] });
        addLink(sharedHead, childHi, childLo, { keyHi, keyLo, move });
      } else {
        childHi = int(2 ** 32);
        childLo = int(2 ** 32);
        const pool = recentLeaves[childSide];
        if (pool.length < 4096) pool.push([childHi, childLo, keyHi, keyLo, move]);
        else pool[int(4096)] = [childHi, childLo, keyHi, keyLo, move];
      }
      out.push({ move, value: Math.max(-3000, Math.min(3000, v)), childHi, childLo });
    }
    return out;
  }

  // The child keys of the listed edges, by edge index, as the graph's edge arrays grow.
  let edgeHi = new Uint32Array(1024),
    edgeLo = new Uint32Array(1024);
  function addNode(keyHi: number, keyLo: number, white: number, value: number, parents: ParentLink[]): number {
    const listed = candidates(value, white, keyHi, keyLo);
    const flags = (white ? NODE_WHITE : 0) | (r() < 0.03 ? NODE_IN_CHECK : 0);
    const id = graph.addNode({ keyHi, keyLo, flags, listed });
    const start = graph.edgeStart[id],
      end = start + graph.edgeCount[id];
    if (end > edgeHi.length) {
      const size = Math.max(end, edgeHi.length * 2);
      edgeHi = grown(edgeHi, size);
      edgeLo = grown(edgeLo, size);
    }
    for (let e = start; e < end; e++) {
      const l = listed.find((c) => c.move === graph.eMove[e])!;
      edgeHi[e] = l.childHi;
      edgeLo[e] = l.childLo;
    }
    graph.linkForward(id, {
      count: listed.length,
      moves: listed.map((l) => l.move),
      childHi: listed.map((l) => l.childHi),
      childLo: listed.map((l) => l.childLo),
    });
    graph.linkFromParents(id, [...parents, ...sharedParentsOf(keyHi, keyLo)]);
    thoughtBySide[white].push(id);
    return id;
  }

  function expand(parent: number, edge: number): number {
    const white = (graph.flags[parent] & NODE_WHITE) ^ 1;
    const value = -graph.eValue[edge] + gauss() * 20;
    return addNode(edgeHi[edge], edgeLo[edge], white, value, [
      { keyHi: graph.keyHi[parent], keyLo: graph.keyLo[parent], move: graph.eMove[edge] },
    ]);
  }

  const childKey = (edge: number): [number, number] => [edgeHi[edge], edgeLo[edge]];
  const parentsInto = (node: number, edge: number): ParentLink[] => {
    const own = { keyHi: graph.keyHi[node], keyLo: graph.keyLo[node], move: graph.eMove[edge] };
    const all = [own, ...linksOf(firstHead, edgeHi[edge], edgeLo[edge]), ...sharedParentsOf(edgeHi[edge], edgeLo[edge])];
    return all.filter((p, i) => all.findIndex((q) => q.keyHi === p.keyHi && q.keyLo === p.keyLo && q.move === p.move) === i);
  };

  const root = addNode(0x12345678, 0x9abcdef0, 0, 40, []);
  const onPath = new Uint8Array(o.positions + 16);
  const path: number[] = [];
  while (graph.nodeCount < o.positions) {
    // Walk from the root, mostly along the best move, until a leaf edge.
    let node = root;
    path.length = 0;
    let expanded = false;
    for (let steps = 0; steps < 400; steps++) {
      onPath[node] = 1;
      path.push(node);
      const start = graph.edgeStart[node],
        count = graph.edgeCount[node];
      if (count === 0) break;
      const pick = r() < 0.55 ? 0 : r() < 0.6 ? 1 : int(count);
      const e = start + Math.min(pick, count - 1);
      const child = graph.eChild[e];
      if (child < 0) {
        expand(node, e);
        expanded = true;
        break;
      }
      if (onPath[child]) break;
      node = child;
    }
    for (const n of path) onPath[n] = 0;
    if (!expanded) continue;
    if (o.onProgress && graph.nodeCount % 100_000 === 0) o.onProgress(graph.nodeCount);
  }
  return { graph, root, expand, childKey, parentsInto };
}
