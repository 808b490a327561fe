// `horu bench dig`: the dig rate of fixed and dynamic MultiPV on the same work (the
// target of docs/DESIGN.md §8: dynamic MultiPV must not cost dig rate). Each mode digs a fresh book from the initial position with the same engines
// and node limit for the same time; then a sample of the positions both thought is
// searched again once, wide (MultiPV = every legal move) at the full limit, and the
// coverage is the share of that search's moves within the window that the dig stored.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { Dig } from "../dig/dig.js";
import { UsiEngine, type UsiEngineOptions } from "../engines/usi/engine.js";
import { scaleLimit } from "../engines/usi/limit.js";
import { positionArgument } from "../engines/usi/protocol.js";
import { DEFAULT_DYNAMIC, DEFAULT_WIDEN_SHARE, legalMovesOf, type DynamicMultiPv } from "../engines/usi/widen.js";
import type { DigSettings } from "../../shared/dig/settings.js";

export interface DigBenchOptions {
  engine: string;
  nodes: number;
  seconds: number;
  processes: number;
  /** Positions searched again wide for the coverage figure. */
  sample: number;
  /** What to compare, each digging its own book (default fixed 4 and auto); the last is compared with the first. */
  variants?: DigVariant[];
  /** Turns each mode takes (default 2: A B B A), splitting `seconds`. */
  rounds?: number;
  print: (line: string) => void;
}

export interface DigVariant {
  label: string;
  multipv: DigSettings["multipv"];
  /** Dynamic MultiPV parameters for "auto" (default: the dig's). */
  dynamic?: DynamicMultiPv;
}

/** Fixed MultiPV 4 against the dig's dynamic MultiPV. */
export const DEFAULT_DIG_VARIANTS: DigVariant[] = [
  { label: "fixed 4", multipv: 4 },
  { label: "auto", multipv: "auto" },
];

export interface DigBenchRow {
  mode: string;
  thought: number;
  wallMs: number;
  busyShare: number;
  perHour: number;
  searchesPerPosition: number;
  /** Positions per hour of engine CPU time (null where it cannot be read). */
  perCpuHour: number | null;
  coverage: number;
  /** Mean depth the engine reported for each stored position's best line: what sharing the node limit among more lines costs. */
  bestLineDepth: number;
  covered: number;
  inWindow: number;
  sampled: number;
}

/** CPU seconds a running process has used, all threads (Linux: utime + stime of /proc/PID/stat); null elsewhere. */
function processCpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds of this process's finished children (Linux: cutime + cstime of /proc/self/stat,
 * at 100 ticks/s): the engines' own time, which a busy machine does not inflate. Null elsewhere.
 * A child's time is added when it is reaped, so Dig.run() resolves only after its engines have
 * exited; before that fix each turn's engine time landed in the next turn's figure.
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return null;
  }
}

