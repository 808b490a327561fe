// A pool of engine processes, each thinking one position at a time (docs/DESIGN.md §4).
// A crash, hang or protocol error restarts that process and re-queues the
// position; after `maxAttempts` failures the position is reported failed and
// the pool keeps going. Every such event is reported, never swallowed.
import type { UsiInfo } from "../../../shared/usi/info.js";
import {
  EngineError,
  EngineOptionError,
  EngineUnsupportedError,
  UsiEngine,
  type EngineLogEntry,
  type Handshake,
  type ThinkResult,
  type UsiEngineOptions,
} from "./engine.js";
import type { SearchLimit } from "./limit.js";
import type { MultiPvSpec } from "./widen.js";

export interface PoolJob {
  sfen: string;
  limit: SearchLimit;
  multipv: MultiPvSpec;
  windowCp?: number;
  /** The position's legal-move count, when the caller has it (saves the engine side a parse and a move generation). */
  legalCount?: number;
  /** Caller's tag, handed back in events. */
  tag?: unknown;
  /**
   * Goes ahead of the queued jobs that are not (in its own order among those that are): a
   * position the user asked for waits for the next free engine, not for the positions the
   * dig selected ahead.
   */
  urgent?: boolean;
  /**
   * The think settings as of when an engine takes the job (they may change while it
   * waits in the queue); overrides limit, multipv and windowCp.
   */
  current?: () => Pick<PoolJob, "limit" | "multipv" | "windowCp">;
}

export type PoolOutcome =
  | { ok: true; job: PoolJob; result: ThinkResult; engine: string; attempts: number; stopped: boolean }
  | { ok: false; job: PoolJob; errors: Error[]; reason: "failed" | "no-engine" | "cancelled"; attempts: number };

export type EngineSlotState = "idle" | "starting" | "thinking" | "restarting" | "failed" | "stopped";

export interface EngineSlotView {
  index: number;
  name: string;
  state: EngineSlotState;
  /** The position being thought, when thinking. */
  sfen: string | null;
  /** The current think's serial number (0 before the first): info of an earlier think is stale. */
  think: number;
  /** The current think's live view: its best line's score and PV, the latest counters. */
  lastInfo: UsiInfo | null;
  handshake: Handshake | null;
  restarts: number;
  lastError: string | null;
}

export interface EngineFailureEvent {
  engine: string;
  engineIndex: number;
  /** The position it was thinking, or null when it failed while starting or idle. */
  sfen: string | null;
  error: Error;
  /** Attempts used on this position so far (0 for start failures). */
  attempt: number;
  /** Whether the position goes back to the queue. */
  requeued: boolean;
}

export interface PoolEvents {
  state: (view: EngineSlotView) => void;
  /**
   * The think's live view after an info line (merged: see mergeInfo), with the position it
   * is of and the think's serial: the UI never shows one position's PV beside another.
   */
  info: (engineIndex: number, info: UsiInfo, think: { sfen: string; think: number }) => void;
  result: (outcome: PoolOutcome & { ok: true }) => void;
  /** Every crash/hang/protocol/start error of an engine process. */
  failure: (event: EngineFailureEvent) => void;
  /** A position given up on (after maxAttempts, or no engine left). */
  jobFailed: (outcome: PoolOutcome & { ok: false }) => void;
  log: (entry: EngineLogEntry) => void;
}

const MAX_BACKOFF_MS = 30_000;

export interface PoolOptions {
  /** Failures on one position before it is marked failed. */
  maxAttempts?: number;
  /** Consecutive failed starts before an engine slot is marked failed. */
  maxStartFailures?: number;
  /**
   * Wait before restarting a process; failed starts back off exponentially from it (x2 per
   * consecutive failure, at most 30 s), so an engine behind a dropped SSH link is
   * reconnected as soon as the host is back without hammering it while it is not.
   */
  restartDelayMs?: number;
}

interface QueuedJob {
  job: PoolJob;
  attempts: number;
  errors: Error[];
  resolve: (o: PoolOutcome) => void;
}

interface Slot {
  index: number;
  spec: UsiEngineOptions;
  name: string;
  engine: UsiEngine | null;
  state: EngineSlotState;
  current: QueuedJob | null;
  think: number;
  lastInfo: UsiInfo | null;
  restarts: number;
  startFailures: number;
  lastError: string | null;
}

type Listeners = { [K in keyof PoolEvents]: Set<PoolEvents[K]> };

export class EnginePool {
  private readonly slots: Slot[];
  private readonly queue: QueuedJob[] = [];
  private readonly listeners: Listeners = {
    state: new Set(),
    info: new Set(),
    result: new Set(),
    failure: new Set(),
    jobFailed: new Set(),
    log: new Set(),
  };
  private paused = false;
  private stopping = false;
  /** Thinks started so far: each think's serial number. */
  private thinks = 0;
  private readonly maxAttempts: number;
  private readonly maxStartFailures: number;
  private readonly restartDelayMs: number;

