// Selection: the ranged alpha-beta search over the book (docs/DESIGN.md §3, after §11.0).
//
// A fail-soft negamax from the root where a leaf edge is worth the engine's value for
// its move. The leaf at the end of the principal variation is the next position to
// think. Edges into positions being thought (the searching set) and banned
// (position, move) pairs are treated as absent, so repeated selections hand out the
// next-best leaves, one per free engine. Children are searched NonPV first, with cut-offs
// on bounds cached in the current generation, and re-searched as PV when they raise alpha.

import { VALUE_MATE, clampValue } from "../rules/types.js";
import { BookGraph, EDGE_KIFU, NODE_DECLARATION_WIN, NODE_HAS_BAN, NODE_IN_CHECK, NODE_NO_MOVES, NODE_WHITE } from "./graph.js";
import { grown } from "../util/typed-array.js";

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;
export type Bound = typeof BOUND_NONE | typeof BOUND_UPPER | typeof BOUND_LOWER | typeof BOUND_EXACT;
const BOUND_MASK = 3;
const CACHE_CYCLIC = 4; // the value depends on the path: a repetition or the ply cap was involved
const CACHE_ABSENT = 8; // every move of the node is absent: the parent skips it

const VALUE_INFINITE = VALUE_MATE + 1;
const NO_HINT = -32768;

/** How a line ends. */
export const END_LEAF = 0; // a leaf edge: a position to think
export const END_REPETITION = 1; // back to a position already on the line
export const END_TERMINAL = 2; // mated, or a declaration win
export const END_PLY_CAP = 3; // the line reached the ply cap
export type LineEnd = typeof END_LEAF | typeof END_REPETITION | typeof END_TERMINAL | typeof END_PLY_CAP;

/**
 * A step of a line: an edge of `node`. `edge` >= 0 is a listed edge index, < 0 is the
 * unlisted internal edge -(edge + 1).
 */
export interface LineStep {
  node: number;
  edge: number;
  move: number;
  /** The thought child, or -1 for a leaf edge. */
  child: number;
}

export interface SelectOptions {
  /** Plies from the selection root after which a line is a draw (default 256). */
  maxPly?: number;
  /** What a draw (repetition, ply cap) is worth to black and to white (default 0, 0). */
  drawValue?: readonly [number, number];
  /** Safety valve: stop banning after this many bans in one selection (default 100000). */
  maxBans?: number;
  /** Do not hand out leaves deeper than this many plies from the root (0: no limit). */
  maxLeafPly?: number;
  /** Do not hand out leaves whose engine value is beyond +-evalLimit (0: no limit). */
  evalLimit?: number;
  /**
   * Search the plain book: leaves in flight count, no kifu bonus, no bans. Such a selector
   * answers bookValue(), the value the UI shows beside the selection's root value.
   */
  plain?: boolean;
}

export interface SelectStats {
  /** Nodes visited over all searches of this selection. */
  nodes: number;
  /** Searches from the root (1 + the number of bans made). */
  searches: number;
  /** Cached cyclic values trusted at NonPV nodes (docs/DESIGN.md §3.6). */
  cyclicTrusted: number;
  ms: number;
}

export interface Ban {
  node: number;
  move: number;
  /** The moves from the selection root to `node`, so the caller can name the position. */
  path: number[];
  reason: "repetition" | "terminal" | "ply-cap" | "limit";
}

export type Selection =
  | {
      kind: "leaf";
      /** The book's value at the root, with in-flight leaves removed and the kifu bonus added. */
      rootValue: number;
      /** The line from the root; its last step is the selected leaf edge. */
      line: LineStep[];
      /** The leaf: its parent node, move, the child's key, and the leaf's value as searched. */
      leaf: { node: number; move: number; childHi: number; childLo: number; value: number };
      bans: Ban[];
      stats: SelectStats;
    }
  | { kind: "none"; bans: Ban[]; stats: SelectStats };

export class Selector {
  /** Per-node arrays of the search: cached value, bound, generation, path ply, ordering hint. */
  static readonly BYTES_PER_NODE = 2 + 1 + 4 + 2 + 2;
  private cacheValue = new Int16Array(0);
  private cacheBound = new Uint8Array(0);
  private cacheGen = new Uint32Array(0);
  private pathPly = new Int16Array(0);
  /** The last value searched for each node, in any generation: a move-ordering hint only, never a bound. */
  private hint = new Int16Array(0);
  // A stack of move frames, one per node on the current line.
  private sp = 0;
  private stackRef = new Int32Array(1024);
  private stackRank = new Int32Array(1024);
  private stackKey = new Int32Array(1024);
  private pathNode: Int32Array;
  private pvRef: Int32Array; // triangular PV table: row ply holds the line from ply on
  private pvLen: Int32Array;
  private pvEnd: Uint8Array;
  private readonly maxPly: number;
  private readonly drawValue: readonly [number, number];
  private readonly maxBans: number;
  private readonly maxLeafPly: number;
  private readonly evalLimit: number;
  private readonly plain: boolean;

  // Set by search() for its caller: the result depends on the path / the node had no move.
  private cyclic = false;
  private absent = false;
  private visited = 0;
  private cyclicTrusted = 0;
  /** The generation the last selection finished in: the bounds shown to the user. */
  private shownGeneration = 0;

  constructor(
    readonly graph: BookGraph,
    options: SelectOptions = {},
  ) {
    this.maxPly = options.maxPly ?? 256;
    this.drawValue = options.drawValue ?? [0, 0];
    this.maxBans = options.maxBans ?? 100_000;
    this.maxLeafPly = options.maxLeafPly ?? 0;
    this.evalLimit = options.evalLimit ?? 0;
    this.plain = options.plain ?? false;
    const rows = this.maxPly + 1;
    this.pathNode = new Int32Array(rows);
    this.pvRef = new Int32Array(rows * rows);
    this.pvLen = new Int32Array(rows + 1);
    this.pvEnd = new Uint8Array(rows + 1);
  }

  /** Selects the next leaf to think below `root` (a node id), banning dead-end lines on the way. */
  select(root: number): Selection {
    const t0 = performance.now();
    const graph = this.graph;
    this.fit();
    this.visited = 0;
    this.cyclicTrusted = 0;
    this.sp = 0;
    const bans: Ban[] = [];
    let searches = 0;
    const stats = (): SelectStats => ({ nodes: this.visited, searches, cyclicTrusted: this.cyclicTrusted, ms: performance.now() - t0 });

    for (;;) {
      searches++;
      const value = this.search(true, root, -VALUE_INFINITE, VALUE_INFINITE, 0);
      if (this.absent || this.pvLen[0] === 0) {
        this.shownGeneration = graph.generation;
        return { kind: "none", bans, stats: stats() };
      }
      const line = this.lineFrom(root);
      const last = line[line.length - 1];
      const end = this.pvEnd[0] as LineEnd;
      const beyondLimits =
        end === END_LEAF &&
        ((this.maxLeafPly > 0 && line.length > this.maxLeafPly) ||
          (this.evalLimit > 0 && Math.abs(graph.eValue[last.edge]) >= this.evalLimit));
      if (end === END_LEAF && !beyondLimits) {
        this.shownGeneration = graph.generation;
        const e = last.edge;
        return {
          kind: "leaf",
          rootValue: value,
          line,
          leaf: { node: last.node, move: last.move, childHi: graph.eKeyHi[e], childLo: graph.eKeyLo[e], value: this.leafValue(e) },
          bans,
          stats: stats(),
        };
      }
      // Nothing new to think at the end of this line: ban its last move and search again.
      const reason = beyondLimits ? "limit" : end === END_REPETITION ? "repetition" : end === END_PLY_CAP ? "ply-cap" : "terminal";
      graph.ban(last.node, last.move);
      bans.push({ node: last.node, move: last.move, path: line.slice(0, -1).map((st) => st.move), reason });
      if (bans.length >= this.maxBans) {
        this.shownGeneration = graph.generation;
        return { kind: "none", bans, stats: stats() };
      }
    }
  }

