// The "deep-best" think (issue 41): a position's best move and value come from a one-line
// search at the full limit, as a player's own search would make them, and the other moves'
// values from a cheaper MultiPV search. Measured on the books of docs/MATCH.md, a MultiPV
// search at a fixed node count reaches far less deep than a one-line one (depth 6 against
// 10-11 at 10,000 nodes), and a book whose moves come from it plays worse than its engine.
import type { Candidate } from "../book/records.js";
import { applyWindow, capValues, sortCandidates } from "./multipv.js";

/**
 * The candidates of a deep-best think: `lead`, the one-line search's best move, first, with its
 * value; then the cheaper search's other moves, each valued no higher than one below the lead.
 * A one-line alpha-beta search at depth D searched every other root move against the best's
 * value and found it no better: at that depth each is an upper bound of vb, so the shallower
 * search's higher value for it is the noise the deeper search already refuted. A mate score
 * from the cheaper search is a proof and stays as it is. The list keeps the moves within
 * `windowCp` of the lead's value.
 */
export function mergeDeepBest(lead: Candidate, others: readonly Candidate[], windowCp: number): Candidate[] {
  const rest = capValues(
    others.filter((c) => c.move !== lead.move),
    lead.value - 1,
  );
  return applyWindow(sortCandidates([lead, ...rest]), windowCp);
}
