// Selection: the ranged alpha-beta search over the book (docs/DESIGN.md §3, after §11.0).
//
// A fail-soft negamax from the root where a leaf edge is worth the engine's value for
// its move. The leaf at the end of the principal variation is the next position to
// think. Edges into positions being thought (the searching set) and banned
// (position, move) pairs are treated as absent, so repeated selections hand out the
// next-best leaves, one per free engine. Children are searched NonPV first, with cut-offs
// on cached bounds, and re-searched as PV when they raise alpha.
//
// Bounds are kept from one selection to the next (docs/DESIGN.md §3.5). A bound that does
// not depend on the line (no repetition, no ply cap, no cyclic value below it) is a fact
// about the node's part of the book, so it stays true until something below the node
// changes what it says. The graph tells the selector which nodes' own moves changed (an
// insert, a leaf going in or out of flight, a ban); the selector checks those nodes' bounds
// against their moves one ply deep, keeps the ones that still follow, and drops the others,
// checking their parents in turn: a change climbs only as far as it changes what the bounds
// say. A lower bound rests on one move only: the selector remembers which, and a change
// climbing up through another move leaves it as it is. Cyclic bounds are kept and checked
// the same way and trusted at NonPV nodes, as within one search (docs/DESIGN.md §3.6): on
// books with cycles a selection may differ from a fresh selector's now and then (counted in
// select-kept.test.ts), never on books without. Each bound also remembers how deep below it
// the search went, so one used at a deeper ply than it was made at is used only where the
// ply cap cannot cut in.
//
// NonPV children after the first are tested with a null window first (principal variation
// search): on books of near-equal siblings most of them fail low at once.
//
// On a book of millions of positions the search waits on memory, not on arithmetic: a look
// at a child costs a read of its entry, which holds all the search needs to pass it by (its
// bound and the search that made it side by side, whether it is on the line, terminal or
// empty, and before it is searched the value that orders it).
//
// Kept as one file over 600 lines: one search readable top to bottom, as Stockfish's search.cpp is.

import { VALUE_MATE, clampValue } from "../rules/types.js";
import {
  BookGraph,
  type TouchFeed,
  EDGE_IN_FLIGHT,
  EDGE_KIFU,
  NODE_DECLARATION_WIN,
  NODE_HAS_BAN,
  NODE_IN_CHECK,
  NODE_NO_MOVES,
  NODE_WHITE,
  PARENT_LAST,
} from "./graph.js";
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
// A move's ordering key is its value times four plus a tier, so that among moves of equal
// value the one known best goes first: worth at least the value (its child's upper bound),
// then exactly it (a leaf, an exact bound), then not known, then at most it (its child's
// lower bound, or its child's best listed move before it is searched). On a book of near-equal
// values, a PV node that searched a move bounded only from above first searched its whole
// subtree with an open window for its exact value, when a tied sibling's exact value would
// have let it pass with a null window.
const TIER_AT_MOST = 0,
  TIER_UNKNOWN = 1,
  TIER_EXACT = 2,
  TIER_AT_LEAST = 3;
/** The tier of a move by its child's bound (none, upper, lower, exact), from the mover's side. */
const TIER_OF_CHILD_BOUND = [TIER_UNKNOWN, TIER_AT_LEAST, TIER_AT_MOST, TIER_EXACT];
/** Ordering keys of moves known to cut off: above any value, the strongest first. */
const KEY_CUTS = 4 * (2 * VALUE_INFINITE + 1);
// A cache entry packs the node's value (high 16 bits), reach (8 bits) and bound byte (low
// 8 bits) into one word: a child's bound costs one memory read, not three.
const ENTRY_SEARCHED = 16; // in the bound byte: searched at least once, so the value is a move-ordering hint
// In the bound byte: a search replaced a bound with one that does not imply it (another
// window), so parents' bounds may rest on more than what is kept here (see readChanges).
const CACHE_WEAK = 32;
/** In the bound byte: the node stands on the line being searched (at the ply pathNode says). */
const ENTRY_ON_LINE = 64;
/**
 * In the bound byte: the node is terminal or empty, so a parent never searches it but reads
 * its flags. A fact about the graph, set from it (see markNode) and kept through every bound
 * written, so one read of a child's entry tells an ordinary child from these.
 */
const ENTRY_STATIC = 128;
/** The value of a never-searched entry when the node has no listed move to hint its value with. */
const NO_HINT = -0x8000;
/** In Selector.leafBest: the node has no present leaf move; its best is not known yet. */
const NO_LEAF = -0x8000;
const LEAF_UNKNOWN = -0x7fff;
/** The bits of the bound byte that are saved beside the book (Selector.savedBounds). */
const SAVED_BITS = BOUND_MASK | CACHE_CYCLIC | CACHE_ABSENT | CACHE_WEAK;

const entryValue = (e: number) => e >> 16;
const entryReach = (e: number) => (e >>> 8) & 0xff;

/**
 * Whether bound entry `now` says at least what `before` said, both made from the same book:
 * then whatever was made from `before` still follows from `now`.
 */
function implies(now: number, before: number): boolean {
  const b = before & 0xff,
    n = now & 0xff;
  if (b & (CACHE_CYCLIC | CACHE_WEAK)) return false;
  if (b & CACHE_ABSENT) return (n & CACHE_ABSENT) !== 0;
  if (n & (CACHE_CYCLIC | CACHE_ABSENT)) return false;
  const nb = n & BOUND_MASK;
  if (nb === BOUND_EXACT) return true; // the value itself, which the earlier bound held
  if (nb !== (b & BOUND_MASK)) return false;
  return nb === BOUND_LOWER ? entryValue(now) >= entryValue(before) : entryValue(now) <= entryValue(before);
}

/** What readMove found. */
const MOVE_KNOWN = 0,
  MOVE_ABSENT = 1,
  MOVE_UNKNOWN = 2;

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
      /**
       * The leaf: its parent node, move, and value as searched. The graph keeps no child keys:
       * the leaf's key is its position's, made by the line's moves from the root.
       */
      leaf: { node: number; move: number; value: number };
      bans: Ban[];
      stats: SelectStats;
    }
  | { kind: "none"; bans: Ban[]; stats: SelectStats };