  /** The book's value at `root` (one search, nothing banned); null when nothing is left to search. */
  bookValue(root: number): number | null {
    this.fit();
    this.sp = 0;
    const value = this.search(true, root, -VALUE_INFINITE, VALUE_INFINITE, 0);
    return this.absent ? null : value;
  }

  /**
   * What a selection would show, without selecting: one search from `root` (nothing banned,
   * nothing marked), its value and best line, and the bounds it leaves for bound(). A book
   * opened to browse, not dug, shows its values and best line this way.
   */
  preview(root: number): { rootValue: number; line: LineStep[] } | null {
    this.fit();
    this.visited = 0;
    this.cyclicTrusted = 0;
    this.sp = 0;
    const value = this.search(true, root, -VALUE_INFINITE, VALUE_INFINITE, 0);
    this.shownGeneration = this.graph.generation;
    if (this.absent) return null;
    return { rootValue: value, line: this.pvLen[0] === 0 ? [] : this.lineFrom(root) };
  }

  /** The value and bound the last selection left on a node, or undefined if it was not searched. */
  bound(node: number): { value: number; bound: Bound; cyclic: boolean } | undefined {
    if (node >= this.cacheGen.length || this.cacheGen[node] !== this.shownGeneration) return undefined;
    const b = this.cacheBound[node];
    if (b & CACHE_ABSENT) return undefined;
    return { value: this.cacheValue[node], bound: (b & BOUND_MASK) as Bound, cyclic: (b & CACHE_CYCLIC) !== 0 };
  }

  /**
   * The search. `pvNode` is the node type: PV nodes search every move without cached
   * cut-offs and build the principal variation; NonPV nodes may cut off on a bound cached
   * in this generation.
   */
  private search(pvNode: boolean, node: number, alpha: number, beta: number, ply: number): number {
    const g = this.graph;
    this.visited++;
    this.pvLen[ply] = 0;
    this.absent = false;
    this.cyclic = false;

    // Terminal positions: no legal move is a loss, a declaration is a win.
    const flags = g.flags[node];
    if (flags & NODE_NO_MOVES) {
      this.pvEnd[ply] = END_TERMINAL;
      return -VALUE_MATE;
    }
    if (flags & NODE_DECLARATION_WIN) {
      this.pvEnd[ply] = END_TERMINAL;
      return VALUE_MATE;
    }

    // Bounds cached in this generation: a dead end stays dead; NonPV nodes cut off.
    const generation = g.generation;
    if (this.cacheGen[node] === generation) {
      const cached = this.cacheBound[node];
      if (cached & CACHE_ABSENT) {
        this.absent = true;
        return 0;
      }
      if (!pvNode) {
        const v = this.cacheValue[node],
          bound = cached & BOUND_MASK;
        if (bound === BOUND_EXACT || (bound === BOUND_LOWER && v >= beta) || (bound === BOUND_UPPER && v <= alpha)) {
          if (cached & CACHE_CYCLIC) {
            this.cyclic = true;
            this.cyclicTrusted++;
          }
          return v;
        }
      }
    }

    const us = flags & NODE_WHITE;
    const alphaOrig = alpha;
    const hasBan = !this.plain && (flags & NODE_HAS_BAN) !== 0;
    let best = -VALUE_INFINITE;
    let cyclic = false;
    this.pathPly[node] = ply;
    this.pathNode[ply] = node;

    // Gather the moves that are present, each with its rank in the fixed order (listed by
    // engine value, then unlisted by USI text) and an ordering key: searching likely-best
    // moves first makes cut-offs come early. The rank keeps ties exactly as the fixed order.
    const frame = this.sp;
    let count = 0;
    const listedStart = g.edgeStart[node],
      listedCount = g.edgeCount[node];
    for (let i = 0; i < listedCount; i++) {
      const e = listedStart + i;
      if (hasBan && g.isBanned(node, g.eMove[e])) continue;
      const child = g.eChild[e];
      let key: number;
      if (child < 0) {
        if (!this.plain && g.inFlight.size !== 0 && g.inFlight.has(g.eKeyHi[e], g.eKeyLo[e])) continue;
        key = this.leafValue(e);
      } else key = this.isEmpty(child) ? g.eValue[e] : this.orderKey(child, g.eValue[e]);
      this.push(frame + count++, e, i, key);
    }
    for (let x = g.extraHead[node], i = listedCount; x >= 0; x = g.xNext[x], i++) {
      if ((hasBan && g.isBanned(node, g.xMove[x])) || this.isEmpty(g.xChild[x])) continue;
      this.push(frame + count++, -(x + 1), i, this.orderKey(g.xChild[x], -VALUE_MATE));
    }
    this.sortFrame(frame, count);
    this.sp = frame + count;

    let bestRank = 0x7fffffff;
    for (let i = frame; i < frame + count; i++) {
      const ref = this.stackRef[i],
        rank = this.stackRank[i];
      const child = ref >= 0 ? g.eChild[ref] : g.xChild[-ref - 1];
      // At PV nodes a move earlier in the fixed order wins a tie: let it through at alpha - 1.
      const lower = pvNode && rank < bestRank && best === alpha && best > alphaOrig ? alpha - 1 : alpha;

      let value: number, end: LineEnd, childCyclic: boolean;
      let searched = false; // the child was searched, so its line continues ours
      if (child < 0) {
        value = this.leafValue(ref);
        end = END_LEAF;
        childCyclic = false;
      } else if (g.flags[child] & NODE_NO_MOVES) {
        // The move mates: a mate in one ply from here, as the engine values it (the mated
        // position itself is worth -VALUE_MATE, mated now). The line ends here.
        value = VALUE_MATE - 1;
        end = END_TERMINAL;
        childCyclic = false;
      } else if (this.isEmpty(child)) {
        // Thought, but nothing usable came back (e.g. the engine resigned without lines):
        // the move keeps its listed value, as in export, and there is nothing to think there.
        // It is an internal edge, so no kifu bonus (docs/DESIGN.md §3.2).
        value = g.eValue[ref];
        end = END_TERMINAL;
        childCyclic = false;
      } else if (this.pathPly[child] >= 0) {
        value = this.repetitionValue(child, ply, us);
        end = END_REPETITION;
        childCyclic = true;
      } else if (ply + 1 >= this.maxPly) {
        value = this.drawValue[us];
        end = END_PLY_CAP;
        childCyclic = true;
      } else {
        value = -this.search(false, child, -beta, -lower, ply + 1);
        if (this.absent) continue;
        childCyclic = this.cyclic;
        if (pvNode && value > lower) {
          value = -this.search(true, child, -beta, -lower, ply + 1);
          if (this.absent) continue;
          childCyclic = this.cyclic;
        }
        end = this.pvEnd[ply + 1] as LineEnd;
        searched = true;
      }
      cyclic ||= childCyclic;

      if (value > best || (lower < alpha && value === best)) {
        best = value;
        bestRank = rank;
        if (value > lower) {
          if (pvNode) this.updatePv(ply, ref, end, searched);
          if (value >= beta) break; // beta cut-off
          alpha = value;
        }
      }
    }
    this.sp = frame;
    this.pathPly[node] = -1;

    // Dead end: every move was absent, so the node is absent for this selection.
    if (best === -VALUE_INFINITE) {
      this.cacheGen[node] = generation;
      this.cacheBound[node] = CACHE_ABSENT;
      this.absent = true;
      this.cyclic = false;
      return 0;
    }
    const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    this.cacheGen[node] = generation;
    this.cacheValue[node] = best;
    this.cacheBound[node] = bound | (cyclic ? CACHE_CYCLIC : 0);
    this.hint[node] = best;
    this.absent = false;
    this.cyclic = cyclic;
    return best;
  }

