// The dig loop: engines think, selection chooses what they think next (docs/DESIGN.md §1).
//
// `prefetch` positions selected ahead wait in the pool's queue, so when a think ends the
// engine starts the next one at once while the result is stored and the next selection
// runs. On a huge book a selection now and then takes longer than a think; the positions
// waiting cover it, and the results that came meanwhile go into the book together, so the
// selections after it are short (docs/DESIGN.md §3.5). A position the user asked for goes
// ahead of them.
//
// Kept as one file over 600 lines: start, pause, stop, Ctrl-C and the fault paths share the loop's state
// and read best together (its statistics are in stats.ts, the engines' policy in engines/usi/widen.ts).

import { availableParallelism } from "node:os";
import { EnginePool, type EngineSlotView, type PoolOutcome } from "../engines/usi/pool.js";
import { EngineUnsupportedError, type UsiEngineOptions } from "../engines/usi/engine.js";
import { searchLimitOf, type SearchLimit } from "../engines/usi/limit.js";
import { DEFAULT_DYNAMIC, type DynamicMultiPv, type MultiPvSpec } from "../engines/usi/widen.js";
import { multipvSpec } from "./think-spec.js";
import { OpenBook, type Job } from "../book/open-book.js";
import type { UsiInfo } from "../../shared/usi/info.js";
import type { ChartSample, DigState, DigStatus } from "../../shared/api/contract.js";
import { StretchTally, Tally, type DigHalf } from "./stats.js";

export type { DigState };

/** The dig's progress: the contract's DigStatus, with the pool's own view of each engine. */
export type DigProgress = Omit<DigStatus, "engines" | "error"> & { engines: EngineSlotView[] };

export interface DigSummary {
  thought: number;
  failed: number;
  wallMs: number;
  /**
   * Share of engine time spent searching between an engine's first think and its last: the
   * engines' own reported search time (USI `info time`), never more than the time a job was
   * out. A job handed out is not a search: an engine whose bestmove waits while this thread
   * selects is idle, and counted so.
   */
  busyShare: number;
  /**
   * Share of the same span the engines sat idle with no position to take: from a think's end
   * to the next one's start while nothing waited in the pool's queue and the dig was digging.
   * What horu's feed (selection, storing) costs the engines, apart from how busy a machine's
   * cores keep them (64 engines on 2 cores are busy well under 100% however fast they are fed).
   */
  waitingShare: number;
  selectP50Ms: number;
  selectP99Ms: number;
  selections: number;
  /** The dig's first selection (its slices summed): after an open without saved bounds, a search of the whole book. */
  firstSelectMs: number;
  /** Wall time spent selecting, summed over the dig's selections (more than its CPU while the engines hold the cores). */
  selectTotalMs: number;
  /** This process's CPU time while selecting, summed over the dig's selections. */
  selectCpuMs: number;
  bookSize: number;
  /** Engine searches (`go` commands) for the positions thought: dynamic MultiPV widens with more. */
  searches: number;
  /**
   * The engines' own search time (USI `info time`) for the positions thought, and the part of
   * it in the searches after each position's first (widening, deep best's other moves): what
   * the searches beyond one a position cost, which the count of searches does not say.
   */
  searchedMs: number;
  laterSearchMs: number;
  /** Engine nodes searched for the positions thought (what a dig's engine time is measured in under a node limit). */
  engineNodes: number;
  /** Positions thought again with a limit of their own (the settle rounds, think deeper), and their engine nodes. */
  deepThinks: number;
  deepNodes: number;
  /** Share of this dig's selections that trusted a cached cyclic value at a NonPV node (docs/DESIGN.md §3.6). */
  cyclicShare: number;
  /**
   * A dig run for a set time (`seconds`): the same figures over its second half alone (on the
   * 15M book with made-up values a dig's first minute selects far slower than the rest, as the
   * book meets an engine whose values are unrelated to its own: docs/DESIGN.md §3.5). Null
   * without a set time.
   */
  secondHalf: DigHalf | null;
}

