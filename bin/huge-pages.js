// Huge pages for a big book's arrays (Linux with glibc).
//
// On a book of millions of positions the selection reads its arrays (about 3 GB at 15M
// positions) at random: nearly every read misses the processor's caches and, with 4 KiB
// pages, its cache of page addresses (the TLB) too. With 2 MiB pages the second miss mostly
// goes: on the 15M made-up book a 120 s dig thought 4,071 positions instead of 3,682 and its
// selection p99 went from 92.5 to 75.9 ms (docs/DESIGN.md §3.5). Most distributions give
// transparent huge pages only to memory that asks for them (madvise), which Node cannot do;
// glibc's malloc asks for every large block it maps when the process starts with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (glibc 2.35 and later; older ones, musl and other
// systems ignore it). The setting is read when a process starts, so `horu dig` and `horu web`
// start again with it, unless the environment already says (HORU_HUGE_PAGES=0: not at all).
//
// The first process stays as a wrapper: it passes signals on and exits as the second does.
// The second runs in a session of its own, so a Ctrl-C at a terminal reaches it once, through
// the wrapper, not twice (the terminal signals its foreground process group, and a second
// Ctrl-C means "stop at once"); and it ends itself when the wrapper is killed (kill -9 cannot
// be passed on), which it learns from the end of a pipe only the wrapper holds.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import net from "node:net";

const TUNABLE = "glibc.malloc.hugetlb=1";
/** The commands that hold a big book for long: a few ms of a second start are nothing there. */
const COMMANDS = new Set(["dig", "web"]);
const PASSED_ON = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
/** The wrapper's pipe, in the second process. */
const WRAPPER_FD = 3;

/** The environment's GLIBC_TUNABLES with huge pages asked for, or null when it says already (or HORU_HUGE_PAGES=0). */
function hugePagesTunables(env = process.env) {
  if (env.HORU_HUGE_PAGES === "0" || (env.GLIBC_TUNABLES ?? "").includes("glibc.malloc.hugetlb")) return null;
  return env.GLIBC_TUNABLES ? `${env.GLIBC_TUNABLES}:${TUNABLE}` : TUNABLE;
}

/**
 * Starts this command again with huge pages when it is one that holds a big book, on Linux,
 * and they were not asked for yet; this process then waits for that one. Returns whether it did.
 */
export function hugePagesRelaunch(command) {
  if (process.platform !== "linux" || !COMMANDS.has(command) || process.env.HORU_WRAPPED) return false;
  const tunables = hugePagesTunables();
  if (tunables === null) return false;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    detached: true,
    env: {
      ...process.env,
      GLIBC_TUNABLES: tunables,
      HORU_WRAPPED: String(WRAPPER_FD),
      ...(process.env.GLIBC_TUNABLES === undefined ? {} : { HORU_TUNABLES_BEFORE: process.env.GLIBC_TUNABLES }),
    },
  });
  const passOn = (signal) => {
    try {
      child.kill(signal);
    } catch {
      // gone already: its exit is on the way
    }
  };
  for (const signal of PASSED_ON) process.on(signal, passOn);
  // Ctrl-Z stops the pair (a terminal stops its foreground group: this process alone), and
  // the shell's fg or bg, which continues this one, continues the other.
  process.on("SIGTSTP", () => {
    passOn("SIGSTOP");
    process.kill(process.pid, "SIGSTOP");
  });
  process.on("SIGCONT", () => passOn("SIGCONT"));
  child.on("error", (e) => {
    console.error(`horu: could not start again with huge pages (${e.message}); set HORU_HUGE_PAGES=0 to run without`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: so does this process, as a shell expects.
    for (const s of PASSED_ON) process.removeListener(s, passOn);
    process.kill(process.pid, signal);
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
  });
  return true;
}

/** In the process a wrapper started: ends at once when the wrapper is gone. */
export function watchWrapper() {
  if (process.env.HORU_WRAPPED !== String(WRAPPER_FD)) return;
  // What this process starts (engines) starts with the environment the user gave.
  delete process.env.HORU_WRAPPED;
  if (process.env.HORU_TUNABLES_BEFORE === undefined) delete process.env.GLIBC_TUNABLES;
  else process.env.GLIBC_TUNABLES = process.env.HORU_TUNABLES_BEFORE;
  delete process.env.HORU_TUNABLES_BEFORE;
  const pipe = new net.Socket({ fd: WRAPPER_FD, readable: true, writable: false });
  pipe.on("error", () => {});
  pipe.on("end", () => process.kill(process.pid, "SIGKILL"));
  pipe.resume();
  pipe.unref();
}
