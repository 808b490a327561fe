// The dig the host runs or serves: starting it with the chosen engines, pause/resume/stop, its
// status (counters while digging, the book's previewed value when idle), and its events for the
// UI, with the engines' info lines merged and sent a few times a second.

import type { DigStatus, EngineChoiceView, HostEvent } from "../../shared/api/contract.js";
import type { OpenBook } from "../book/open-book.js";
import { Dig, type DigEvent } from "../dig/dig.js";
import type { EngineLibrary } from "../engines/library.js";
import { chooseEngines, specFromConfig } from "../engines/choose.js";
import type { UsiInfo } from "../../shared/usi/info.js";
import { userError } from "../../shared/api/user-error.js";
import { VALUE_MATE } from "../../shared/rules/types.js";

/**
 * How long the book may be searched for the idle status at a time: once within the status call
 * (all its values together), then in slices of this length between other calls until the
 * values are current; a dig.status event then brings them.
 */
export const STATUS_SEARCH_MS = 20;

/** How often merged info lines go to the UI. */
export const INFO_EVERY_MS = 200;

/** A book.updated event goes out at most this often (ms), and only when the book's positions changed. */
export const BOOK_UPDATE_MS = 500;

export class DigSession {
  private dig: Dig | null = null;
  private run: Promise<unknown> | null = null;
  private error: string | null = null;
  private choice: EngineChoiceView | null = null;
  private readonly pendingInfo = new Map<number, { info: UsiInfo; sfen: string; think: number }>();
  private infoTimer: ReturnType<typeof setTimeout> | null = null;
  private updateTimer: ReturnType<typeof setTimeout> | null = null;
  /** What the last book.updated event told (see bookMark). */
  private updateMark = "";

  /** `book` is the host's open book now (the idle status reads it). */
  constructor(
    private readonly emit: (e: HostEvent) => void,
    private readonly book: () => OpenBook | null,
    /** STATUS_SEARCH_MS (tests give less, to see a search go on in slices). */
    private readonly searchMs = STATUS_SEARCH_MS,
  ) {}

  get digging(): boolean {
    const s = this.dig?.state;
    return s !== undefined && s !== "stopped";
  }

  /** Digs the book with the library's enabled engines, else the best one on this machine, else the built-in one. */
  start(book: OpenBook, library: EngineLibrary, processes: number, positions?: number, seconds?: number): DigStatus {
    if (this.digging) throw userError("already digging", { key: "alreadyDigging" });
    const choice = chooseEngines({ library, limit: book.settings.limit });
    const configs = choice.configs;
    const engines = configs.flatMap((c) =>
      Array.from({ length: processes }, (_, i) => ({ ...specFromConfig(c), name: processes > 1 ? `${c.name}#${i + 1}` : c.name })),
    );
    this.choice = { source: choice.source, names: configs.map((c) => c.name), why: choice.why, warnings: choice.warnings };
    this.error = null;
    const dig = new Dig(book, { engines, positions, seconds, onEvent: (e) => this.handle(e), progressEveryMs: 500 });
    this.dig = dig;
    this.run = dig.run().catch((e: unknown) => {
      this.error = e instanceof Error ? e.message : String(e);
      this.emit({ type: "dig.status", status: this.status() });
    });
    return this.status();
  }

  /** Serves a dig run elsewhere (`horu dig --web`); its events must go to the listener returned. */
  attach(dig: Dig, run: Promise<unknown>): (e: DigEvent) => void {
    this.dig = dig;
    this.run = run.catch(() => undefined);
    return (e) => this.handle(e);
  }

  pause(): void {
    this.dig?.pause();
  }

  resume(): void {
    this.error = null;
    this.dig?.resume();
  }

  async stop(): Promise<void> {
    if (!this.dig) return;
    await this.dig.stop();
    await this.run;
  }