export type DigEvent =
  | { kind: "progress"; progress: DigProgress }
  | { kind: "result"; sfen: string; engine: string; candidates: number; line: string[] }
  | { kind: "engine-failure"; engine: string; sfen: string | null; message: string; requeued: boolean }
  | { kind: "failed"; sfen: string; message: string }
  | { kind: "error"; message: string }
  /** An engine's live view of its think (merged info lines) of position `sfen`, think number `think`. */
  | { kind: "info"; engine: number; info: UsiInfo; sfen: string; think: number }
  /** A chart point, stored in the book before it is sent. */
  | { kind: "sample"; sample: ChartSample };

export interface DigOptions {
  engines: UsiEngineOptions[];
  /** Stop after this many positions thought in this run. */
  positions?: number;
  /** Stop after this many seconds. */
  seconds?: number;
  /** Stop once the engines searched this many nodes for the positions thought in this run (books compared at the same engine time). */
  engineNodes?: number;
  onEvent?: (e: DigEvent) => void;
  /** Progress events at most this often (ms). */
  progressEveryMs?: number;
  /** A chart point is stored in the book at most this often while digging (ms; default 2000). */
  sampleEveryMs?: number;
  /** Dynamic MultiPV's parameters for `multipv: "auto"` (benchmarks compare them). */
  dynamic?: DynamicMultiPv;
  /**
   * Keep the plain book value (DigProgress.bookValue) up to date (default true). Its search has
   * a selector of its own, as big as the selection's (236 MB on a 15M book): a headless dig that
   * shows the selection's root value and line instead leaves it out (null in the progress).
   */
  bookValue?: boolean;
}

/** How often a chart point is stored while digging, by default. */
export const SAMPLE_EVERY_MS = 2000;
/**
 * How much nicer than horu a dig's engines run. With as many engines as cores, horu's thread
 * shared a core with them: on the 15M book its selections took a quarter longer than their
 * CPU time, the slow ones made while engines searched up to two thirds longer (they stand
 * between the engines and their next positions). At nice 10 horu's thread has a core
 * when it has work, and the engines take the rest; other programs on the machine go before a
 * dig of weeks too.
 */
export const ENGINE_NICE = 10;
/**
 * How much nicer they run when they outnumber the cores. By the scheduler's weights, 64 engines
 * at nice 10 on 2 cores (each session's group 110 against horu's 1,024) leave the one thread
 * that feeds them all about a fifth of a core, at 19 (15 each) about two thirds. Measured on the
 * 15M book: at 10 its selections took 1.67 times their CPU in wall time and the engines waited
 * for positions 7% of their time; at 19, 1.09 times and 3% (docs/MEASURED.md, issue 43).
 */
export const ENGINE_NICE_CROWDED = 19;

/** The nice value of a dig's engines: ENGINE_NICE, or ENGINE_NICE_CROWDED when there are more of them than cores. */
export function engineNice(engines: number, cores = availableParallelism()): number {
  return engines > cores ? ENGINE_NICE_CROWDED : ENGINE_NICE;
}

/** A selection runs in slices of about this long, so the process answers in between. */
export const SELECT_SLICE_MS = 10;

/**
 * How many positions the dig keeps selected ahead of the free engines: the book's `prefetch`,
 * and with more than 16 engine processes at least a quarter of them. Results come back in
 * proportion to the engines, so a selection that outlasts a few thinks leaves more of them
 * idle: 64 engines on the 15M book waited 2.2% of their time for a position with 4 ahead and
 * 0.5% with 16 (docs/MEASURED.md).
 */
export function positionsAhead(prefetch: number, engines: number): number {
  return Math.max(prefetch, engines > 16 ? Math.ceil(engines / 4) : 0);
}
/** The plain book value's searches take at most this share of the dig's time. */
export const BOOK_VALUE_SHARE = 0.02;

/**
 * Whether the plain book value may have a search slice now: a new search 10 s after the last
 * one ended at the soonest, and all its slices so far under BOOK_VALUE_SHARE of the dig's
 * time (the first search of a huge book takes seconds: it goes on slowly, not at every result).
 */
