// Turning one search's stream of `info` lines into the candidate moves the book
// stores (DESIGN 4). Engines print partial sets all the time: a stopped search
// may leave line 1 at depth d+1 and the others at depth d, and lines whose score
// is only a bound are not values at all. We take the deepest depth at which
// every line is known and exact, which is the last complete MultiPV set.
import type { Candidate } from "../book/records.js";
import type { UsiInfo } from "./info.js";

/** Default candidate window: keep moves within this many cp of the best (seed 001). */
export const DEFAULT_WINDOW_CP = 300;
/** PV moves kept per candidate; the book needs the move and the ponder move, a few more help the UI. */
export const PV_KEEP = 16;
/** Engines may print any multipv index; past this we ignore them (bounded memory). */
const MAX_INDEX = 1024;
/** Per line, the distinct depths remembered (older ones are dropped first). */
const MAX_DEPTHS_PER_LINE = 256;

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
  /** key (multipv index or first move) -> depth -> last exact line at that depth. */
  private readonly lines = new Map<number | string, Map<number, Entry>>();
  private readonly latest = new Map<number | string, Entry>();
  private maxDepth = 0;
  private exactCount = 0;

  constructor(private readonly requested: number, private readonly options: MultiPvOptions = {}) {}

  /** Number of usable (exact, with a PV and a score) lines seen so far. */
  get usableLines(): number {
    return this.exactCount;
  }

  /** Feeds one parsed info line; lines without a PV or a score, and bound lines, are ignored. */
  add(info: UsiInfo | null): void {
    if (!info || info.value === undefined || info.bound || !info.pv || info.pv.length === 0) return;
    const move = info.pv[0]!;
    let key: number | string;
    if (this.options.keyByMove && info.multipv === undefined) key = move;
    else {
      key = info.multipv ?? 1;
      if (key > this.requested || key > MAX_INDEX) return;
    }
    if (typeof key === "string" && !this.lines.has(key) && this.lines.size >= MAX_INDEX) return;
    const depth = info.depth ?? 0;
    const entry: Entry = { move, value: info.value, depth, pv: info.pv.slice(0, PV_KEEP) };
    let byDepth = this.lines.get(key);
    if (!byDepth) this.lines.set(key, (byDepth = new Map()));
    byDepth.delete(depth); // re-insert so iteration order stays "last seen last"
    byDepth.set(depth, entry);
    if (byDepth.size > MAX_DEPTHS_PER_LINE) byDepth.delete(byDepth.keys().next().value!);
    this.latest.set(key, entry);
    if (depth > this.maxDepth) this.maxDepth = depth;
    this.exactCount++;
  }

  /** Number of distinct lines (indices, or root moves when keyed by move) seen. */
  get distinctLines(): number {
    return this.lines.size;
  }

  /** The final complete set, best first, within `windowCp` of the best. */
  result(windowCp: number = DEFAULT_WINDOW_CP): Candidate[] {
    const picked = this.options.keyByMove && [...this.lines.keys()].some((k) => typeof k === "string")
      ? this.pickByMove()
      : this.pickByIndex();
    return applyWindow(sortCandidates(picked.map(toCandidate)), windowCp);
  }

  private pickByIndex(): Entry[] {
    // Indices 1..k that we have seen, contiguous from 1 (an engine with fewer legal
    // moves than asked simply prints fewer lines).
    let k = 0;
    while (this.lines.has(k + 1)) k++;
    if (k === 0) return [];
    const depths = [...this.lines.get(1)!.keys()].sort((a, b) => b - a);
    for (const d of depths) {
      const set: Entry[] = [];
      for (let i = 1; i <= k; i++) {
        const e = this.lines.get(i)!.get(d);
        if (!e) break;
        set.push(e);
      }
      if (set.length === k) return set;
    }
    // No depth at which every line is known (engines that number depths per line):
    // fall back to the last exact line of each index.
    const out: Entry[] = [];
    for (let i = 1; i <= k; i++) out.push(this.latest.get(i)!);
    return out;
  }

  private pickByMove(): Entry[] {
    // Without indices we cannot tell a complete set; root moves searched in the last
    // two iterations are current enough, older ones were probably cut off by the window.
    const out: Entry[] = [];
    for (const e of this.latest.values()) if (e.depth >= this.maxDepth - 1) out.push(e);
    return out;
  }
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
