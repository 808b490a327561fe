// `horu bench web`: does `horu web` keep answering while it digs? A copy of a book is served by
// a whole `horu web` process; the calls the page makes on its own (the status, the book's
// summary, the Book and Tree views of the root and along the book line, the chart, engines,
// bans, backups) go round over HTTP, as the page sends them, first for --seconds with no dig,
// then for --seconds while the host digs (--engines x fairy-stockfish, 2 by default; go nodes N,
// MultiPV auto). Each
// round trip is timed; per call and phase: count, p50, p99, max and how many took over 100 ms,
// with the load average. The gaps between the dig.status events the page's WebSocket receives
// are timed too (the host sends one every 500 ms while digging). Figures, never assertions.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { copyBook } from "./books/copy-book.js";
import { WebSocket } from "ws";
import type { BookInfo, DigStatus, GraphNodeView, HostEvent } from "../../shared/api/contract.js";

/** A call over 100 ms is one the page feels (the issue's bar). */
export const SLOW_MS = 100;
/** A new round of calls starts at most this often (the page polls the tree every 2 s, the status comes every 500 ms). */
const ROUND_EVERY_MS = 250;

export interface CallFigures {
  call: string;
  count: number;
  p50: number;
  p99: number;
  max: number;
  slow: number;
  errors: number;
}

export interface PhaseFigures {
  phase: "idle" | "digging";
  calls: CallFigures[];
  /** Gaps between dig.status events on the page's WebSocket (digging only). */
  eventGaps: { count: number; p50: number; p99: number; max: number } | null;
  /** The calls over SLOW_MS, slowest first (at most 10): when in the phase they were sent. */
  slowest: Array<{ call: string; at: number; ms: number }>;
  load: string;
}

export interface WebBenchReport {
  openMs: number;
  phases: PhaseFigures[];
  startMs: number;
  stopMs: number;
  thought: number;
  exitCode: number | null;
}

export interface WebBenchOptions {
  /** The built CLI (bin/horu.js). */
  horu: string;
  /** The .horu book to copy (its graph snapshot and selection bounds go along when present). */
  book: string;
  engine: string;
  seconds: number;
  nodes: number;
  processes?: number;
  /** Where the copy goes (default: the system's temporary folder). */
  dir?: string;
  print: (line: string) => void;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** One `horu web` process: its URL's port and token, and its output kept for errors. */
class WebProcess {
  private out = "";
  private err = "";
  private exited: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    child.stdout!.on("data", (d: Buffer) => (this.out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (this.err += d.toString()));
    this.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  /** Resolves with the URL once `horu web` prints it (the book is open then). */
  url(timeoutMs: number): Promise<URL> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const m = /horu web: (http:\/\/\S+)/.exec(this.out);
        if (m) {
          cleanup();
          resolve(new URL(m[1]!));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`horu web printed no URL within ${timeoutMs / 1000} s: ${this.err.trim().slice(-500)}`));
      }, timeoutMs);
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`horu web exited with ${code} before printing its URL: ${this.err.trim().slice(-500)}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.child.stdout!.off("data", look);
        this.child.off("exit", onExit);
      };
      this.child.stdout!.on("data", look);
      this.child.on("exit", onExit);
      look();
    });
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill("SIGTERM");
    const code = await this.exited;
    if (code !== 0) throw new Error(`horu web exited with ${code}: ${this.err.trim().slice(-500)}`);
    return code;
  }

  get stderr(): string {
    return this.err;
  }
}

/** POST /api/call as the page does it (token header, JSON body, one keep-alive connection). */
function makeClient(port: number, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    call<T>(method: string, args: unknown = {}): Promise<T> {
      const body = JSON.stringify({ method, args });
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            path: "/api/call",
            method: "POST",
            agent,
            headers: { "content-type": "application/json", "x-horu-token": token, "content-length": Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const text = Buffer.concat(chunks).toString("utf8");
              try {
                const reply = JSON.parse(text) as { result?: T; error?: string };
                if (res.statusCode === 200 && "result" in reply) resolve(reply.result as T);
                else reject(new Error(`${method}: HTTP ${res.statusCode}: ${reply.error ?? text}`));
              } catch {
                reject(new Error(`${method}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
              }
            });
          },
        );
        req.on("error", reject);
        req.setTimeout(120_000, () => req.destroy(new Error(`${method}: no answer within 120 s`)));
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
type Client = ReturnType<typeof makeClient>;

interface CallSpec {
  name: string;
  method: string;
  args: unknown;
}

