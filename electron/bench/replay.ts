// `horu bench replay`: a dig of a copy of a book without its clock, to compare versions of the
// selection. K positions stay in flight and go back oldest first, one selection after each; a
// position's engine result is recorded by SFEN the first time it is thought and read from the
// record after, so two versions of the selection meet the same results and the nodes a selection
// repeat exactly from run to run. (A 120 s `bench scale` dig spreads more between runs of the same
// code than most changes move it: docs/DESIGN.md §3.5.) Figures only, never assertions.
// With `instant` (`horu bench replay --instant`: the cluster feed rate, issue 43) no engine runs:
// a result the record lacks is made up at once from the position's legal moves, so the figure
// is how many positions a second one horu hands out and takes back when engines cost nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OpenBook, type Job } from "../book/open-book.js";
import { copyBook } from "./books/copy-book.js";
import { percentile } from "../dig/stats.js";
import { UsiEngine } from "../engines/usi/engine.js";
import { DEFAULT_DYNAMIC, legalMovesOf } from "../engines/usi/widen.js";
import { positionArgument } from "../engines/usi/protocol.js";
import type { Candidate } from "../../shared/book/records.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../shared/rules/usi.js";

export interface ReplayOptions {
  /** The .horu book a copy of which is dug (its graph snapshot and bounds go along). */
  book: string;
  /** The record of results by SFEN: read when it exists, written with what was thought new. */
  results: string;
  /** Results given back, each followed by one selection. */
  selections: number;
  /** Positions in flight (a dig's engines plus those selected ahead). */
  inFlight: number;
  /** Selections a line of figures sums. */
  window: number;
  nodes: number;
  /** The engine that thinks what the record lacks. */
  engine: string;
  dir?: string;
  /** Engines that answer at once: what the record lacks is made up (instantResult), not thought. */
  instant?: boolean;
  /**
   * Results given back together (one transaction), then as many selections: with many engines
   * results come faster than one at a time, and a dig stores those that came together at once.
   * 1 (the default): one at a time, as the figures before batching were measured.
   */
  batch?: number;
  print: (line: string) => void;
}

export interface ReplayReport {
  /** Nodes and CPU (ms) of each selection after a result, in order. */
  nodes: number[];
  cpuMs: number[];
  /** Results thought by the engine in this run, and read from the record. */
  thought: number;
  replayed: number;
  /** Results made up by `instant`. */
  madeUp: number;
  /** Results given back a second of wall time (selection, storing and all), from when K are in flight (after `fill`). */
  perSecond: number;
  /** Results given back a second of this process's CPU (what a loaded machine does not inflate), from when K are in flight. */
  perCpuSecond: number;
  /** The same without the CPU the made-up answers took (`instant`: the engines' share, not horu's). */
  perOwnCpuSecond: number;
  /**
   * The first positions handed out, up to K in flight, before the clock starts: wall and CPU
   * ms (the first selection after the open, with what it builds once, among them).
   */
  fill: { ms: number; cpuMs: number };
  /** perCpuSecond with the fill's CPU counted too (as the figures before issue 43's fourth session were measured). */
  perCpuSecondWithFill: number;
  /**
   * How the selection's CPU is spread: the share of it in the first selection after each batch
   * of results (the one that takes the batch's changes in), and in the costliest 1% and 5% of
   * selections. On a big book a few selections carry most of it (issue 43).
   */
  selectionSpread: { afterBatch: number; top1: number; top5: number };
  /** Where horu's CPU went, ms a result: selection, storing, taking into the graph, marking in flight, the rest. */
  cpuPerResult: { select: number; store: number; insert: number; fly: number; madeUp: number; other: number };
}

/** Moves an instant result values (all within the default 300 cp window: a dig-shaped spread). */
const INSTANT_MOVES = 8;

/**
 * An instant engine's answer: up to INSTANT_MOVES of the legal moves, chosen and valued from a
 * hash of the SFEN (the same answer every run), 0-280 cp apart; none when the position has no
 * legal move.
 */
export function instantResult(sfen: string): Candidate[] {
  // The legal moves in generation order, as numbers: only the few chosen are written as USI
  // (the answer is the engines', meant to cost nothing, and it is counted in horu's CPU).
  let moves: number[];
  try {
    moves = Position.fromSfen(sfen).legalMoves();
  } catch {
    moves = (legalMovesOf(positionArgument(sfen)) ?? []).map((m) => parseUsiMove(m)!);
  }
  let h = 2166136261;
  for (let i = 0; i < sfen.length; i++) h = Math.imul(h ^ sfen.charCodeAt(i), 16777619) >>> 0;
  const next = () => (h = (Math.imul(h ^ (h >>> 15), 2246822507) + 0x9e3779b9) >>> 0);
  for (let i = moves.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    const t = moves[i]!;
    moves[i] = moves[j]!;
    moves[j] = t;
  }
  const best = (next() % 401) - 200;
  return moves.slice(0, INSTANT_MOVES).map((m, i) => {
    const move = moveToUsi(m);
    return { move, value: best - i * 40, depth: 1, pv: [move] };
  });
}

