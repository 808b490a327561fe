// Turning one search's stream of `info` lines into the candidate moves the book
// stores (docs/DESIGN.md §4). Engines print partial sets all the time: a stopped search
// may leave line 1 at depth d+1 and the others at depth d (with the root moves
// already reordered), and lines whose score is only a bound are not values at
// all. We take the last block of lines 1..k that is complete and exact.
import type { Candidate } from "../book/records.js";
import { VALUE_MATE_BOUND } from "../rules/types.js";
import type { UsiInfo } from "./info.js";

/** Default candidate window: keep moves within this many cp of the best (docs/DESIGN.md §11.1). */
export const DEFAULT_WINDOW_CP = 300;
/** PV moves kept per candidate; the book needs the move and the ponder move, a few more help the UI. */
export const PV_KEEP = 16;
/** Engines may print any multipv index; past this we ignore them (bounded memory). */
const MAX_INDEX = 1024;

interface Entry {
  move: string;
  value: number;
  depth: number;
  pv: string[];
}

export interface MultiPvOptions {
  /**
   * For engines that print several root moves without `multipv k` (GPS Shogi with
   * MultiPVWidth): key lines by their first move instead of by index.
   */
  keyByMove?: boolean;
}

export class MultiPvCollector {
  // Indexed lines arrive in blocks (multipv 1..k, one block per iteration, plus a
  // final block when the search stops). A clean block has every line exact; we keep
  // the last clean one whose lines share one depth (a finished iteration), and the
  // last clean one of any kind (the engine's final mixed-depth report) as a fallback.
  private block = new Map<number, Entry>();
  private blockTainted = false;
  private lastIndex = 0;
  private lastUniform: Entry[] | null = null;
  private lastClean: Entry[] | null = null;
  private maxIndex = 0;
  private readonly latestByIndex = new Map<number, Entry>();
  /** keyByMove mode: first move -> last exact line. */
  private readonly byMove = new Map<string, Entry>();
  private maxDepth = 0;
  private exactCount = 0;

  constructor(
    private readonly requested: number,
    private readonly options: MultiPvOptions = {},
  ) {}

  /** Number of usable (exact, with a PV and a score) lines seen so far. */
  get usableLines(): number {
    return this.exactCount;
  }

  /** Number of distinct lines (indices, or root moves when keyed by move) seen. */
  get distinctLines(): number {
    return this.options.keyByMove && this.byMove.size > 0 ? this.byMove.size : this.maxIndex;
  }

  /** Feeds one parsed info line; lines without a PV or a score are ignored, bound lines spoil their block. */
  add(info: UsiInfo | null): void {
    if (!info) return;
    const usable = info.value !== undefined && info.pv !== undefined && info.pv.length > 0;
    if (!usable && !info.bound) return;
    const depth = info.depth ?? 0;
    if (this.options.keyByMove && info.multipv === undefined) {
      if (!usable || info.bound) return;
      const move = info.pv![0]!;
      if (!this.byMove.has(move) && this.byMove.size >= MAX_INDEX) return;
      this.byMove.delete(move); // re-insert: iteration order is "last seen last"
      this.byMove.set(move, entryOf(info, depth));
      if (depth > this.maxDepth) this.maxDepth = depth;
      this.exactCount++;
      return;
    }
    const index = info.multipv ?? 1;
    if (index > this.requested || index > MAX_INDEX) return;
    if (index <= this.lastIndex) this.closeBlock();
    this.lastIndex = index;
    if (info.bound || !usable) {
      this.blockTainted = true;
      return;
    }
    const entry = entryOf(info, depth);
    this.block.set(index, entry);
    this.latestByIndex.set(index, entry);
    if (index > this.maxIndex) this.maxIndex = index;
    this.exactCount++;
  }

  private closeBlock(): void {
    const set = this.cleanBlock();
    if (set) {
      this.lastClean = set;
      if (set.every((e) => e.depth === set[0]!.depth)) this.lastUniform = set;
    }
    this.block = new Map();
    this.blockTainted = false;
    this.lastIndex = 0;
  }

  private cleanBlock(): Entry[] | null {
    if (this.blockTainted || this.block.size === 0) return null;
    const set: Entry[] = [];
    for (let i = 1; i <= this.block.size; i++) {
      const e = this.block.get(i);
      if (!e) return null;
      set.push(e);
    }
    return set;
  }

  /** The final complete set, best first, within `windowCp` of the best. */
  result(windowCp: number = DEFAULT_WINDOW_CP): Candidate[] {
    const picked = this.byMove.size > 0 ? this.pickByMove() : this.pickByIndex();
    return applyWindow(sortCandidates(picked.map(toCandidate)), windowCp);
  }