export function bookValueDue(o: { now: number; startedAt: number; lastAt: number; spentMs: number; busy: boolean }): boolean {
  if (!o.busy && o.now - o.lastAt < 10_000) return false;
  return o.spentMs <= BOOK_VALUE_SHARE * (o.now - o.startedAt);
}

export class Dig {
  private readonly pool: EnginePool;
  private digState: DigState = "starting";
  private outstanding = 0;
  /**
   * Results that came in this turn of the event loop, stored together when it ends (one
   * transaction, one fsync: with many engines a commit a result was most of the cost of taking
   * one back). Counted in `outstanding` until stored; reported (the result event) only once stored.
   */
  private toStore: Array<{ job: Job; outcome: PoolOutcome & { ok: true } }> = [];
  private storeTimer: NodeJS.Immediate | null = null;
  private searches = 0;
  private failed = 0;
  private readonly tally = new Tally();
  /** With a set time, from its middle on: when that was, the process's CPU then, and what it counts since (DigSummary.secondHalf). */
  private half: StretchTally | null = null;
  private readonly selectionsAtStart: number;
  private readonly cyclicAtStart: number;
  private startedAt = 0;
  /**
   * Since when paused or stopped (0: neither), and the pauses resumed from, [from, to] (ms):
   * elapsed time and positions/hour count digging only, and no engine thinks or waits for a
   * position in a pause.
   */
  private pausedSince = 0;
  private pauses: Array<[number, number]> = [];
  private lastPv: string[] = [];
  private lastRootValue: number | null = null;
  private bookValue: number | null = null;
  private bookPv: string[] = [];
  private bookValueAt = -Infinity;
  /** Time the plain book value's searches took (all their slices), and whether one is under way. */
  private bookValueSpentMs = 0;
  private bookValueBusy = false;
  // Per engine: thinking time, and the span from its first think's start to its last think's end.
  private busyMs = new Map<number, number>();
  /** The engines' own search time for the results stored (their `info time`, summed over a result's searches). */
  private searchedMs = 0;
  /** Of searchedMs, the searches after each position's first. */
  private laterSearchMs = 0;
  /**
   * The engines' own search time in the thinks a stop cut short: not stored, yet the engines
   * searched. Without it a dig's closing busy share counted each engine's last think in its
   * span but not as search (64 engines on 2 cores, 60 s: 86% at the end against 93% a moment
   * before the stop).
   */
  private cutSearchMs = 0;
  private engineNodes = 0;
  private deepThinks = 0;
  private deepNodes = 0;
  private busySince = new Map<number, number>();
  private firstThinkAt = new Map<number, number>();
  private lastThinkEnd = new Map<number, number>();
  /** Per engine: since when it has been idle with the pool's queue empty (between thinks, digging). */
  private waitingSince = new Map<number, number>();
  /** Time engines spent so, summed over engines: each wait counted when the next think starts. */
  private waitedMs = 0;
  /** The pool has quit its engines: a stopped dig resolves only then, so no engine outlives run(). */
  private poolStopped = false;
  private finished!: () => void;
  private readonly done = new Promise<void>((resolve) => (this.finished = resolve));
  private timer: ReturnType<typeof setInterval> | null = null;
  private pauseRequested = false;
  private deadline: ReturnType<typeof setTimeout> | null = null;
  private halfTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Work done in slices (the selection, the plain book value): one slice a turn of the event
   * loop, so a host call, a result or Ctrl-C waits one slice at most, not one of each.
   */
  private slices: Array<() => void> = [];
  private sliceTimer: ReturnType<typeof setImmediate> | null = null;
  private lastSampleAt = -Infinity;

