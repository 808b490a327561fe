// What one search may spend, as a typed value: the `go` text is made from it only at the
// protocol edge (protocol.ts goCommand), and the session's timeout is computed from it,
// never read back out of that text.
import type { ThinkLimit } from "../../../shared/dig/settings.js";

export type SearchLimit =
  | { kind: "nodes"; nodes: number }
  | { kind: "depth"; depth: number }
  /** A fixed time per move (sent as byoyomi with zero clocks). */
  | { kind: "movetime"; ms: number }
  /** A game clock (match play): remaining times, byoyomi and Fischer increments in ms. */
  | { kind: "clock"; btime: number; wtime: number; byoyomi: number; binc?: number; winc?: number };

/** The engine's limit for a book's stored limit (shared/dig/settings.ts ThinkLimit, the format settings and the think queue keep). */
export function searchLimitOf(l: ThinkLimit): SearchLimit {
  return "nodes" in l
    ? { kind: "nodes", nodes: l.nodes }
    : "depth" in l
      ? { kind: "depth", depth: l.depth }
      : { kind: "movetime", ms: l.movetimeMs };
}

/** A widening search's limit: a share of the nodes or time, two plies less depth. A clock cannot be shared out: as it is. */
export function scaleLimit(l: SearchLimit, share: number): SearchLimit {
  const s = Math.min(1, Math.max(0.01, share));
  switch (l.kind) {
    case "nodes":
      return { kind: "nodes", nodes: Math.max(1, Math.round(l.nodes * s)) };
    case "depth":
      return { kind: "depth", depth: Math.max(1, l.depth - 2) };
    case "movetime":
      return { kind: "movetime", ms: Math.max(1, Math.round(l.ms * s)) };
    case "clock":
      return l;
  }
}

/**
 * How long to wait for `bestmove`: node and depth searches have no clock of their own and get
 * the whole-search limit; a timed search its time (a clock search the larger remaining time
 * plus its byoyomi or increments: the host judges the clock itself) plus the grace.
 */
export function searchTimeoutMs(l: SearchLimit, t: { thinkMs: number; graceMs: number }): number {
  const f = (n: number | undefined) => Math.max(0, Math.floor(n ?? 0));
  switch (l.kind) {
    case "nodes":
    case "depth":
      return t.thinkMs;
    case "movetime":
      return f(l.ms) + t.graceMs;
    case "clock": {
      const extra = l.binc || l.winc ? f(l.binc) + f(l.winc) : f(l.byoyomi);
      return Math.max(f(l.btime), f(l.wtime)) + extra + t.graceMs;
    }
  }
}
