// The dig's MultiPV policy (docs/DESIGN.md §4): how many lines to ask for, when to search
// again wider and at what share of the limit, and which candidates to keep. It drives
// searches through the session (engine.ts) and knows nothing of processes or USI text.
import type { Candidate } from "../../../shared/book/records.js";
import { Position } from "../../../shared/rules/position.js";
import { moveToUsi } from "../../../shared/rules/usi.js";
import { mergeDeepBest } from "../../../shared/usi/deep-best.js";
import {
  applyWindow,
  boundWidened,
  sortCandidates,
  widenedMoves,
  DEFAULT_WINDOW_CP,
  type FirstFromParent,
} from "../../../shared/usi/multipv.js";
import { scaleLimit, type SearchLimit } from "./limit.js";
import type { ThinkStatus } from "./protocol.js";

export interface DynamicMultiPv {
  /** MultiPV of the first search, at the full limit. */
  start: number;
  /** Lines asked for by each widening search; 0: every legal move not yet valued, in one search. */
  widenBy: number;
  /** Widen while the last line found is within this many cp of the best. */
  withinCp: number;
  /** A widening search's limit as a share of the first search's (docs/DESIGN.md §4: fewer nodes). */
  widenShare?: number;
  /** A widening search keeps its moves within the window plus this margin (widenedMoves says why). */
  wideMarginCp?: number;
  /** The dig chooses each position's `start` from its parent's candidates (firstMultiPv); absent: always `start`. */
  firstFromParent?: FirstFromParent;
  /** A widened move is valued no higher than one below the first search's last line (boundWidened says why). */
  boundWidened?: boolean;
}

/** The deep-best think (shared/usi/deep-best.ts): one line at the full limit, then the others at a share of it. */
export interface DeepBestMultiPv {
  /** The search of the other moves, at `share` of the limit; its widenShare, as auto's, is a share of the full limit. */
  others: DynamicMultiPv;
  /** The other moves' search's limit as a share of the full limit. */
  share: number;
}

export type MultiPvSpec = { fixed: number } | { dynamic: DynamicMultiPv } | { deepBest: DeepBestMultiPv };

/** Share of the limit the deep-best think gives the other moves' search (docs/MATCH.md, issue 41). */
export const DEFAULT_DEEP_BEST_SHARE = 0.25;

/** Share of the limit a widening search gets (docs/DESIGN.md §4: fewer nodes; see thinkMultiPv). */
export const DEFAULT_WIDEN_SHARE = 0.1;
/** Margin of a widening search's window (see DynamicMultiPv.wideMarginCp); measured with `horu bench dig`. */
export const DEFAULT_WIDE_MARGIN_CP = 300;

/**
 * The dig's dynamic MultiPV: 4 lines at the full limit, then, while the last line is still
 * inside the window (the dig passes its window as withinCp), one search of every legal
 * move at a tenth of the limit. Measured with `horu bench dig`.
 */
export const DEFAULT_DYNAMIC: { dynamic: DynamicMultiPv } = {
  dynamic: { start: 4, widenBy: 0, withinCp: DEFAULT_WINDOW_CP, widenShare: DEFAULT_WIDEN_SHARE, wideMarginCp: DEFAULT_WIDE_MARGIN_CP },
};

/** More than any shogi position's legal moves (593). */
export const MAX_MULTIPV = 600;

/** The legal moves (USI) of a `position` argument; null when our rules cannot read it (the engine may still). */
export function legalMovesOf(position: string): string[] | null {
  try {
    return Position.fromUsi(position).legalMoves().map(moveToUsi);
  } catch {
    return null;
  }
}

/** One search at MultiPV k, as the session reports it. */
export interface Pass {
  /** Every line's candidate, unwindowed. */
  all: Candidate[];
  status: ThinkStatus;
  bestmove: string;
  ponder?: string;
  nodes: number;
  depth: number;
  /** Distinct lines the engine printed. */
  lines: number;
  timeMs: number;
}

/** What the policy needs of an engine. */
export interface Searcher {
  search(k: number, limit: SearchLimit): Promise<Pass>;
  /** A stop was asked for: no further search. */
  stopRequested(): boolean;
  /** The engine has a real MultiPV option (GPS's MultiPVWidth already shows the whole window, so cannot widen). */
  hasMultiPv: boolean;
  /** The engine's own MultiPV maximum, when it says (fairy-stockfish ignores a value above its 500). */
  multiPvMax?: number;
}

export interface MultiPvResult extends Omit<Pass, "all" | "lines"> {
  candidates: Candidate[];
  /** MultiPV of the last pass, and how many passes it took. */
  multipv: number;
  passes: number;
  /**
   * The engine's time in the searches after the first (widening, or deep best's other moves),
   * part of timeMs: what a position's searches beyond one cost (`horu dig` reports the share).
   */
  laterTimeMs: number;
}

/**
 * Searches one position. MultiPV fixed K, or dynamic: start at K0 and, while the last line is
 * within withinCp of the best, widen: search again with more lines (by widenBy, or straight to
 * every legal move) at a share of the limit, so widening costs a fraction of the first search;
 * widening ends at the position's legal-move count.
 */