/** The record file: results by SFEN, and the node limit they were thought at (another would mix two settings). */
interface ResultRecord {
  nodes: number;
  results: { [sfen: string]: Candidate[] };
}

function readRecord(file: string, nodes: number): ResultRecord {
  if (!existsSync(file)) return { nodes, results: {} };
  let r: ResultRecord;
  try {
    r = JSON.parse(readFileSync(file, "utf8")) as ResultRecord;
  } catch (e) {
    throw new Error(`${file}: not a replay record (${(e as Error).message})`, { cause: e });
  }
  if (typeof r?.nodes !== "number" || typeof r.results !== "object" || r.results === null)
    throw new Error(`${file}: not a replay record (no nodes or results)`);
  if (r.nodes !== nodes)
    throw new Error(
      `${file}: its results were thought at go nodes ${r.nodes}, not ${nodes} (give --nodes ${r.nodes} or another --results file)`,
    );
  return r;
}

export async function benchReplay(o: ReplayOptions): Promise<ReplayReport> {
  if (!existsSync(o.book)) throw new Error(`--book ${o.book}: no such book`);
  const record = readRecord(o.results, o.nodes);
  const dir = mkdtempSync(path.join(o.dir ?? tmpdir(), "horu-replay-"));
  let engine: UsiEngine | null = null;
  let book: OpenBook | null = null;
  const report: ReplayReport = {
    nodes: [],
    cpuMs: [],
    thought: 0,
    replayed: 0,
    madeUp: 0,
    perSecond: 0,
    perCpuSecond: 0,
    perOwnCpuSecond: 0,
    fill: { ms: 0, cpuMs: 0 },
    perCpuSecondWithFill: 0,
    selectionSpread: { afterBatch: 0, top1: 0, top5: 0 },
    cpuPerResult: { select: 0, store: 0, insert: 0, fly: 0, madeUp: 0, other: 0 },
  };
  try {
    const copy = path.join(dir, "book.horu");
    copyBook(o.book, copy);
    const t0 = performance.now();
    const b = (book = OpenBook.open(copy, { limit: { nodes: o.nodes }, prefetch: o.inFlight }));
    o.print(
      `replay: ${path.basename(o.book)} (${b.graph.nodeCount.toLocaleString("en")} positions) opened in ${((performance.now() - t0) / 1000).toFixed(1)} s, ` +
        `bounds ${b.timings.boundsRestored ? "taken" : "not saved beside it"}; ${o.inFlight} in flight, ${o.selections} results, ` +
        `record ${path.basename(o.results)} (${Object.keys(record.results).length.toLocaleString("en")} results)${o.instant ? "; engines answer at once" : ""}`,
    );

    const flying: Job[] = [];
    /** Hands out the next position; returns whether a selection (not the think queue) chose it. */
    const take = (): { selected: boolean; job: Job | null } => {
      const before = b.jobs.selections;
      const job = b.jobs.next();
      if (job) flying.push(job);
      return { selected: b.jobs.selections !== before, job };
    };
    /** ms of CPU the made-up answers took: the engines', which are meant to cost nothing. */
    let madeUpCpu = 0;
    const think = async (job: Job): Promise<Candidate[]> => {
      const known = record.results[job.sfen];
      if (known) {
        report.replayed++;
        return known;
      }
      if (o.instant) {
        report.madeUp++;
        const c0 = process.cpuUsage();
        const r = instantResult(job.sfen);
        const c = process.cpuUsage(c0);
        madeUpCpu += (c.user + c.system) / 1000;
        return r;
      }
      if (!engine) {
        engine = new UsiEngine({ command: o.engine, options: { Threads: 1, Hash: 16 } });
        await engine.start();
      }
      const r = await engine.think(job.sfen, { kind: "nodes", nodes: o.nodes }, DEFAULT_DYNAMIC, undefined, undefined, job.legalCount);
      report.thought++;
      return (record.results[job.sfen] = r.candidates);
    };

    // The first K handed out (the first selection after the open among them: the graph's
    // parent chains built, the search compiled) are timed apart: a cost paid once an open, not
    // a position, which a run of a few thousand results would otherwise spread over each.
    const fillStart = performance.now();
    const fillCpu0 = process.cpuUsage();
    while (flying.length < o.inFlight && take().job);
    const fillCpu = process.cpuUsage(fillCpu0);
    const flyingAtStart = flying.length;
    report.fill = { ms: performance.now() - fillStart, cpuMs: (fillCpu.user + fillCpu.system) / 1000 };
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    let given = 0;
    const provenance = { kind: "engine" as const, engine: "replay", nodes: o.nodes, depth: 0, timeMs: 0 };
    let windowSelections = 0,
      windowNodes = 0,
      windowCpu = 0,
      windowMax = 0;
    const batch = Math.max(1, o.batch ?? 1);
    const costs = (b.jobs.costs = { store: 0, insert: 0, fly: 0 });
    let selectCpu = 0,
      afterBatchCpu = 0;
    for (let i = 0; i < o.selections && flying.length > 0;) {
      const done = flying.splice(0, Math.min(batch, o.selections - i, flying.length));
      const results = [];
      for (const job of done) results.push({ job, candidates: await think(job), provenance });
      b.jobs.addResults(results);
      for (let k = 0; k < done.length; k++, i++) {
        given++;
        const { selected } = take();
        if (selected && b.jobs.lastSelection) {
          const { stats, cpuMs } = b.jobs.lastSelection;
          report.nodes.push(stats.nodes);
          report.cpuMs.push(cpuMs);
          selectCpu += cpuMs;
          if (k === 0) afterBatchCpu += cpuMs;
          windowSelections++;
          windowNodes += stats.nodes;
          windowCpu += cpuMs;
          windowMax = Math.max(windowMax, cpuMs);
        }
        if ((i + 1) % o.window === 0 || i + 1 === o.selections) {
          const results = (i % o.window) + 1,
            n = Math.max(windowSelections, 1);
          o.print(
            `  results ${i + 2 - results}-${i + 1}: ${Math.round(windowNodes / n).toLocaleString("en")} nodes a selection, CPU ${(windowCpu / n).toFixed(1)} ms a selection (max ${windowMax.toFixed(1)} ms)`,
          );
          windowSelections = windowNodes = windowCpu = windowMax = 0;
        }
      }
    }
    report.perSecond = given / Math.max(1e-9, (performance.now() - start) / 1000);
    const cpu = process.cpuUsage(cpu0);
    report.perCpuSecond = given / Math.max(1e-9, (cpu.user + cpu.system) / 1e6);
    report.perOwnCpuSecond = given / Math.max(1e-9, (cpu.user + cpu.system) / 1e6 - madeUpCpu / 1000);
    report.perCpuSecondWithFill = given / Math.max(1e-9, (cpu.user + cpu.system) / 1e6 + report.fill.cpuMs / 1000);
    b.jobs.costs = null;
    const per = (ms: number) => ms / Math.max(given, 1);
    const all = (cpu.user + cpu.system) / 1000;
    report.cpuPerResult = {
      select: per(selectCpu),
      store: per(costs.store),
      insert: per(costs.insert),
      fly: per(costs.fly),
      madeUp: per(madeUpCpu),
      other: per(all - selectCpu - costs.store - costs.insert - costs.fly - madeUpCpu),
    };
    const c = report.cpuPerResult;
    o.print(
      `replay: horu's CPU a result: selection ${c.select.toFixed(2)} ms, storing ${c.store.toFixed(2)} ms, into the graph ${c.insert.toFixed(2)} ms, ` +
        `in flight ${c.fly.toFixed(2)} ms, the rest ${c.other.toFixed(2)} ms (the loop, the clock reads); the made-up answers ${c.madeUp.toFixed(2)} ms; ` +
        `${batch} result${batch === 1 ? "" : "s"} a transaction; ${Math.round(report.perOwnCpuSecond).toLocaleString("en")} positions a CPU-second of horu's without the made-up answers; ` +
        `the first ${flyingAtStart} handed out before the clock started took ${report.fill.ms.toFixed(0)} ms (${report.fill.cpuMs.toFixed(0)} ms CPU): ` +
        `${Math.round(report.perCpuSecondWithFill).toLocaleString("en")} positions a CPU-second of horu's with them`,
    );
    const n = report.nodes.length;
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    const costliest = [...report.cpuMs].sort((x, y) => y - x);
    const allSelectCpu = sum(report.cpuMs);
    const shareOf = (part: number) => part / Math.max(1e-9, allSelectCpu);
    report.selectionSpread = {
      afterBatch: shareOf(afterBatchCpu),
      top1: shareOf(sum(costliest.slice(0, Math.ceil(n / 100)))),
      top5: shareOf(sum(costliest.slice(0, Math.ceil(n / 20)))),
    };
    const spread = report.selectionSpread;
    const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
    o.print(
      `replay: the selection's CPU: ${pct(spread.afterBatch)} in the first selection after each batch of results, ` +
        `${pct(spread.top1)} in the costliest 1% of selections, ${pct(spread.top5)} in the costliest 5%`,
    );
    o.print(
      `replay: ${n} selections, ${Math.round(sum(report.nodes) / Math.max(n, 1)).toLocaleString("en")} nodes a selection, ` +
        `CPU ${(sum(report.cpuMs) / Math.max(n, 1)).toFixed(1)} ms a selection (p50 ${percentile(report.cpuMs, 0.5).toFixed(2)} ms, p99 ${percentile(report.cpuMs, 0.99).toFixed(1)} ms); ` +
        `${report.thought} results thought by the engine, ${report.replayed} read from the record${o.instant ? `, ${report.madeUp} made up at once` : ""}; ` +
        `${Math.round(report.perSecond).toLocaleString("en")} positions/s given back and handed out (${o.inFlight} in flight), ${Math.round(report.perCpuSecond).toLocaleString("en")} a CPU-second of horu's`,
    );
    return report;
  } finally {
    // What the engine thought is kept also when the run fails halfway: it took the engine's time.
    if (report.thought > 0) writeFileSync(o.results, JSON.stringify(record));
    const e = engine as UsiEngine | null;
    if (e) await e.quit().catch(() => e.kill());
    book?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
