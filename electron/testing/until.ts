// Waiting in the Node tests for an event pushed into a list (status updates, analysis lines).
import { vi } from "vitest";

/**
 * The first item of `seen` (a list that grows while the test waits) that `ok` accepts, looked
 * for every 50 ms (vitest's waitFor); rejects after `ms` with `what` and the last item seen.
 */
export function until<T>(seen: T[], ok: (v: T) => boolean, ms: number, what: string): Promise<T> {
  return vi.waitFor(
    () => {
      const v = seen.find(ok);
      if (v === undefined) throw new Error(`no such ${what}; last ${JSON.stringify(seen.at(-1))}`);
      return v;
    },
    { timeout: ms, interval: 50 },
  );
}