/** The calls the page makes by itself on the open book, with arguments taken from the book. */
async function pageCalls(client: Client): Promise<CallSpec[]> {
  const info = await client.call<BookInfo>("book.info");
  // The book line: a big book's first search goes on between calls; wait for it (a minute at most).
  let status = await client.call<DigStatus>("dig.status");
  for (const until = performance.now() + 60_000; status.bookPv.length === 0 && performance.now() < until;) {
    await new Promise((r) => setTimeout(r, 250));
    status = await client.call<DigStatus>("dig.status");
  }
  const [root] = await client.call<GraphNodeView[]>("book.graph", { sfens: [info.rootSfen] });
  // The Tree view reads what is drawn near the viewport in batches of 64: the root's children and theirs.
  const near = [info.rootSfen, ...root!.children.map((c) => c.to)];
  if (near.length < 64) {
    const kids = await client.call<GraphNodeView[]>("book.graph", { sfens: near.slice(1, 64) });
    for (const k of kids) for (const c of k.children) if (near.length < 64 && !near.includes(c.to)) near.push(c.to);
  }
  const line = (status.bookPv.length ? status.bookPv : status.pv).slice(0, 8);
  const calls: CallSpec[] = [
    { name: "dig.status", method: "dig.status", args: {} },
    { name: "book.info", method: "book.info", args: {} },
    { name: "book.recent", method: "book.recent", args: {} },
    { name: "match.status", method: "match.status", args: {} },
    { name: "dig.history (chart)", method: "dig.history", args: {} },
    { name: "engines.list", method: "engines.list", args: {} },
    { name: "engines.ofBook", method: "engines.ofBook", args: {} },
    { name: "book.bans", method: "book.bans", args: { offset: 0, limit: 500 } },
    { name: "backup.list", method: "backup.list", args: {} },
    { name: "book.node root", method: "book.node", args: { line: [] } },
    { name: `book.node ply ${line.length}`, method: "book.node", args: { line } },
    { name: "book.graph root", method: "book.graph", args: { sfens: [info.rootSfen] } },
    { name: `book.graph ${near.length} near`, method: "book.graph", args: { sfens: near } },
  ];
  // Clicking a node of the Tree finds its line (a breadth-first walk from the root).
  if (line.length >= 2) {
    const at = await client.call<{ sfen: string }>("book.node", { line: line.slice(0, 6) });
    calls.push({ name: `book.lineTo ply ${Math.min(6, line.length)}`, method: "book.lineTo", args: { sfen: at.sfen } });
  }
  return calls;
}

/** Calls every spec in turn, round after round, until `until`; returns each call's times in ms. */
/** Each call's round-trip times, and the slow ones with when they were sent (ms since the phase began). */
interface PhaseTimes {
  times: Map<string, { ms: number[]; errors: number }>;
  slow: Array<{ call: string; at: number; ms: number }>;
}