  /**
   * Ordering key of an internal edge: the child's last searched value; before the child was
   * ever searched, its own best engine value (a deeper look than the parent's value for the move).
   */
  private orderKey(child: number, engineValue: number): number {
    const h = this.hint[child];
    if (h !== NO_HINT) return -h;
    const g = this.graph;
    return g.edgeCount[child] > 0 ? -g.eValue[g.edgeStart[child]] : engineValue;
  }

  private push(i: number, ref: number, rank: number, key: number): void {
    if (i >= this.stackRef.length) {
      const size = this.stackRef.length * 2;
      this.stackRef = grown(this.stackRef, size);
      this.stackRank = grown(this.stackRank, size);
      this.stackKey = grown(this.stackKey, size);
    }
    this.stackRef[i] = ref;
    this.stackRank[i] = rank;
    this.stackKey[i] = key;
  }

  /** Insertion sort of a frame: best key first, fixed-order rank on equal keys. Frames are short. */
  private sortFrame(from: number, count: number): void {
    const ref = this.stackRef,
      rank = this.stackRank,
      key = this.stackKey;
    for (let i = from + 1; i < from + count; i++) {
      const r = ref[i],
        n = rank[i],
        k = key[i];
      let j = i - 1;
      while (j >= from && (key[j] < k || (key[j] === k && rank[j] > n))) {
        ref[j + 1] = ref[j];
        rank[j + 1] = rank[j];
        key[j + 1] = key[j];
        j--;
      }
      ref[j + 1] = r;
      rank[j + 1] = n;
      key[j + 1] = k;
    }
  }

  /** A thought position without any edge and not terminal: its parents treat their move to it as a leaf. */
  private isEmpty(node: number): boolean {
    const g = this.graph;
    return g.edgeCount[node] === 0 && g.extraHead[node] < 0 && (g.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) === 0;
  }

  /** A leaf's value in selection: the engine's value plus the kifu bonus when its position was seeded. */
  private leafValue(e: number): number {
    const g = this.graph;
    const v = g.eValue[e];
    return g.eFlags[e] & EDGE_KIFU && !this.plain ? clampValue(v + g.kifuBonus) : v;
  }

  /**
   * The value, for the side to move at ply, of moving back to `child`, which stands on the
   * line at an earlier ply: a draw, unless one side gave check with every one of its moves
   * in the cycle (perpetual check), which loses for that side.
   */
  private repetitionValue(child: number, ply: number, us: number): number {
    const g = this.graph;
    const first = this.pathPly[child];
    let ourChecks = true,
      theirChecks = true;
    for (let k = ply; k >= first; k--) {
      const after = k === ply ? child : this.pathNode[k + 1];
      const gaveCheck = (g.flags[after] & NODE_IN_CHECK) !== 0;
      if (((ply - k) & 1) === 0) ourChecks &&= gaveCheck;
      else theirChecks &&= gaveCheck;
    }
    if (ourChecks && !theirChecks) return -VALUE_MATE;
    if (theirChecks && !ourChecks) return VALUE_MATE;
    return this.drawValue[us];
  }

  private updatePv(ply: number, ref: number, end: LineEnd, withChildLine: boolean): void {
    const rows = this.maxPly + 1;
    const row = ply * rows;
    this.pvRef[row] = ref;
    let len = 1;
    if (withChildLine) {
      const childRow = (ply + 1) * rows,
        n = this.pvLen[ply + 1];
      for (let i = 0; i < n; i++) this.pvRef[row + 1 + i] = this.pvRef[childRow + i];
      len += n;
    }
    this.pvLen[ply] = len;
    this.pvEnd[ply] = end;
  }

  private lineFrom(root: number): LineStep[] {
    const g = this.graph;
    const line: LineStep[] = [];
    let node = root;
    for (let i = 0; i < this.pvLen[0]; i++) {
      const ref = this.pvRef[i];
      const step =
        ref >= 0
          ? { node, edge: ref, move: g.eMove[ref], child: g.eChild[ref] }
          : { node, edge: ref, move: g.xMove[-ref - 1], child: g.xChild[-ref - 1] };
      line.push(step);
      node = step.child;
    }
    return line;
  }

  private fit(): void {
    const n = this.graph.keyHi.length;
    if (this.cacheGen.length >= n) return;
    this.cacheValue = grown(this.cacheValue, n);
    this.cacheBound = grown(this.cacheBound, n);
    this.cacheGen = grown(this.cacheGen, n);
    this.pathPly = grown(this.pathPly, n, -1);
    this.hint = grown(this.hint, n, NO_HINT);
  }
}