export async function thinkMultiPv(
  s: Searcher,
  position: string,
  limit: SearchLimit,
  multipv: MultiPvSpec,
  windowCp: number,
  /** The position's legal-move count when the caller knows it (a dig's job does): no parse here. */
  legalCount?: number,
): Promise<MultiPvResult> {
  if ("deepBest" in multipv) return thinkDeepBest(s, position, limit, multipv.deepBest, windowCp, legalCount);
  const dyn = "dynamic" in multipv ? multipv.dynamic : null;
  const legal = dyn && s.hasMultiPv ? (legalCount ?? legalMovesOf(position)?.length ?? null) : null;
  const optionMax = s.multiPvMax;
  const cap = Math.min(MAX_MULTIPV, legal ?? MAX_MULTIPV, optionMax !== undefined && optionMax >= 1 ? optionMax : MAX_MULTIPV);
  let k = Math.max(1, Math.min(cap, dyn ? dyn.start : "fixed" in multipv ? multipv.fixed : 1));
  const keep = dyn ? MAX_MULTIPV : k;
  let totalNodes = 0;
  let totalTime = 0;
  let passes = 0;
  let retried = false;
  passes++;
  let pass = await s.search(k, limit);
  totalNodes += pass.nodes;
  totalTime += pass.timeMs;
  const firstTime = pass.timeMs;
  if (pass.status === "noinfo" && !s.stopRequested() && s.hasMultiPv) {
    // A bare bestmove (an instant answer from a book or a root shortcut) gives no
    // values; asking again at MultiPV >= 2 makes engines search and report.
    retried = true;
    passes++;
    k = Math.max(2, k);
    pass = await s.search(k, limit);
    totalNodes += pass.nodes;
    totalTime += pass.timeMs;
  }
  const all = pass.all;
  let extra: Candidate[] = [];
  if (dyn && legal !== null && pass.status === "ok" && !retried) {
    // Widen while the last line of the latest search is within withinCp of its best and
    // moves are left. A widening search runs at a share of the limit: its lines only
    // have to say which further moves are within the window, and a wide search at a
    // tenth of the nodes agrees with one at the full limit about as well as two full
    // ones agree with each other. The first search's values are kept for its moves.
    const wideLimit = scaleLimit(limit, dyn.widenShare ?? DEFAULT_WIDEN_SHARE);
    let last = all;
    let asked = k;
    while (last.length >= asked && asked < cap && !s.stopRequested() && last[0]!.value - last[asked - 1]!.value <= dyn.withinCp) {
      asked = dyn.widenBy > 0 ? Math.min(cap, asked + dyn.widenBy) : cap;
      passes++;
      const wide = await s.search(asked, wideLimit);
      totalNodes += wide.nodes;
      totalTime += wide.timeMs;
      if (wide.status !== "ok" || wide.all.length === 0) break;
      const known = new Set([...all, ...extra].map((c) => c.move));
      const found = widenedMoves(wide.all, known, windowCp, dyn.wideMarginCp ?? 0);
      extra = [...extra, ...(dyn.boundWidened ? boundWidened(found, all, k) : found)];
      last = wide.lines >= asked ? wide.all : [];
    }
    k = Math.max(k, asked);
  }
  // Each search's moves are kept within the window of that search's own best (a widening
  // search's with its margin).
  const candidates = sortCandidates([...applyWindow(all, windowCp), ...extra]).slice(0, keep);
  return {
    candidates,
    nodes: totalNodes,
    // The think's depth is its deepest line's: the best candidate may come from a shallow widening pass.
    depth: candidates.reduce((d, c) => Math.max(d, c.depth), pass.depth),
    timeMs: totalTime,
    status: pass.status,
    bestmove: pass.bestmove,
    ponder: pass.ponder,
    multipv: k,
    passes,
    laterTimeMs: totalTime - firstTime,
  };
}

/**
 * The deep-best think: the one-line search a player makes at the full limit gives the best
 * move and its value; a dynamic MultiPV search at a share of the limit finds the other moves
 * within the window, valued no higher than the best (mergeDeepBest says why). A stop after
 * the first search keeps its one line.
 */
async function thinkDeepBest(
  s: Searcher,
  position: string,
  limit: SearchLimit,
  spec: DeepBestMultiPv,
  windowCp: number,
  legalCount?: number,
): Promise<MultiPvResult> {
  const lead = await thinkMultiPv(s, position, limit, { fixed: 1 }, windowCp, legalCount);
  const best = lead.candidates[0];
  if (!best || lead.status !== "ok" || s.stopRequested()) return lead;
  // The widening pass at auto's share of the full limit, not of the quarter: at a tenth of a
  // quarter (250 of 10,000 nodes, depth 1) it missed moves auto finds (the start position's 2g2f).
  const widenShare = Math.min(1, (spec.others.widenShare ?? DEFAULT_WIDEN_SHARE) / spec.share);
  const rest = await thinkMultiPv(
    s,
    position,
    scaleLimit(limit, spec.share),
    { dynamic: { ...spec.others, widenShare } },
    windowCp,
    legalCount,
  );
  const candidates = rest.status === "ok" ? mergeDeepBest(best, rest.candidates, windowCp) : lead.candidates;
  return {
    ...lead,
    candidates,
    nodes: lead.nodes + rest.nodes,
    timeMs: lead.timeMs + rest.timeMs,
    depth: Math.max(lead.depth, rest.depth),
    multipv: rest.multipv,
    passes: lead.passes + rest.passes,
    laterTimeMs: lead.laterTimeMs + rest.timeMs,
  };
}