export async function benchDigRate(o: DigBenchOptions): Promise<DigBenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-dig-"));
  const spec = (i: number): UsiEngineOptions => ({
    command: o.engine,
    name: `${path.basename(o.engine)}#${i}`,
    options: { Threads: 1, USI_Hash: 64 },
  });
  const rows: DigBenchRow[] = [];
  try {
    const modes = o.variants ?? DEFAULT_DIG_VARIANTS;
    const books = modes.map((v, i) =>
      OpenBook.create(path.join(dir, `dig-${i}.horu`), { limit: { nodes: o.nodes }, multipv: v.multipv, settleFactor: 0 }),
    );
    const totals = modes.map(() => ({ thought: 0, wallMs: 0, searches: 0, busy: 0, selections: 0, cpu: 0 as number | null }));
    // The modes take turns (A B B A ...) so a change in the machine's load falls on both alike.
    const rounds = Math.max(1, o.rounds ?? 2);
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? modes.map((_, i) => i) : modes.map((_, i) => modes.length - 1 - i);
      for (const i of order) {
        const engines = Array.from({ length: o.processes }, (_, j) => spec(j + 1));
        const cpu0 = childCpuSeconds();
        const s = await new Dig(books[i]!, { engines, seconds: o.seconds / rounds, dynamic: modes[i]!.dynamic }).run();
        const cpu1 = childCpuSeconds();
        const t = totals[i]!;
        t.cpu = t.cpu === null || cpu0 === null || cpu1 === null ? null : t.cpu + cpu1 - cpu0;
        t.thought += s.thought;
        t.wallMs += s.wallMs;
        t.searches += s.searches;
        t.busy += s.busyShare * s.wallMs;
        t.selections += s.selections;
        const cpu = cpu0 === null || cpu1 === null ? "" : `, engine CPU ${(cpu1 - cpu0).toFixed(1)} s`;
        o.print(
          `turn ${r + 1}, ${modes[i]!.label}: ${s.thought} positions, ${s.searches} searches in ${(s.wallMs / 1000).toFixed(1)} s${cpu}`,
        );
      }
    }
    modes.forEach((v, i) => {
      const t = totals[i]!;
      rows.push({
        mode: v.label,
        thought: t.thought,
        wallMs: t.wallMs,
        busyShare: t.wallMs > 0 ? t.busy / t.wallMs : 0,
        perHour: (t.thought / t.wallMs) * 3_600_000,
        searchesPerPosition: t.thought > 0 ? t.searches / t.thought : 0,
        perCpuHour: t.cpu ? (t.thought / t.cpu) * 3600 : null,
        coverage: 0,
        bestLineDepth: 0,
        covered: 0,
        inWindow: 0,
        sampled: 0,
      });
    });
    // Each variant's sample: positions spread over the order it thought them.
    const thoughtOf = books.map((b) => [...b.store.thoughts.iterate()]);
    const samples = thoughtOf.map((thought) => {
      const step = Math.max(1, thought.length / Math.max(1, o.sample));
      const out: typeof thought = [];
      for (let j = 0; j < thought.length && out.length < o.sample; j += step) out.push(thought[Math.floor(j)]!);
      return out;
    });
    const ref = new UsiEngine(spec(0));
    await ref.start();
    const windowCp = books[0]!.settings.windowCp;
    let costLine = "";
    try {
      // What dynamic MultiPV's two searches cost the engine, on the first variant's sample
      // (before the coverage searches, which would leave these positions in the hash).
      const d = DEFAULT_DYNAMIC.dynamic;
      const wideLimit = scaleLimit({ kind: "nodes", nodes: o.nodes }, d.widenShare ?? DEFAULT_WIDEN_SHARE);
      const cost = { first: 0, wide: 0, n: 0 };
      for (const t of samples[0]!) {
        const legal = legalMovesOf(positionArgument(t.sfen))?.length ?? 1;
        const c0 = processCpuSeconds(ref.pid);
        await ref.think(t.sfen, { kind: "nodes", nodes: o.nodes }, { fixed: d.start }, windowCp);
        const c1 = processCpuSeconds(ref.pid);
        await ref.think(t.sfen, wideLimit, { fixed: legal }, windowCp);
        const c2 = processCpuSeconds(ref.pid);
        if (c0 === null || c1 === null || c2 === null) break;
        cost.first += c1 - c0;
        cost.wide += c2 - c1;
        cost.n++;
      }
      if (cost.n > 0 && cost.first > 0) {
        const ms = (s: number) => ((s * 1000) / cost.n).toFixed(1);
        costLine = `engine CPU per search (${cost.n} positions): MultiPV ${d.start} at ${o.nodes} nodes ${ms(cost.first)} ms; every legal move at ${wideLimit.kind === "nodes" ? wideLimit.nodes : "?"} nodes ${ms(cost.wide)} ms (${((cost.wide / cost.first) * 100).toFixed(1)}% of the first)`;
      }
      for (const [i, thought] of thoughtOf.entries()) {
        const valued = thought.filter((t) => t.candidates.length > 0);
        rows[i]!.bestLineDepth = valued.reduce((a, t) => a + t.candidates[0]!.depth, 0) / Math.max(1, valued.length);
        for (const t of samples[i]!) {
          const legal = legalMovesOf(positionArgument(t.sfen))?.length ?? 1;
          const wide = await ref.think(t.sfen, { kind: "nodes", nodes: o.nodes }, { fixed: Math.max(1, legal) }, windowCp);
          const have = new Set(t.candidates.map((c) => c.move));
          rows[i]!.inWindow += wide.candidates.length;
          rows[i]!.covered += wide.candidates.filter((c) => have.has(c.move)).length;
          rows[i]!.sampled++;
        }
      }
    } finally {
      await ref.quit();
    }
    for (const row of rows) row.coverage = row.inWindow > 0 ? row.covered / row.inWindow : 0;
    for (const b of books) b.close();
    o.print(
      `${o.processes} x ${path.basename(o.engine)}, go nodes ${o.nodes}, ${o.seconds} s per variant from the initial position, turns alternated`,
    );
    for (const v of modes)
      if (v.multipv === "auto") o.print(`${v.label} = ${describeDynamic(v.dynamic ?? { ...DEFAULT_DYNAMIC.dynamic, withinCp: windowCp })}`);
    if (costLine) o.print(costLine);
    o.print(
      `coverage: of the moves within ${windowCp} cp of the best in one wide search (MultiPV = legal moves, full limit) of a sample of each dig's positions, the share the dig stored`,
    );
    for (const r of rows) {
      o.print(
        `${r.mode.padEnd(8)} ${r.thought} positions in ${(r.wallMs / 1000).toFixed(1)} s = ${Math.round(r.perHour).toLocaleString("en")}/hour; ` +
          `${r.perCpuHour === null ? "" : `${Math.round(r.perCpuHour).toLocaleString("en")}/engine-CPU-hour; `}${r.searchesPerPosition.toFixed(2)} searches/position; engine busy ${(r.busyShare * 100).toFixed(1)}%; best line depth ${r.bestLineDepth.toFixed(1)}; ` +
          `coverage ${(r.coverage * 100).toFixed(1)}% (${r.covered}/${r.inWindow} moves, ${r.sampled} positions)`,
      );
    }
    for (const b of rows.slice(1)) {
      const a = rows[0]!;
      const cpu = a.perCpuHour && b.perCpuHour ? `; per engine CPU hour ${(b.perCpuHour / a.perCpuHour).toFixed(2)}x` : "";
      o.print(`${b.mode} / ${a.mode}: positions per hour ${(b.perHour / Math.max(1e-9, a.perHour)).toFixed(2)}x${cpu}`);
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `horu bench export`'s companion: a book of `positions` real positions is dug by
 * `processes` engines while it exports (minimax, then raw) beside the dig; the engines'
 * busy share during each export is what the export costs the dig.
 */
function describeDynamic(d: DynamicMultiPv): string {
  const first = d.firstFromParent
    ? `MultiPV from the parent's spread (${d.firstFromParent.narrow} when one parent move dominated, else the parent's moves within ${d.withinCp} cp, ${d.start}-${d.firstFromParent.wide}; ${d.start} at the root)`
    : `MultiPV ${d.start}`;
  return `${first}, widened ${d.widenBy > 0 ? `by ${d.widenBy}` : "to every legal move"} at ${d.widenShare ?? DEFAULT_WIDEN_SHARE} of the nodes while the last line is within ${d.withinCp} cp, keeping its moves within the window + ${d.wideMarginCp ?? 0} cp`;
}

export async function benchExportBeside(o: {
  engine: string;
  positions: number;
  nodes: number;
  processes: number;
  book?: string;
  print: (line: string) => void;
}): Promise<void> {
  const { writeSyntheticBook } = await import("./books/synthetic-book.js");
  const { exportBook } = await import("../export/export.js");
  const { snapshotPath } = await import("../book/graph-snapshot.js");
  const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-export-"));
  try {
    const file = path.join(dir, "big.horu");
    let made = "";
    if (o.book) {
      // A copy (the dig adds to it), with its saved graph when it has one.
      if (!existsSync(o.book)) throw new Error(`${o.book}: no such book`);
      const t0 = performance.now();
      copyFileSync(o.book, file);
      if (existsSync(snapshotPath(o.book))) copyFileSync(snapshotPath(o.book), snapshotPath(file));
      made = `${o.book} copied in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    } else {
      const w = writeSyntheticBook(file, o.positions);
      made = `book of ${w.positions.toLocaleString("en")} positions written in ${(w.ms / 1000).toFixed(1)} s`;
    }
    const book = OpenBook.open(file, { limit: { nodes: o.nodes }, multipv: "auto" });
    o.print(
      `${made}; ${book.graph.nodeCount.toLocaleString("en")} positions opened in ${(book.timings.graphMs / 1000).toFixed(1)} s (${book.timings.from})`,
    );
    const engines = Array.from({ length: o.processes }, (_, j): UsiEngineOptions => ({
      command: o.engine,
      name: `${path.basename(o.engine)}#${j + 1}`,
      options: { Threads: 1, USI_Hash: 64 },
    }));
    let results = 0;
    const dig = new Dig(book, { engines, onEvent: (e) => e.kind === "result" && results++ });
    const running = dig.run();
    // Wait for the engines to settle into the dig before measuring.
    while (results < o.processes * 4) await new Promise((r) => setTimeout(r, 100));
    const window = async (what: string, work: () => Promise<unknown>) => {
      const b0 = dig.busyNow(),
        t0 = performance.now(),
        r0 = results;
      await work();
      const b1 = dig.busyNow(),
        ms = performance.now() - t0;
      const share = (b1.busyMs - b0.busyMs) / (ms * b1.engines);
      o.print(`${what}: ${(ms / 1000).toFixed(1)} s; engines busy ${(share * 100).toFixed(1)}% meanwhile, ${results - r0} results stored`);
    };
    await window("no export (baseline, 10 s)", () => new Promise((r) => setTimeout(r, 10_000)));
    await window("minimax export (.db)", () => exportBook(book, { path: path.join(dir, "minimax.db"), format: "db", mode: "minimax" }));
    await window("raw export (.db)", () => exportBook(book, { path: path.join(dir, "raw.db"), format: "db", mode: "raw" }));
    await dig.stop();
    await running;
    book.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