  constructor(
    readonly book: OpenBook,
    private readonly options: DigOptions,
  ) {
    if (options.engines.length === 0) throw new Error("no engine to dig with");
    this.selectionsAtStart = book.jobs.selections;
    this.cyclicAtStart = book.jobs.cyclicSelections;
    // The book's think timeout, unless an engine was given its own (e.g. `horu dig --think-timeout`).
    const thinkMs = book.settings.thinkTimeoutSec * 1000;
    const nice = engineNice(options.engines.length);
    this.pool = new EnginePool(options.engines.map((e) => ({ nice, ...e, timeouts: { thinkMs, ...e.timeouts } })));
    this.pool.on("state", (v) => this.onEngineState(v));
    this.pool.on("info", (engine, info, t) => this.emit({ kind: "info", engine, info, sfen: t.sfen, think: t.think }));
    this.pool.on("failure", (f) => {
      // An engine killed by a stop asked to end at once (Ctrl-C twice) did not fail: nothing to report.
      if (!this.killing)
        this.emit({ kind: "engine-failure", engine: f.engine, sfen: f.sfen, message: f.error.message, requeued: f.requeued });
      // A think re-queued while pausing is no longer running: the pause may be complete.
      this.settle();
    });
    this.pool.on("log", (entry) => {
      if (entry.stream === "stderr" || entry.stream === "note") book.store.log.add("info", "engine", `${entry.engine}: ${entry.line}`);
    });
  }

  /** Digs until stopped (or a limit is reached); resolves with the summary. */
  async run(): Promise<DigSummary> {
    this.startedAt = performance.now();
    await this.pool.start();
    if (this.pool.states.every((s) => s.state === "failed")) {
      const why = this.pool.states.map((s) => `${s.name}: ${s.lastError ?? "failed to start"}`).join("; ");
      await this.pool.stop();
      throw new Error(`no engine could be started (${why})`);
    }
    // stop() may have come while the engines were starting: then there is nothing to run.
    if (this.digState === "starting") {
      this.digState = "digging";
      if (this.options.seconds !== undefined) {
        this.deadline = setTimeout(() => void this.stop(), this.options.seconds * 1000);
        // The second half's CPU and wall time from the same moment (a turn of the loop late at most).
        this.halfTimer = setTimeout(() => (this.half = new StretchTally(this.pool.size)), this.options.seconds * 500);
      }
      this.timer = setInterval(
        () => {
          this.emitProgress();
          this.sample();
        },
        Math.min(this.options.progressEveryMs ?? 1000, this.options.sampleEveryMs ?? SAMPLE_EVERY_MS),
      );
      // A run that ended without its gap (killed) must not be joined to this one on the charts.
      const last = this.book.store.chart.last();
      if (last && !last.gap) this.sample(true);
      if (this.pauseRequested) this.pause();
      else {
        this.fill();
        this.sample();
        this.stopIfExhausted();
      }
    }
    await this.done;
    return this.summary();
  }

  pause(): void {
    if (this.digState === "starting") {
      this.pauseRequested = true; // applied once the engines are up
      return;
    }
    if (this.digState !== "digging") return;
    this.pauseRequested = false;
    this.digState = "pausing";
    this.waitingSince.clear(); // a pause is not a wait on the feed
    this.pool.pause();
    // Positions selected ahead go back to the book: kept in flight, the paused book's values
    // would leave them out (the Tree and Book showed a bound the stored book does not have).
    // Resume selects again from the book as it is then.
    this.pool.dropQueued();
    this.settle();
  }

  resume(): void {
    if (this.digState !== "paused" && this.digState !== "pausing") return;
    this.digState = "digging";
    if (this.pausedSince) this.pauses.push([this.pausedSince, performance.now()]);
    this.pausedSince = 0;
    this.pool.resume();
    this.fill();
    this.emitProgress();
    this.sample();
  }

  /**
   * Stops: running thinks are interrupted and their positions go back unthought. `graceMs`
   * bounds the wait for an interrupted think's bestmove; `now` kills the engines at once
   * (also when a stop is already under way). Either way nothing stored is touched.
   */
  /** Set by a stop that kills the engines at once: their deaths are that stop's, not failures. */
  private killing = false;

  async stop(how: { graceMs?: number; now?: boolean } = {}): Promise<void> {
    if (this.digState === "stopped") return this.done;
    if (how.now) this.killing = true;
    if (this.digState === "stopping") {
      if (how.now) await this.pool.stop({ now: true });
      return this.done;
    }
    this.digState = "stopping";
    await this.pool.stop(how);
    this.poolStopped = true;
    this.settle();
    return this.done;
  }

