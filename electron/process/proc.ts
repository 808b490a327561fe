// Other processes as Linux's /proc shows them: their children, memory, command line and
// start environment, and signals to them. Used by the benchmarks that drive `horu dig` as a
// child process and by the tests that do the same; off Linux these find nothing.
import { readFileSync, readdirSync } from "node:fs";

/** Direct children of a process (Linux /proc). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** A process's resident memory in MiB, or null when it is gone (or not Linux). */
export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The process that does the work of a `horu dig` or `horu web` started as `pid`: on Linux these
 * start themselves again with huge pages (bin/huge-pages.js) and wait for that one, whose engines,
 * memory and book lock are the dig's; `pid` itself when it has no such child (not wrapped).
 */
export function workerOf(pid: number): number {
  // The wrapper marks the one it starts (its start environment keeps the mark, which it drops at once).
  return childPids(pid).find((p) => startEnvironment(p).includes("\0HORU_WRAPPED=")) ?? pid;
}

function startEnvironment(pid: number): string {
  try {
    return "\0" + readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return "";
  }
}

/** A process's command line, its words joined by spaces (empty when it is gone). */
export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Sends `sig` to `pid`; false when it is gone or not ours. */
export function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}
