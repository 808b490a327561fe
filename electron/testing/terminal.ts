// A program run at a real pseudo-terminal, as a user runs it: util-linux's `script` gives it
// a terminal of its own, and a ^C written to the terminal reaches the terminal's whole
// foreground process group (the program and whatever it started there), as Ctrl-C does.
// Processes are found through /proc by a marker in their environment, which every child
// inherits, so even one that left the process group or was orphaned is found.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

export const SCRIPT = "/usr/bin/script";
export const haveScript = existsSync(SCRIPT);

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface MarkedProcess {
  pid: number;
  /** argv[0] and the rest, as /proc/PID/cmdline has them. */
  argv: string[];
}

export class Terminal {
  readonly marker = `horu-term-${randomUUID()}`;
  readonly child: ChildProcess;
  output = "";
  /** Exit code of the program (script -e passes it on) and when it came. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private waiters: Array<() => void> = [];

  constructor(argv: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
    // `script` starts the command through $SHELL -c. A shell that stays (dash does, bash
    // execs a lone command) sits in the foreground group, takes the ^C too and ends with
    // 130 whatever the program did; an interactive shell would not be in the job at all.
    // So the shell is pinned and replaced by the program: the program alone is the job.
    const command = "exec " + argv.map(shellQuote).join(" ");
    this.child = spawn(SCRIPT, ["-q", "-f", "-e", "-c", command, "/dev/null"], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, SHELL: "/bin/sh", HORU_TERMINAL_MARK: this.marker, COLUMNS: "200", LINES: "50" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const take = (d: Buffer) => {
      this.output += d.toString();
      for (const w of this.waiters.splice(0)) w();
    };
    this.child.stdout!.on("data", take);
    this.child.stderr!.on("data", take);
    this.exited = new Promise((resolve) =>
      this.child.on("exit", (code, signal) => {
        for (const w of this.waiters.splice(0)) w();
        resolve({ code, signal, at: performance.now() });
      }),
    );
  }

  /** Types keys at the terminal (^C is "\x03"). */
  type(keys: string): void {
    this.child.stdin!.write(keys);
  }

  /** Waits until the output matches, failing after timeoutMs with what was printed. */
  async waitFor(what: RegExp | ((out: string) => boolean), timeoutMs: number): Promise<void> {
    const test = typeof what === "function" ? what : (out: string) => what.test(out);
    const deadline = performance.now() + timeoutMs;
    while (!test(this.output)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the program ended before ${String(what)}; it printed:\n${this.output.slice(-3000)}`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no ${String(what)} within ${timeoutMs} ms; it printed:\n${this.output.slice(-3000)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Every live process that carries this terminal's marker (zombies not counted). */
  processes(): MarkedProcess[] {
    return markedProcesses(this.marker);
  }

  /** Kills whatever is left (a failed test must not leave engines behind). */
  cleanup(): void {
    for (const p of this.processes()) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

export function markedProcesses(marker: string): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, "latin1");
      if (!env.includes(`HORU_TERMINAL_MARK=${marker}`)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (/\) Z /.test(stat)) continue;
      found.push({ pid: Number(name), argv: readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0").filter(Boolean) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
