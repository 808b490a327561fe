// An open book: the SQLite book of record, the in-memory graph built from it, and the
// selection over it. Every change goes to the store first (one transaction) and then to
// the graph, so the graph never holds anything the file would not have after a crash.

import { existsSync } from "node:fs";
import { BookStore } from "../store/book-store.js";
import { BookGraph } from "../../shared/book/graph.js";
import { buildGraph, insertEntry, insertPosition } from "../../shared/book/link.js";
import { readSnapshot, snapshotPath, storeStamp, writeSnapshot } from "./graph-snapshot.js";
import { boundsFingerprint, boundsPath, readBounds, writeBounds, type BoundsContext } from "./selection-bounds.js";
import { Selector, type Ban, type Selection, type SelectStats } from "../../shared/book/select.js";
import type { Candidate, Provenance } from "../../shared/book/records.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../shared/rules/usi.js";
import { parseRoot } from "../../shared/dig/root.js";
import { DEFAULT_DIG_SETTINGS, settingsFrom, type DigSettings, type ThinkLimit } from "../../shared/dig/settings.js";
import { thoughtParents } from "../../shared/book/link.js";
import { BreadthFirstQueue } from "../../shared/book/breadth-first.js";
import { userError } from "../../shared/api/user-error.js";

/** A position handed out to be thought: the root itself, or the leaf at the end of the book's PV. */
export interface Job {
  sfen: string;
  keyHi: number;
  keyLo: number;
  /** USI moves from the root. */
  line: string[];
  /** The root value of the selection that chose it (null for the root itself). */
  rootValue: number | null;
  /** Its own think limit (think it now / deeper); absent: the book's. */
  limit?: ThinkLimit;
  /** The values of its parent's listed moves (from the parent's side), when selection reached it from a thought parent. */
  parentValues?: number[];
  /** Its legal-move count (the engine widens MultiPV up to it). */
  legalCount?: number;
  /** From the think queue (think now or deeper, an import's plies): thought before the positions selected ahead. */
  asked?: boolean;
}

/** A limit beyond the book's: "think it deeper" (nodes and time x4, depth +4). */
export function deeperLimit(l: ThinkLimit, factor = 4): ThinkLimit {
  return "nodes" in l
    ? { nodes: l.nodes * factor }
    : "depth" in l
      ? { depth: Math.min(127, l.depth + factor) }
      : { movetimeMs: l.movetimeMs * factor };
}

export interface SelectionRecord {
  /** Wall time, its slices summed. */
  ms: number;
  /** This process's CPU time during its slices (the search runs on this thread; the engines are other processes). */
  cpuMs: number;
  stats: SelectStats;
  bans: number;
  /** The bans this selection made: the line to the banned position, the move, why. */
  banList: Array<{ line: string[]; move: string; reason: string }>;
  /** The selected leaf's value as searched (kifu bonus included), from the leaf's parent's side; null when none. */
  leafValue: number | null;
}

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

/**
 * A position an engine may be asked to think, from the user's SFEN: a legal SFEN (Position's
 * checks: piece counts, dead pieces, two pawns on a file, the side not to move in check) with
 * both kings on the board (Position alone allows a missing king, for mate problems; an engine
 * told to search a board without kings answers nonsense, and a book is of games).
 */
