// An engine's operating-system process: spawned without a shell (an argv array: nothing gets
// expanded), niced, read line by line with bounded memory, and killed with its children.
//
// Each engine runs in its own process group (its own session on POSIX), so a Ctrl-C typed
// at the terminal reaches horu alone, which then finishes or re-queues the running thinks
// (the engines used to die of the same SIGINT and be restarted). horu kills the group
// whenever the engine ends and every group still alive when horu exits (live.ts); an engine
// whose standard input closes (horu killed outright) quits on its own.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { LineSplitter } from "./lines.js";
import { killGroup, liveEngines } from "./live.js";

const MAX_LINE_BYTES = 64 * 1024;

export interface ProcessSpec {
  command: string;
  args?: string[];
  cwd?: string;
  /** Extra environment variables (over horu's own). */
  env?: Record<string, string>;
  /** Run this much nicer than horu (0 or absent: as horu); see runNicer. */
  nice?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ProcessEvents {
  stdout(line: string): void;
  /** A stdout line over the length limit was dropped. */
  overlong(bytes: number): void;
  stderr(line: string): void;
  /** The process could not be started; no exit follows. */
  spawnFailed(e: NodeJS.ErrnoException): void;
  /** The process ended and its output has been read (or given up on). */
  exited(info: ExitInfo): void;
}

/**
 * Makes every thread of process `pid` `by` nicer than horu. On Linux a nice value belongs to a
 * thread, and a thread starts with its creator's: the engine may have made its search threads
 * before the first call, so this is called again after the handshake; threads made after it
 * (for the options, Threads) start niced. And
 * where the kernel groups each session's threads (autogroup), nice values weigh only inside a
 * group, the groups sharing the CPU evenly: an engine has a session of its own (it is started
 * detached), so its group is made nicer too, or horu would still get a third of the CPU
 * beside two engines, not the core it asks for. Elsewhere it sets the process's priority.
 * Not allowed or not there (an engine gone): left as is.
 */
export function runNicer(pid: number | undefined, by: number): void {
  if (!pid || by <= 0) return;
  let target: number;
  try {
    target = Math.min(19, getPriority() + by);
  } catch {
    return;
  }
  let ids = [pid];
  if (process.platform === "linux")
    try {
      ids = readdirSync(`/proc/${pid}/task`).map(Number);
    } catch {
      // Gone already: nothing to do.
    }
  for (const id of ids)
    try {
      if (getPriority(id) < target) setPriority(id, target);
    } catch {
      // Not allowed, or the thread ended meanwhile.
    }
  if (process.platform === "linux")
    try {
      // "/autogroup-123 nice 0"; only another group than horu's own (never nice horu itself).
      const group = (file: string) => /^(\S+)\s+nice\s+(-?\d+)/.exec(readFileSync(file, "utf8"));
      const theirs = group(`/proc/${pid}/autogroup`),
        ours = group("/proc/self/autogroup");
      if (theirs && ours && theirs[1] !== ours[1] && Number(theirs[2]) < Number(ours[2]) + by)
        writeFileSync(`/proc/${pid}/autogroup`, String(Math.min(19, Number(ours[2]) + by)));
    } catch {
      // No autogroups here (or not allowed): the threads' nice values are all there is.
    }
}

export class EngineProcess {
  /** Set when the process has ended (or failed to start): it no longer runs. */
  exitInfo: ExitInfo | null = null;
  private readonly child: ChildProcess;

  constructor(
    private readonly spec: ProcessSpec,
    events: ProcessEvents,
  ) {
    const child = spawn(spec.command, spec.args ?? [], {
      cwd: spec.cwd,
      env: spec.env ? { ...process.env, ...spec.env } : undefined,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      windowsHide: true,
      // Its own process group: the terminal's SIGINT is horu's to handle, not the engine's.
      detached: true,
    });
    this.child = child;
    liveEngines.add(child);
    this.renice();
    child.once("error", (e: NodeJS.ErrnoException) => {
      liveEngines.delete(child);
      // No 'exit' follows a failed spawn.
      this.exitInfo ??= { code: null, signal: null };
      events.spawnFailed(e);
    });
    let closed = false;
    const closedNow = new Promise<void>((r) =>
      child.once("close", () => {
        closed = true;
        r();
      }),
    );
    child.on("exit", (code, signal) => {
      this.exitInfo = { code, signal };
      // Whatever the engine started (a wrapper's child) goes with it.
      killGroup(child);
      liveEngines.delete(child);
      // Let stdout/stderr drain so the last lines (the crash message) are seen; a
      // grandchild holding the pipes open must not delay us long, nor keep horu alive.
      if (closed) events.exited({ code, signal });
      else
        void Promise.race([closedNow, delay(200)]).then(() => {
          if (!closed) for (const s of [child.stdin, child.stdout, child.stderr]) s?.destroy();
          events.exited({ code, signal });
        });
    });
    child.on("error", () => {}); // also fired for failed kills; reported through exit/waiters
    child.stdin!.on("error", () => {}); // EPIPE when the engine died; exit reports it
    const out = new LineSplitter(MAX_LINE_BYTES, events.stdout, events.overlong);
    const err = new LineSplitter(MAX_LINE_BYTES, events.stderr, () => events.stderr("[overlong stderr line dropped]"));
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stdout!.on("end", () => out.flush());
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    child.stderr!.on("end", () => err.flush());
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  get pid(): number | undefined {
    return this.running ? this.child.pid : undefined;
  }

  /** Nices the threads there are now (see runNicer: again after the engine has made more). */
  renice(): void {
    runNicer(this.child.pid, this.spec.nice ?? 0);
  }

  /** Writes one line to the engine's standard input (nothing once it has ended). */
  send(line: string): void {
    if (this.running) this.child.stdin!.write(line + "\n");
  }

  /** Kills the process and its process group now (SIGKILL). */
  kill(): void {
    if (this.running) killGroup(this.child);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