async function roundsUntil(client: Client, calls: CallSpec[], until: number): Promise<PhaseTimes> {
  const times = new Map(calls.map((c) => [c.name, { ms: [] as number[], errors: 0 }]));
  const slow: PhaseTimes["slow"] = [];
  const begun = performance.now();
  while (performance.now() < until) {
    const round = performance.now();
    for (const c of calls) {
      const t0 = performance.now();
      const got = times.get(c.name)!;
      try {
        await client.call(c.method, c.args);
        const ms = performance.now() - t0;
        got.ms.push(ms);
        if (ms > SLOW_MS) slow.push({ call: c.name, at: t0 - begun, ms });
      } catch {
        got.errors++;
      }
    }
    const wait = round + ROUND_EVERY_MS - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return { times, slow };
}

function figures({ times }: PhaseTimes): CallFigures[] {
  return [...times].map(([call, { ms, errors }]) => {
    const s = [...ms].sort((a, b) => a - b);
    return {
      call,
      count: s.length,
      p50: quantile(s, 0.5),
      p99: quantile(s, 0.99),
      max: s.at(-1) ?? NaN,
      slow: s.filter((x) => x > SLOW_MS).length,
      errors,
    };
  });
}

function printPhase(p: PhaseFigures, print: (line: string) => void): void {
  const f = (x: number) => (Number.isNaN(x) ? "-" : x.toFixed(1));
  print(`  ${p.phase} (load ${p.load}):`);
  print(
    `    ${"call".padEnd(26)} ${"count".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)} ${`>${SLOW_MS} ms`.padStart(8)}`,
  );
  for (const c of p.calls)
    print(
      `    ${c.call.padEnd(26)} ${String(c.count).padStart(6)} ${f(c.p50).padStart(8)} ${f(c.p99).padStart(8)} ${f(c.max).padStart(8)} ${String(c.slow).padStart(8)}${c.errors ? `  (${c.errors} errors)` : ""}`,
    );
  if (p.eventGaps)
    print(
      `    dig.status events: ${p.eventGaps.count}, gap p50 ${f(p.eventGaps.p50)} ms, p99 ${f(p.eventGaps.p99)} ms, max ${f(p.eventGaps.max)} ms (sent every 500 ms)`,
    );
  if (p.slowest.length)
    print(`    slowest: ${p.slowest.map((x) => `${x.call} ${x.ms.toFixed(0)} ms at +${(x.at / 1000).toFixed(1)} s`).join(", ")}`);
}

const slowest = (t: PhaseTimes) => [...t.slow].sort((a, b) => b.ms - a.ms).slice(0, 10);

/** Listens to the page's event socket and keeps the times dig.status events arrive. */
function listen(port: number, token: string): Promise<{ statusTimes: number[]; close: () => void }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events`, { headers: { "x-horu-token": token } });
    const statusTimes: number[] = [];
    ws.on("message", (data) => {
      const e = JSON.parse(String(data)) as HostEvent;
      if (e.type === "dig.status") statusTimes.push(performance.now());
    });
    ws.once("open", () => resolve({ statusTimes, close: () => ws.terminate() }));
    ws.once("error", reject);
  });
}

export async function benchWeb(o: WebBenchOptions): Promise<WebBenchReport> {
  if (!existsSync(o.book)) throw new Error(`--book ${o.book}: no such book`);
  const dir = mkdtempSync(path.join(o.dir ?? tmpdir(), "horu-bench-web-"));
  let web: WebProcess | null = null;
  try {
    const book = path.join(dir, path.basename(o.book));
    copyBook(o.book, book);
    // A config folder of its own: the bench's engine goes into no one's library.
    const config = path.join(dir, "config");
    mkdirSync(config);
    // HORU_BENCH_WEB_PROF=DIR: the served process writes CPU profiles there (its host worker's too), to find what blocks.
    const prof = process.env.HORU_BENCH_WEB_PROF;
    const args = [...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []), o.horu, "web", "--book", book];
    if (process.getuid?.() === 0) args.push("--allow-root");
    const t0 = performance.now();
    web = new WebProcess(
      spawn(process.execPath, args, {
        env: { ...process.env, HORU_CONFIG_DIR: config, HORU_DOCUMENTS_DIR: dir },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const url = await web.url(30 * 60_000);
    const openMs = performance.now() - t0;
    const port = Number(url.port);
    const token = url.searchParams.get("token") ?? "";
    o.print(`web: ${o.book} copied to ${dir}; horu web opened it in ${(openMs / 1000).toFixed(1)} s (load ${load()})`);
    const client = makeClient(port, token);
    const events = await listen(port, token);
    try {
      const calls = await pageCalls(client);
      const phases: PhaseFigures[] = [];

      // (a) No dig: the idle status searches the book's value on its own.
      const idle = await roundsUntil(client, calls, performance.now() + o.seconds * 1000);
      phases.push({ phase: "idle", calls: figures(idle), eventGaps: null, slowest: slowest(idle), load: load() });
      printPhase(phases[0]!, o.print);

      // (b) The dig, started as the page starts it: the engine in the library, the book's limit, Start.
      await client.call("engines.add", { commandLine: o.engine, options: { Threads: 1, Hash: 16 } });
      await client.call("book.updateSettings", { settings: { limit: { nodes: o.nodes }, multipv: "auto" } });
      const s0 = performance.now();
      await client.call("dig.start", { processes: o.processes ?? 2 });
      const startMs = performance.now() - s0;
      const since = events.statusTimes.length;
      const digging = await roundsUntil(client, calls, performance.now() + o.seconds * 1000);
      const stamps = events.statusTimes.slice(since);
      const gaps = stamps
        .slice(1)
        .map((t, i) => t - stamps[i]!)
        .sort((a, b) => a - b);
      phases.push({
        phase: "digging",
        calls: figures(digging),
        eventGaps: gaps.length ? { count: stamps.length, p50: quantile(gaps, 0.5), p99: quantile(gaps, 0.99), max: gaps.at(-1)! } : null,
        slowest: slowest(digging),
        load: load(),
      });
      printPhase(phases[1]!, o.print);

      // (c) Stop.
      const s1 = performance.now();
      const stopped = await client.call<DigStatus>("dig.stop");
      const stopMs = performance.now() - s1;
      o.print(
        `  dig.start answered in ${startMs.toFixed(1)} ms, dig.stop in ${stopMs.toFixed(1)} ms; ${stopped.thought} positions thought in ${o.seconds} s by ${o.processes ?? 2} engine${(o.processes ?? 2) === 1 ? "" : "s"} (load ${load()})`,
      );
      events.close();
      client.close();
      const exitCode = await web.stop();
      web = null;
      return { openMs, phases, startMs, stopMs, thought: stopped.thought, exitCode };
    } finally {
      events.close();
      client.close();
    }
  } finally {
    if (web) await web.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
