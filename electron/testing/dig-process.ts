// The process that does the work of a `horu dig` or `horu web` a test started: on Linux the
// command starts itself again with huge pages and waits for that one (bin/huge-pages.js), so
// the pid a test holds is the wrapper's, and the book's lock names the other.
import { readFileSync } from "node:fs";
import { processRunning } from "../store/lock.js";
import { childPids } from "../bench/soak.js";

/** The child of `pid` that runs horu (the wrapper's), or `pid` itself when it has none (not wrapped). */
export function workerOf(pid: number): number {
  for (const child of childPids(pid)) {
    try {
      if (readFileSync(`/proc/${child}/cmdline`, "utf8").includes("horu")) return child;
    } catch {
      // gone meanwhile
    }
  }
  return pid;
}

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
