// How a position is searched in a dig: its MultiPV under the book's setting, with what the job
// itself asks (its parent's values, a settle round's one-line best).
import { DEFAULT_DEEP_BEST_SHARE, type DynamicMultiPv, type MultiPvSpec } from "../engines/usi/widen.js";
import type { Job } from "../book/book-core.js";
import type { DigSettings } from "../../shared/dig/settings.js";
import { firstMultiPv } from "../../shared/usi/multipv.js";

/**
 * The MultiPV of `job`'s think. `dynamic`: auto's parameters (the window as withinCp). A settle
 * round's deep think (`job.oneLineBest`) under auto or auto-bounded is a deep-best think: the
 * book plays its best move there, and a MultiPV search names the best move far less often than
 * one line at the same nodes (docs/MATCH.md, tenth session: 27% against 40% of a deeper
 * search's best at 10,000 nodes). A fixed MultiPV stays as set.
 */
export function multipvSpec(
  setting: DigSettings["multipv"],
  job: Pick<Job, "parentValues" | "oneLineBest">,
  dynamic: DynamicMultiPv,
): MultiPvSpec {
  if (typeof setting === "number") return { fixed: setting };
  if (setting === "deep-best" || job.oneLineBest) return { deepBest: { others: dynamic, share: DEFAULT_DEEP_BEST_SHARE } };
  // Widening continues while the last line is inside the window: the moves the window asks for are then not all found.
  const dyn = setting === "auto-bounded" ? { ...dynamic, boundWidened: true } : dynamic;
  if (!dyn.firstFromParent) return { dynamic: dyn };
  return { dynamic: { ...dyn, start: firstMultiPv(job.parentValues, dyn.start, dyn.withinCp, dyn.firstFromParent) } };
}