// --- Exact values kept per node (work in progress, not used by the dig yet) -----------
//
// Exact and tested equal to a fresh instance after every change (select-incremental.test),
// and to brute force on acyclic books; most selections on a 1M dig-shaped book take
// 1-40 ms, but a leaf coming back near the top re-values large strongly connected
// components many times over (10 s spikes measured): the propagation order across
// components must be fixed before OpenBook uses it.
//
// Selection answers from a value kept for every node and changed only where the book
// changes. A node that is on no cycle is worth the negamax of its children's values,
// exactly, whatever line reaches it: none of its descendants can stand on that line. A
// node inside a strongly connected component (positions that reach each other, so
// repetitions are possible) is worth what the seed's search finds from it over its
// component (repetitions, perpetual checks, cyclic values trusted at NonPV nodes, DESIGN
// 3.6), the moves that leave the component being worth their exact values; the members
// of a component are valued together in a fixed order, sharing one cache. Entering a
// component from outside, no node of it is on the line, so this value does not depend on
// the line either. The line itself follows the best moves; inside a component it is the
// seed's search from where the line entered it.
//
// When the book, the in-flight set or the bans change, the graph logs the nodes whose own
// moves changed. Those are valued again, then the parents of every node whose value
// changed, children before parents (a heap on when each node was last valued), until
// nothing changes; a change that may close a cycle values its ancestors from the root
// again, components found anew (Tarjan). The values are a function of the book alone, so
// a selector kept across inserts answers exactly what a fresh one does (tested on thousands
// of random digs).
//
// The ply cap (DESIGN 3.7): a line that would move into a thought position at the cap ends
// there and is banned, like a repetition; inside a component the search counts the cap
// from where the line entered it.

const END_EXIT = 4; // the line leaves the component: it continues from the exit's own best line

const ST_DIRTY = 1; // an ancestor of a change that may have closed a cycle: valued again from the root
const ST_VALID = 2;
const ST_ABSENT = 4;
const ST_CYCLIC = 8;
const ST_LINKED = 32; // the node's children list it as a parent
const ST_MARK = 64; // on the Tarjan stack, or seen by a component walk
const ST_FRESH = 128; // never valued (new to the book): valued when first reached
const ST_UNVALUED = ST_DIRTY | ST_FRESH;

/** The seed's search restricted to one component, from one of its nodes, with a cache of its own. */
class ComponentSearch {
  private cacheValue = new Int16Array(0);
  private cacheBound = new Uint8Array(0);
  private cacheGen = new Uint32Array(0);
  private pathPly = new Int16Array(0);
  private gen = 0;
  private sp = 0;
  private stackRef = new Int32Array(1024);
  private stackRank = new Int32Array(1024);
  private stackKey = new Int32Array(1024);
  private pathNode: Int32Array;
  private pvRef: Int32Array;
  private pvLen: Int32Array;
  private pvEnd: Uint8Array;
  private compId = 0;
  cyclic = false;
  absent = false;
  visited = 0;
  cyclicTrusted = 0;

  constructor(
    private readonly graph: BookGraph,
    private readonly comp: () => Int32Array,
    private readonly exitValue: () => Int16Array,
    private readonly exitState: () => Uint8Array,
    private readonly maxPly: number,
    private readonly drawValue: readonly [number, number],
    private readonly plain: boolean,
  ) {
    const rows = maxPly + 1;
    this.pathNode = new Int32Array(rows);
    this.pvRef = new Int32Array(rows * rows);
    this.pvLen = new Int32Array(rows + 1);
    this.pvEnd = new Uint8Array(rows + 1);
  }

  /** The bound the last run left on a node of its component (values there depend on the line). */
  bound(node: number): { value: number; bound: Bound; cyclic: boolean } | undefined {
    if (node >= this.cacheGen.length || this.cacheGen[node] !== this.gen) return undefined;
    const b = this.cacheBound[node];
    if (b & CACHE_ABSENT) return undefined;
    return { value: this.cacheValue[node], bound: (b & BOUND_MASK) as Bound, cyclic: (b & CACHE_CYCLIC) !== 0 };
  }

  /** Starts valuing a component: one cache for all its members, so each search reuses the others'. */
  begin(compId: number): void {
    this.fit();
    this.gen++;
    this.compId = compId;
  }

  /** A member's value as the seed's search finds it from there (NonPV, full window, the component's cache). */
  valueOf(node: number): number {
    this.sp = 0;
    return this.search(false, node, -VALUE_INFINITE, VALUE_INFINITE, 0);
  }

  /** Searches from `node` (full window, as a PV node); its value, and its line when asked. */
  run(node: number): { value: number; line: number[]; end: number } {
    this.fit();
    this.gen++;
    this.sp = 0;
    this.compId = this.comp()[node];
    const value = this.search(true, node, -VALUE_INFINITE, VALUE_INFINITE, 0);
    const line = Array.from(this.pvRef.subarray(0, this.pvLen[0]));
    return { value, line, end: this.pvEnd[0] };
  }

