// The soak: `horu dig` with 2 real engines as a child process for a set time while a
// fault injector kills the dig (-9) and restarts it, kills engine processes, makes an
// engine hang (SIGSTOP: the think timeout must restart it) and makes one print garbage.
// At the end the book must pass integrity_check, hold every result the dig acknowledged
// ("stored <sfen>"), have nothing marked failed, and the dig's RSS must not have grown
// without bound. A fault-free run with the same settings gives the positions-per-hour
// figure the faulty run is compared with (minus the time the faults took).
//
// Engines run behind a small proxy (written to the temp dir): it passes USI through to
// fairy-stockfish, and on SIGUSR1 answers the next `go` with garbage lines instead, the
// way a broken build or a wrong binary would. SIGSTOP/SIGKILL go to the proxy or to the
// engine behind it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { rng as mulberry32 } from "../../shared/util/rng.js";
import { followStored } from "../dig/print-results.js";
import { mean } from "../dig/stats.js";
import { childPids, cmdline, rssMiB, signal, workerOf } from "../process/proc.js";

export interface SoakOptions {
  minutes: number;
  /** Seconds of the fault-free comparison run (default: a quarter of the soak, at least 20). */
  baselineSeconds?: number;
  nodes?: number;
  engine?: string;
  /** The `horu` entry point (bin/horu.js). */
  horu: string;
  seed?: number;
  print?: (line: string) => void;
  /** Keep the temp dir (its path is printed). */
  keep?: boolean;
}

export type FaultKind = "kill-dig" | "kill-engine" | "hang-engine" | "garbage";

export interface SoakReport {
  wallMs: number;
  stored: number;
  distinct: number;
  faults: Record<FaultKind, number>;
  /** Engine failures the dig reported (restarts). */
  engineFailures: number;
  faultMs: number;
  perHour: number;
  perHourMinusFaults: number;
  baselinePerHour: number;
  digStarts: number;
  integrity: string;
  missing: string[];
  failedPositions: number;
  /** RSS samples of the dig process; `run` numbers the dig process (restarts after kill -9). */
  rss: { atS: number; mib: number; run: number }[];
  /** The longest-lived dig process: its first and last third of samples (a leak shows here even with restarts). */
  longestRun: { seconds: number; firstThirdMiB: number; lastThirdMiB: number };
  rssFirstThirdMiB: number;
  rssLastThirdMiB: number;
  bookPositions: number;
}