  private pickByIndex(): Entry[] {
    const k = this.maxIndex;
    if (k === 0) return [];
    const current = this.cleanBlock();
    const candidates: (Entry[] | null)[] = [];
    if (current && current.every((e) => e.depth === current[0]!.depth)) candidates.push(current);
    candidates.push(this.lastUniform);
    if (current) candidates.push(current);
    candidates.push(this.lastClean);
    for (const set of candidates) if (set && set.length === k) return set;
    // No complete block (engines that print lines one by one): each index's last exact line.
    const out: Entry[] = [];
    for (let i = 1; i <= k; i++) {
      const e = this.latestByIndex.get(i);
      if (e) out.push(e);
    }
    return out;
  }

  private pickByMove(): Entry[] {
    // Without indices we cannot tell a complete set; root moves searched in the last
    // two iterations are current enough, older ones were probably cut off by the window.
    const out: Entry[] = [];
    for (const e of this.byMove.values()) if (e.depth >= this.maxDepth - 1) out.push(e);
    return out;
  }
}

function entryOf(info: UsiInfo, depth: number): Entry {
  return { move: info.pv![0]!, value: info.value!, depth, pv: info.pv!.slice(0, PV_KEEP) };
}

function toCandidate(e: Entry): Candidate {
  return { move: e.move, value: e.value, depth: e.depth, pv: e.pv.slice() };
}

/** Best first (stable for equal values), one entry per move. */
export function sortCandidates(list: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return list
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.value - a.c.value || a.i - b.i)
    .map((x) => x.c)
    .filter((c) => (seen.has(c.move) ? false : (seen.add(c.move), true)));
}

/** Keeps the candidates within `windowCp` of the best (list must be best first). */
export function applyWindow(list: Candidate[], windowCp: number = DEFAULT_WINDOW_CP): Candidate[] {
  if (list.length === 0) return list;
  const floor = list[0]!.value - Math.max(0, windowCp);
  return list.filter((c) => c.value >= floor);
}

/**
 * A widening search's new moves: those within `windowCp + marginCp` of that search's own best
 * (list best first) that no earlier search valued. The margin is there because the widening
 * search runs on fewer nodes: a move just outside the window there is often inside it at the
 * full limit, and keeping one below the window costs the book an edge and nothing else.
 */
export function widenedMoves(wide: Candidate[], known: ReadonlySet<string>, windowCp: number, marginCp: number): Candidate[] {
  return applyWindow(wide, windowCp + Math.max(0, marginCp)).filter((c) => !known.has(c.move));
}

/**
 * The widened moves of an "auto-bounded" think. The first search, at MultiPV k and the full
 * limit, searched every move outside its k lines against the k-th line's value and found none
 * better: at its depth each is an upper bound of that value, so a widening search's higher
 * value for it (at a tenth of the nodes, shallower) is the noise the deeper search refuted, as
 * deep best's other moves are (shared/usi/deep-best.ts). Each is valued no higher than one
 * below the first search's last line; a mate score is a proof and stays. Without k lines from
 * the first search there is no such bound.
 */
export function boundWidened(widened: readonly Candidate[], first: readonly Candidate[], k: number): Candidate[] {
  if (first.length < k || k < 1) return [...widened];
  return capValues(widened, Math.min(...first.map((c) => c.value)) - 1);
}

/** Each value above `ceiling` lowered to it, the bound a deeper search proved; a mate score is a proof of its own and stays. */
export function capValues(candidates: readonly Candidate[], ceiling: number): Candidate[] {
  return candidates.map((c) => (c.value > ceiling && Math.abs(c.value) < VALUE_MATE_BOUND ? { ...c, value: ceiling } : c));
}

/** One-shot helper over a finished list of info lines. */
export function collectCandidates(
  infos: Iterable<UsiInfo | null>,
  requested: number,
  windowCp: number = DEFAULT_WINDOW_CP,
  options: MultiPvOptions = {},
): Candidate[] {
  const c = new MultiPvCollector(requested, options);
  for (const info of infos) c.add(info);
  return c.result(windowCp);
}

/** Dynamic MultiPV's first search chosen from the parent position's candidates. */
export interface FirstFromParent {
  /** MultiPV when one of the parent's moves dominated (no other within the window): 2 sees whether a second move is close. */
  narrow: number;
  /** Upper bound when the parent's moves were close together: more lines share the node limit, so each is shallower. */
  wide: number;
}

/**
 * The first search's MultiPV under dynamic MultiPV. Without a parent (the root, queued
 * positions) it is `start`. When one of the parent's moves dominated (none other within
 * `withinCp` of its best) the child is likely forced too (a recapture, an escape): start
 * narrow so the best line gets the node limit. When the parent's moves were close, start
 * with as many lines as the parent had within `withinCp`, between `start` and `wide`.
 * `parentValues` are the parent's candidate values, any order, from the parent's side.
 */
export function firstMultiPv(parentValues: readonly number[] | undefined, start: number, withinCp: number, rule: FirstFromParent): number {
  if (!parentValues || parentValues.length === 0) return start;
  let best = -Infinity;
  for (const v of parentValues) if (v > best) best = v;
  let close = 0;
  for (const v of parentValues) if (best - v <= withinCp) close++;
  if (close <= 1) return Math.max(1, Math.min(start, rule.narrow));
  return Math.max(start, Math.min(close, rule.wide));
}
