// The "settle" dig (issue 41): Super Tera-Shock selection, and now and then the positions the
// book would play into are thought again at a higher limit, so the moves the book plays come
// from deeper searches than its leaves; the book then plays the engine's own best there unless
// the minimax beats it by more than a margin (quality.ts, MoveChoice "robust"): the minimax
// over a deep position's children, each thought at the dig's limit, would otherwise overrule
// the deeper search. This module decides which positions to think again and when; the dig
// queues them with their limit.
import { MINIMAX, type MoveChoice, type PlayedPosition } from "./quality.js";

export interface SettleOptions {
  /** A deep think's limit, as a multiple of the dig's. */
  factor: number;
  /** A round of deep thinks after this many ordinary positions. */
  every: number;
  /** At most this many deep thinks a round, the likeliest positions first. */
  perRound: number;
  /**
   * No round once the book holds more thought positions than this: a round computes the
   * export's minimax over the whole book, on a thread of its own but with a core and memory
   * the engines and the dig would have (here 0.55 s at 10,000 positions, 2.5 s at 50,000;
   * a 1M export 40 s and 0.9 GB, a 15M one 731 s and 6.6 GB), at most a tenth of the time.
   */
  maxPositions: number;
}

export const DEFAULT_SETTLE: SettleOptions = { factor: 8, every: 200, perRound: 25, maxPositions: 250_000 };

/** How a settled book picks its move: its engine's own (deepest) best unless the minimax beats that by more than 50 cp. */
export const SETTLED_CHOICE: MoveChoice = { kind: "robust", marginCp: 50 };

/**
 * The move choice a book's games are played with under its settings: a settled book's, else
 * the minimax. Breadth first never settles, so its books play the minimax whatever the factor.
 */
export const playChoice = (s: { settleFactor: number; policy: string }): MoveChoice =>
  s.settleFactor > 0 && s.policy === "tera-shock" ? SETTLED_CHOICE : MINIMAX;

/**
 * The positions to think again this round: those the book plays into, likeliest first (then
 * nearest the root), whose own think was below half the deep limit (`thinkNodes`: the nodes
 * of the position's stored think; undefined when not thought), at most `perRound`.
 */
export function settleRound(
  played: readonly PlayedPosition[],
  thinkNodes: (sfen: string) => number | undefined,
  digNodes: number,
  o: SettleOptions = DEFAULT_SETTLE,
): string[] {
  const deep = (digNodes * o.factor) / 2;
  return [...played]
    .filter((p) => {
      const n = thinkNodes(p.sfen);
      return n !== undefined && n < deep;
    })
    .sort((a, b) => b.reach - a.reach || a.ply - b.ply || (a.sfen < b.sfen ? -1 : a.sfen > b.sfen ? 1 : 0))
    .slice(0, o.perRound)
    .map((p) => p.sfen);
}

/** Whether a book of `positions` thought positions is small enough for rounds. */
export const settleFits = (positions: number, o: SettleOptions = DEFAULT_SETTLE): boolean => positions <= o.maxPositions;

/** Whether a round is due: `ordinary` positions thought since the last round (or the start). */
export const settleDue = (ordinary: number, o: SettleOptions = DEFAULT_SETTLE): boolean => ordinary >= o.every;