export function gamePosition(sfen: string): Position {
  const pos = Position.fromSfen(sfen);
  for (const [c, name] of [
    [0, "black"],
    [1, "white"],
  ] as const)
    if (pos.kingSquare(c) < 0)
      throw userError(`not a game position: ${name} has no king in ${pos.sfenKey()}`, {
        key: "noKing",
        params: { side: name, sfen: pos.sfenKey() },
      });
  return pos;
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

export class OpenBook {
  readonly graph: BookGraph;
  selector: Selector;
  root: Position;
  settings: DigSettings;
  readonly timings: OpenTimings;
  lastSelection: SelectionRecord | null = null;
  /** Selections run since the book was opened, and how many of them trusted a cyclic value (docs/DESIGN.md §3.6). */
  selections = 0;
  cyclicSelections = 0;
  /** Positions handed out and not yet back, by key. */
  private readonly flying = new Map<string, Job>();

  private constructor(
    readonly store: BookStore,
    settings: DigSettings,
    readonly problems: string[],
    onProgress?: (p: OpenProgress) => void,
  ) {
    this.settings = settings;
    this.root = parseRoot(settings.root);
    // Read before the graph: what a writer commits meanwhile is read again by follow() (harmless).
    if (store.readonly) this.followedId = store.maxPositionId();
    const t0 = performance.now();
    const loaded = loadGraph(store, onProgress);
    this.graph = loaded.graph;
    this.snapshotMaxId = loaded.snapshotMaxId;
    this.loadedEpoch = loaded.epoch;
    this.graph.kifuBonus = settings.kifuBonus;
    this.graph.addKifuMany(
      (function* () {
        for (const s of store.iterateKifuSeeds()) yield [s.keyHi, s.keyLo] as const;
      })(),
    );
    for (const b of this.storedBans()) this.graph.ban(b.node, b.move);
    // Positions the engines kept failing on stay out of selection, like positions in flight.
    for (const f of store.iterateFailed()) this.graph.setInFlight(f.keyHi, f.keyLo, true, this.parentIds(Position.fromSfen(f.sfen)));
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
    this.takeResults();
    const stamp = storeStamp(store);
    if (stamp.epoch !== this.loadedEpoch || this.graph.nodeCount !== store.countThought()) return false;
    try {
      writeSnapshot(snapshotPath(store.path), this.graph, stamp);
      this.snapshotMaxId = stamp.maxId;
      return true;
    } catch (e) {
      // A cache: a book that cannot have one (full disk, read-only folder) opens the slow way.
      store.log("warn", "snapshot", `could not save the graph snapshot: ${(e as Error).message}`);
      return false;
    }
  }

  /** Opens an existing book (settings come from the file, overridden by `overrides`). */
  static open(
    path: string,
    overrides: Partial<DigSettings> = {},
    opts: { readonly?: boolean; onProgress?: (p: OpenProgress) => void; writer?: string } = {},
  ): OpenBook {
    const store = BookStore.open(path, { readonly: opts.readonly, writer: opts.writer ?? "horu" });
    try {
      const { settings, problems } = settingsFrom(store.allSettings());
      const merged = { ...settings, ...overrides };
      if (!opts.readonly) for (const [k, v] of Object.entries(overrides)) store.setSetting(k, v);
      return new OpenBook(store, merged, problems, opts.onProgress);
    } catch (e) {
      store.close();
      throw e;
    }
  }

  /** Creates a new book file with the given settings. */
  static create(path: string, settings: Partial<DigSettings> = {}): OpenBook {
    parseRoot(settings.root ?? DEFAULT_DIG_SETTINGS.root); // a bad root fails before a file is made
    const store = BookStore.create(path, { writer: "horu" });
    const merged = { ...DEFAULT_DIG_SETTINGS, ...settings };
    for (const [k, v] of Object.entries(merged)) store.setSetting(k, v);
    return new OpenBook(store, merged, []);
  }

  /** Opens the book, creating it when the file does not exist. */
  static openOrCreate(path: string, settings: Partial<DigSettings>, exists: boolean): OpenBook {
    return exists ? OpenBook.open(path, settings) : OpenBook.create(path, settings);
  }

  get rootNode(): number {
    return this.graph.find(this.root.keyHi, this.root.keyLo);
  }

  get inFlight(): Job[] {
    return [...this.flying.values()];
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

  /** The plain book's best line from the root (a finished line, e.g. to a mate, included): same search as bookValue(). */
  bookLine(budgetMs = Infinity): string[] {
    return this.plainBook(budgetMs).line;
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
    const root = next.root !== this.settings.root ? parseRoot(next.root) : this.root; // a bad root changes nothing
    this.store.setSettings(patch);
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

  /**
   * The next position to think, marked in flight; null when there is nothing to hand out
   * now (every leaf in flight, banned or failed). Bans made on the way are stored.
   */
  next(): Job | null {
    return this.nextWithin(Infinity) as Job | null;
  }

  /**
   * next() given about `budgetMs` of selection: "later" when the selection needs more (the
   * first one on a huge book takes seconds); asking again goes on from the bounds it found,
   * so the caller can answer other calls between the slices.
   */
  nextWithin(budgetMs: number): Job | null | "later" {
    // The queue is read when a selection starts, not at each of its slices (a query a slice
    // on a book of millions was a share of the dig's own CPU): a position queued meanwhile
    // goes out next.
    const queued = this.unfinished === null ? this.nextQueued() : null;
    if (queued) return queued;
    const root = this.rootNode;
    if (root < 0) {
      const key = `${this.root.keyHi}:${this.root.keyLo}`;
      if (this.flying.has(key) || this.graph.isInFlight(this.root.keyHi, this.root.keyLo)) return null;
      return this.fly({ sfen: this.root.sfenKey(), keyHi: this.root.keyHi, keyLo: this.root.keyLo, line: [], rootValue: null });
    }
    if (this.settings.policy === "breadth-first") return this.nextBreadthFirst(root);
    const t0 = performance.now(),
      c0 = process.cpuUsage();
    const s = this.selector.select(root, budgetMs);
    // A selection in slices counts as one: its time and nodes summed, its bans all kept.
    const before = this.unfinished;
    const ms = performance.now() - t0 + (before?.ms ?? 0);
    const c = process.cpuUsage(c0);
    const cpuMs = (c.user + c.system) / 1000 + (before?.cpuMs ?? 0);
    const stats = before
      ? {
          nodes: before.stats.nodes + s.stats.nodes,
          searches: before.stats.searches + s.stats.searches,
          cyclicTrusted: before.stats.cyclicTrusted + s.stats.cyclicTrusted,
          ms,
        }
      : s.stats;
    const bans = before ? [...before.bans, ...s.bans] : s.bans;
    if (s.kind === "unfinished") {
      this.unfinished = { ms, cpuMs, stats, bans };
      return "later";
    }
    this.unfinished = null;
    try {
      return this.selected(s, ms, cpuMs, stats, bans);
    } finally {
      // Results that came during the selection go in now, before the next one starts.
      this.takeResults();
    }
  }

  private selected(s: Selection, ms: number, cpuMs: number, stats: SelectStats, bans: Ban[]): Job | null {
    this.lastSelection = {
      ms,
      cpuMs,
      stats,
      bans: bans.length,
      banList: bans.map((b) => ({ line: b.path.map(moveToUsi), move: moveToUsi(b.move), reason: b.reason })),
      leafValue: s.kind === "leaf" ? s.leaf.value : null,
    };
    this.selections++;
    if (s.stats.cyclicTrusted > 0) this.cyclicSelections++;
    // Bans that follow from settings (limits, the ply cap) are made again as needed and are
    // not stored, so changing a setting later takes effect.
    if (!this.store.readonly) this.storeBans(bans.filter((ban) => ban.reason === "repetition" || ban.reason === "terminal"));
    if (s.kind === "none") return null;
    const pos = this.root.clone();
    for (const step of s.line) pos.doMove(step.move);
    return this.fly(
      {
        sfen: pos.sfenKey(),
        keyHi: s.leaf.childHi,
        keyLo: s.leaf.childLo,
        line: s.line.map((st) => moveToUsi(st.move)),
        rootValue: s.rootValue,
        parentValues: this.listedValues(s.leaf.node),
      },
      pos,
    );
  }

  /** A selection given too little time so far: what its slices found and took. */
  private unfinished: { ms: number; cpuMs: number; stats: SelectStats; bans: Ban[] } | null = null;

  /** The thought parents' ids, so the graph tells its selectors which nodes a change of the in-flight set touched. */
  private parentIds(pos: Position): number[] {
    return thoughtParents(this.graph, pos).map((p) => this.graph.find(p.keyHi, p.keyLo));
  }

  /** The breadth-first policy's hand-out order (shared/book/breadth-first.ts). */
  private breadthFirst: BreadthFirstQueue | null = null;

  /** The ply of the level the breadth-first policy is on (0 before it starts). */
  get breadthFirstPly(): number {
    return this.breadthFirst?.ply ?? 0;
  }

  private nextBreadthFirst(root: number): Job | null {
    const s = this.settings;
    this.breadthFirst ??= new BreadthFirstQueue(this.graph);
    const leaf = this.breadthFirst.next(root, { windowCp: s.windowCp, maxPly: s.maxLeafPly, evalLimit: s.evalLimit }, (hi, lo) =>
      this.flying.has(`${hi}:${lo}`),
    );
    if (!leaf) return null;
    const pos = this.root.clone();
    for (const m of leaf.line) pos.doMove(m);
    return this.fly({
      sfen: pos.sfenKey(),
      keyHi: leaf.childHi,
      keyLo: leaf.childLo,
      line: leaf.line.map(moveToUsi),
      rootValue: null,
      parentValues: this.listedValues(leaf.parent),
    });
  }

  private listedValues(node: number): number[] {
    const g = this.graph;
    return Array.from(g.eValue.subarray(g.edgeStart[node], g.edgeStart[node]! + g.edgeCount[node]!));
  }

  /**
   * The oldest queued position (game records to think, `import --think-plies`) that is not
   * thought and not in flight. Thought or failed ones still queued (thought by an import,
   * failed before they were queued) are dropped on the way.
   */
  private nextQueued(): Job | null {
    if (this.store.readonly) return null;
    for (;;) {
      // In-flight entries are skipped, so look a little past them.
      const rows = this.store.peekThinkQueue(this.flying.size + 8);
      let dropped = false;
      for (const q of rows) {
        if (this.flying.has(`${q.keyHi}:${q.keyLo}`)) continue;
        // A position queued with its own limit is thought again even when thought ("deeper").
        const limit = q.limit;
        if ((limit === undefined && this.graph.find(q.keyHi, q.keyLo) >= 0) || this.graph.isInFlight(q.keyHi, q.keyLo)) {
          this.store.removeFromThinkQueue(q.sfen);
          dropped = true;
          continue;
        }
        return this.fly({
          sfen: q.sfen,
          keyHi: q.keyHi,
          keyLo: q.keyLo,
          line: lineTo(this, q.sfen, { viaParent: true }) ?? [],
          rootValue: null,
          asked: true,
          ...(limit ? { limit } : {}),
        });
      }
      if (!dropped) return null; // empty, or all of it in flight
    }
  }

  /**
   * Marks a job in flight. The position goes with it to the insert of its result: parsed
   * once (or made by the selection's own moves), its legal moves generated once.
   */
  private fly(job: Job, pos: Position = Position.fromSfen(job.sfen)): Job {
    const key = `${job.keyHi}:${job.keyLo}`;
    const legal = new Uint16Array(600);
    const count = pos.generateLegal(legal);
    job.legalCount = count;
    this.flying.set(key, job);
    this.flyingPos.set(key, { pos, legal: legal.subarray(0, count) });
    this.graph.setInFlight(job.keyHi, job.keyLo, true, this.parentIds(pos));
    return job;
  }
  /** The positions of the jobs in flight, with their legal moves. */
  private readonly flyingPos = new Map<string, { pos: Position; legal: Uint16Array }>();

  /** Gives a position back unthought (stopped, cancelled, or not stored). */
  release(job: Job): void {
    const key = `${job.keyHi}:${job.keyLo}`;
    const pos = this.flyingPos.get(key)?.pos ?? Position.fromSfen(job.sfen);
    this.flying.delete(key);
    this.flyingPos.delete(key);
    this.graph.setInFlight(job.keyHi, job.keyLo, false, this.parentIds(pos));
  }

  /**
   * Stores a think result (one transaction, durable on return) and adds it to the graph, or,
   * while a selection is under way in slices, once that selection ends: taken in at once, it
   * would send the selection's next slice back to the root over a changed book (on a huge
   * book results come faster than a long selection's slices). Until then the position stays
   * in flight, as if its result had come a little later.
   */
  addResult(job: Job, candidates: Candidate[], provenance: Provenance): void {
    this.store.addThought({ sfen: job.sfen, keyHi: job.keyHi, keyLo: job.keyLo, candidates, provenance, thoughtAt: Date.now() });
    this.pendingResults.push(() => this.insertResult(job, candidates));
    if (this.unfinished === null) this.takeResults();
  }

  /** Results stored while a selection was under way, waiting for it to end to go into the graph. */
  private pendingResults: Array<() => void> = [];

  /** Puts results stored during a selection into the graph now (a dig that pauses or stops, a close). */
  takeResults(): void {
    const pending = this.pendingResults;
    this.pendingResults = [];
    for (const insert of pending) insert();
  }

  private insertResult(job: Job, candidates: Candidate[]): void {
    const key = `${job.keyHi}:${job.keyLo}`;
    const held = this.flyingPos.get(key);
    const pos = held?.pos ?? Position.fromSfen(job.sfen);
    const parents = thoughtParents(this.graph, pos);
    this.flying.delete(key);
    this.flyingPos.delete(key);
    this.graph.setInFlight(
      job.keyHi,
      job.keyLo,
      false,
      parents.map((p) => this.graph.find(p.keyHi, p.keyLo)),
    );
    insertPosition(this.graph, pos, candidates, parents, held?.legal);
  }

  /** Gives up on a position: stored as failed, kept out of selection. */
  markFailed(job: Job, error: string): void {
    this.store.markFailed({ sfen: job.sfen, keyHi: job.keyHi, keyLo: job.keyLo });
    this.store.log("warn", "failed", `gave up on ${job.sfen}: ${error}`);
    this.flying.delete(`${job.keyHi}:${job.keyLo}`); // stays in the graph's searching set for good
    this.flyingPos.delete(`${job.keyHi}:${job.keyLo}`);
  }

  // --- Working on the book by hand ----------------------------------------

  private writable(): void {
    if (this.store.readonly) {
      const h = this.store.lockHolder();
      throw userError(`read-only: ${h ? `pid ${h.pid} on ${h.host} is writing this book` : "this book is open read-only"}`, {
        key: "readOnly",
      });
    }
  }

  /**
   * Thinks a position next, ahead of the queue and of selection. `limit` thinks it with
   * that limit, also when it is thought already (the new result replaces the old one in
   * the transaction that stores it). A failed position is released first.
   */
  thinkNow(sfen: string, limit?: ThinkLimit, source = "think now"): { sfen: string; limit: ThinkLimit | null } {
    this.writable();
    const pos = gamePosition(sfen);
    const key = pos.sfenKey();
    if (this.flying.has(`${pos.keyHi}:${pos.keyLo}`)) throw userError(`${key} is being thought now`, { key: "beingThought" });
    if (this.graph.find(pos.keyHi, pos.keyLo) >= 0 && limit === undefined) limit = deeperLimit(this.settings.limit, 1);
    this.retry(key);
    this.store.queueFirst({ sfen: key, keyHi: pos.keyHi, keyLo: pos.keyLo, source, limit });
    return { sfen: key, limit: limit ?? null };
  }

  /** Thinks a thought position again with a higher limit than the book's. */
  thinkDeeper(sfen: string, factor = 4): { sfen: string; limit: ThinkLimit | null } {
    return this.thinkNow(sfen, deeperLimit(this.settings.limit, factor), "think deeper");
  }

  /**
   * Adds a move to the book: its position is thought next, and once thought the move is
   * an internal edge of every thought position it is legal from (docs/DESIGN.md §2).
   */
  addMove(sfen: string, usi: string): { sfen: string; limit: ThinkLimit | null } {
    const pos = gamePosition(sfen);
    const m = parseUsiMove(usi);
    if (m === null || !pos.isLegal(m)) throw userError(`${usi} is not a legal move in ${pos.sfenKey()}`, { key: "illegalMove" });
    pos.doMove(m);
    if (this.graph.find(pos.keyHi, pos.keyLo) >= 0) return { sfen: pos.sfenKey(), limit: null }; // already in the book
    return this.thinkNow(pos.sfenKey(), undefined, "added move");
  }

  /** Lifts a ban; selection may pick the move again. */
  unban(sfen: string, move: string): boolean {
    this.writable();
    const pos = Position.fromSfen(sfen);
    const removed = this.store.removeBan(pos.sfenKey(), move);
    const node = this.graph.find(pos.keyHi, pos.keyLo),
      m = parseUsiMove(move);
    if (node >= 0 && m !== null) this.graph.unban(node, m);
    return removed;
  }

  /** Releases failed positions (all, or one) so selection may hand them out again. */
  retry(sfen?: string): number {
    this.writable();
    const rows = this.store.retryFailed(sfen === undefined ? undefined : Position.fromSfen(sfen).sfenKey());
    for (const r of rows)
      if (!this.flying.has(`${r.keyHi}:${r.keyLo}`))
        this.graph.setInFlight(r.keyHi, r.keyLo, false, this.parentIds(Position.fromSfen(r.sfen)));
    return rows.length;
  }

  /**
   * The thought positions a prune of `sfen` removes: it and every thought position below
   * it that the root cannot reach without passing through it (others stay: they are
   * still in the book by another route).
   */
  pruneSet(sfen: string): string[] {
    return this.pruneTargets(sfen).sfens;
  }

  private pruneTargets(sfen: string): { ids: number[]; sfens: string[] } {
    const g = this.graph;
    const pos = Position.fromSfen(sfen);
    const target = g.find(pos.keyHi, pos.keyLo);
    if (target < 0) throw userError(`${pos.sfenKey()} is not a thought position of this book`, { key: "notThought" });
    if (target === this.rootNode) throw userError("the root cannot be pruned", { key: "pruneRoot" });
    const reach = (from: number, avoid: number): Uint8Array => {
      const seen = new Uint8Array(g.nodeCount);
      if (from < 0 || from === avoid) return seen;
      const stack = [from];
      seen[from] = 1;
      while (stack.length) {
        g.forEachEdge(stack.pop()!, (_m, child) => {
          if (child >= 0 && child !== avoid && !seen[child]) {
            seen[child] = 1;
            stack.push(child);
          }
        });
      }
      return seen;
    };
    const kept = reach(this.rootNode, target);
    const below = reach(target, -1);
    const ids: number[] = [];
    for (let n = 0; n < g.nodeCount; n++) if (below[n] && !kept[n]) ids.push(n);
    // SFENs come from the store (by the key index): the graph keeps keys only.
    const sfens: string[] = [];
    for (const n of ids) {
      const sfen = this.store.thoughtSfenOfKey(g.keyHi[n], g.keyLo[n]);
      if (sfen !== null) sfens.push(sfen);
    }
    return { ids, sfens };
  }

  /**
   * Prunes a subtree (see pruneSet), kept for undo. The graph cannot drop nodes, so the
   * caller reopens the book afterwards (HostService does; the CLI works on the file). What
   * remains is saved as the snapshot of the store's new epoch, so that reopen reads it in
   * seconds instead of rebuilding from every position (minutes on a 1M-position book).
   */
  prune(sfen: string): { batch: number; positions: number } {
    this.writable();
    if (this.flying.size > 0) throw userError("stop the dig before pruning", { key: "stopDigFirst" });
    const { ids, sfens } = this.pruneTargets(sfen);
    const r = this.store.prune(sfens, Position.fromSfen(sfen).sfenKey());
    const snap = snapshotPath(this.store.path);
    if (r.positions > 0 && (this.graph.nodeCount >= SNAPSHOT_MIN_POSITIONS || existsSync(snap))) {
      const gone = new Uint8Array(this.graph.nodeCount);
      for (const id of ids) gone[id] = 1;
      const rest = this.graph.without(gone);
      if (rest.nodeCount === this.store.countThought()) {
        try {
          writeSnapshot(snap, rest, storeStamp(this.store));
        } catch (e) {
          this.store.log("warn", "snapshot", `could not save the graph snapshot after the prune: ${(e as Error).message}`);
        }
      }
    }
    return r;
  }

  /** Puts the last pruned subtree back (into the store and the graph). */
  undoPrune(): { batch: number; positions: number } | null {
    this.writable();
    const r = this.store.undoPrune();
    if (!r) return null;
    for (const t of r.restored) insertEntry(this.graph, t);
    return { batch: r.batch, positions: r.restored.length };
  }

  /** A position's comment (empty text removes it): only on a position of the book (thought, the root, a seed, or a move from a thought one). */
  comment(sfen: string, text: string): void {
    this.writable();
    const pos = Position.fromSfen(sfen);
    const inBook =
      this.graph.find(pos.keyHi, pos.keyLo) >= 0 ||
      pos.sfenKey() === this.root.sfenKey() ||
      this.graph.kifu.has(pos.keyHi, pos.keyLo) ||
      thoughtParents(this.graph, pos).length > 0;
    if (!inBook && text.trim() !== "")
      throw userError(`${pos.sfenKey()} is not a position of this book: comments go on the book's positions`, {
        key: "notInBook",
        params: { sfen: pos.sfenKey() },
      });
    this.store.setComment({ sfen: pos.sfenKey(), keyHi: pos.keyHi, keyLo: pos.keyLo }, text);
  }

  // --- Following a book another process digs ------------------------------------------

  private followedId = 0;
  private followedVersion = -1;

  /**
   * Read-only books: takes in what another process committed since the last call (new
   * thought positions, bans, failed positions). Cheap when nothing changed (one PRAGMA).
   * Returns the number of positions added.
   */
  follow(maxPositions = 50_000): number {
    const version = this.store.dataVersion();
    if (version === this.followedVersion) return 0;
    let added = 0;
    for (;;) {
      const rows = this.store.thoughtSince(this.followedId, 2000);
      for (const t of rows) {
        insertEntry(this.graph, t);
        this.followedId = t.id;
      }
      added += rows.length;
      if (rows.length < 2000 || added >= maxPositions) break;
    }
    if (added < maxPositions) this.followedVersion = version; // more to read next time otherwise
    for (const b of this.storedBans()) if (!this.graph.isBanned(b.node, b.move)) this.graph.ban(b.node, b.move);
    for (const f of this.store.iterateFailed())
      if (!this.graph.isInFlight(f.keyHi, f.keyLo))
        this.graph.setInFlight(f.keyHi, f.keyLo, true, this.parentIds(Position.fromSfen(f.sfen)));
    return added;
  }

  /** One selection's bans, with the line that reached each, in one transaction. */
  private storeBans(bans: Ban[]): void {
    if (bans.length === 0) return;
    this.store.addBans(
      bans.map((ban) => {
        const pos = this.root.clone();
        for (const m of ban.path) pos.doMove(m);
        return {
          sfen: pos.sfenKey(),
          keyHi: pos.keyHi,
          keyLo: pos.keyLo,
          move: moveToUsi(ban.move),
          reason: ban.reason,
          line: ban.path.map(moveToUsi),
        };
      }),
    );
  }

  /** What the selection's bounds depend on besides the graph and its sets. */
  private boundsContext(): BoundsContext {
    return { maxPly: this.settings.maxPly, drawValue: [this.settings.drawBlack, this.settings.drawWhite] };
  }

  /** Takes the bounds saved at the last close when they fit this book exactly; whether it did. */
  private restoreBounds(): boolean {
    if (this.graph.nodeCount < SNAPSHOT_MIN_POSITIONS) return false;
    try {
      const saved = readBounds(boundsPath(this.store.path), boundsFingerprint(this.graph, this.boundsContext()));
      if (!saved) return false;
      this.selector.restoreBounds(saved);
      return true;
    } catch {
      return false; // a cache: unreadable is the same as absent
    }
  }

  /** Saves the selection's bounds for the next open (a big book, nothing in flight). */
  private saveBounds(): void {
    if (this.store.readonly || this.graph.nodeCount < SNAPSHOT_MIN_POSITIONS || this.flying.size !== 0) return;
    try {
      this.liftUnstoredBans();
      writeBounds(boundsPath(this.store.path), this.selector.savedBounds(), boundsFingerprint(this.graph, this.boundsContext()));
    } catch (e) {
      this.store.log("warn", "snapshot", `could not save the selection's bounds: ${(e as Error).message}`);
    }
  }

  /**
   * Lifts the bans that are not stored (those that follow from settings: the ply cap, limits):
   * the next open starts without them, so bounds saved with them would not fit it.
   */
  private liftUnstoredBans(): void {
    const stored = new Set<number>();
    for (const b of this.storedBans()) stored.add(b.node * 32768 + b.move);
    for (const b of this.graph.bans()) if (!stored.has(b.node * 32768 + b.move)) this.graph.unban(b.node, b.move);
  }

  /** The stored bans as the graph names them (a ban of a position not in the graph is left out). */
  private *storedBans(): Generator<{ node: number; move: number }> {
    for (const b of this.store.listBans()) {
      const node = this.graph.find(b.keyHi, b.keyLo),
        move = parseUsiMove(b.move);
      if (node >= 0 && move !== null) yield { node, move };
    }
  }

  close(): void {
    this.takeResults();
    this.saveBounds();
    // Enough new positions since the last snapshot: save one, so the next open replays few.
    if (
      !this.store.readonly &&
      this.graph.nodeCount >= SNAPSHOT_MIN_POSITIONS &&
      this.store.maxPositionId() - this.snapshotMaxId > snapshotSlack(this.graph.nodeCount)
    )
      this.saveSnapshot();
    this.store.close();
  }
}

/** Books smaller than this build their graph in about a second: no snapshot is written for them. */
export const SNAPSHOT_MIN_POSITIONS = 20_000;

/** Positions a snapshot may lag behind before it is worth writing again (a replay of this many is quick). */
export function snapshotSlack(nodes: number): number {
  return Math.max(10_000, Math.floor(nodes / 50));
}

/**
 * Room for positions added after an open from the snapshot. Without it a dig's first result
 * grows every array of the graph by half at once (and each selector's with them): a copy of
 * the whole graph on the host's thread, 0.4 s at 1M positions and 7 s at 15M (2 shared
 * cores). Room not used yet costs address space, not memory (its pages are never touched).
 */
export function spareRoom(positions: number): number {
  return Math.max(65_536, Math.floor(positions / 8));
}

/** Where an open stands: reading the snapshot (bytes), replaying positions stored after it, or a rebuild's two passes. */
export interface OpenProgress {
  phase: "snapshot" | "replay" | "positions" | "links";
  done: number;
  total: number;
}

/**
 * The graph of a book: its snapshot plus the positions stored after it, or (no usable
 * snapshot) a rebuild from every stored position.
 */
export function loadGraph(
  store: BookStore,
  onProgress?: (p: OpenProgress) => void,
): {
  graph: BookGraph;
  skipped: number;
  from: "snapshot" | "rebuilt";
  replayed: number;
  why: string | null;
  snapshotMaxId: number;
  epoch: number;
} {
  const stamp = storeStamp(store);
  let lastReport = 0;
  const report = (phase: OpenProgress["phase"], done: number, total: number) => {
    const now = performance.now();
    if (onProgress && (now - lastReport > 100 || done === total)) {
      lastReport = now;
      onProgress({ phase, done, total });
    }
  };
  const thought = store.countThought();
  const snap = readSnapshot(
    snapshotPath(store.path),
    stamp,
    (done, total) => report("snapshot", done, total),
    thought + spareRoom(thought),
  );
  if (snap.graph) {
    const graph = snap.graph;
    let skipped = 0;
    let replayed = 0;
    const total = Math.max(0, store.countThought() - graph.nodeCount);
    for (let after = snap.stamp.maxId; ;) {
      const rows = store.thoughtSince(after, 2000);
      for (const t of rows) {
        skipped += insertEntry(graph, t).skipped.length;
        after = t.id;
      }
      replayed += rows.length;
      report("replay", Math.min(replayed, total), total);
      if (rows.length < 2000) break;
    }
    return { graph, skipped, from: "snapshot", replayed, why: null, snapshotMaxId: snap.stamp.maxId, epoch: stamp.epoch };
  }
  // Sized as the generator and every rebuild size it, so the snapshot saved after it is the same bytes.
  const total = thought;
  const built = buildGraph(
    () => store.iterateThought(),
    Math.max(1024, total),
    (phase, done) => report(phase === "nodes" ? "positions" : "links", done, total),
  );
  report("links", total, total);
  return { graph: built.graph, skipped: built.skipped, from: "rebuilt", replayed: 0, why: snap.why, snapshotMaxId: -1, epoch: stamp.epoch };
}

/**
 * The shortest line from the root to a thought position through the book (breadth-first,
 * bounded); with viaParent, also to an unthought one through a thought parent. Null when none is found.
 */
export function lineTo(book: OpenBook, sfen: string, opts: { viaParent?: boolean } = {}): string[] | null {
  const target = Position.fromSfen(sfen);
  const g = book.graph;
  const start = book.rootNode;
  if (target.keyHi === book.root.keyHi && target.keyLo === book.root.keyLo) return [];
  if (start < 0) return null;
  // The target need not be thought: reaching a thought parent of it is enough.
  const parents = new Map<number, number>();
  const goal = g.find(target.keyHi, target.keyLo);
  if (goal < 0 && !opts.viaParent) return null;
  if (goal < 0)
    for (const p of thoughtParents(g, target)) {
      const id = g.find(p.keyHi, p.keyLo);
      if (id >= 0) parents.set(id, p.move);
    }
  const prev = new Map<number, [number, number]>([[start, [-1, 0]]]);
  const queue = [start];
  const reached = (n: number) => n === goal || parents.has(n);
  // Stopped when the goal is first seen, not when its turn in the queue comes: the same line
  // (breadth first, the first parent to see it), without expanding the nodes queued before it
  // (on a 15M book, most of a whole ply).
  let found = reached(start) ? start : -1;
  for (let i = 0; found < 0 && i < queue.length && i < 200_000; i++) {
    const n = queue[i];
    g.forEachEdge(n, (move, child) => {
      if (found >= 0 || child < 0 || prev.has(child)) return;
      prev.set(child, [n, move]);
      if (reached(child)) found = child;
      else queue.push(child);
    });
  }
  if (found < 0) return null;
  const moves: string[] = [];
  if (found !== goal) moves.push(moveToUsi(parents.get(found)!));
  for (let n = found; n !== start;) {
    const [p, m] = prev.get(n)!;
    moves.push(moveToUsi(m));
    n = p;
  }
  return moves.reverse();
}
