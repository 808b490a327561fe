// An open book: the SQLite book of record, the in-memory graph built from it, and the
// selection over it. Every change goes to the store first (one transaction) and then to
// the graph, so the graph never holds anything the file would not have after a crash.

import { rmSync } from "node:fs";
import { BookStore } from "../store/book-store.js";
import type { BookGraph } from "../../shared/book/graph.js";
import { Selector } from "../../shared/book/select.js";
import { thoughtParents } from "../../shared/book/link.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { parseNewRoot, parseRoot } from "../../shared/dig/root.js";
import { DEFAULT_DIG_SETTINGS, settingsFrom, type DigSettings } from "../../shared/dig/settings.js";
import { storedBans, type BookCore } from "./book-core.js";
import { BookEdits } from "./book-edits.js";
import { Follower } from "./follow.js";
import { SNAPSHOT_FORMAT, snapshotPath, storeStamp, writeSnapshot } from "./graph-snapshot.js";
import { Jobs } from "./jobs.js";
import { SNAPSHOT_MIN_POSITIONS, loadGraph, snapshotSlack, type OpenProgress } from "./load-graph.js";
import { boundsFingerprint, boundsPath, takeBounds, writeBounds, type BoundsContext } from "./selection-bounds.js";

// The rooms' own names, for callers that know the book by this file.
export type { Job } from "./book-core.js";
export type { SelectionRecord } from "./jobs.js";
export { deeperLimit, gamePosition } from "./book-edits.js";
export { lineTo } from "./line-to.js";
export { SNAPSHOT_MIN_POSITIONS, loadGraph, snapshotSlack, spareRoom, type OpenProgress } from "./load-graph.js";

export interface OpenTimings {
  graphMs: number;
  positions: number;
  skippedMoves: number;
  /** Read from the snapshot beside the book (and replayed), or rebuilt from every position. */
  from: "snapshot" | "rebuilt";
  /** Positions stored after the snapshot, replayed into it. */
  replayed: number;
  /** Why the snapshot was not used (null when it was). */
  why: string | null;
  /** Whether the selection's bounds saved at the last close were taken (the first selection goes on from them). */
  boundsRestored: boolean;
}

/** The settings the selection and plain-value searches read; a change to any of them invalidates cached bounds. */
const SEARCH_SETTINGS = [
  "root",
  "maxPly",
  "drawBlack",
  "drawWhite",
  "maxLeafPly",
  "evalLimit",
  "kifuBonus",
] as const satisfies readonly (keyof DigSettings)[];

export class OpenBook implements BookCore {
  readonly graph: BookGraph;
  selector: Selector;
  root: Position;
  settings: DigSettings;
  readonly timings: OpenTimings;
  /** Handing positions out and taking their results (jobs.ts). */
  readonly jobs: Jobs;
  /** Working on the book by hand (book-edits.ts). */
  readonly edits: BookEdits;
  /** Read-only books: following another process's dig (follow.ts). */
  readonly follower: Follower;

  private constructor(
    readonly store: BookStore,
    settings: DigSettings,
    readonly problems: string[],
    onProgress?: (p: OpenProgress) => void,
  ) {
    this.settings = settings;
    this.root = parseRoot(settings.root);
    // Before the graph: it reads where the writer is.
    this.follower = new Follower(this);
    const t0 = performance.now();
    const loaded = loadGraph(store, onProgress);
    this.graph = loaded.graph;
    this.snapshotMaxId = loaded.snapshotMaxId;
    this.snapshotSeeds = loaded.snapshotSeeds;
    this.snapshotOutdated = loaded.from === "snapshot" && loaded.snapshotFormat < SNAPSHOT_FORMAT;
    this.loadedEpoch = loaded.epoch;
    this.graph.kifuBonus = settings.kifuBonus;
    for (const b of storedBans(store, this.graph)) this.graph.ban(b.node, b.move);
    // Positions the engines kept failing on stay out of selection, like positions in flight.
    for (const f of store.failures.iterateFailed())
      this.graph.setInFlight(f.keyHi, f.keyLo, true, thoughtParents(this.graph, Position.fromSfen(f.sfen)));
    this.jobs = new Jobs(this);
    this.edits = new BookEdits(this, this.jobs);
    this.timings = {
      graphMs: performance.now() - t0,
      positions: this.graph.nodeCount,
      skippedMoves: loaded.skipped,
      from: loaded.from,
      replayed: loaded.replayed,
      why: loaded.why,
      boundsRestored: false,
    };
    this.selector = this.makeSelector();
    this.timings.boundsRestored = this.restoreBounds();
    // A rebuilt graph, or a long replay, is saved for the next open (small books open fast without).
    if (
      this.graph.nodeCount >= SNAPSHOT_MIN_POSITIONS &&
      (loaded.from === "rebuilt" || loaded.replayed > snapshotSlack(this.graph.nodeCount))
    )
      this.saveSnapshot();
  }

