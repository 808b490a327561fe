// Node jitter: each engine move of a match gets its own node limit, a few percent around
// the match's, so a deterministic engine does not replay one game over and over. The
// limit depends only on (seed, game, ply): a resumed match replays a game with the same
// limits, and the match folder's seed and percentage say everything needed to repeat it.
import { rng } from "../util/rng.js";

export interface Jitter {
  /** Each move's node limit is drawn uniformly from nodes x (1 +- nodesPct / 100). */
  nodesPct: number;
}

/** Largest jitter accepted: beyond it the players no longer play at "the match's limit". */
export const MAX_JITTER_PCT = 50;

/** The node limit of one move: `nodes` moved by up to +-pct% (at least 1 node). */
export function jitteredNodes(nodes: number, pct: number, seed: number, game: number, ply: number): number {
  if (pct <= 0) return nodes;
  // One generator per move, mixed from its coordinates: independent of the order moves are played in.
  const u = rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(game + 1, 0xc2b2ae35) ^ Math.imul(ply + 1, 0x27d4eb2f))();
  return Math.max(1, Math.round(nodes * (1 + (pct / 100) * (2 * u - 1))));
}