  get progress(): DigProgress {
    const pausedMs = this.pauses.reduce((ms, [from, to]) => ms + to - from, 0);
    const elapsedMs = this.startedAt ? (this.pausedSince || performance.now()) - this.startedAt - pausedMs : 0;
    const sel = this.book.jobs.lastSelection;
    // Paused or stopped, nothing is being thought: no line in flight, no engine thinking (the
    // positions selected ahead stay reserved in the book, but the UI must not show them as thought).
    const idle = this.digState === "paused" || this.digState === "stopped";
    return {
      state: this.digState,
      thought: this.tally.thought,
      bookSize: this.book.graph.nodeCount,
      elapsedMs,
      perHour: elapsedMs > 0 ? (this.tally.thought / elapsedMs) * 3_600_000 : 0,
      rootValue: this.lastRootValue,
      bookValue: this.bookValue,
      bookPv: this.bookPv,
      pv: this.lastPv,
      inFlight: idle ? [] : this.book.jobs.inFlight.map((j) => ({ sfen: j.sfen, line: j.line })),
      engines: idle
        ? this.pool.states.map((e) => ({
            ...e,
            state: this.digState === "stopped" ? "stopped" : e.state === "thinking" ? "idle" : e.state,
            sfen: null,
          }))
        : this.pool.states,
      lastSelection: sel ? { ms: sel.ms, nodes: sel.stats.nodes, bans: sel.bans } : null,
      // The stored bans, as the bans tab lists them (bans a setting makes are made again each selection).
      bans: this.book.store.bans.count(),
      cyclicShare: this.cyclicShare,
      ...(this.engineShares() ?? { busyShare: null, waitingShare: null }),
      failed: this.failed,
    };
  }

  get state(): DigState {
    return this.digState;
  }

  /**
   * The plain book value costs a search over the book (seconds for the first on a huge one),
   * so it is refreshed on the dig's own cadence (after a stored result), one slice at a time:
   * at most every 10 s, and its slices, all counted, stay under 2% of the dig's time. Once
   * more when the dig settles; reading the progress costs nothing.
   */
  private refreshBookValue(force = false): void {
    if (this.options.bookValue === false) return;
    const now = performance.now();
    const due = bookValueDue({
      now,
      startedAt: this.startedAt,
      lastAt: this.bookValueAt,
      spentMs: this.bookValueSpentMs,
      busy: this.bookValueBusy,
    });
    if (!force && !due) return;
    const value = this.book.bookValue(SELECT_SLICE_MS);
    this.bookValueSpentMs += performance.now() - now;
    this.bookValueBusy = !this.book.bookValueCurrent;
    if (this.bookValueBusy) return; // a huge book's search: it goes on at a later call
    this.bookValue = value;
    this.bookPv = this.book.bookLine();
    this.bookValueAt = performance.now();
  }

  /** The plain value's refresh in a turn of its own, not in the one that stores a result and selects. */
  private refreshSoon(): void {
    this.inSlices(this.refreshTask);
  }
  private readonly refreshTask = () => {
    if (this.digState === "digging") this.refreshBookValue();
  };

  private inSlices(task: () => void): void {
    if (!this.slices.includes(task)) this.slices.push(task);
    this.sliceTimer ??= setImmediate(this.runSlice);
  }
  private readonly runSlice = () => {
    this.sliceTimer = null;
    this.slices.shift()?.();
    // Scheduled from inside this turn's callback, it runs next turn, after pending I/O.
    if (this.slices.length !== 0) this.sliceTimer ??= setImmediate(this.runSlice);
  };

  /** Engine search time so far, summed over engines (ms), counting thinks still running; and how many engines. */
  busyNow(now = performance.now()): { busyMs: number; engines: number } {
    let done = 0,
      running = 0;
    for (const ms of this.busyMs.values()) done += ms;
    for (const since of this.busySince.values()) running += now - since;
    // Finished thinks, and those a stop cut short, count their engines' search time (see DigSummary.busyShare); running ones their time so far.
    return { busyMs: Math.min(done, this.searchedMs + this.cutSearchMs) + running, engines: this.pool.size };
  }