  constructor(specs: UsiEngineOptions[], options: PoolOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? 3;
    this.maxStartFailures = options.maxStartFailures ?? 5;
    this.restartDelayMs = options.restartDelayMs ?? 500;
    this.slots = specs.map((spec, index) => ({
      index,
      spec,
      name: spec.name ?? `${spec.command.split(/[\\/]/).pop()}#${index + 1}`,
      engine: null,
      state: "stopped",
      current: null,
      think: 0,
      lastInfo: null,
      restarts: 0,
      startFailures: 0,
      lastError: null,
    }));
  }

  on<K extends keyof PoolEvents>(event: K, fn: PoolEvents[K]): () => void {
    (this.listeners[event] as Set<PoolEvents[K]>).add(fn);
    return () => (this.listeners[event] as Set<PoolEvents[K]>).delete(fn);
  }

  private emit<K extends keyof PoolEvents>(event: K, ...args: Parameters<PoolEvents[K]>): void {
    for (const fn of this.listeners[event] as Set<(...a: Parameters<PoolEvents[K]>) => void>) {
      try {
        fn(...args);
      } catch {
        // A listener's failure must not break the pool.
      }
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** Per-engine state for the UI. */
  get states(): EngineSlotView[] {
    return this.slots.map((s) => this.view(s));
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Engines ready for a job right now. */
  get idleCount(): number {
    return this.slots.filter((s) => s.state === "idle").length;
  }

  /** Starts every engine; resolves when each one is idle or failed. */
  async start(): Promise<void> {
    this.stopping = false;
    const starting: Promise<void>[] = [];
    for (const s of this.slots) {
      if (s.state !== "stopped" && s.state !== "failed") continue;
      // One process spawned a turn of the event loop: a spawn copies the process's page tables
      // (65-72 ms from a Node process holding 2 GB), and 64 at once held dig.start 953 ms.
      if (starting.length > 0) await new Promise((resolve) => setImmediate(resolve));
      starting.push(this.startSlot(s));
    }
    await Promise.all(starting);
  }

  /** Queues a position; resolves with its outcome (never rejects). */
  run(job: PoolJob): Promise<PoolOutcome> {
    return new Promise((resolve) => {
      if (this.stopping) {
        resolve({ ok: false, job, errors: [], reason: "cancelled", attempts: 0 });
        return;
      }
      const q: QueuedJob = { job, attempts: 0, errors: [], resolve };
      const at = job.urgent ? this.queue.findIndex((w) => !w.job.urgent) : -1;
      if (at < 0) this.queue.push(q);
      else this.queue.splice(at, 0, q);
      this.pump();
    });
  }

  /** Hands out no new positions; running thinks finish. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Cancels the jobs waiting for an engine (their outcomes say "cancelled"); running thinks go on. */
  dropQueued(): void {
    for (const q of this.queue.splice(0)) q.resolve({ ok: false, job: q.job, errors: q.errors, reason: "cancelled", attempts: q.attempts });
  }

  /**
   * stop: `stop` to thinking engines, wait their bestmove (results are delivered, marked
   * stopped) at most `graceMs` (default: each engine's own grace), then `quit` all; `now`:
   * kill every engine at once. Queued jobs are cancelled. Calling it again with `now` while
   * a stop is under way kills what is left.
   */
  async stop(how: { graceMs?: number; now?: boolean } = {}): Promise<void> {
    this.stopping = true;
    this.dropQueued();
    await Promise.all(
      this.slots.map(async (s) => {
        const e = s.engine;
        if (!e) return;
        if (how.now) {
          e.kill();
          await e.exited;
        } else {
          if (e.isThinking) e.stop();
          await e.quit(how.graceMs);
        }
        if (s.engine === e) s.engine = null;
        this.setState(s, "stopped");
      }),
    );
  }

  private view(s: Slot): EngineSlotView {
    return {
      index: s.index,
      name: s.name,
      state: s.state,
      sfen: s.current?.job.sfen ?? null,
      think: s.think,
      lastInfo: s.current ? s.lastInfo : null,
      handshake: s.engine?.handshake ?? null,
      restarts: s.restarts,
      lastError: s.lastError,
    };
  }

  private setState(s: Slot, state: EngineSlotState): void {
    s.state = state;
    this.emit("state", this.view(s));
  }

  private async startSlot(s: Slot): Promise<void> {
    this.setState(s, s.restarts > 0 || s.startFailures > 0 ? "restarting" : "starting");
    for (;;) {
      if (this.stopping) {
        this.setState(s, "stopped");
        return;
      }
      const engine = new UsiEngine({
        ...s.spec,
        name: s.name,
        log: (entry) => {
          s.spec.log?.(entry);
          this.emit("log", entry);
        },
      });
      s.engine = engine;
      try {
        await engine.start();
        s.startFailures = 0;
        // An idle engine that dies is restarted too.
        void engine.exited.then(() => this.onIdleExit(s, engine));
        if (this.stopping) {
          await engine.quit();
          this.setState(s, "stopped");
          return;
        }
        this.setState(s, "idle");
        this.pump();
        return;
      } catch (e) {
        s.engine = null;
        if (this.stopping) {
          this.setState(s, "stopped");
          return;
        }
        const error = e instanceof Error ? e : new Error(String(e));
        s.startFailures++;
        s.lastError = error.message;
        s.engine = null;
        this.emit("failure", { engine: s.name, engineIndex: s.index, sfen: null, error, attempt: 0, requeued: false });
        // An option value the engine does not take: the user must fix it, another start would only say it again.
        if (s.startFailures >= this.maxStartFailures || error instanceof EngineOptionError) {
          this.setState(s, "failed");
          this.failIfNoEngine();
          return;
        }
        this.setState(s, "restarting");
        await delay(Math.min(MAX_BACKOFF_MS, this.restartDelayMs * 2 ** (s.startFailures - 1)));
      }
    }
  }

  private onIdleExit(s: Slot, engine: UsiEngine): void {
    if (s.engine !== engine || s.state !== "idle" || this.stopping) return;
    const error = new EngineError(`${s.name}: engine exited while idle`, s.name);
    s.lastError = error.message;
    s.engine = null;
    s.restarts++;
    this.emit("failure", { engine: s.name, engineIndex: s.index, sfen: null, error, attempt: 0, requeued: false });
    void this.startSlot(s);
  }

  private pump(): void {
    if (this.paused || this.stopping) return;
    for (const s of this.slots) {
      if (this.queue.length === 0) return;
      if (s.state !== "idle" || !s.engine) continue;
      const q = this.queue.shift()!;
      void this.think(s, s.engine, q);
    }
    this.failIfNoEngine();
  }

  /** With every slot failed nothing will ever run the queue: say so instead of waiting forever. */
  private failIfNoEngine(): void {
    if (this.slots.some((s) => s.state !== "failed")) return;
    for (const q of this.queue.splice(0)) {
      const outcome = { ok: false as const, job: q.job, errors: q.errors, reason: "no-engine" as const, attempts: q.attempts };
      this.emit("jobFailed", outcome);
      q.resolve(outcome);
    }
  }

  private async think(s: Slot, engine: UsiEngine, q: QueuedJob): Promise<void> {
    s.current = q;
    s.lastInfo = null;
    s.think = ++this.thinks;
    q.attempts++;
    this.setState(s, "thinking");
    const { job } = q;
    try {
      const now = job.current?.() ?? job;
      const think = { sfen: job.sfen, think: s.think };
      const result = await engine.think(
        job.sfen,
        now.limit,
        now.multipv,
        now.windowCp,
        (info) => {
          s.lastInfo = mergeInfo(s.lastInfo, info);
          this.emit("info", s.index, s.lastInfo, think);
        },
        job.legalCount,
      );
      s.current = null;
      const outcome = { ok: true as const, job, result, engine: s.name, attempts: q.attempts, stopped: this.stopping };
      if (!this.stopping) this.setState(s, "idle");
      this.emit("result", outcome);
      q.resolve(outcome);
      this.pump();
    } catch (e) {
      s.current = null;
      const error = e instanceof Error ? e : new Error(String(e));
      q.errors.push(error);
      s.lastError = error.message;
      if (error instanceof EngineUnsupportedError) {
        // The engine is fine; the request is not something it can do. Retrying changes nothing.
        this.emit("failure", { engine: s.name, engineIndex: s.index, sfen: job.sfen, error, attempt: q.attempts, requeued: false });
        this.giveUp(q, "failed");
        if (!this.stopping) this.setState(s, "idle");
        this.pump();
        return;
      }
      const requeued = q.attempts < this.maxAttempts && !this.stopping;
      if (!this.stopping) this.setState(s, "restarting");
      // Back in the queue before listeners hear of it: a pausing dig counts it as waiting, not thinking.
      if (requeued) this.queue.unshift(q);
      this.emit("failure", { engine: s.name, engineIndex: s.index, sfen: job.sfen, error, attempt: q.attempts, requeued });
      // Front of the queue, and straight to another idle engine if there is one.
      if (requeued) this.pump();
      else this.giveUp(q, this.stopping ? "cancelled" : "failed");
      // Whatever went wrong, this process is not trusted any more: replace it.
      engine.kill();
      await engine.exited;
      s.engine = null;
      if (this.stopping) {
        this.setState(s, "stopped");
        return;
      }
      s.restarts++;
      await delay(this.restartDelayMs);
      await this.startSlot(s);
    }
  }

  private giveUp(q: QueuedJob, reason: "failed" | "cancelled"): void {
    const outcome = { ok: false as const, job: q.job, errors: q.errors, reason, attempts: q.attempts };
    this.emit("jobFailed", outcome);
    q.resolve(outcome);
  }
}

/**
 * One think's live view from its info lines: the best line (multipv 1, or no multipv) sets
 * the score and PV, any line the counters. A line of another MultiPV rank has another
 * move's score and PV, so it never replaces the best line's.
 */
export function mergeInfo(prev: UsiInfo | null, info: UsiInfo): UsiInfo {
  if ((info.multipv ?? 1) === 1) return { ...prev, ...info };
  const counters: UsiInfo = { ...prev };
  for (const k of ["depth", "seldepth", "nodes", "nps", "timeMs", "hashfull"] as const) if (info[k] !== undefined) counters[k] = info[k];
  return counters;
}

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