  /** Stops the dig and forgets it: it belonged to the book being closed, its status must not show on the next one. */
  async end(): Promise<void> {
    if (this.idleSearch) clearImmediate(this.idleSearch);
    this.idleSearch = null;
    await this.stop();
    if (this.updateTimer) clearTimeout(this.updateTimer);
    this.updateTimer = null;
    this.updateMark = "";
    this.dig = null;
    this.run = null;
    this.error = null;
  }

  /** An error the status shows (e.g. following another process's book failed). */
  fail(message: string): void {
    this.error = message;
  }

  /** Turns a dig event into the UI's events. */
  handle(e: DigEvent): void {
    switch (e.kind) {
      case "progress":
        this.emit({ type: "dig.status", status: this.status() });
        this.queueBookUpdate();
        return;
      case "result":
        // The UI reads thought positions through the status and the book views: book.updated tells it to.
        this.queueBookUpdate();
        return;
      case "info":
        this.queueInfo(e.engine, e.info, e.sfen, e.think);
        return;
      case "sample":
        this.emit({ type: "dig.sample", sample: e.sample });
        return;
      case "engine-failure":
        this.emit({ type: "dig.failure", engine: e.engine, sfen: e.sfen, message: e.message });
        return;
      case "failed":
        this.emit({ type: "dig.failure", engine: "", sfen: e.sfen, message: `gave up: ${e.message}` });
        this.queueBookUpdate();
        return;
      case "error":
        this.error = e.message;
        this.emit({ type: "dig.status", status: this.status() });
        return;
    }
  }

  /**
   * Engines print thousands of info lines a second; the UI needs a few. The pool merges each
   * think's lines (the best line's score and PV, the latest counters); the latest view per
   * engine goes out five times a second, tagged with its position and think, so a view of an
   * earlier think never stands beside the next position.
   */
  private queueInfo(engine: number, info: UsiInfo, sfen: string, think: number): void {
    this.pendingInfo.set(engine, { info, sfen, think });
    this.infoTimer ??= setTimeout(() => {
      this.infoTimer = null;
      for (const [index, p] of this.pendingInfo) this.emit({ type: "dig.info", engine: index, ...p });
      this.pendingInfo.clear();
    }, INFO_EVERY_MS);
  }

  /**
   * A result stored, a position handed out or given up: the views of positions change. One
   * book.updated event at most every BOOK_UPDATE_MS, after the stored results went into the
   * graph (a turn later), and only when the book's mark moved.
   */
  private queueBookUpdate(): void {
    this.updateTimer ??= setTimeout(() => {
      this.updateTimer = null;
      const book = this.book();
      if (!book) return;
      const mark = bookMark(book);
      if (mark === this.updateMark) return;
      this.updateMark = mark;
      this.emit({ type: "book.updated" });
    }, BOOK_UPDATE_MS);
    this.updateTimer.unref?.();
  }

  private idleSearch: ReturnType<typeof setImmediate> | null = null;

  /**
   * The time a status call may still spend searching `book` (STATUS_SEARCH_MS for all its
   * values together). What is left unfinished goes on in slices between other calls (one
   * search slice, then the event loop), and a dig.status event brings the values once they
   * are current: a huge book's first search takes seconds, and no call may wait for it.
   */
  private searchBudget(book: OpenBook | null, plain = true): () => number {
    const deadline = performance.now() + this.searchMs;
    const left = () => Math.max(0, deadline - performance.now());
    if (book) queueMicrotask(() => this.finishIdleSearch(book, plain));
    return left;
  }

  private finishIdleSearch(book: OpenBook, plain: boolean): void {
    const current = () => book.previewCurrent && (!plain || book.bookValueCurrent);
    if (this.idleSearch || current()) return;
    const step = () => {
      this.idleSearch = null;
      // A dig searches on its own (not while paused); a book closed or replaced is not searched any more.
      if (this.dig?.state !== "paused" && this.digging) return;
      if (this.book() !== book) return;
      if (!book.previewCurrent) book.preview(this.searchMs);
      else if (plain && !book.bookValueCurrent) book.bookValue(this.searchMs);
      if (current()) {
        this.emit({ type: "dig.status", status: this.status() });
        // The values the views read changed with no new position: they read them again.
        this.emit({ type: "book.updated" });
      } else this.idleSearch = setImmediate(step);
    };
    this.idleSearch = setImmediate(step);
  }