  /**
   * The engines' busy and waiting shares (DigSummary.busyShare, waitingShare) so far; null
   * before any engine finished a think. A think under way counts its time so far, and its
   * engine's span runs to now: every wait counted so far lies inside the spans and outside
   * the thinks, so the two shares never sum past 1 (once the engines are stopped, nothing is
   * under way and the spans end at their last thinks). The time paused is no engine's: left
   * out of the spans, so a dig resumed after a night's pause still shows how busy it keeps them.
   */
  private engineShares(): { busyShare: number; waitingShare: number } | null {
    if (this.lastThinkEnd.size === 0) return null;
    const now = performance.now();
    let span = 0;
    for (const [engine, first] of this.firstThinkAt) {
      const end = this.busySince.has(engine) ? now : (this.lastThinkEnd.get(engine) ?? first);
      span += end - first;
      for (const [from, to] of this.pauses) span -= Math.max(0, Math.min(to, end) - Math.max(from, first));
    }
    if (span <= 0) return null;
    return { busyShare: this.busyNow(now).busyMs / span, waitingShare: Math.min(this.waitedMs, span) / span };
  }

  summary(): DigSummary {
    const wallMs = performance.now() - this.startedAt;
    const shares = this.engineShares();
    const f = this.tally.selectionFigures();
    return {
      thought: this.tally.thought,
      failed: this.failed,
      wallMs,
      busyShare: shares?.busyShare ?? 0,
      waitingShare: shares?.waitingShare ?? 0,
      selectP50Ms: f.selectP50Ms,
      selectP99Ms: f.selectP99Ms,
      selections: f.selections,
      firstSelectMs: this.tally.selectMs[0] ?? 0,
      selectTotalMs: this.tally.selectMs.reduce((a, b) => a + b, 0),
      selectCpuMs: f.selectCpuMs,
      bookSize: this.book.graph.nodeCount,
      searches: this.searches,
      searchedMs: this.searchedMs,
      laterSearchMs: this.laterSearchMs,
      engineNodes: this.engineNodes,
      deepThinks: this.deepThinks,
      deepNodes: this.deepNodes,
      cyclicShare: this.cyclicShare,
      secondHalf: this.secondHalf(performance.now()),
    };
  }

  private secondHalf(now: number): DigHalf | null {
    return this.half?.figures(now) ?? null;
  }

  private get cyclicShare(): number {
    const n = this.book.jobs.selections - this.selectionsAtStart;
    return n > 0 ? (this.book.jobs.cyclicSelections - this.cyclicAtStart) / n : 0;
  }

  /** Keeps every engine busy plus the positions kept waiting (positionsAhead). */
  private fill(): void {
    const want = this.pool.size + positionsAhead(this.book.settings.prefetch, this.pool.size);
    if (this.pool.states.every((s) => s.state === "failed")) return;
    const t0 = performance.now();
    while (this.digState === "digging" && this.outstanding < want && !this.enoughHandedOut()) {
      let job: Job | null | "later";
      const before = this.book.jobs.selections;
      // One slice of selection per turn of the event loop: what else waits (host calls,
      // results, Ctrl-C) goes first, and the selection goes on from the bounds it found.
      const left = SELECT_SLICE_MS - (performance.now() - t0);
      if (left <= 0) job = "later";
      else
        try {
          job = this.book.jobs.nextWithin(left);
        } catch (e) {
          this.fail(e);
          return;
        }
      if (job === "later") {
        this.fillSoon();
        return;
      }
      if (this.book.jobs.selections !== before && this.book.jobs.lastSelection) {
        const { ms, cpuMs } = this.book.jobs.lastSelection;
        this.tally.selected(ms, cpuMs);
        this.half?.selected(ms, cpuMs);
      }
      if (!job) break;
      if (job.rootValue !== null) {
        this.lastRootValue = job.rootValue;
        this.lastPv = job.pv ?? job.line;
      }
      this.outstanding++;
      const j = job;
      void this.pool
        .run({
          sfen: job.sfen,
          legalCount: job.legalCount,
          ...this.thinkSettings(job),
          current: () => this.thinkSettings(job),
          tag: job,
          urgent: job.asked === true,
        })
        .then((o) => this.onOutcome(j, o));
    }
  }