  private search(pvNode: boolean, node: number, alpha: number, beta: number, ply: number): number {
    const g = this.graph;
    this.visited++;
    this.pvLen[ply] = 0;
    this.absent = false;
    this.cyclic = false;
    const flags = g.flags[node];
    if (flags & NODE_NO_MOVES) {
      this.pvEnd[ply] = END_TERMINAL;
      return -VALUE_MATE;
    }
    if (flags & NODE_DECLARATION_WIN) {
      this.pvEnd[ply] = END_TERMINAL;
      return VALUE_MATE;
    }
    const generation = this.gen;
    if (this.cacheGen[node] === generation) {
      const cached = this.cacheBound[node];
      if (cached & CACHE_ABSENT) {
        this.absent = true;
        return 0;
      }
      if (!pvNode) {
        const v = this.cacheValue[node],
          bound = cached & BOUND_MASK;
        if (bound === BOUND_EXACT || (bound === BOUND_LOWER && v >= beta) || (bound === BOUND_UPPER && v <= alpha)) {
          if (cached & CACHE_CYCLIC) {
            this.cyclic = true;
            this.cyclicTrusted++;
          }
          return v;
        }
      }
    }
    const comp = this.comp(),
      exitValue = this.exitValue(),
      exitState = this.exitState();
    const us = flags & NODE_WHITE;
    const alphaOrig = alpha;
    const hasBan = !this.plain && (flags & NODE_HAS_BAN) !== 0;
    let best = -VALUE_INFINITE;
    let cyclic = false;
    this.pathPly[node] = ply;
    this.pathNode[ply] = node;

    const frame = this.sp;
    let count = 0;
    const listedStart = g.edgeStart[node],
      listedCount = g.edgeCount[node];
    for (let i = 0; i < listedCount; i++) {
      const e = listedStart + i;
      if (hasBan && g.isBanned(node, g.eMove[e])) continue;
      const child = g.eChild[e];
      let key: number;
      if (child < 0) {
        if (!this.plain && g.inFlight.size !== 0 && g.inFlight.has(g.eKeyHi[e], g.eKeyLo[e])) continue;
        key = leafValueOf(g, e, this.plain);
      } else key = isEmptyNode(g, child) ? g.eValue[e] : this.orderKey(child, g.eValue[e], comp, exitValue, exitState);
      this.push(frame + count++, e, i, key);
    }
    for (let x = g.extraHead[node], i = listedCount; x >= 0; x = g.xNext[x], i++) {
      if ((hasBan && g.isBanned(node, g.xMove[x])) || isEmptyNode(g, g.xChild[x])) continue;
      this.push(frame + count++, -(x + 1), i, this.orderKey(g.xChild[x], -VALUE_MATE, comp, exitValue, exitState));
    }
    this.sortFrame(frame, count);
    this.sp = frame + count;

    let bestRank = 0x7fffffff;
    for (let i = frame; i < frame + count; i++) {
      const ref = this.stackRef[i],
        rank = this.stackRank[i];
      const child = ref >= 0 ? g.eChild[ref] : g.xChild[-ref - 1];
      const lower = pvNode && rank < bestRank && best === alpha && best > alphaOrig ? alpha - 1 : alpha;

      let value: number, end: number, childCyclic: boolean;
      let searched = false;
      if (child < 0) {
        value = leafValueOf(g, ref, this.plain);
        end = END_LEAF;
        childCyclic = false;
      } else if (isEmptyNode(g, child)) {
        value = g.eValue[ref];
        end = END_TERMINAL;
        childCyclic = false;
      } else if (comp[child] !== this.compId) {
        // Leaves the component: the exit's exact value (its own line continues the PV).
        const cf = g.flags[child];
        if (cf & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) {
          value = cf & NODE_NO_MOVES ? VALUE_MATE : -VALUE_MATE;
          end = END_TERMINAL;
          childCyclic = false;
        } else {
          const s = exitState[child];
          if (s & ST_ABSENT) continue;
          value = -exitValue[child];
          end = END_EXIT;
          childCyclic = (s & ST_CYCLIC) !== 0;
        }
      } else if (this.pathPly[child] >= 0) {
        value = repetitionValueOf(g, this.pathPly, this.pathNode, this.drawValue, child, ply, us);
        end = END_REPETITION;
        childCyclic = true;
      } else if (ply + 1 >= this.maxPly) {
        value = this.drawValue[us];
        end = END_PLY_CAP;
        childCyclic = true;
      } else {
        value = -this.search(false, child, -beta, -lower, ply + 1);
        if (this.absent) continue;
        childCyclic = this.cyclic;
        if (pvNode && value > lower) {
          value = -this.search(true, child, -beta, -lower, ply + 1);
          if (this.absent) continue;
          childCyclic = this.cyclic;
        }
        end = this.pvEnd[ply + 1];
        searched = true;
      }
      cyclic ||= childCyclic;

      if (value > best || (lower < alpha && value === best)) {
        best = value;
        bestRank = rank;
        if (value > lower) {
          if (pvNode) this.updatePv(ply, ref, end, searched);
          if (value >= beta) break;
          alpha = value;
        }
      }
    }
    this.sp = frame;
    this.pathPly[node] = -1;

    if (best === -VALUE_INFINITE) {
      this.cacheGen[node] = generation;
      this.cacheBound[node] = CACHE_ABSENT;
      this.absent = true;
      this.cyclic = false;
      return 0;
    }
    const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    this.cacheGen[node] = generation;
    this.cacheValue[node] = best;
    this.cacheBound[node] = bound | (cyclic ? CACHE_CYCLIC : 0);
    this.absent = false;
    this.cyclic = cyclic;
    return best;
  }

  /** Ordering: an exit by its exact value, a member by its value in this search, else its best engine value. */
  private orderKey(child: number, engineValue: number, comp: Int32Array, exitValue: Int16Array, exitState: Uint8Array): number {
    const g = this.graph;
    if (comp[child] !== this.compId) {
      if ((exitState[child] & (ST_VALID | ST_ABSENT)) === ST_VALID) return -exitValue[child];
    } else if (this.cacheGen[child] === this.gen && (this.cacheBound[child] & CACHE_ABSENT) === 0) return -this.cacheValue[child];
    return g.edgeCount[child] > 0 ? -g.eValue[g.edgeStart[child]] : engineValue;
  }

  private push(i: number, ref: number, rank: number, key: number): void {
    if (i >= this.stackRef.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.stackRef = grow(this.stackRef);
      this.stackRank = grow(this.stackRank);
      this.stackKey = grow(this.stackKey);
    }
    this.stackRef[i] = ref;
    this.stackRank[i] = rank;
    this.stackKey[i] = key;
  }

  private sortFrame(from: number, count: number): void {
    const ref = this.stackRef,
      rank = this.stackRank,
      key = this.stackKey;
    for (let i = from + 1; i < from + count; i++) {
      const r = ref[i],
        n = rank[i],
        k = key[i];
      let j = i - 1;
      while (j >= from && (key[j] < k || (key[j] === k && rank[j] > n))) {
        ref[j + 1] = ref[j];
        rank[j + 1] = rank[j];
        key[j + 1] = key[j];
        j--;
      }
      ref[j + 1] = r;
      rank[j + 1] = n;
      key[j + 1] = k;
    }
  }

  private updatePv(ply: number, ref: number, end: number, withChildLine: boolean): void {
    const rows = this.maxPly + 1;
    const row = ply * rows;
    this.pvRef[row] = ref;
    let len = 1;
    if (withChildLine) {
      const childRow = (ply + 1) * rows,
        n = this.pvLen[ply + 1];
      for (let i = 0; i < n; i++) this.pvRef[row + 1 + i] = this.pvRef[childRow + i];
      len += n;
    }
    this.pvLen[ply] = len;
    this.pvEnd[ply] = end;
  }

  private fit(): void {
    const n = this.graph.keyHi.length;
    if (this.cacheGen.length >= n) return;
    const grow = <T extends Int16Array | Uint8Array | Uint16Array | Uint32Array>(a: T, fill = 0): T => {
      const b = new (a.constructor as new (k: number) => T)(n);
      b.set(a);
      if (fill) b.fill(fill, a.length);
      return b;
    };
    this.cacheValue = grow(this.cacheValue);
    this.cacheBound = grow(this.cacheBound);
    this.cacheGen = grow(this.cacheGen);
    this.pathPly = grow(this.pathPly, -1);
  }
}

function isEmptyNode(g: BookGraph, node: number): boolean {
  return g.edgeCount[node] === 0 && g.extraHead[node] < 0 && (g.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) === 0;
}

function leafValueOf(g: BookGraph, e: number, plain: boolean): number {
  const v = g.eValue[e];
  return g.eFlags[e] & EDGE_KIFU && !plain ? clampValue(v + g.kifuBonus) : v;
}

function repetitionValueOf(
  g: BookGraph,
  pathPly: Int16Array,
  pathNode: Int32Array,
  drawValue: readonly [number, number],
  child: number,
  ply: number,
  us: number,
): number {
  const first = pathPly[child];
  let ourChecks = true,
    theirChecks = true;
  for (let k = ply; k >= first; k--) {
    const after = k === ply ? child : pathNode[k + 1];
    const gaveCheck = (g.flags[after] & NODE_IN_CHECK) !== 0;
    if (((ply - k) & 1) === 0) ourChecks &&= gaveCheck;
    else theirChecks &&= gaveCheck;
  }
  if (ourChecks && !theirChecks) return -VALUE_MATE;
  if (theirChecks && !ourChecks) return VALUE_MATE;
  return drawValue[us];
}