  /**
   * Sent every 500 ms while digging, so it only reads counters: the dig keeps the plain
   * book value on its own cadence. Without a dig, the book value is searched once per
   * change of the book (OpenBook memoizes it by generation).
   */
  status(): DigStatus {
    if (!this.dig) {
      // Not digging: the book's value and best line as a selection would see them.
      const book = this.book();
      // Searches in slices: on a huge book the first takes seconds, and calls must not wait.
      const left = this.searchBudget(book);
      const selected = book?.preview(left()) ?? null;
      // Nothing left to select (every line from the root is finished, e.g. the root mates at
      // once): the root's value is the book's own, not none, as the book and tree show it.
      const preview = selected ?? (book ? finishedRoot(book, left()) : null);
      return {
        state: "idle",
        thought: 0,
        bookSize: book?.graph.nodeCount ?? 0,
        elapsedMs: 0,
        perHour: 0,
        rootValue: preview?.rootValue ?? null,
        bookValue: book?.bookValue(left()) ?? null,
        // The same search as bookValue: finished (or kept from the last finished one) by now.
        bookPv: book?.bookLine(0) ?? [],
        pv: preview?.line ?? [],
        inFlight: [],
        engines: [],
        lastSelection: null,
        bans: book?.store.bans.count() ?? 0,
        cyclicShare: 0,
        busyShare: null,
        waitingShare: null,
        failed: 0,
        error: this.error,
        choice: null,
      };
    }
    const p = this.dig.progress;
    // Paused or stopped, nothing is in flight any more: the book's value and best line as a
    // selection would now see them (the last selection left out leaves that were being
    // thought, and results came in after it).
    const book = p.state === "stopped" || p.state === "paused" ? this.book() : null;
    const left = book ? this.searchBudget(book, false) : null;
    const preview = book && left ? (book.preview(left()) ?? finishedRoot(book, left())) : null;
    // A root not thought (set since the dig stopped) has no value or line: the dig's last ones
    // are another root's (shown for this one they read negated, and their moves are not legal here).
    const unthought = book !== null && book.rootNode < 0;
    return {
      ...p,
      ...(preview ? { rootValue: preview.rootValue, pv: preview.line } : {}),
      // The book's own value and line as it is now (its root may have changed since the dig stopped).
      ...(book && left ? { bookValue: book.bookValue(left()), bookPv: book.bookLine(0) } : {}),
      ...(unthought ? { rootValue: null, pv: [] } : {}),
      engines: p.engines.map((v) => ({
        index: v.index,
        name: v.name,
        state: v.state,
        sfen: v.sfen,
        think: v.think,
        info: v.lastInfo,
        restarts: v.restarts,
        lastError: v.lastError,
      })),
      error: this.error,
      choice: this.choice,
    };
  }
}

/**
 * The root's value and line when the selection has none (every line from the root finished):
 * the plain book's, when that is a finished value (a mate), with no line left to dig; null
 * otherwise or while unknown.
 */
export function finishedRoot(book: OpenBook, budgetMs: number): { rootValue: number; line: string[] } | null {
  if (book.rootNode < 0 || !book.previewCurrent) return null;
  const value = book.bookValue(budgetMs);
  if (value === null || Math.abs(value) < VALUE_MATE - 1000) return null;
  // No line is "still dug": the finished line is the book's own (bookPv).
  return { rootValue: value, line: [] };
}

/** What a view of the book's positions reads, in short: the graph's generation, the selections made, the positions out. */
function bookMark(book: OpenBook): string {
  return `${book.graph.generation} ${book.jobs.selections} ${book.jobs.inFlight.map((j) => j.sfen).join(",")}`;
}