/** Nodes restored a piece at a time (Selector.restoreBounds). */
const RESTORE_PIECE = 1 << 20;

/** The parts of saved bounds, in the order a file holds them. */
export const SAVED_BOUNDS_PARTS = ["value", "bound", "reach", "proof"] as const;
export type SavedBoundsPart = (typeof SAVED_BOUNDS_PARTS)[number];
/**
 * Saved bounds a part of a range of nodes at a time (Selector.boundsSource, a file's through
 * takeBounds). The array handed out may be reused by the next call for the same part.
 */
export interface SavedBoundsSource {
  nodes: number;
  part(part: SavedBoundsPart, from: number, to: number): Int16Array | Uint8Array | Int32Array;
}

/**
 * The arrays a SavedBoundsSource hands out, one per part, reused from call to call (grown
 * as needed): pieces written or read one after another leave no garbage to collect.
 */
export class PartScratch {
  private i16 = new Int16Array(0);
  private i32 = new Int32Array(0);
  private u8 = { bound: new Uint8Array(0), reach: new Uint8Array(0) };
  int16(n: number): Int16Array {
    if (this.i16.length < n) this.i16 = new Int16Array(n);
    return this.i16.subarray(0, n);
  }
  int32(n: number): Int32Array {
    if (this.i32.length < n) this.i32 = new Int32Array(n);
    return this.i32.subarray(0, n);
  }
  uint8(part: "bound" | "reach", n: number): Uint8Array {
    if (this.u8[part].length < n) this.u8[part] = new Uint8Array(n);
    return this.u8[part].subarray(0, n);
  }
}

/** Bounds a piece at a time, from a source or from bounds held whole. */
export function boundsSourceOf(bounds: SavedBounds | SavedBoundsSource): SavedBoundsSource {
  return "part" in bounds ? bounds : { nodes: bounds.bound.length, part: (part, from, to) => bounds[part].subarray(from, to) };
}

/** A source's bounds whole, copied (its arrays are reused from one call to the next). */
export function wholeBounds(source: SavedBoundsSource): SavedBounds {
  const all = <K extends SavedBoundsPart>(k: K) => source.part(k, 0, source.nodes).slice() as SavedBounds[K];
  return { value: all("value"), bound: all("bound"), reach: all("reach"), proof: all("proof") };
}

/** Bounds as saved beside a book (Selector.savedBounds). */
export interface SavedBounds {
  value: Int16Array;
  bound: Uint8Array;
  reach: Uint8Array;
  /**
   * Of a lower bound, the move it rests on (Selector.proof: the child, -1 a leaf move, -3 the
   * line itself, -2 not known); -2 beside any other bound. Without it, the first changes after
   * an open would check every lower bound they pass one ply deep, and drop most of them.
   */
  proof: Int32Array;
}
/** The bound byte of a node without a bound in SavedBounds. */
export const NO_SAVED_BOUND = 0xff;
const NO_PROOF = -2;
/** A lower bound shown by the line itself (a repetition, the ply cap): nothing below the node changes it. */
const PROOF_LINE = -3;

/** The time given ran out first; the bounds found so far are kept, so asking again goes on from there. */
export type Unfinished = { kind: "unfinished"; bans: Ban[]; stats: SelectStats };