export class IncrementalSelector {
  /** Per-node state: value, flags, component, valuation stamp, Tarjan scratch, parent list head, component search cache. */
  static readonly BYTES_PER_NODE = 2 + 1 + 4 + 4 + 8 + 4 + 10;
  private val = new Int16Array(0);
  private st = new Uint8Array(0);
  private comp = new Int32Array(0);
  /** When each node was last valued: a child is valued before its parents, so re-valuing in stamp order meets children first. */
  private stamp = new Uint32Array(0);
  private clock = 0;
  private tIndex = new Int32Array(0);
  private tLow = new Int32Array(0);
  // Parent lists: pHead[node] -> pNode/pNext chain (a superset: edges replaced later stay).
  private pHead = new Int32Array(0);
  private pNode = new Int32Array(1024);
  private pNext = new Int32Array(1024);
  private pCount = 0;
  private logEpoch = -1;
  private logCursor = 0;
  private kifuBonusSeen = NaN;
  private compCounter = 0;
  private pending: number[] = [];
  private readonly cs: ComponentSearch;
  private visited = 0;
  private readonly maxPly: number;
  private readonly drawValue: readonly [number, number];
  private readonly maxBans: number;
  private readonly maxLeafPly: number;
  private readonly evalLimit: number;
  private readonly plain: boolean;

  constructor(
    readonly graph: BookGraph,
    options: SelectOptions = {},
  ) {
    graph.trackTouches();
    this.maxPly = options.maxPly ?? 256;
    this.drawValue = options.drawValue ?? [0, 0];
    this.maxBans = options.maxBans ?? 100_000;
    this.maxLeafPly = options.maxLeafPly ?? 0;
    this.evalLimit = options.evalLimit ?? 0;
    this.plain = options.plain ?? false;
    this.cs = new ComponentSearch(
      graph,
      () => this.comp,
      () => this.val,
      () => this.st,
      this.maxPly,
      this.drawValue,
      this.plain,
    );
  }

  /** Selects the next leaf to think below `root` (a node id), banning dead-end lines on the way. */
  select(root: number): Selection {
    const t0 = performance.now();
    const graph = this.graph;
    this.visited = 0;
    this.cs.visited = 0;
    this.cs.cyclicTrusted = 0;
    const bans: Ban[] = [];
    let searches = 0;
    const stats = (): SelectStats => ({
      nodes: this.visited + this.cs.visited,
      searches,
      cyclicTrusted: this.cs.cyclicTrusted,
      ms: performance.now() - t0,
    });
    for (;;) {
      searches++;
      this.refresh(root);
      const found = this.descend(root);
      if (!found) return { kind: "none", bans, stats: stats() };
      const { line, end, value } = found;
      const last = line[line.length - 1];
      const beyondLimits =
        end === END_LEAF &&
        ((this.maxLeafPly > 0 && line.length > this.maxLeafPly) ||
          (this.evalLimit > 0 && Math.abs(graph.eValue[last.edge]) >= this.evalLimit));
      if (end === END_LEAF && !beyondLimits) {
        const e = last.edge;
        return {
          kind: "leaf",
          rootValue: value,
          line,
          leaf: {
            node: last.node,
            move: last.move,
            childHi: graph.eKeyHi[e],
            childLo: graph.eKeyLo[e],
            value: leafValueOf(graph, e, this.plain),
          },
          bans,
          stats: stats(),
        };
      }
      // Nothing new to think at the end of this line: ban its last move and search again.
      const reason = beyondLimits ? "limit" : end === END_REPETITION ? "repetition" : end === END_PLY_CAP ? "ply-cap" : "terminal";
      graph.ban(last.node, last.move);
      bans.push({ node: last.node, move: last.move, path: line.slice(0, -1).map((st) => st.move), reason });
      if (bans.length >= this.maxBans) return { kind: "none", bans, stats: stats() };
    }
  }

  /** The book's value at `root` (plain: in-flight leaves count, no bonus, no bans); null when nothing is left to search. */
  bookValue(root: number): number | null {
    this.refresh(root);
    if (this.rootAbsent(root)) return null;
    return this.comp[root] !== 0 ? this.cs.run(root).value : this.val[root];
  }

  /** What a selection would show, without selecting: the root value and best line (nothing banned, nothing marked). */
  preview(root: number): { rootValue: number; line: LineStep[] } | null {
    this.visited = 0;
    this.refresh(root);
    if (this.rootAbsent(root)) return null;
    const found = this.descend(root);
    return { rootValue: found?.value ?? this.val[root], line: found?.line ?? [] };
  }

  /**
   * The value of a node for the UI: exact for a node on no cycle; inside a component, the
   * value along the last line searched there (it depends on the line), else its own.
   * Undefined when not valued, a dead end, or changed since.
   */
  bound(node: number): { value: number; bound: Bound; cyclic: boolean } | undefined {
    this.consumeLog();
    if (node >= this.st.length) return undefined;
    const s = this.st[node];
    if (s & ST_UNVALUED) return undefined;
    if (this.comp[node] !== 0) {
      const b = this.cs.bound(node);
      if (b) return b;
    }
    if ((s & (ST_VALID | ST_ABSENT)) !== ST_VALID) return undefined;
    if (this.graph.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) return undefined;
    return { value: this.val[node], bound: BOUND_EXACT, cyclic: (s & ST_CYCLIC) !== 0 };
  }

  private rootAbsent(root: number): boolean {
    const f = this.graph.flags[root];
    return (f & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) !== 0 || (this.st[root] & ST_ABSENT) !== 0;
  }

  /** Brings the values up to date for `root`: only what changed since the last call, and what depends on it. */
  private refresh(root: number): void {
    this.consumeLog();
    this.propagate();
    if (this.st[root] & ST_UNVALUED) this.valueFrom(root);
    this.ensureValue(root);
  }

  private consumeLog(): void {
    this.fit();
    const g = this.graph;
    if (g.touchEpoch !== this.logEpoch || g.kifuBonus !== this.kifuBonusSeen) {
      for (let n = 0; n < g.nodeCount; n++) this.st[n] = (this.st[n] & (ST_LINKED | ST_FRESH)) | ST_DIRTY;
      this.logEpoch = g.touchEpoch;
      this.kifuBonusSeen = g.kifuBonus;
      this.logCursor = 0;
      this.pending = [];
    }
    const log = g.touchLog;
    for (let i = this.logCursor; i < log.length; i++) {
      const t = log[i] >>> 1;
      this.linkChildren(t); // its moves changed: it is a parent of its children now
      // A change that may close a cycle values its ancestors again from the root (components
      // found anew); any other change values the node again, then its parents while values change.
      if (log[i] & 1) this.markDirty(t);
      else this.pending.push(t);
    }
    this.logCursor = log.length;
  }

  /**
   * Marks a node and every ancestor to be valued again from the root. An ancestor of a
   * dirty node is dirty already, except the parents of the node itself: one never valued
   * may have clean parents (they took it for an empty position, or the move was banned).
   */
  private markDirty(node: number): void {
    const st = this.st;
    const stack = [node];
    st[node] = (st[node] & (ST_LINKED | ST_FRESH)) | ST_DIRTY;
    while (stack.length) {
      const n = stack.pop()!;
      for (let p = this.pHead[n]; p >= 0; p = this.pNext[p]) {
        const parent = this.pNode[p];
        if (st[parent] & ST_DIRTY) continue;
        st[parent] = (st[parent] & (ST_LINKED | ST_FRESH)) | ST_DIRTY;
        stack.push(parent);
      }
    }
  }