  private onOutcome(job: Job, o: PoolOutcome): void {
    if (o.ok && !o.stopped) {
      this.toStore.push({ job, outcome: o });
      this.storeTimer ??= setImmediate(this.storeResults);
      return;
    }
    if (o.ok) this.cutSearchMs += o.result.timeMs;
    this.outstanding--;
    try {
      if (!o.ok && o.reason === "no-engine") {
        // Every engine has failed: selecting again would only spin. The user must act.
        this.book.jobs.release(job);
        this.fail(new Error("every engine has failed; the dig stops (see the engine errors above)"));
        void this.stop();
        this.settle();
        return;
      } else if (!o.ok && o.errors.some((e) => e instanceof EngineUnsupportedError)) {
        // A setting the engine cannot follow is the user's to fix, not the position's fault.
        this.book.jobs.release(job);
        this.fail(o.errors.find((e) => e instanceof EngineUnsupportedError)!);
      } else if (!o.ok && o.reason === "failed") {
        const message = o.errors.map((e) => e.message).join("; ");
        this.book.jobs.markFailed(job, message);
        this.failed++;
        this.emit({ kind: "failed", sfen: job.sfen, message });
      } else {
        this.book.jobs.release(job);
      }
    } catch (e) {
      // Storing failed (e.g. a full disk): nothing acknowledged is lost; pause until the user acts.
      this.book.jobs.release(job);
      this.fail(e);
    }
    // The next selection in a turn of its own, after storing this result (seconds of both
    // together on a huge book would hold every other call).
    this.fillSoon();
    this.settle();
  }

  /** Stores the results that came this turn in one transaction, then reports each. */
  private readonly storeResults = (): void => {
    this.storeTimer = null;
    const batch = this.toStore;
    this.toStore = [];
    this.outstanding -= batch.length;
    try {
      this.book.jobs.addResults(
        batch.map(({ job, outcome: { result: r } }) => ({
          job,
          candidates: r.candidates,
          provenance: { kind: "engine" as const, engine: r.engine, nodes: r.nodes, depth: r.depth, timeMs: r.timeMs },
        })),
      );
      for (const { job, outcome: o } of batch) {
        const r = o.result;
        this.searchedMs += r.timeMs;
        this.laterSearchMs += r.laterTimeMs;
        this.engineNodes += r.nodes;
        if (job.limit !== undefined) {
          this.deepThinks++;
          this.deepNodes += r.nodes;
        }
        this.tally.thoughtOne();
        this.half?.thoughtOne();
        this.searches += r.passes;
        this.emit({ kind: "result", sfen: job.sfen, engine: o.engine, candidates: r.candidates.length, line: job.line });
      }
      this.refreshSoon();
      if (this.limitReached()) void this.stop();
    } catch (e) {
      // Storing failed (e.g. a full disk): none of them was stored (one transaction), nothing
      // acknowledged is lost; pause until the user acts.
      for (const { job } of batch) this.book.jobs.release(job);
      this.fail(e);
    }
    this.fillSoon();
    this.settle();
  };

  private fillSoon(): void {
    this.inSlices(this.fillTask);
  }
  private readonly fillTask = () => {
    this.fill();
    this.stopIfExhausted();
    this.settle();
  };

  /** Nothing left to select and nothing thinking: the book is exhausted under the current limits. */
  private stopIfExhausted(): void {
    if (this.outstanding === 0 && this.digState === "digging" && !this.slices.includes(this.fillTask) && !this.limitReached())
      void this.stop();
  }

  private fail(e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    this.emit({ kind: "error", message });
    if (this.digState === "digging") this.pause();
  }