const PROXY = `// horu soak: USI pass-through to an engine; SIGUSR1 turns the next think into garbage.
import { spawn } from "node:child_process";
const [cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
let armed = false, garbage = false, buf = "";
process.on("SIGUSR1", () => { armed = true; });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 137 : 1)));
child.stdin.on("error", () => {});
child.stdout.on("data", (d) => { if (!garbage) process.stdout.write(d); });
process.stdin.on("data", (d) => {
  buf += d.toString("latin1");
  let i;
  while ((i = buf.indexOf("\\n")) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (armed && line.startsWith("go")) {
      armed = false;
      garbage = true;
      let s = "";
      for (let k = 0; k < 3000; k++) s += "Segmentation fault? ### " + k + " \\u00ff garbage\\n";
      process.stdout.write(s);
      continue;
    }
    child.stdin.write(line + "\\n");
  }
});
process.stdin.on("end", () => child.stdin.end());
`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Incarnation {
  child: ChildProcess;
  started: number;
  firstStored: Promise<number>;
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: string[];
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const print = o.print ?? ((l: string) => process.stdout.write(l + "\n"));
  const engine = o.engine ?? "/usr/games/fairy-stockfish";
  if (!existsSync(engine)) throw new Error(`the soak needs ${engine} (apt-get install fairy-stockfish)`);
  const nodes = o.nodes ?? 5000;
  const thinkTimeoutS = 4;
  const rand = mulberry32(o.seed ?? 6);
  const dir = mkdtempSync(path.join(tmpdir(), "horu-soak-"));
  const proxy = path.join(dir, "fault-proxy.mjs");
  writeFileSync(proxy, PROXY);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const engineCmd = `${q(process.execPath)} ${q(proxy)} ${q(engine)}`;

  const digArgs = (book: string) => [
    o.horu,
    "dig",
    "--book",
    book,
    "--engine",
    engineCmd,
    "--engines",
    "2",
    "--option",
    "Threads=1",
    "--option",
    "Hash=16",
    "--nodes",
    String(nodes),
    "--multipv",
    "3",
    "--print-results",
    "--think-timeout",
    String(thinkTimeoutS),
  ];
  let onStored: (sfen: string) => void = () => {};
  let onEngineFailure: () => void = () => {};
  const launch = (book: string): Incarnation => {
    const child = spawn(process.execPath, digArgs(book), { stdio: ["ignore", "pipe", "pipe"] });
    const stderr: string[] = [];
    let resolveFirst!: (t: number) => void;
    const firstStored = new Promise<number>((r) => (resolveFirst = r));
    let err = "";
    followStored(child.stdout!, (sfen) => {
      resolveFirst(performance.now());
      onStored(sfen);
    });
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      let i: number;
      while ((i = err.indexOf("\n")) >= 0) {
        const line = err.slice(0, i);
        err = err.slice(i + 1);
        if (/^engine .* failed/.test(line)) onEngineFailure();
        stderr.push(line);
        if (stderr.length > 200) stderr.shift();
      }
    });
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.on("close", (code, sig) => {
        resolveFirst(performance.now());
        r({ code, signal: sig });
      }),
    );
    return { child, started: performance.now(), firstStored, closed, stderr };
  };
  const finish = async (inc: Incarnation): Promise<void> => {
    // Ctrl-C: finish the running thinks; a second one if that takes too long.
    inc.child.kill("SIGINT");
    const t = setTimeout(() => inc.child.kill("SIGINT"), 15_000);
    const k = setTimeout(() => inc.child.kill("SIGKILL"), 30_000);
    await inc.closed;
    clearTimeout(t);
    clearTimeout(k);
  };

  try {
    // 1. The fault-free run: same engines (behind the same proxy), same settings. Half
    // before the faulty run and half after (on the same book), so a machine whose load
    // changes during the soak (CI shares its cores) skews both sides alike.
    const baselineS = o.baselineSeconds ?? Math.max(20, Math.round(o.minutes * 15));
    print(
      `soak: fault-free run for 2 x ${(baselineS / 2).toFixed(0)} s, before and after (2 x ${path.basename(engine)} at ${nodes} nodes, multipv 3)`,
    );
    let baseCount = 0,
      baseWall = 0;
    const baseline = async (): Promise<void> => {
      let n = 0;
      onStored = () => n++;
      const base = launch(path.join(dir, "baseline.horu"));
      const first = await base.firstStored;
      await sleep((baselineS / 2) * 1000);
      baseWall += performance.now() - first;
      baseCount += n;
      await finish(base);
      print(`soak: fault-free: ${n} positions in ${(baselineS / 2).toFixed(0)} s`);
    };
    await baseline();

    // 2. The run with faults.
    const book = path.join(dir, "soak.horu");
    const acknowledged = new Set<string>();
    let stored = 0;
    onStored = (s) => {
      acknowledged.add(s);
      stored++;
    };
    const faults: Record<FaultKind, number> = { "kill-dig": 0, "kill-engine": 0, "hang-engine": 0, garbage: 0 };
    let engineFailures = 0;
    let faultMs = 0;
    // Engine faults wait for the dig to report the failure; their downtime counts half (one of two engines).
    const pendingEngineFaults: number[] = [];
    onEngineFailure = () => {
      engineFailures++;
      const at = pendingEngineFaults.shift();
      if (at !== undefined) faultMs += (performance.now() - at + 500) / 2; // + the pool's restart delay
    };
    const stopped = new Set<number>();
    const reap = () => {
      // Proxies we SIGSTOPped whose dig died before it killed them: kill them now.
      for (const pid of stopped) if (cmdline(pid).includes(proxy)) signal(pid, "SIGKILL");
      stopped.clear();
    };
    const rss: SoakReport["rss"] = [];
    let digStarts = 1;
    let inc = launch(book);
    const t0 = await inc.firstStored;
    const end = t0 + o.minutes * 60_000;
    let nextSample = t0;
    let nextFault = t0 + 3000 + rand() * 6000;
    print(
      `soak: faulty run for ${o.minutes} min (dig killed -9 and restarted, engines killed, hung by SIGSTOP past a ${thinkTimeoutS} s think timeout, garbage output)`,
    );
    while (performance.now() < end) {
      const now = performance.now();
      if (now >= nextSample) {
        const mib = rssMiB(workerOf(inc.child.pid!));
        if (mib !== null) rss.push({ atS: (now - t0) / 1000, mib, run: digStarts });
        nextSample = now + 2000;
      }
      const exited = await Promise.race([inc.closed, sleep(100).then(() => null)]);
      if (exited) {
        // The dig ended on its own: that is a finding; start it again and say so.
        print(`soak: dig exited by itself (${exited.signal ?? exited.code}): ${inc.stderr.slice(-3).join(" | ")}`);
        inc = launch(book);
        digStarts++;
        continue;
      }
      if (performance.now() < nextFault) continue;
      nextFault = performance.now() + 3000 + rand() * 6000;
      const r = rand();
      const proxies = childPids(workerOf(inc.child.pid!)).filter((p) => cmdline(p).includes(proxy) && !stopped.has(p));
      const kind: FaultKind =
        r < 0.25 || proxies.length === 0 ? "kill-dig" : r < 0.5 ? "kill-engine" : r < 0.75 ? "hang-engine" : "garbage";
      if (kind === "kill-dig") {
        const at = performance.now();
        inc.child.kill("SIGKILL");
        await inc.closed;
        reap();
        pendingEngineFaults.length = 0;
        inc = launch(book);
        digStarts++;
        faultMs += (await inc.firstStored) - at;
      } else {
        const p = proxies[Math.floor(rand() * proxies.length)]!;
        if (kind === "kill-engine") {
          // Half the time the engine itself, half the time the process the dig started.
          const target = rand() < 0.5 ? (childPids(p)[0] ?? p) : p;
          if (!signal(target, "SIGKILL")) continue;
        } else if (kind === "hang-engine") {
          if (!signal(p, "SIGSTOP")) continue;
          stopped.add(p);
        } else if (!signal(p, "SIGUSR1")) continue;
        pendingEngineFaults.push(performance.now());
      }
      faults[kind]++;
    }
    const wallMs = performance.now() - t0;
    await finish(inc);
    reap();
    await baseline();
    const baselinePerHour = (baseCount / baseWall) * 3_600_000;

    // 3. The checks.
    const store = BookStore.open(book, { readonly: true });
    let integrity: string, failedPositions: number, bookPositions: number;
    const missing: string[] = [];
    try {
      integrity = store.integrityCheck();
      for (const s of acknowledged) if (!store.thoughts.has(s)) missing.push(s);
      failedPositions = [...store.failures.iterateFailed()].length;
      bookPositions = store.thoughts.count();
    } finally {
      store.close();
    }
    const third = Math.max(1, Math.floor(rss.length / 3));
    const runs = new Map<number, SoakReport["rss"]>();
    for (const x of rss) runs.set(x.run, [...(runs.get(x.run) ?? []), x]);
    const longest = [...runs.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    const lt = Math.max(1, Math.floor(longest.length / 3));
    const longestRun = {
      seconds: longest.length ? longest[longest.length - 1]!.atS - longest[0]!.atS : 0,
      firstThirdMiB: mean(longest.slice(0, lt).map((x) => x.mib)),
      lastThirdMiB: mean(longest.slice(-lt).map((x) => x.mib)),
    };
    const report: SoakReport = {
      wallMs,
      stored,
      distinct: acknowledged.size,
      faults,
      engineFailures,
      faultMs,
      perHour: (stored / wallMs) * 3_600_000,
      perHourMinusFaults: (stored / Math.max(1, wallMs - faultMs)) * 3_600_000,
      baselinePerHour,
      digStarts,
      integrity,
      missing,
      failedPositions,
      rss,
      rssFirstThirdMiB: mean(rss.slice(0, third).map((s) => s.mib)),
      rssLastThirdMiB: mean(rss.slice(-third).map((s) => s.mib)),
      longestRun,
      bookPositions,
    };
    printReport(report, print);
    if (o.keep) print(`soak: files kept in ${dir}`);
    return report;
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

export function printReport(r: SoakReport, print: (l: string) => void): void {
  const f = r.faults;
  print(
    `soak: ${(r.wallMs / 60_000).toFixed(1)} min, ${r.stored} results acknowledged (${r.distinct} distinct), book ${r.bookPositions} positions, dig started ${r.digStarts} times`,
  );
  print(
    `soak: faults injected: dig kill -9 ${f["kill-dig"]}, engine kill -9 ${f["kill-engine"]}, engine hung (SIGSTOP) ${f["hang-engine"]}, garbage ${f.garbage}; engine failures reported ${r.engineFailures}`,
  );
  print(
    `soak: time the faults took ${(r.faultMs / 1000).toFixed(1)} s (dig restarts until the first result; engine faults until reported + restart delay, halved: one of two engines)`,
  );
  print(
    `soak: positions/hour: ${Math.round(r.perHour).toLocaleString("en")} with faults, ${Math.round(r.perHourMinusFaults).toLocaleString("en")} with the fault time taken out, ${Math.round(r.baselinePerHour).toLocaleString("en")} without faults (${((r.perHourMinusFaults / r.baselinePerHour) * 100).toFixed(0)}%)`,
  );
  print(
    `soak: integrity_check ${r.integrity}; acknowledged results missing: ${r.missing.length}; positions marked failed: ${r.failedPositions}`,
  );
  const step = Math.max(1, Math.ceil(r.rss.length / 20));
  print(
    `soak: dig RSS MiB over time (#n: dig process n): ${r.rss
      .filter((_, i) => i % step === 0)
      .map((s) => `${s.atS.toFixed(0)}s #${s.run} ${s.mib.toFixed(0)}`)
      .join(", ")}`,
  );
  print(
    `soak: RSS first third ${r.rssFirstThirdMiB.toFixed(1)} MiB, last third ${r.rssLastThirdMiB.toFixed(1)} MiB (x${(r.rssLastThirdMiB / Math.max(1, r.rssFirstThirdMiB)).toFixed(2)}); longest-lived dig process (${r.longestRun.seconds.toFixed(0)} s): ${r.longestRun.firstThirdMiB.toFixed(1)} -> ${r.longestRun.lastThirdMiB.toFixed(1)} MiB`,
  );
}
