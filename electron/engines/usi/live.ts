// The engine processes this horu started, each in a process group of its own (process.ts), so
// that a Ctrl-C at the terminal reaches horu alone. Whatever ends horu must end them too:
// kept apart from process.ts so the CLI's signal handling (run.ts) needs nothing else.
import type { ChildProcess } from "node:child_process";

/** Engine processes started and not yet seen to exit: killed with their groups when horu exits. */
export const liveEngines = new Set<ChildProcess>();

/** SIGKILL to the engine's process group (POSIX), so a wrapper's children go too; else to the process. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  if (process.platform !== "win32") {
    try {
      process.kill(-child.pid, "SIGKILL");
      return;
    } catch {
      // the group is gone already (ESRCH)
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** The engines still running; for tests and diagnostics. */
export function liveEnginePids(): number[] {
  return [...liveEngines].map((c) => c.pid).filter((p): p is number => p !== undefined);
}

/** Kills every engine this process started, with their groups (an exit, a fatal signal). */
export function killAllEngines(): void {
  for (const child of liveEngines) killGroup(child);
}

// An exiting horu (a return from main, process.exit, an uncaught error) takes its engines
// with it: they are in groups of their own, which nothing else would signal.
process.on("exit", killAllEngines);
