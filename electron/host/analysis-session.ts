// Live analysis (検討): one engine of the library searching the position on the board without
// end, in its own process (never one of a dig's), its MultiPV lines sent to the UI a few times
// a second. A new start (the board moved on) restarts the search, on the same process when the
// engine is the same; stop, the book's close and the host's shutdown end the process.

import type { AnalysisLine, AnalysisUpdate, HostEvent } from "../../shared/api/contract.js";
import type { UsiInfo } from "../../shared/usi/info.js";
import { UsiEngine, EngineUnsupportedError, type UsiEngineOptions } from "../engines/usi/engine.js";
import type { SearchLimit } from "../engines/usi/limit.js";

/** How often the lines go to the UI (ms). */
export const ANALYSIS_EVERY_MS = 250;

/** "Without end": a depth no search reaches; engines that search only by time get an hour. */
const ENDLESS: SearchLimit = { kind: "depth", depth: 127 };
const ENDLESS_BY_TIME: SearchLimit = { kind: "movetime", ms: 3_600_000 };
const DAY_MS = 24 * 3_600_000;

interface Run {
  id: number;
  sfen: string;
  lines: Map<number, AnalysisLine>;
  nodes: number;
  timer: ReturnType<typeof setTimeout> | null;
  done: Promise<void>;
}

export class AnalysisSession {
  private engine: UsiEngine | null = null;
  private engineId = 0;
  private run: Run | null = null;
  private nextId = 1;
  /** Serialises start/stop: each waits for the one before it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly emit: (e: HostEvent) => void) {}

  /** The engine's process id while one runs (tests check it ends). */
  get pid(): number | undefined {
    return this.engine?.running ? this.engine.pid : undefined;
  }

  /** Analyses `sfen` with library engine `engineId` (spec: its command line), `multipv` lines. */
  start(engineId: number, spec: UsiEngineOptions, sfen: string, multipv: number): Promise<{ id: number; engine: string }> {
    const id = this.nextId++;
    const p = this.queue.then(async () => {
      await this.stopRun();
      if (this.engine && (this.engineId !== engineId || !this.engine.running)) await this.quitEngine();
      if (!this.engine) {
        const engine = new UsiEngine({ ...spec, timeouts: { thinkMs: DAY_MS, graceMs: 5_000 } });
        this.engine = engine;
        this.engineId = engineId;
        try {
          await engine.start();
        } catch (e) {
          this.engine = null;
          throw e;
        }
      }
      const engine = this.engine;
      const name = engine.handshake.idName || engine.name;
      const run: Run = { id, sfen, lines: new Map(), nodes: 0, timer: null, done: Promise.resolve() };
      this.run = run;
      const onInfo = (info: UsiInfo) => this.onInfo(run, name, info);
      const think = (limit: SearchLimit) => engine.think(sfen, limit, { fixed: multipv }, undefined, onInfo);
      run.done = think(ENDLESS)
        .catch((e: unknown) => (e instanceof EngineUnsupportedError ? think(ENDLESS_BY_TIME) : Promise.reject(e)))
        .then(
          () => this.finish(run, name, "done", null),
          (e: unknown) => this.finish(run, name, "failed", e instanceof Error ? e.message : String(e)),
        );
      this.send(run, name, "running", null);
      return { id, engine: name };
    });
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** Stops the search and ends the engine's process. */
  stop(): Promise<void> {
    const p = this.queue.then(async () => {
      await this.stopRun();
      await this.quitEngine();
    });
    this.queue = p.catch(() => undefined);
    return p;
  }

  private async stopRun(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.run = null;
    if (this.engine?.isThinking) this.engine.stop();
    await run.done;
  }

  private async quitEngine(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    if (!engine) return;
    await engine.quit(2_000).catch(() => engine.kill());
    await engine.exited;
  }

  private onInfo(run: Run, engine: string, info: UsiInfo): void {
    if (info.nodes !== undefined) run.nodes = Math.max(run.nodes, info.nodes);
    if (!info.pv?.length || !info.score || info.bound) return;
    const k = info.multipv ?? 1;
    run.lines.set(k, {
      multipv: k,
      moves: info.pv,
      score: info.score,
      depth: info.depth ?? 0,
      seldepth: info.seldepth,
      nodes: info.nodes ?? 0,
    });
    if (!run.timer && this.run === run)
      run.timer = setTimeout(() => {
        run.timer = null;
        if (this.run === run) this.send(run, engine, "running", null);
      }, ANALYSIS_EVERY_MS);
  }

  private finish(run: Run, engine: string, state: "done" | "failed", error: string | null): void {
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    // Stopped by a new start or stop: the search ended because it was asked to.
    this.send(run, engine, this.run === run ? state : "stopped", error);
    if (this.run === run) this.run = null;
  }

  private send(run: Run, engine: string, state: AnalysisUpdate["state"], error: string | null): void {
    const lines = [...run.lines.values()].sort((a, b) => a.multipv - b.multipv);
    this.emit({ type: "analysis.update", update: { id: run.id, sfen: run.sfen, engine, state, error, nodes: run.nodes, lines } });
  }
}
