// The Quality view's runs (issue 41): `horu book quality` on the open book, in the background,
// with engines of the library in processes of their own (never a dig's). The searches go into
// the book through a connection of their own (electron/store/quality-store.ts), so a run goes
// on beside a dig; a second run reuses them. One run at a time; the book's close stops it.
import type { HostEvent, QualityStatusView } from "../../shared/api/contract.js";
import { bookQuality } from "../book/quality.js";
import type { UsiEngineOptions } from "../engines/usi/engine.js";

/** Progress events at most this often (a search each few ms at low limits). */
const PROGRESS_EVERY_MS = 200;

export interface QualityRunOptions {
  oracleFactor: number;
  perBand: number;
  coverageRuns: number;
}

export class QualitySession {
  private view: QualityStatusView = { state: "idle", book: null, progress: null, report: null, error: null };
  private abort: AbortController | null = null;
  private done: Promise<void> = Promise.resolve();

  constructor(private readonly emit: (e: HostEvent) => void) {}

  status(): QualityStatusView {
    return this.view;
  }

  /**
   * Measures `book` with `processes` processes of `engine`; searchless (`search` false): reports
   * from the searches kept in the book only, at once.
   */
  start(book: string, engine: UsiEngineOptions | null, processes: number, o: QualityRunOptions): QualityStatusView {
    if (this.view.state === "running") return this.view;
    const abort = new AbortController();
    this.abort = abort;
    this.set({ state: "running", book, progress: null, report: null, error: null });
    let last = 0;
    this.done = bookQuality({
      book,
      engines: engine ? Array.from({ length: processes }, () => engine) : [],
      noSearch: engine === null,
      oracleFactor: o.oracleFactor,
      perBand: o.perBand,
      coverageRuns: engine ? o.coverageRuns : 0,
      signal: abort.signal,
      onProgress: (progress) => {
        const now = Date.now();
        if (progress.done !== 0 && progress.done !== progress.total && now - last < PROGRESS_EVERY_MS) return;
        last = now;
        this.set({ ...this.view, progress });
      },
    }).then(
      (report) => this.set({ ...this.view, state: abort.signal.aborted ? "stopped" : "done", report }),
      (e: unknown) => this.set({ ...this.view, state: "failed", error: e instanceof Error ? e.message : String(e) }),
    );
    return this.view;
  }

  /** Stops a run: the searches stored so far stay in the book. */
  async stop(): Promise<QualityStatusView> {
    this.abort?.abort();
    await this.done;
    return this.view;
  }

  /** The book closed: stop and forget. */
  async close(): Promise<void> {
    await this.stop();
    this.set({ state: "idle", book: null, progress: null, report: null, error: null });
  }

  private set(v: QualityStatusView): void {
    this.view = v;
    this.emit({ type: "quality.status", status: v });
  }
}