  /**
   * Values again the nodes whose moves changed, then the parents of every node whose value
   * (or dead end) changed, children first, until nothing changes; a component's members
   * are valued again together.
   */
  private propagate(): void {
    if (this.pending.length === 0) return;
    const heap = new StampHeap(this.stamp);
    const queued = new Set<number>();
    for (const t of this.pending)
      if (!queued.has(t)) {
        queued.add(t);
        heap.push(t);
      }
    this.pending = [];
    const st = this.st;
    const changed = (n: number, v: number, s: number) => this.val[n] !== v || (st[n] & ST_ABSENT) !== (s & ST_ABSENT);
    const parentsOf = (n: number, skipComp: number) => {
      for (let p = this.pHead[n]; p >= 0; p = this.pNext[p]) {
        const parent = this.pNode[p];
        if (queued.has(parent) || (skipComp !== 0 && this.comp[parent] === skipComp)) continue;
        queued.add(parent);
        heap.push(parent);
      }
    };
    while (heap.size) {
      const t = heap.pop();
      queued.delete(t);
      const s = st[t];
      if (s & ST_UNVALUED) {
        // Not valued yet (new to the book, or never reached): a parent may have taken it for
        // an empty position, or skipped it, so its parents are valued again too.
        this.valueFrom(t);
        parentsOf(t, 0);
        continue;
      }
      if (!(s & ST_VALID)) continue; // a component member not asked for yet
      const id = this.comp[t];
      if (id === 0) {
        const v = this.val[t];
        this.valueNode(t);
        if (changed(t, v, s)) parentsOf(t, 0);
        continue;
      }
      const members = this.componentMembers(t);
      const before = members.map((m) => [this.val[m], st[m]]);
      for (const m of members) {
        st[m] &= ~ST_VALID;
        queued.delete(m); // valued now with the rest
      }
      this.ensureValue(t);
      members.forEach((m, k) => {
        if (changed(m, before[k][0], before[k][1])) parentsOf(m, id);
      });
    }
  }

  /** The members of `n`'s component (a walk over its internal edges), and the moves that leave it. */
  private componentMembers(n: number, exits?: number[]): number[] {
    const g = this.graph,
      st = this.st,
      comp = this.comp;
    const id = comp[n];
    const members = [n];
    st[n] |= ST_MARK;
    const visit = (c: number) => {
      if (comp[c] !== id) exits?.push(c);
      else if (!(st[c] & ST_MARK)) {
        st[c] |= ST_MARK;
        members.push(c);
      }
    };
    for (let i = 0; i < members.length; i++) {
      const m = members[i];
      const start = g.edgeStart[m],
        end = start + g.edgeCount[m];
      for (let e = start; e < end; e++) if (g.eChild[e] >= 0) visit(g.eChild[e]);
      for (let x = g.extraHead[m]; x >= 0; x = g.xNext[x]) visit(g.xChild[x]);
    }
    for (const m of members) st[m] &= ~ST_MARK;
    return members;
  }

  private addParent(child: number, parent: number): void {
    for (let p = this.pHead[child]; p >= 0; p = this.pNext[p]) if (this.pNode[p] === parent) return;
    if (this.pCount === this.pNode.length) {
      const size = Math.ceil(this.pCount * 1.5) + 1024;
      const a = new Int32Array(size),
        b = new Int32Array(size);
      a.set(this.pNode);
      b.set(this.pNext);
      this.pNode = a;
      this.pNext = b;
    }
    const i = this.pCount++;
    this.pNode[i] = parent;
    this.pNext[i] = this.pHead[child];
    this.pHead[child] = i;
  }

  private linkChildren(n: number): void {
    const g = this.graph;
    const start = g.edgeStart[n],
      end = start + g.edgeCount[n];
    for (let e = start; e < end; e++) if (g.eChild[e] >= 0) this.addParent(g.eChild[e], n);
    for (let x = g.extraHead[n]; x >= 0; x = g.xNext[x]) this.addParent(g.xChild[x], n);
    this.st[n] |= ST_LINKED;
  }

  /**
   * Values the nodes not valued yet (dirty or new) reachable from `start`: Tarjan's
   * components over them, children first; a node on no cycle at once, a component's
   * members when a parent asks for one.
   */
  private valueFrom(start: number): void {
    const g = this.graph,
      st = this.st,
      tIndex = this.tIndex,
      tLow = this.tLow;
    const visitedNodes: number[] = [];
    const tstack: number[] = [];
    // DFS frames: the node, and where its child iteration stands (listed index, then -(extra + 2)).
    const fNode: number[] = [];
    const fPos: number[] = [];
    let counter = 0;
    const enter = (n: number) => {
      tIndex[n] = tLow[n] = counter++;
      visitedNodes.push(n);
      tstack.push(n);
      st[n] |= ST_MARK;
      if (!(st[n] & ST_LINKED)) this.linkChildren(n);
      fNode.push(n);
      fPos.push(0);
    };
    enter(start);
    while (fNode.length) {
      const top = fNode.length - 1;
      const n = fNode[top];
      // The next internal child not valued yet.
      let child = -1;
      let pos = fPos[top];
      const count = g.edgeCount[n],
        first = g.edgeStart[n];
      while (child < 0) {
        if (pos >= 0 && pos < count) {
          const c = g.eChild[first + pos];
          pos++;
          if (c >= 0 && st[c] & ST_UNVALUED) child = c;
        } else {
          const x = pos >= 0 ? g.extraHead[n] : g.xNext[-pos - 2];
          if (x < 0) break;
          pos = -(x + 2);
          const c = g.xChild[x];
          if (st[c] & ST_UNVALUED) child = c;
        }
      }
      fPos[top] = pos;
      if (child >= 0) {
        if (tIndex[child] < 0) enter(child);
        else if (st[child] & ST_MARK && tIndex[child] < tLow[n]) tLow[n] = tIndex[child];
        continue;
      }
      fNode.pop();
      fPos.pop();
      if (fNode.length) {
        const p = fNode[fNode.length - 1];
        if (tLow[n] < tLow[p]) tLow[p] = tLow[n];
      }
      if (tLow[n] !== tIndex[n]) continue;
      const last = tstack.pop()!;
      if (last === n) {
        this.comp[n] = 0;
        this.valueNode(n);
        continue;
      }
      const id = ++this.compCounter;
      let m = last;
      for (;;) {
        st[m] = st[m] & ST_LINKED; // clean, valued when asked
        this.comp[m] = id;
        if (m === n) break;
        m = tstack.pop()!;
      }
    }
    for (const n of visitedNodes) tIndex[n] = -1;
  }

