// The hybrid's rule (docs/DESIGN.md §11.2) for the final move when alpha-beta and Monte-Carlo
// disagree. Every rule and threshold is a USI option (see electron/engines/horu/options.ts).
import type { Move } from "../rules/types.js";
import { VALUE_MATE_BOUND } from "../rules/types.js";
import type { MctsResult } from "./mcts.js";

export interface HybridRules {
  /** A mate found by alpha-beta is always played. */
  mateWins: boolean;
  /** Below this many playouts Monte-Carlo is not trusted: alpha-beta's move. */
  minPlayouts: number;
  /** Monte-Carlo's win rate for alpha-beta's move below this hands the move to Monte-Carlo. */
  lowWinRate: number;
  /** Alpha-beta's own value (cp) below this hands the move to Monte-Carlo. */
  lowValue: number;
  /**
   * A Monte-Carlo rate counts only with this many visits behind it (for alpha-beta's move and
   * for Monte-Carlo's own choice): a rate from two playouts is noise, and acting on it lost
   * games (docs/ENGINE.md).
   */
  minVisits: number;
}

export const DEFAULT_HYBRID: HybridRules = { mateWins: true, minPlayouts: 300, lowWinRate: 0.3, lowValue: -400, minVisits: 30 };

export type Decision = { move: Move; by: "alphabeta" | "mcts"; reason: string };

export function decide(ab: { move: Move; value: number }, mcts: MctsResult | null, rules: HybridRules): Decision {
  const keep = (reason: string): Decision => ({ move: ab.move, by: "alphabeta", reason });
  if (!mcts || mcts.best === 0) return keep("no Monte-Carlo result");
  if (ab.move === 0) return { move: mcts.best, by: "mcts", reason: "no alpha-beta move" };
  if (rules.mateWins && ab.value >= VALUE_MATE_BOUND) return keep("alpha-beta found a mate");
  if (mcts.playouts < rules.minPlayouts) return keep(`only ${mcts.playouts} playouts`);
  if (mcts.best === ab.move) return keep("both agree");
  const bestStat = mcts.moves.find((s) => s.move === mcts.best);
  if (!bestStat || bestStat.visits < rules.minVisits) return keep(`Monte-Carlo's move has only ${bestStat?.visits ?? 0} visits`);
  const abStat = mcts.moves.find((s) => s.move === ab.move);
  const abRate = abStat && abStat.visits >= rules.minVisits ? abStat.rate : null;
  if (abRate !== null && abRate < rules.lowWinRate)
    return { move: mcts.best, by: "mcts", reason: `Monte-Carlo win rate of alpha-beta's move ${abRate.toFixed(3)} < ${rules.lowWinRate}` };
  if (ab.value < rules.lowValue) return { move: mcts.best, by: "mcts", reason: `alpha-beta value ${ab.value} < ${rules.lowValue}` };
  return keep("alpha-beta's move is good enough");
}