  private settle(): void {
    // Not digging on: results stored while a selection was under way go into the graph now,
    // not when a selection that may never finish ends (the views show the book as stored).
    if (this.digState !== "digging") this.book.jobs.takeResults();
    // Paused once nothing is thinking: positions selected ahead wait in the pool's queue.
    if (this.digState === "pausing" && this.outstanding - this.pool.queued <= 0) {
      this.digState = "paused";
      this.pausedSince = performance.now();
      this.refreshBookValue(true);
      this.emitProgress();
      this.sample(true);
    }
    if (this.outstanding > 0) return;
    if (this.digState === "stopping" && this.poolStopped) {
      this.digState = "stopped";
      this.pausedSince ||= performance.now();
      this.refreshBookValue(true);
      if (this.timer) clearInterval(this.timer);
      if (this.deadline) clearTimeout(this.deadline);
      if (this.halfTimer) clearTimeout(this.halfTimer);
      if (this.sliceTimer) clearImmediate(this.sliceTimer);
      this.slices = [];
      this.timer = this.deadline = this.halfTimer = this.sliceTimer = null;
      this.emitProgress();
      this.sample(true);
      this.finished();
    }
  }

  /** The position limit is met: stop digging. */
  private limitReached(): boolean {
    return (
      (this.options.positions !== undefined && this.tally.thought >= this.options.positions) ||
      (this.options.engineNodes !== undefined && this.engineNodes >= this.options.engineNodes)
    );
  }

  /** Positions already thought or on their way cover the limit: select no more. */
  private enoughHandedOut(): boolean {
    return this.options.positions !== undefined && this.tally.thought + this.outstanding >= this.options.positions;
  }

  /** Read when an engine takes a position, so settings changed meanwhile apply. */
  private thinkSettings(job: Job): { limit: SearchLimit; multipv: MultiPvSpec; windowCp: number } {
    return {
      limit: searchLimitOf(job.limit ?? this.book.settings.limit),
      multipv: this.multipv(job),
      windowCp: this.book.settings.windowCp,
    };
  }

  private multipv(job: Job): MultiPvSpec {
    const d = this.options.dynamic ?? { ...DEFAULT_DYNAMIC.dynamic, withinCp: this.book.settings.windowCp };
    return multipvSpec(this.book.settings.multipv, job, d);
  }

  private onEngineState(v: EngineSlotView): void {
    const now = performance.now();
    const since = this.busySince.get(v.index);
    if (v.state === "thinking") {
      if (since === undefined) this.busySince.set(v.index, now);
      if (!this.firstThinkAt.has(v.index)) this.firstThinkAt.set(v.index, now);
      const waiting = this.waitingSince.get(v.index);
      if (waiting !== undefined) {
        this.waitedMs += now - waiting;
        this.half?.waitedFrom(waiting, now);
      }
      this.waitingSince.delete(v.index);
    } else if (since !== undefined) {
      this.busyMs.set(v.index, (this.busyMs.get(v.index) ?? 0) + now - since);
      this.lastThinkEnd.set(v.index, now);
      this.busySince.delete(v.index);
    }
    // An engine that finished a think with nothing queued waits on the feed; one with a
    // position queued takes it in the same turn (the pool pumps after this event).
    if (v.state === "idle" && this.firstThinkAt.has(v.index) && this.digState === "digging" && this.pool.queued === 0)
      this.waitingSince.set(v.index, now);
    else if (v.state !== "thinking") this.waitingSince.delete(v.index);
  }

  /**
   * Stores a chart point while digging (at most every sampleEveryMs), or a gap (`gap`: paused,
   * stopped, or a new run). A store that cannot take it (full disk) loses only the point.
   */
  private sample(gap = false): void {
    const now = Date.now();
    if (
      !gap &&
      (!(this.digState === "digging" || this.digState === "pausing") ||
        now - this.lastSampleAt < (this.options.sampleEveryMs ?? SAMPLE_EVERY_MS) - 50)
    )
      return;
    if (gap && this.book.store.chart.last()?.gap) return;
    const sample: ChartSample = { t: now, thought: this.tally.thought, rootValue: gap ? null : this.lastRootValue, gap };
    try {
      this.book.store.chart.add(sample);
    } catch {
      return;
    }
    if (!gap) this.lastSampleAt = now;
    this.emit({ kind: "sample", sample });
  }

  private emitProgress(): void {
    this.emit({ kind: "progress", progress: this.progress });
  }

  private emit(e: DigEvent): void {
    try {
      this.options.onEvent?.(e);
    } catch {
      // A listener's failure must not stop the dig.
    }
  }
}
