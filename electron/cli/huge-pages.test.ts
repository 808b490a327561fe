// `horu dig` (and `horu web`) start again with glibc's huge pages (bin/huge-pages.js): the
// process that digs has them, its engines do not, HORU_HUGE_PAGES=0 turns it off, and a
// process so started really gets its big arrays on huge pages where the kernel gives them.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { FAIRY, NO_ENGINE, haveFairy, tempDir, fairyDigArgs } from "../testing/paths.js";
import { missing } from "../testing/missing.js";
import { workerOf } from "../testing/dig-process.js";
import { childPids } from "../process/proc.js";
import { followStored } from "../dig/print-results.js";

const TUNABLE = "glibc.malloc.hugetlb=1";
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
const tunables = (pid: number) => environ(pid).find((v) => v.startsWith("GLIBC_TUNABLES="));

/** Starts a dig with `env`, waits for its first stored result, and gives its processes to `look`; then stops it with Ctrl-C. */
async function whileDigging(env: NodeJS.ProcessEnv, look: (pid: number) => void): Promise<number | null> {
  const child = spawn(process.execPath, [...fairyDigArgs(path.join(tempDir(), "huge.horu"), { engines: 1 }), "--print-results"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const closed = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    followStored(child.stdout, () => resolve());
    child.on("close", () => reject(new Error("the dig ended before its first result")));
  });
  look(child.pid!);
  child.kill("SIGINT");
  return closed;
}

const thp = (() => {
  try {
    return !/\[never\]/.test(readFileSync("/sys/kernel/mm/transparent_hugepage/enabled", "utf8"));
  } catch {
    return false;
  }
})();

describe.skipIf(process.platform !== "linux" || missing(haveFairy, "/usr/games/fairy-stockfish"))(`huge pages (${NO_ENGINE})`, () => {
  it("horu dig digs in a process started with them, its engines start without, and Ctrl-C passes through", async () => {
    const code = await whileDigging({ ...process.env, GLIBC_TUNABLES: undefined, HORU_HUGE_PAGES: undefined }, (wrapper) => {
      const digger = workerOf(wrapper);
      expect(digger, "the dig runs in a second process").not.toBe(wrapper);
      expect(tunables(wrapper)).toBeUndefined();
      expect(tunables(digger)).toBe(`GLIBC_TUNABLES=${TUNABLE}`);
      const engines = childPids(digger).filter((p) => readFileSync(`/proc/${p}/cmdline`, "latin1").startsWith(FAIRY));
      expect(engines.length).toBe(1);
      for (const e of engines) expect(tunables(e), "an engine gets the environment the user gave").toBeUndefined();
      // A session of its own: the terminal's Ctrl-C reaches it once, through the wrapper.
      const sid = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[3];
      expect(sid(digger)).not.toBe(sid(wrapper));
    });
    expect(code).toBe(0);
  });

  it("Ctrl-Z stops the process that digs with the wrapper, and continuing the wrapper continues it", async () => {
    const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[0];
    const waitState = async (pid: number, want: (s: string) => boolean, what: string) => {
      const until = performance.now() + 5000;
      while (!want(state(pid))) {
        if (performance.now() > until) throw new Error(`process ${pid} not ${what} after 5 s (state ${state(pid)})`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    let wrapper = 0,
      digger = 0,
      stopped!: () => void;
    const stoppedNow = new Promise<void>((r) => (stopped = r));
    const done = whileDigging({ ...process.env, GLIBC_TUNABLES: undefined, HORU_HUGE_PAGES: undefined }, (pid) => {
      wrapper = pid;
      digger = workerOf(pid);
      process.kill(wrapper, "SIGTSTP");
      stopped();
    });
    await stoppedNow;
    await waitState(digger, (s) => s === "T", "stopped");
    await waitState(wrapper, (s) => s === "T", "stopped");
    // The Ctrl-C whileDigging sent waits in the stopped wrapper; continuing it ends the dig.
    process.kill(wrapper, "SIGCONT");
    expect(await done).toBe(0);
  });

  it("keeps the user's own GLIBC_TUNABLES, and HORU_HUGE_PAGES=0 digs in one process as before", async () => {
    await whileDigging({ ...process.env, GLIBC_TUNABLES: "glibc.malloc.check=0", HORU_HUGE_PAGES: undefined }, (wrapper) => {
      const digger = workerOf(wrapper);
      expect(digger, "the dig runs in a second process").not.toBe(wrapper);
      // (glibc cuts its copy of the variable apart where it reads it: what the digger got is
      // checked by the huge pages it gets below, not by its environment.)
      const engines = childPids(digger);
      expect(engines.length).toBe(1);
      for (const e of engines) expect(tunables(e)).toBe("GLIBC_TUNABLES=glibc.malloc.check=0");
    });
    await whileDigging({ ...process.env, GLIBC_TUNABLES: undefined, HORU_HUGE_PAGES: "0" }, (pid) => {
      expect(workerOf(pid), "no second process").toBe(pid);
      expect(tunables(pid)).toBeUndefined();
    });
  });

  // What the tunable is for: a big typed array (as a book's graph and bounds are) on huge pages.
  it.skipIf(!thp || !existsSync("/proc/self/smaps_rollup"))("a process started so has its big arrays on huge pages", () => {
    const probe = `const a = new Int32Array(64 << 18); for (let i = 0; i < a.length; i += 1024) a[i] = i;
      const m = /AnonHugePages:\\s+(\\d+)/.exec(require("fs").readFileSync("/proc/self/smaps_rollup", "utf8")); console.log(m ? m[1] : "0");`;
    const kib = (env: NodeJS.ProcessEnv) => Number(spawnSync(process.execPath, ["-e", probe], { env, encoding: "utf8" }).stdout.trim());
    const without = kib({ ...process.env, GLIBC_TUNABLES: undefined });
    // 64 MiB touched every 4 KiB: nearly all of it on 2 MiB pages with the tunable, also after the user's own.
    expect(kib({ ...process.env, GLIBC_TUNABLES: TUNABLE })).toBeGreaterThan(without + 32 * 1024);
    expect(kib({ ...process.env, GLIBC_TUNABLES: `glibc.malloc.check=0:${TUNABLE}` })).toBeGreaterThan(without + 32 * 1024);
  });
});
