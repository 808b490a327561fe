// Waiting for the process that does the work of a `horu dig` a test started (process/proc.ts workerOf
// finds it): on Linux the command starts itself again with huge pages and waits for that one
// (bin/huge-pages.js), so the pid a test holds is the wrapper's, and the book's lock names the other.
import { processRunning } from "../store/lock.js";
export { workerOf } from "../process/proc.js";

/**
 * Resolves once process `pid` no longer runs (gone, or a zombie no one reaps), or rejects after
 * `timeoutMs`. A wrapper killed with -9 is gone before the process it waited for has ended
 * itself (it learns of the kill from a pipe): a test that opens the book at once waits for that.
 */
export async function ended(pid: number, timeoutMs = 5000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (processRunning(pid)) {
    if (performance.now() > until) throw new Error(`process ${pid} still runs after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