  /** The highest position id in the snapshot file beside the book (-1: none usable). */
  private snapshotMaxId: number;
  /** The last kifu seed whose marks the snapshot beside the book holds (-1: none usable). */
  private snapshotSeeds: number;
  /** The snapshot read was an older format's (no parent blocks): the close saves it again. */
  private snapshotOutdated: boolean;
  /** The store's graph epoch the graph was loaded in. */
  private readonly loadedEpoch: number;

  /**
   * Saves the graph beside the book when it holds exactly what the store holds (no
   * position changed in place since the open, every thought position in the graph).
   * Read-only books never write one. Returns whether it wrote.
   */
  saveSnapshot(): boolean {
    const store = this.store;
    if (store.readonly) return false;
    this.jobs.takeResults();
    const stamp = storeStamp(store);
    if (stamp.epoch !== this.loadedEpoch || this.graph.nodeCount !== store.thoughts.count()) return false;
    try {
      writeSnapshot(snapshotPath(store.path), this.graph, stamp);
      this.snapshotMaxId = stamp.maxId;
      this.snapshotSeeds = stamp.seeds ?? -1;
      this.snapshotOutdated = false;
      return true;
    } catch (e) {
      // A cache: a book that cannot have one (full disk, read-only folder) opens the slow way.
      store.log.add("warn", "snapshot", `could not save the graph snapshot: ${(e as Error).message}`);
      return false;
    }
  }

  /** Opens an existing book (settings come from the file, overridden by `overrides`). */
  static open(
    path: string,
    overrides: Partial<DigSettings> = {},
    opts: {
      readonly?: boolean;
      onProgress?: (p: OpenProgress) => void;
      writer?: string;
      /** false: the overrides apply in memory only, for the caller to store once they took (horu dig, after its engine started). */
      storeOverrides?: boolean;
    } = {},
  ): OpenBook {
    if (overrides.root !== undefined && overrides.root !== "") parseNewRoot(overrides.root); // a new root (horu dig --root) is checked before it is stored
    const store = BookStore.open(path, { readonly: opts.readonly, writer: opts.writer ?? "horu" });
    try {
      const { settings, problems } = settingsFrom(store.settings.all());
      const merged = { ...settings, ...overrides };
      if (!opts.readonly && opts.storeOverrides !== false) for (const [k, v] of Object.entries(overrides)) store.settings.set(k, v);
      return new OpenBook(store, merged, problems, opts.onProgress);
    } catch (e) {
      store.close();
      throw e;
    }
  }

  /**
   * Removes a book this command created and nothing went into (a dig that never started, an
   * import of which nothing went in), with its side files: a typo leaves no empty book behind.
   * Closed first by the caller.
   */
  static removeNew(path: string): void {
    for (const file of [path, `${path}-wal`, `${path}-shm`, snapshotPath(path), boundsPath(path)]) rmSync(file, { force: true });
  }

  /** Creates a new book file with the given settings. */
  static create(path: string, settings: Partial<DigSettings> = {}): OpenBook {
    parseNewRoot(settings.root ?? DEFAULT_DIG_SETTINGS.root); // a bad root fails before a file is made
    const store = BookStore.create(path, { writer: "horu" });
    const merged = { ...DEFAULT_DIG_SETTINGS, ...settings };
    for (const [k, v] of Object.entries(merged)) store.settings.set(k, v);
    return new OpenBook(store, merged, []);
  }