  /** A node on no cycle: the negamax of its children's values, ties to the earlier move in the fixed order. */
  private valueNode(n: number): void {
    const r = this.bestMove(n);
    const st = this.st;
    this.visited++;
    // Stamped when first valued (after its children): re-valuing keeps the order.
    if (this.stamp[n] === 0) this.stamp[n] = ++this.clock;
    if (r.ref === NO_MOVE) {
      st[n] = (st[n] & ST_LINKED) | ST_VALID | ST_ABSENT;
      return;
    }
    this.val[n] = r.value;
    st[n] = (st[n] & ST_LINKED) | ST_VALID;
  }

  private best = { ref: 0, value: 0, end: 0 as number, child: -1 };
  /** The best present move of a node on no cycle (its children valued first when they are not). */
  private bestMove(n: number): { ref: number; value: number; end: number; child: number } {
    const g = this.graph,
      st = this.st;
    const hasBan = !this.plain && (g.flags[n] & NODE_HAS_BAN) !== 0;
    let best = -VALUE_INFINITE,
      bestRef = NO_MOVE,
      bestEnd = 0,
      bestChild = -1;
    const consider = (ref: number, move: number, child: number) => {
      if (hasBan && g.isBanned(n, move)) return;
      let value: number, end: number;
      if (child < 0) {
        if (!this.plain && g.inFlight.size !== 0 && g.inFlight.has(g.eKeyHi[ref], g.eKeyLo[ref])) return;
        value = leafValueOf(g, ref, this.plain);
        end = END_LEAF;
      } else if (isEmptyNode(g, child)) {
        // Thought, but nothing usable came back: the move keeps its listed value, as in export.
        if (ref < 0) return;
        value = g.eValue[ref];
        end = END_TERMINAL;
      } else {
        const cf = g.flags[child];
        if (cf & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) {
          value = cf & NODE_NO_MOVES ? VALUE_MATE : -VALUE_MATE;
          end = END_TERMINAL;
        } else {
          this.ensureValue(child);
          if (st[child] & ST_ABSENT) return;
          value = -this.val[child];
          end = END_EXIT;
        }
      }
      if (value > best) {
        best = value;
        bestRef = ref;
        bestEnd = end;
        bestChild = child;
      }
    };
    const start = g.edgeStart[n],
      end = start + g.edgeCount[n];
    for (let e = start; e < end; e++) consider(e, g.eMove[e], g.eChild[e]);
    for (let x = g.extraHead[n]; x >= 0; x = g.xNext[x]) consider(-(x + 1), g.xMove[x], g.xChild[x]);
    const b = this.best;
    b.ref = bestRef;
    b.value = best;
    b.end = bestEnd;
    b.child = bestChild;
    return b;
  }

  /**
   * Values a component's members when a parent or the root first asks for one: its exits
   * first (other components before it), then each member in id order by the seed's search
   * over the component, the members sharing one cache (cyclic values trusted at NonPV
   * nodes, DESIGN 3.6). The order is fixed, so the values depend on the book alone.
   */
  private ensureValue(n: number): void {
    const st = this.st;
    if (st[n] & ST_UNVALUED) this.valueFrom(n); // new to the book, reached from a parent valued again
    if (st[n] & ST_VALID) return;
    const id = this.comp[n];
    const exits: number[] = [];
    const members = this.componentMembers(n, exits);
    for (const c of exits) this.ensureValue(c);
    members.sort((a, b) => a - b);
    const cs = this.cs;
    cs.begin(id);
    const stamp = ++this.clock;
    for (const m of members) {
      if (this.stamp[m] === 0) this.stamp[m] = stamp;
      const value = cs.valueOf(m);
      if (cs.absent) {
        st[m] = (st[m] & ST_LINKED) | ST_VALID | ST_ABSENT;
        continue;
      }
      this.val[m] = value;
      st[m] = (st[m] & ST_LINKED) | ST_VALID | (cs.cyclic ? ST_CYCLIC : 0);
    }
  }

  /**
   * The best line from `root` by the kept values, to its end; null when nothing is left.
   * Its value is the root's, or for a root inside a component what the search from it finds.
   */
  private descend(root: number): { line: LineStep[]; end: LineEnd; value: number } | null {
    const g = this.graph;
    if (this.rootAbsent(root)) return null;
    const line: LineStep[] = [];
    let value = this.val[root];
    const step = (n: number, ref: number): LineStep =>
      ref >= 0
        ? { node: n, edge: ref, move: g.eMove[ref], child: g.eChild[ref] }
        : { node: n, edge: ref, move: g.xMove[-ref - 1], child: g.xChild[-ref - 1] };
    // Moves into a thought position at the cap end the line there (DESIGN 3.7).
    const capped = (s: LineStep) => s.child >= 0 && !isEmptyNode(g, s.child) && line.length >= this.maxPly;
    const done = (end: number) => (line.length ? { line, end: end as LineEnd, value } : null);
    let node = root;
    for (;;) {
      if (this.comp[node] !== 0) {
        // Entering a component: the seed's search from here (PV, its own cache) gives the
        // line inside it, to its end or to the exit whose own best line continues it.
        const r = this.cs.run(node);
        if (node === root) value = r.value;
        let at = node;
        for (const ref of r.line) {
          const s = step(at, ref);
          line.push(s);
          if (capped(s)) return done(END_PLY_CAP);
          at = s.child;
        }
        if (r.end !== END_EXIT) return done(r.end);
        node = at;
        continue;
      }
      const b = this.bestMove(node);
      if (b.ref === NO_MOVE) return done(END_TERMINAL);
      const s = step(node, b.ref);
      line.push(s);
      if (capped(s)) return done(END_PLY_CAP);
      if (b.end !== END_EXIT) return done(b.end);
      node = b.child;
    }
  }

  private fit(): void {
    const n = this.graph.keyHi.length;
    if (this.st.length >= n) return;
    const grow = <T extends Int16Array | Uint8Array | Int32Array | Uint32Array>(a: T, fill = 0): T => {
      const b = new (a.constructor as new (k: number) => T)(n);
      b.set(a);
      if (fill) b.fill(fill, a.length);
      return b;
    };
    this.val = grow(this.val);
    this.st = grow(this.st, ST_FRESH);
    this.comp = grow(this.comp);
    this.stamp = grow(this.stamp);
    this.tIndex = grow(this.tIndex, -1);
    this.tLow = grow(this.tLow);
    this.pHead = grow(this.pHead, -1);
  }
}

const NO_MOVE = 0x7fffffff;

/** A min-heap of nodes by their valuation stamp. */
class StampHeap {
  private items: number[] = [];
  constructor(private readonly key: Uint32Array) {}
  get size(): number {
    return this.items.length;
  }
  push(n: number): void {
    const a = this.items,
      k = this.key;
    let i = a.length;
    a.push(n);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (k[a[p]] <= k[n]) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = n;
  }
  pop(): number {
    const a = this.items,
      k = this.key;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const c = l + 1 < a.length && k[a[l + 1]] < k[a[l]] ? l + 1 : l;
        if (k[a[c]] >= k[last]) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}