export class Selector {
  /** Per-node state of the search: the packed entry, the search number, the lower bound's proving move, the best leaf value. */
  static readonly BYTES_PER_NODE = 4 + 4 + 4 + 2;
  /**
   * Three words a node, side by side so that one memory read brings them: at 3n the entry
   * (value, reach: how many plies below the node its search went, capped at 255, and the
   * bound byte, packed); at 3n + 1 the search that made the node's bound, 0 when it has none
   * (never searched, or something below it changed). A never-searched entry's value is the
   * node's best listed value (NO_HINT: none), the search's guess of its value. At 3n + 2, of a
   * lower bound, which of the node's moves reached it, named by the child it leads to (-1: a
   * leaf move; PROOF_LINE: the line itself); NO_PROOF when not known, and meaningless beside
   * any other bound (left as it was). A lower bound rests on that move alone, so a change
   * coming up from any other child leaves it true. The child, not the move's rank: the walk
   * asks this of every parent it looks at, and the child is what it compares (beside the
   * parent's bound, not in an array of its own: the walk is held up by memory reads).
   */
  private rec = new Int32Array(0);
  /** Set by readMove. */
  private moveLo = 0;
  private moveHi = 0;
  private moveReach = 0;
  private moveCyclic = false;
  /** The walk up from changed nodes, when a slice ran out before it ended. */
  private walk: number[] = [];
  /** Beside each node on the walk: the child it came up from (-1: its own moves changed). */
  private walkFrom: number[] = [];
  /**
   * Of each node, its best present leaf value (NO_LEAF: it has none), or LEAF_UNKNOWN until
   * asked since its moves last changed. The walk asks it of every node without a bound that
   * it passes (a scan of the node's edges, several memory reads, each time otherwise).
   */
  private leafBest = new Int16Array(0);
  /** When bound() last gave the walk time: a view's many calls give it 5 ms once, not each. */
  private boundWalkAt = -Infinity;
  // A stack of move frames, one per node on the current line.
  private sp = 0;
  private stackRef = new Int32Array(1024);
  private stackRank = new Int32Array(1024);
  private stackKey = new Int32Array(1024);
  private pathNode: Int32Array;
  /**
   * The line of a search that ran out of time, per ply: its node, where its moves start on
   * the stack and how many, valid above resumeDepth (0: none kept).
   */
  private resumeNode: Int32Array;
  private resumeFrame: Int32Array;
  private resumeCount: Int32Array;
  private resumeDepth = 0;
  private unwinding = false;
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
  /** Searches from the root so far; the current one's number. */
  private searchNo = 0;
  // Set by search() for its caller beside cyclic/absent: how deep below the node it went.
  private reach = 0;
  /** When a search must give up (performance.now() ms), and whether it did. */
  private deadline = Infinity;
  private aborted = false;
  /** The graph's changes, read before each search to drop the bounds they made untrue. */
  private readonly feed: TouchFeed;

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
    this.resumeNode = new Int32Array(rows);
    this.resumeFrame = new Int32Array(rows);
    this.resumeCount = new Int32Array(rows);
    this.pvRef = new Int32Array(rows * rows);
    this.pvLen = new Int32Array(rows + 1);
    this.pvEnd = new Uint8Array(rows + 1);
    this.feed = graph.openFeed();
  }

  /** Stops following the graph's changes (a selector replaced by another). */
  close(): void {
    this.feed.close();
  }

  /**
   * Selects the next leaf to think below `root` (a node id), banning dead-end lines on the
   * way. With `budgetMs`, gives up after about that long ("unfinished"): on a huge book
   * the first search takes seconds, and its caller must keep answering meanwhile.
   */
  select(root: number): Selection;
  select(root: number, budgetMs: number): Selection | Unfinished;
  select(root: number, budgetMs = Infinity): Selection | Unfinished {
    const t0 = performance.now();
    this.deadline = t0 + budgetMs;
    const graph = this.graph;
    this.visited = 0;
    this.cyclicTrusted = 0;
    this.sp = 0;
    const bans: Ban[] = [];
    let searches = 0;
    const stats = (): SelectStats => ({ nodes: this.visited, searches, cyclicTrusted: this.cyclicTrusted, ms: performance.now() - t0 });

    for (;;) {
      searches++;
      const value = this.searchRoot(root);
      if (this.aborted) return { kind: "unfinished", bans, stats: stats() };
      if (this.absent || this.pvLen[0] === 0) {
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
        const e = last.edge;
        return {
          kind: "leaf",
          rootValue: value,
          line,
          leaf: { node: last.node, move: last.move, value: this.leafValue(e) },
          bans,
          stats: stats(),
        };
      }
      // Nothing new to think at the end of this line: ban its last move and search again.
      const reason = beyondLimits ? "limit" : end === END_REPETITION ? "repetition" : end === END_PLY_CAP ? "ply-cap" : "terminal";
      graph.ban(last.node, last.move);
      bans.push({ node: last.node, move: last.move, path: line.slice(0, -1).map((st) => st.move), reason });
      if (bans.length >= this.maxBans) {
        return { kind: "none", bans, stats: stats() };
      }
    }
  }

  /** The book's value at `root` (one search, nothing banned); null when nothing is left to search. */
  bookValue(root: number): number | null {
    this.deadline = Infinity;
    this.sp = 0;
    const value = this.searchRoot(root);
    return this.absent ? null : value;
  }

  /**
   * What a selection would show, without selecting: one search from `root` (nothing banned,
   * nothing marked), its value and best line, and the bounds it leaves for bound(). A book
   * opened to browse, not dug, shows its values and best line this way.
   */
  preview(root: number): { rootValue: number; line: LineStep[] } | null;
  /** With `budgetMs`: undefined when the time ran out first (asking again goes on from the bounds found). */
  preview(root: number, budgetMs: number): { rootValue: number; line: LineStep[] } | null | undefined;
  preview(root: number, budgetMs = Infinity): { rootValue: number; line: LineStep[] } | null | undefined {
    this.deadline = performance.now() + budgetMs;
    this.visited = 0;
    this.cyclicTrusted = 0;
    this.sp = 0;
    const value = this.searchRoot(root);
    if (this.aborted) return undefined;
    if (this.absent) return null;
    return { rootValue: value, line: this.pvLen[0] === 0 ? [] : this.lineFrom(root) };
  }

  /** Nodes the last search (preview or selection) visited. */
  get lastNodes(): number {
    return this.visited;
  }

  /**
   * The bounds kept now, to save beside the book so the next open need not search it all
   * again: per node the value, the bound byte (NO_SAVED_BOUND: none) and the reach.
   */
  savedBounds(): SavedBounds {
    return wholeBounds(this.boundsSource());
  }

  /**
   * The bounds to save, a part of a range of nodes at a time (savedBounds is all of them at
   * once): a writer takes them in pieces, so a big book's close does not hold a second copy
   * (120 MB at 15M positions, the peak of a dig's memory). Good until the graph changes.
   */
  boundsSource(): SavedBoundsSource {
    this.readChanges();
    const rec = this.rec;
    const isLower = (i: number) => rec[3 * i + 1] !== 0 && (rec[3 * i] & BOUND_MASK) === BOUND_LOWER;
    const scratch = new PartScratch();
    return {
      nodes: this.graph.nodeCount,
      part: (part, from, to) => {
        const n = to - from;
        switch (part) {
          case "value": {
            const out = scratch.int16(n);
            for (let i = 0; i < n; i++) out[i] = entryValue(rec[3 * (from + i)]);
            return out;
          }
          case "bound": {
            const out = scratch.uint8(part, n);
            for (let i = 0; i < n; i++) out[i] = rec[3 * (from + i) + 1] === 0 ? NO_SAVED_BOUND : rec[3 * (from + i)] & SAVED_BITS;
            return out;
          }
          case "reach": {
            const out = scratch.uint8(part, n);
            for (let i = 0; i < n; i++) out[i] = entryReach(rec[3 * (from + i)]);
            return out;
          }
          case "proof": {
            const out = scratch.int32(n);
            for (let i = 0; i < n; i++) out[i] = isLower(from + i) ? rec[3 * (from + i) + 2] : NO_PROOF;
            return out;
          }
        }
      },
    };
  }

  /**
   * Takes bounds saved for exactly this graph, these settings and these sets (in flight,
   * banned, seeded): the caller makes sure of that. Changes made before are taken as known.
   */
  restoreBounds(saved: SavedBounds | SavedBoundsSource, piece = RESTORE_PIECE): void {
    const source = boundsSourceOf(saved);
    this.fit();
    this.feed.take();
    this.resumeDepth = 0;
    this.markAll();
    this.walk = [];
    this.walkFrom = [];
    for (let i = 2; i < this.rec.length; i += 3) this.rec[i] = NO_PROOF;
    const n = Math.min(this.graph.nodeCount, source.nodes);
    this.searchNo = Math.max(this.searchNo, 1) + 1;
    const made = this.searchNo - 1; // an earlier search: trusted as kept bounds are
    const rec = this.rec;
    // A piece of nodes at a time: from a file, no copy of all of them is held.
    for (let from = 0; from < n; from += piece) {
      const to = Math.min(n, from + piece);
      const bound = source.part("bound", from, to) as Uint8Array;
      const value = source.part("value", from, to) as Int16Array;
      const reach = source.part("reach", from, to) as Uint8Array;
      const proofs = source.part("proof", from, to) as Int32Array;
      for (let k = 0; k < to - from; k++) {
        const i = from + k,
          b = bound[k];
        if (b === NO_SAVED_BOUND) {
          rec[3 * i + 1] = 0;
          continue;
        }
        rec[3 * i + 1] = made;
        // Only the bits a saved bound has: the others mean nothing now, and must not be set
        // from a file if a later version gives one a meaning without changing the file's format.
        rec[3 * i] = (value[k] << 16) | (reach[k] << 8) | (b & SAVED_BITS) | ENTRY_SEARCHED | (rec[3 * i] & ENTRY_STATIC);
        // A proof that names no node of this graph is not known: the walk then checks the bound.
        const proof = proofs[k];
        if ((b & BOUND_MASK) === BOUND_LOWER && proof >= PROOF_LINE && proof < this.graph.nodeCount) rec[3 * i + 2] = proof;
      }
    }
  }

  /** The bound kept on a node (made by the last search or kept from an earlier one), or undefined if it has none. */
  bound(node: number): { value: number; bound: Bound; cyclic: boolean } | undefined {
    // A view asks for many nodes while the dig runs: changes not yet walked up (millions of
    // ancestors on a huge book) get a few ms here; until the walk ends no bound is shown.
    if (this.walk.length !== 0 && performance.now() - this.boundWalkAt < 50) return undefined;
    this.boundWalkAt = performance.now();
    if (!this.readChanges(this.boundWalkAt + 5)) return undefined;
    if (3 * node >= this.rec.length || this.rec[3 * node + 1] === 0) return undefined;
    const e = this.rec[3 * node],
      b = e & 0xff;
    // A cyclic bound kept from an earlier search is shown too (marked cyclic): the search trusts it (docs/DESIGN.md §3.6).
    if (b & CACHE_ABSENT) return undefined;
    return { value: entryValue(e), bound: (b & BOUND_MASK) as Bound, cyclic: (b & CACHE_CYCLIC) !== 0 };
  }

  /** One search from the root, full window, after reading what changed in the book since the last one. */
  private searchRoot(root: number): number {
    this.aborted = !this.readChanges(this.deadline);
    if (this.aborted) return 0;
    // Search numbers stay well inside an Int32 (years of digging): the kept bounds all become "earlier".
    if (++this.searchNo === 0x40000000) {
      for (let i = 1; i < this.rec.length; i += 3) if (this.rec[i] !== 0) this.rec[i] = 1;
      this.searchNo = 2;
    }
    this.unwinding = false;
    const value = this.search(true, root, -VALUE_INFINITE, VALUE_INFINITE, 0);
    if (!this.aborted) this.resumeDepth = 0;
    return value;
  }

  /**
   * Drops the bounds the book's changes made untrue. A node whose own moves changed is
   * checked against its moves one ply deep (verify), and a parent of a node whose bound went
   * or weakened through its move into that node (holdsThrough): a bound that still follows is
   * kept, and the walk stops there; one that does not is dropped, and its parents are checked
   * in turn. So a change climbs only
   * as far as it changes what the bounds say, not through every ancestor (on a book of
   * millions, a position can have millions). A node without a bound stops the walk: no
   * parent's bound rests on it (a parent kept by verify rests only on bounds, and on the
   * leaf moves of a node whose own change would be walked from). The exception is a changed
   * node itself, whose parents may have taken it for a leaf, an empty position or a banned
   * move. A weak bound (one that replaced a stronger one) may be kept while its parents'
   * rest on more, so they are checked as well.
   */
  private readChanges(deadline = Infinity): boolean {
    this.fit();
    const g = this.graph;
    const changed = this.feed.take();
    // The book changed: a line kept from a slice that ran out is not the one to take up.
    if (changed === null || changed.length !== 0) this.resumeDepth = 0;
    if (changed === null) {
      for (let i = 1; i < this.rec.length; i += 3) this.rec[i] = 0;
      this.markAll();
      this.walk = [];
      this.walkFrom = [];
      return true;
    }
    if (changed.length === 0 && this.walk.length === 0) return true;
    g.ensureParents();
    const head = g.pHead!,
      pNode = g.pNode,
      pMoreNode = g.pMoreNode,
      pMoreNext = g.pMoreNext,
      rec = this.rec,
      walk = this.walk,
      walkFrom = this.walkFrom;
    // A changed node goes on the stack as -(node + 1): its parents are checked whatever its bound.
    // The plain book counts leaves in flight and has no bans: such changes are nothing to it.
    for (const change of changed) {
      if ((change & 1) === 0) this.markNode(change >>> 1);
      this.leafBest[change >>> 1] = LEAF_UNKNOWN;
      if (this.plain && change & 1) continue;
      // Its moves may have changed, and with them the move its lower bound rests on.
      rec[3 * (change >>> 1) + 2] = NO_PROOF;
      walk.push(-((change >>> 1) + 1));
      walkFrom.push(-1);
    }
    // On a huge book a change can still reach many ancestors: the walk goes on in the next
    // slice when time runs out, and no search runs before it ends.
    let steps = 0;
    while (walk.length !== 0) {
      if ((++steps & 1023) === 0 && performance.now() > deadline) return false;
      const w = walk.pop()!;
      const from = walkFrom.pop()!;
      const n = w < 0 ? -w - 1 : w;
      if (rec[3 * n + 1] !== 0) {
        // Come up from a child, only the move into it may say something new: a lower bound
        // reached by another move holds as it is, and others are checked through that move.
        const e = rec[3 * n];
        const kept = from >= 0 ? this.restsElsewhere(n, from) || this.holdsThrough(n, from) : this.verify(n);
        if (!kept) rec[3 * n + 1] = 0;
        // Kept. Its parents rest on it; they need a look only if it is weaker than what they
        // may have used.
        else if (w >= 0 && (e & CACHE_WEAK) === 0) continue;
      } else if (w >= 0) continue;
      // Its parents are all checked now against what it says, so none rests on more: it is weak
      // no longer, and a later pop of it in this walk or a later one stops at it (no search
      // runs while a walk goes on, so nothing makes it weak again meanwhile).
      if (rec[3 * n + 1] !== 0) rec[3 * n] &= ~CACHE_WEAK;
      // The parent chain (BookGraph.pHead): links added since the build, then the built block.
      for (let p = head[n]; p !== -1;) {
        let parent: number;
        if (p >= 0) {
          const v = pNode[p];
          parent = v & ~PARENT_LAST;
          p = v & PARENT_LAST ? -1 : p + 1;
        } else {
          parent = pMoreNode[-p - 2];
          p = pMoreNext[-p - 2];
        }
        if (rec[3 * parent + 1] === 0 || ((rec[3 * parent] & CACHE_WEAK) === 0 && this.restsElsewhere(parent, n))) continue;
        walk.push(parent);
        walkFrom.push(n);
      }
    }
    return true;
  }

  /**
   * Whether a node's bound still follows from its moves as they are now: leaf values,
   * terminal and empty children, and the children's kept bounds (a child without a bound
   * counts only by its own leaf moves), no deeper than the bound's reach. A cyclic bound is
   * checked the same way: a repetition below it shows as the child's own (cyclic) bound, and
   * a move back to a position on the line is not visible one ply deep, so such a bound often
   * fails and is searched again; what passes is what the search would trust anyway (§3.6).
   */
  private verify(node: number): boolean {
    const g = this.graph,
      rec = this.rec;
    const e = rec[3 * node],
      b = e & 0xff;
    if (b & CACHE_ABSENT) return false;
    const v = entryValue(e),
      bound = b & BOUND_MASK;
    // Every move at most v (upper and exact bounds), some move at least v (lower and exact).
    const needAll = bound !== BOUND_LOWER,
      needOne = bound !== BOUND_UPPER;
    const hasBan = !this.plain && (g.flags[node] & NODE_HAS_BAN) !== 0;
    // How deep below the node what the bound rests on goes: all moves for an upper or exact
    // bound, the shallowest proving move for a lower one. Deeper than the bound's reach, it
    // would hold at fewer plies than the bound claims: then it is dropped.
    let present = false,
      allReach = 0,
      oneReach = 256,
      oneChild = NO_PROOF,
      allCyclic = false,
      oneCyclic = false;
    const start = g.edgeStart[node],
      count = g.edgeCount[node];
    for (let i = 0, x = g.extraHead[node]; ; i++) {
      let child: number, edge: number, unlisted: number;
      if (i < count) {
        edge = start + i;
        unlisted = -1;
        child = g.eChild[edge];
      } else if (x >= 0) {
        edge = -1;
        unlisted = x;
        child = g.xChild[x];
        x = g.xNext[x];
      } else break;
      // The move itself is read only for a ban: another array, another memory read.
      if (hasBan && g.isBanned(node, edge >= 0 ? g.eMove[edge] : g.xMove[unlisted])) continue;
      // The move's value from this node's side lies in [lo, hi].
      let lo: number,
        hi: number,
        r = 0,
        cyclic = false;
      const ce = child < 0 ? 0 : rec[3 * child];
      if (child < 0) {
        if (!this.plain && g.eFlags[edge] & EDGE_IN_FLIGHT) continue;
        lo = hi = this.leafValue(edge);
      } else if (ce & ENTRY_STATIC && g.flags[child] & NODE_NO_MOVES) {
        lo = hi = VALUE_MATE - 1;
      } else if (this.isEmpty(child, ce)) {
        if (edge < 0) continue; // an unlisted empty child is no move to the search
        lo = hi = g.eValue[edge];
      } else if (ce & ENTRY_STATIC) {
        lo = hi = -VALUE_MATE; // a declaration win
        r = 1;
      } else {
        const known = this.readMove(child, ce);
        if (known === MOVE_ABSENT) continue;
        if (known === MOVE_UNKNOWN) {
          if (needAll) return false;
          continue;
        }
        lo = this.moveLo;
        hi = this.moveHi;
        r = this.moveReach;
        cyclic = this.moveCyclic;
      }
      present = true;
      if (needAll && hi > v) return false;
      if (r > allReach) allReach = r;
      allCyclic ||= cyclic;
      if (lo >= v && r < oneReach) {
        oneReach = r;
        oneChild = child;
        oneCyclic = cyclic;
      }
    }
    if (!present || (needOne && oneReach === 256)) return false;
    if ((needAll ? allReach : oneReach) > entryReach(e)) return false;
    // A lower bound kept now rests on the move that shows it, maybe not the one that made it;
    // one kept on a cyclic value is cyclic too (docs/DESIGN.md §3.6).
    if (bound === BOUND_LOWER) rec[3 * node + 2] = oneChild;
    if (needAll ? allCyclic : oneCyclic) rec[3 * node] = e | CACHE_CYCLIC;
    return true;
  }

  /**
   * Whether a node's bound still holds when the walk came up from `child`: what the node's
   * other moves said has not changed since the bound was made or last checked (a change to any
   * of them puts the node on the walk from there), so only the move into `child` needs a look,
   * by what the child says now (its bound; without one, its best leaf). An upper bound holds
   * if that move is still at most its value, a lower bound resting on that move if the move is
   * still at least its value; otherwise an upper bound is dropped and a lower one looks for
   * another move that shows it (verify). Without the shortcut each check read every move: on
   * the 15M made-up book a replay's first 50 results made 1.28M such full checks, now 0.73M
   * (0.6M bounds kept on a look at one move), and a bound kept on an older, stronger bound of another (weak) child is no longer
   * dropped for it (that child's parents are checked when it is walked).
   */
  private holdsThrough(node: number, child: number): boolean {
    const rec = this.rec,
      e = rec[3 * node],
      bound = e & BOUND_MASK;
    // Exact bounds do not keep the move that shows them; a node with bans may have banned this one.
    if (e & CACHE_ABSENT || bound === BOUND_EXACT || (bound === BOUND_LOWER && rec[3 * node + 2] !== child)) return this.verify(node);
    const ce = rec[3 * child];
    if (ce & ENTRY_STATIC || this.graph.flags[node] & NODE_HAS_BAN) return this.verify(node);
    // The move's value from this node's side, read as verify reads it.
    const known = this.readMove(child, ce);
    if (known === MOVE_ABSENT) return this.verify(node); // the move is gone: maybe every move is
    if (known === MOVE_UNKNOWN) return bound === BOUND_LOWER && this.verify(node);
    const lo = this.moveLo,
      hi = this.moveHi,
      r = this.moveReach;
    const v = entryValue(e);
    if (r > entryReach(e)) return bound === BOUND_LOWER && this.verify(node);
    if (bound === BOUND_UPPER ? hi > v : lo < v) return bound === BOUND_LOWER && this.verify(node);
    if (this.moveCyclic) rec[3 * node] = e | CACHE_CYCLIC;
    return true;
  }

  /**
   * What the move into `child` (its entry `ce`: neither terminal nor empty) is worth from the
   * mover's side, by what the child says now: its kept bound, or without one its best leaf (the
   * child is worth at least that). Sets moveLo, moveHi, moveReach (how deep below the mover it
   * rests) and moveCyclic, unless the child is a dead end (MOVE_ABSENT) or says nothing (MOVE_UNKNOWN).
   */
  private readMove(child: number, ce: number): number {
    if (this.rec[3 * child + 1] !== 0) {
      if (ce & CACHE_ABSENT) return MOVE_ABSENT;
      this.moveCyclic = (ce & CACHE_CYCLIC) !== 0;
      const kind = ce & BOUND_MASK;
      this.moveLo = kind === BOUND_LOWER ? -VALUE_INFINITE : -entryValue(ce);
      this.moveHi = kind === BOUND_UPPER ? VALUE_INFINITE : -entryValue(ce);
      this.moveReach = entryReach(ce) + 1;
      return MOVE_KNOWN;
    }
    const best = this.bestLeaf(child);
    if (best === null) return MOVE_UNKNOWN;
    this.moveCyclic = false;
    this.moveLo = -VALUE_INFINITE;
    this.moveHi = -best;
    this.moveReach = 1;
    return MOVE_KNOWN;
  }

  /** The best present leaf value of a node, or null when it has none (or is not plain leaves). */
  private bestLeaf(node: number): number | null {
    let best = this.leafBest[node];
    if (best === LEAF_UNKNOWN) this.leafBest[node] = best = this.scanLeaves(node);
    return best === NO_LEAF ? null : best;
  }

  private scanLeaves(node: number): number {
    const g = this.graph;
    if (g.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) return NO_LEAF;
    const hasBan = !this.plain && (g.flags[node] & NODE_HAS_BAN) !== 0;
    const start = g.edgeStart[node],
      end = start + g.edgeCount[node];
    let best = NO_LEAF;
    for (let e = start; e < end; e++) {
      if (g.eChild[e] >= 0 || (!this.plain && g.eFlags[e] & EDGE_IN_FLIGHT)) continue;
      if (hasBan && g.isBanned(node, g.eMove[e])) continue;
      best = Math.max(best, this.leafValue(e));
    }
    return best;
  }

  /**
   * The search. `pvNode` is the node type: PV nodes search every move without cached
   * cut-offs and build the principal variation; NonPV nodes may cut off on a cached bound.
   */
  private search(pvNode: boolean, node: number, alpha: number, beta: number, ply: number): number {
    const g = this.graph;
    // Out of time: every frame returns at once, writing nothing; what finished stays.
    if ((++this.visited & 1023) === 0 && performance.now() > this.deadline) this.aborted = true;
    if (this.aborted) return 0;
    this.pvLen[ply] = 0;
    this.absent = false;
    this.cyclic = false;
    this.reach = 0;
    const rec = this.rec;
    const entry = rec[3 * node];

    // Terminal positions: no legal move is a loss, a declaration is a win.
    if (entry & ENTRY_STATIC) {
      const flags = g.flags[node];
      if (flags & NODE_NO_MOVES) {
        this.pvEnd[ply] = END_TERMINAL;
        return -VALUE_MATE;
      }
      if (flags & NODE_DECLARATION_WIN) {
        this.pvEnd[ply] = END_TERMINAL;
        return VALUE_MATE;
      }
    }

    // A cached bound: a dead end stays dead; NonPV nodes cut off. One made in an earlier
    // search counts only when it does not depend on the line (not cyclic) and the ply cap
    // cannot cut into what it saw from here.
    const made = rec[3 * node + 1];
    const cached = entry & 0xff;
    if (made === this.searchNo || (made !== 0 && ply + entryReach(entry) < this.maxPly)) {
      this.reach = entryReach(entry);
      if (cached & CACHE_ABSENT) {
        this.absent = true;
        return 0;
      }
      if (!pvNode) {
        const v = entryValue(entry),
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

    const flags = g.flags[node];
    const us = flags & NODE_WHITE;
    const alphaOrig = alpha;
    const hasBan = !this.plain && (flags & NODE_HAS_BAN) !== 0;

    // A NonPV node whose last bound was a lower one (kept or since dropped) tries the move
    // that showed it before gathering the others, as a chess engine tries its hash move: the
    // cut-off usually comes from that move again, and then the node costs one child, not a
    // read of every child's entry and a sort, nor searches of moves the ordering put first.
    // When it does not cut, the node is searched as usual (that child again from its fresh bound).
    if (
      !pvNode &&
      (entry & (ENTRY_SEARCHED | BOUND_MASK)) === (ENTRY_SEARCHED | BOUND_LOWER) &&
      !hasBan &&
      ply >= this.resumeDepth &&
      ply + 1 < this.maxPly
    ) {
      const hint = rec[3 * node + 2];
      if (hint >= 0 && (rec[3 * hint] & (ENTRY_STATIC | ENTRY_ON_LINE)) === 0) {
        rec[3 * node] = entry | ENTRY_ON_LINE;
        this.pathNode[ply] = node;
        const value = -this.search(false, hint, -beta, -alpha, ply + 1);
        rec[3 * node] = entry;
        if (this.aborted) {
          // Nothing of this node is on the stack to take up: the next try gathers it.
          if (!this.unwinding || this.resumeDepth > ply) this.resumeDepth = ply;
          this.unwinding = true;
          return 0;
        }
        if (!this.absent && value >= beta) {
          const reach = Math.min(this.reach + 1, 255);
          rec[3 * node + 1] = this.searchNo;
          rec[3 * node + 2] = hint;
          this.keep(node, made, entry, (value << 16) | (reach << 8) | BOUND_LOWER | (this.cyclic ? CACHE_CYCLIC : 0) | ENTRY_SEARCHED);
          this.reach = reach;
          this.absent = false;
          return value;
        }
        this.absent = false;
        this.cyclic = false;
        this.reach = 0;
      }
    }
    let best = -VALUE_INFINITE;
    let cyclic = false;
    let reach = 0;
    rec[3 * node] = entry | ENTRY_ON_LINE;
    this.pathNode[ply] = node;

    // The moves that are present, best first (gather). A search that ran out of time left its
    // line's frames on the stack: the next slice, on the same book, takes them as they are, so
    // it searches in the same order with the same windows, and the bounds the last slice made
    // still cut. (Sorted again, the moves it searched would come in a new order, by the values
    // it found, and the windows that follow would not fit those bounds: on the 15M book 10 ms
    // slices made the first selection visit 16M nodes rather than 11M.)
    const frame = this.sp;
    let count: number;
    if (ply < this.resumeDepth && this.resumeNode[ply] === node && this.resumeFrame[ply] === frame) {
      // The same line as the slice that ran out: its moves, in its order, are still here.
      count = this.resumeCount[ply];
    } else {
      // Whatever was kept from here down is another line's, or about to be written over.
      if (ply < this.resumeDepth) this.resumeDepth = ply;
      count = this.gather(pvNode, node, beta, ply, frame, entry, hasBan);
    }
    this.sp = frame + count;

    let bestRank = 0x7fffffff,
      bestChild = -1,
      // The best move is itself a move back onto the line or into the ply cap: the line
      // shows its value, nothing below. (A searched child whose own line ends so does not
      // count: its value rests on what is below it, and a change there must reach this bound.)
      bestByLine = false;
    for (let i = frame; i < frame + count; i++) {
      const ref = this.stackRef[i],
        rank = this.stackRank[i];
      const child = ref >= 0 ? g.eChild[ref] : g.xChild[-ref - 1];
      // At PV nodes a move earlier in the fixed order wins a tie: let it through at alpha - 1.
      const lower = pvNode && rank < bestRank && best === alpha && best > alphaOrig ? alpha - 1 : alpha;

      let value: number, end: LineEnd, childCyclic: boolean;
      let searched = false; // the child was searched, so its line continues ours
      const childEntry = child < 0 ? 0 : rec[3 * child];
      if (child < 0) {
        value = this.leafValue(ref);
        end = END_LEAF;
        childCyclic = false;
      } else if (childEntry & ENTRY_STATIC && g.flags[child] & NODE_NO_MOVES) {
        // The move mates: a mate in one ply from here, as the engine values it (the mated
        // position itself is worth -VALUE_MATE, mated now). The line ends here.
        value = VALUE_MATE - 1;
        end = END_TERMINAL;
        childCyclic = false;
      } else if (this.isEmpty(child, childEntry)) {
        // Thought, but nothing usable came back (e.g. the engine resigned without lines):
        // the move keeps its listed value, as in export, and there is nothing to think there.
        // It is an internal edge, so no kifu bonus (docs/DESIGN.md §3.2).
        value = g.eValue[ref];
        end = END_TERMINAL;
        childCyclic = false;
      } else if (childEntry & ENTRY_ON_LINE) {
        value = this.repetitionValue(child, ply, us);
        end = END_REPETITION;
        childCyclic = true;
      } else if (ply + 1 >= this.maxPly) {
        value = this.drawValue[us];
        end = END_PLY_CAP;
        childCyclic = true;
      } else {
        // Once a PV node has its best move, the others are first only tested against it (a
        // null window), and searched in full only when they beat it.
        const probe = best > alphaOrig && beta - lower > 1;
        value = -this.search(false, child, probe ? -(lower + 1) : -beta, -lower, ply + 1);
        if (this.aborted) break;
        reach = Math.max(reach, this.reach + 1);
        if (this.absent) continue;
        childCyclic = this.cyclic;
        if (value > lower && (pvNode || (probe && value < beta))) {
          value = -this.search(pvNode, child, -beta, -lower, ply + 1);
          if (this.aborted) break;
          reach = Math.max(reach, this.reach + 1);
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
        bestChild = child;
        bestByLine = !searched && (end === END_REPETITION || end === END_PLY_CAP);
        if (value > lower) {
          if (pvNode) this.updatePv(ply, ref, end, searched);
          if (value >= beta) break; // beta cut-off
          alpha = value;
        }
      }
    }
    this.sp = frame;
    rec[3 * node] = entry;
    if (this.aborted) {
      // Unwinding from the deepest frame up: the first one met sets how deep the kept line goes.
      if (!this.unwinding) this.resumeDepth = ply + 1;
      this.unwinding = true;
      this.resumeNode[ply] = node;
      this.resumeFrame[ply] = frame;
      this.resumeCount[ply] = count;
      return 0;
    }

    reach = Math.min(reach, 255);
    rec[3 * node + 1] = this.searchNo;

    this.reach = reach;
    // Dead end: every move was absent, so the node is absent while nothing below it changes.
    if (best === -VALUE_INFINITE) {
      this.keep(node, made, entry, (entry & ~0xffff) | (reach << 8) | CACHE_ABSENT | ENTRY_SEARCHED);
      this.absent = true;
      this.cyclic = false;
      return 0;
    }
    const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    // Read only beside a lower bound (restsElsewhere), so written only with one: one memory write less a node.
    if (bound === BOUND_LOWER) rec[3 * node + 2] = bestByLine ? PROOF_LINE : bestChild;
    this.keep(node, made, entry, (best << 16) | (reach << 8) | bound | (cyclic ? CACHE_CYCLIC : 0) | ENTRY_SEARCHED);
    this.absent = false;
    this.cyclic = cyclic;
    return best;
  }

  /**
   * Puts a node's present moves on the stack from `frame`, each with its rank in the fixed
   * order (listed by engine value, then unlisted by USI text) and an ordering key, best key
   * first: searching likely-best moves first makes cut-offs come early. The rank keeps ties
   * exactly as the fixed order. Returns how many.
   */
  private gather(pvNode: boolean, node: number, beta: number, ply: number, frame: number, entry: number, hasBan: boolean): number {
    const g = this.graph,
      rec = this.rec;
    let count = 0;
    const listedStart = g.edgeStart[node],
      listedCount = g.edgeCount[node];
    // At a NonPV node searched for the first time, a move already known to reach beta (a
    // leaf, or a child's kept bound) goes first: the cut-off then costs one look, not a
    // search of the moves before it. (Not later: the usual best move's bound lasts longer.)
    const etc = !pvNode && (entry & ENTRY_SEARCHED) === 0;
    for (let i = 0; i < listedCount; i++) {
      const e = listedStart + i;
      if (hasBan && g.isBanned(node, g.eMove[e])) continue;
      const child = g.eChild[e];
      let key: number;
      if (child < 0) {
        if (!this.plain && g.eFlags[e] & EDGE_IN_FLIGHT) continue;
        const v = this.leafValue(e);
        key = v * 4 + TIER_EXACT;
        if (etc && v >= beta) key += KEY_CUTS;
      } else if (this.isEmpty(child, rec[3 * child])) key = g.eValue[e] * 4 + TIER_EXACT;
      else {
        key = this.orderKey(child, g.eValue[e]);
        if (etc && this.refutes(child, ply + 1, beta)) key += KEY_CUTS;
      }
      this.push(frame + count++, e, i, key);
    }
    for (let x = g.extraHead[node], i = listedCount; x >= 0; x = g.xNext[x], i++) {
      const child = g.xChild[x];
      if ((hasBan && g.isBanned(node, g.xMove[x])) || this.isEmpty(child, rec[3 * child])) continue;
      const key = this.orderKey(child, -VALUE_MATE);
      this.push(frame + count++, -(x + 1), i, etc && this.refutes(child, ply + 1, beta) ? key + KEY_CUTS : key);
    }
    this.sortFrame(frame, count);
    return count;
  }

  /** Stores a node's new bound, marked weak when it does not say what the bound it replaces said. */
  private keep(node: number, made: number, before: number, now: number): void {
    now |= before & ENTRY_STATIC;
    this.rec[3 * node] = made !== 0 && !implies(now, before) ? now | CACHE_WEAK : now;
  }

  /** Whether a child's kept bound, usable at `childPly`, makes the move into it worth at least beta. */
  private refutes(child: number, childPly: number, beta: number): boolean {
    const made = this.rec[3 * child + 1],
      e = this.rec[3 * child];
    if (made === 0 || e & ENTRY_ON_LINE || childPly >= this.maxPly) return false;
    if (made !== this.searchNo && childPly + entryReach(e) >= this.maxPly) return false;
    const b = e & 0xff;
    return (b & (CACHE_ABSENT | CACHE_CYCLIC)) === 0 && (b & BOUND_MASK) !== BOUND_LOWER && -entryValue(e) >= beta;
  }

  /**
   * Ordering key of an internal edge: the child's last searched value with what kind of bound
   * it was; before the child was ever searched, its own best engine value (a deeper look than
   * the parent's value for the move).
   */
  private orderKey(child: number, engineValue: number): number {
    const e = this.rec[3 * child],
      v = entryValue(e);
    if ((e & ENTRY_SEARCHED) === 0) return (v !== NO_HINT ? -v : engineValue) * 4 + TIER_AT_MOST;
    return -v * 4 + TIER_OF_CHILD_BOUND[e & BOUND_MASK];
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

  /**
   * A thought position without any edge and not terminal: its parents treat their move to it
   * as a leaf. Read off its entry (`entry`, marked by markNode), not its edges.
   */
  private isEmpty(node: number, entry: number): boolean {
    return (entry & ENTRY_STATIC) !== 0 && (this.graph.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) === 0;
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
    let first = ply;
    while (this.pathNode[first] !== child) first--;
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
    if (this.leafBest.length >= n) return;
    const from = this.rec.length;
    this.rec = grown(this.rec, 3 * n);
    for (let i = from + 2; i < this.rec.length; i += 3) this.rec[i] = NO_PROOF;
    this.leafBest = grown(this.leafBest, n, LEAF_UNKNOWN);
  }

  /**
   * Sets what a node's entry says of the graph (terminal or empty; before it is searched, its
   * best listed value): when a node is added or its moves change, so after every change read.
   */
  private markNode(node: number): void {
    const g = this.graph,
      i = 3 * node;
    let e = this.rec[i];
    if ((e & ENTRY_SEARCHED) === 0) e = (g.edgeCount[node] > 0 ? g.eValue[g.edgeStart[node]] : NO_HINT) << 16;
    const terminal = (g.flags[node] & (NODE_NO_MOVES | NODE_DECLARATION_WIN)) !== 0;
    const empty = g.edgeCount[node] === 0 && g.extraHead[node] < 0;
    this.rec[i] = terminal || empty ? e | ENTRY_STATIC : e & ~ENTRY_STATIC;
  }

  private markAll(): void {
    this.leafBest.fill(LEAF_UNKNOWN);
    for (let i = 0, n = this.graph.nodeCount; i < n; i++) this.markNode(i);
  }

  /**
   * Whether a node's bound is a lower one shown by another move than the one into `child` (or
   * by the line itself), so a change coming up from `child` leaves it true. Such a parent is
   * not even put on the walk, unless it is weak (then its own parents need a look).
   */
  private restsElsewhere(node: number, child: number): boolean {
    if ((this.rec[3 * node] & BOUND_MASK) !== BOUND_LOWER) return false;
    const proof = this.rec[3 * node + 2];
    return proof !== NO_PROOF && proof !== child;
  }
}