  /** Opens the book, creating it when the file does not exist. */
  static openOrCreate(path: string, settings: Partial<DigSettings>, exists: boolean): OpenBook {
    return exists ? OpenBook.open(path, settings) : OpenBook.create(path, settings);
  }

  get rootNode(): number {
    return this.graph.find(this.root.keyHi, this.root.keyLo);
  }

  private plainSelector: Selector | null = null;
  private plainValue: { generation: number; value: number | null; line: string[] } | null = null;

  /**
   * The book's value and best line from the root as the dig's selection sees them, and the
   * bounds for the book and tree views, without selecting: for a book that is open but not
   * being dug. One search per change of the graph.
   */
  preview(budgetMs = Infinity): { rootValue: number; line: string[] } | null {
    const root = this.rootNode;
    if (root < 0) return null;
    if (this.previewed?.generation !== this.graph.generation) {
      const p = this.selector.preview(root, budgetMs);
      // Out of time (a huge book's first search): the last answer, if any, until a later call finishes it.
      if (p === undefined) return this.previewed?.value ?? null;
      this.previewed = {
        generation: this.graph.generation,
        value: p && { rootValue: p.rootValue, line: p.line.map((st) => moveToUsi(st.move)) },
      };
    }
    return this.previewed.value;
  }
  private previewed: { generation: number; value: { rootValue: number; line: string[] } | null } | null = null;

  /**
   * Searches the whole book until the selection's bounds settle, for saving beside it (a bulk
   * write readies a book so). On a book with cycles one search does not leave them settled:
   * trusting cyclic bounds, a search can answer differently from the one before it on the
   * same book (docs/DESIGN.md §3.6), and each one visits fewer nodes (on the 15M made-up book
   * 11.0M, 1.6M, 0.76M, 0.29M, 0.06M). It stops when a search visits under `settledNodes`
   * (or after `maxSearches`). Returns the nodes of each search.
   */
  settleBounds(settledNodes = 100_000, maxSearches = 8): number[] {
    const root = this.rootNode;
    const nodes: number[] = [];
    if (root < 0) return nodes;
    while (nodes.length < maxSearches) {
      this.selector.preview(root);
      nodes.push(this.selector.lastNodes);
      if (nodes.at(-1)! < settledNodes) break;
    }
    return nodes;
  }

  /** Whether preview() answers for the book as it is now (not an older answer kept while a search in slices goes on). */
  get previewCurrent(): boolean {
    return this.previewed?.generation === this.graph.generation;
  }

  /**
   * The plain book's value at the root (in-flight leaves count, no bonus, no bans); null
   * before the root is thought. A full search, so it is kept until the book changes.
   */
  bookValue(budgetMs = Infinity): number | null {
    return this.plainBook(budgetMs).value;
  }

  /**
   * The book's line from the root: the plain book's best line (a finished line, e.g. to a mate,
   * included; same search as bookValue()), or on a settled book the moves it plays there.
   */
  bookLine(budgetMs = Infinity): string[] {
    return this.jobs.playedLine() ?? this.plainBook(budgetMs).line;
  }

  /** Whether the plain book's value is current (not an older one kept while a search in slices goes on). */
  get bookValueCurrent(): boolean {
    return this.plainValue?.generation === this.graph.generation;
  }

  private plainBook(budgetMs: number): { value: number | null; line: string[] } {
    const root = this.rootNode;
    if (root < 0) return { value: null, line: [] };
    if (this.plainValue?.generation === this.graph.generation) return this.plainValue;
    const s = this.settings;
    this.plainSelector ??= new Selector(this.graph, { plain: true, maxPly: s.maxPly, drawValue: [s.drawBlack, s.drawWhite] });
    const p = this.plainSelector.preview(root, budgetMs);
    if (p === undefined) return this.plainValue ?? { value: null, line: [] };
    this.plainValue = {
      generation: this.graph.generation,
      value: p?.rootValue ?? null,
      line: p ? p.line.map((st) => moveToUsi(st.move)) : [],
    };
    return this.plainValue;
  }

  /**
   * Changes settings on the open book, digging or not: stored first (one transaction),
   * then followed by the next selection and the next think handed out. A new root, ply
   * cap, draw value, leaf limit or kifu bonus makes new selectors (no bound made under the
   * old settings is used) and moves the graph's generation (views memoized on it are made again). The think timeout applies from the next dig.
   */
  updateSettings(patch: Partial<DigSettings>): DigSettings {
    const next = { ...this.settings, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as DigSettings;
    const root = next.root !== this.settings.root ? parseNewRoot(next.root) : this.root; // a bad root changes nothing
    this.store.settings.setMany(patch);
    // Another position (not the same one written otherwise): the chart's values are the old
    // root's (shown for the new one, another side to move, they read negated), and the answer
    // preview() keeps while a search in slices is unfinished is the old root's. (The plain
    // value goes below with the other search settings.)
    if (root.sfenKey() !== this.root.sfenKey()) {
      this.store.chart.clear();
      this.previewed = null;
    }
    const previous = this.settings;
    this.settings = next;
    this.root = root;
    // Only settings the searches read make new selectors and move the generation: the others
    // (MultiPV window, think limits) leave the bounds the book view shows in place.
    if (SEARCH_SETTINGS.some((k) => next[k] !== previous[k])) {
      this.graph.kifuBonus = next.kifuBonus;
      this.selector.close();
      this.plainSelector?.close();
      this.selector = this.makeSelector();
      this.plainSelector = null;
      this.plainValue = null;
      this.graph.generation++;
    }
    return next;
  }

  /** Reads only SEARCH_SETTINGS (with the root and the graph's kifu bonus): keep the two together. */
  private makeSelector(): Selector {
    const s = this.settings;
    return new Selector(this.graph, {
      maxPly: s.maxPly,
      drawValue: [s.drawBlack, s.drawWhite],
      maxLeafPly: s.maxLeafPly,
      evalLimit: s.evalLimit,
    });
  }

  /** What the selection's bounds depend on besides the graph and its sets. */
  private boundsContext(): BoundsContext {
    return { maxPly: this.settings.maxPly, drawValue: [this.settings.drawBlack, this.settings.drawWhite] };
  }

  /** Takes the bounds saved at the last close when they fit this book exactly; whether it did. */
  private restoreBounds(): boolean {
    if (this.graph.nodeCount < SNAPSHOT_MIN_POSITIONS) return false;
    try {
      return takeBounds(boundsPath(this.store.path), boundsFingerprint(this.graph, this.boundsContext()), (saved) =>
        this.selector.restoreBounds(saved),
      );
    } catch {
      return false; // a cache: unreadable is the same as absent
    }
  }

  /** Saves the selection's bounds for the next open (a big book, nothing in flight). */
  private saveBounds(): void {
    if (this.store.readonly || this.graph.nodeCount < SNAPSHOT_MIN_POSITIONS || this.jobs.flyingCount !== 0) return;
    try {
      this.liftUnstoredBans();
      writeBounds(boundsPath(this.store.path), this.selector.boundsSource(), boundsFingerprint(this.graph, this.boundsContext()));
    } catch (e) {
      this.store.log.add("warn", "snapshot", `could not save the selection's bounds: ${(e as Error).message}`);
    }
  }

  /**
   * Lifts the bans that are not stored (those that follow from settings: the ply cap, limits):
   * the next open starts without them, so bounds saved with them would not fit it.
   */
  private liftUnstoredBans(): void {
    const stored = new Set<number>();
    for (const b of storedBans(this.store, this.graph)) stored.add(b.node * 32768 + b.move);
    for (const b of this.graph.bans()) if (!stored.has(b.node * 32768 + b.move)) this.graph.unban(b.node, b.move);
  }

  close(): void {
    this.jobs.settle.close();
    this.jobs.takeResults();
    this.saveBounds();
    // Enough new positions since the last snapshot, or seeds it does not cover (each one a
    // retrograde search at the next open): save one, so the next open replays and searches little.
    if (
      !this.store.readonly &&
      this.graph.nodeCount >= SNAPSHOT_MIN_POSITIONS &&
      (this.snapshotOutdated ||
        this.store.thoughts.maxId() - this.snapshotMaxId > snapshotSlack(this.graph.nodeCount) ||
        this.store.seeds.maxId() > this.snapshotSeeds)
    )
      this.saveSnapshot();
    this.store.close();
  }
}
