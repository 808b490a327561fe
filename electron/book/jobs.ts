// Handing positions out to be thought and taking their results back: the positions in
// flight, the selection (in slices) that picks the next one, and the insert of each result
// into the store (first, one transaction) and then the graph.
import { Predecessors, insertPosition, thoughtParents } from "../../shared/book/link.js";
import type { Ban, Selection, SelectStats } from "../../shared/book/select.js";
import type { Candidate, Provenance } from "../../shared/book/records.js";
import { bookLine } from "../../shared/book/quality.js";
import { playChoice } from "../../shared/book/settle.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { listedValues, type BookCore, type Job } from "./book-core.js";
import { BreadthFirstJobs } from "./breadth-first-jobs.js";
import { BookMinimax } from "./book-minimax.js";
import { CoverJobs } from "./cover-jobs.js";
import { SettleJobs } from "./settle-jobs.js";
import { nextQueued } from "./queued-jobs.js";

export type { Job } from "./book-core.js";

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

/**
 * Where the CPU of handing out and taking back goes (`horu bench replay` turns it on; a dig
 * does not pay the clock reads): ms of this process's CPU in each part.
 */
export interface JobCosts {
  /** Storing results: the SQLite transaction (rows, log, commit). */
  store: number;
  /** Taking results into the graph: parents found, the position linked, bounds told. */
  insert: number;
  /** Marking positions in flight: the position made, its legal moves, the graph told. */
  fly: number;
}

/** Where fly generates a position's legal moves (at most 593), kept at their count. */
const legalScratch = new Uint16Array(600);

/** Milliseconds of this process's CPU since `c0`. */
function cpuSince(c0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

export class Jobs {
  lastSelection: SelectionRecord | null = null;
  /** Set to count where the CPU goes (JobCosts); null: not counted. */
  costs: JobCosts | null = null;
  /** Selections run since the book was opened, and how many of them trusted a cyclic value (docs/DESIGN.md §3.6). */
  selections = 0;
  cyclicSelections = 0;
  /** Positions handed out and not yet back, by key. */
  private readonly flying = new Map<string, Job>();
  /** The positions of the jobs in flight, with their legal moves and their possible parents (found once). */
  private readonly flyingPos = new Map<string, { pos: Position; legal: Uint16Array; preds: Predecessors }>();
  /** A selection given too little time so far: what its slices found and took. */
  private unfinished: { ms: number; cpuMs: number; stats: SelectStats; bans: Ban[] } | null = null;
  /** Results stored while a selection was under way, waiting for it to end to go into the graph. */
  private pendingResults: Array<() => void> = [];
  private readonly breadthFirst: BreadthFirstJobs;
  private readonly minimax: BookMinimax;
  private readonly cover: CoverJobs;
  readonly settle: SettleJobs;

  constructor(private readonly book: BookCore) {
    this.breadthFirst = new BreadthFirstJobs(book);
    this.minimax = new BookMinimax(book);
    this.cover = new CoverJobs(book, this.minimax);
    this.settle = new SettleJobs(book);
  }

  /** Past this many thought positions a view (playedLine) does not compute the book's minimax. */
  viewComputeMax = 10_000;
  /** A settled book's line from the root by the moves it plays: kept with the root and the compute it came from. */
  private played: { root: string; computes: number; line: string[] } | null = null;

  /**
   * A settled book's line from the root by the moves it plays (its engine's own best unless the
   * minimax beats it by the margin: shared/book/settle.ts), which can leave the minimax's line;
   * null when the book is not settled. It is the line of the last compute until the book's
   * minimax is affordable again (BookMinimax); past `viewComputeMax` positions the view computes
   * nothing (seconds there, on the thread that answers the page) and shows the line the last
   * settle round found on its own thread, else the last computed one, else null.
   */
  playedLine(): string[] | null {
    const s = this.book.settings;
    if (playChoice(s).kind === "minimax") return null;
    const root = this.book.root.sfenKey();
    const kept = this.played?.root === root ? this.played : null;
    // A view computes the book's minimax only on a small book, and only as often as the dig may.
    const big = this.book.store.thoughts.count() > this.viewComputeMax;
    if (!this.minimax.current && big) return this.settle.lineFrom(root) ?? kept?.line ?? null;
    if (!this.minimax.current && kept && !this.minimax.affordable()) return kept.line;
    const book = this.minimax.compute();
    if (kept?.computes === this.minimax.computes) return kept.line;
    this.played = { root, computes: this.minimax.computes, line: bookLine(this.book.root, (k) => book.get(k), playChoice(s)) };
    return this.played.line;
  }

  get inFlight(): Job[] {
    return [...this.flying.values()];
  }

  /** How many positions are in flight. */
  get flyingCount(): number {
    return this.flying.size;
  }

  isFlying(keyHi: number, keyLo: number): boolean {
    return this.flying.has(`${keyHi}:${keyLo}`);
  }

  /** The ply of the level the breadth-first policy is on (0 before it starts). */
  get breadthFirstPly(): number {
    return this.breadthFirst.ply;
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
    const book = this.book;
    // The queue is read when a selection starts, not at each of its slices (a query a slice
    // on a book of millions was a share of the dig's own CPU): a position queued meanwhile
    // goes out next.
    const queued = this.unfinished === null ? nextQueued(book, this.flying.size, (hi, lo) => this.isFlying(hi, lo)) : null;
    if (queued) return this.fly(queued);
    const root = book.rootNode;
    if (root < 0) {
      const r = book.root;
      if (this.isFlying(r.keyHi, r.keyLo) || book.graph.isInFlight(r.keyHi, r.keyLo)) return null;
      return this.fly({ sfen: r.sfenKey(), keyHi: r.keyHi, keyLo: r.keyLo, line: [], rootValue: null });
    }
    const settings = book.settings;
    if (settings.policy === "breadth-first") {
      const job = this.breadthFirst.next(root, settings.maxLeafPly, (hi, lo) => this.isFlying(hi, lo));
      return job && this.fly(job);
    }
    if (settings.breadthPlies > 0 && this.unfinished === null) {
      // The plies near the root first, breadth first; while their last level is being
      // thought (null), the selection goes on below them (a selection in slices finishes first).
      const { maxLeafPly, breadthPlies } = settings;
      const maxPly = maxLeafPly > 0 ? Math.min(maxLeafPly, breadthPlies) : breadthPlies;
      const job = this.breadthFirst.next(root, maxPly, (hi, lo) => this.isFlying(hi, lo));
      if (job) return this.fly(job);
    }
    if (settings.settleFactor > 0 && this.unfinished === null) {
      // A round of the positions the book plays into, thought again deeper.
      const job = this.settle.next(settings.settleFactor, (hi, lo) => this.isFlying(hi, lo));
      if (job) return this.fly(job);
    }
    if (settings.coverOneIn > 0 && this.unfinished === null) {
      // Where the book's games would leave it, likeliest first; the rarer ones to selection.
      const job = this.cover.next(settings.coverOneIn, (hi, lo) => this.isFlying(hi, lo));
      if (job) return this.fly(job);
    }
    const t0 = performance.now(),
      c0 = process.cpuUsage();
    const s = book.selector.select(root, budgetMs);
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
    if (!this.book.store.readonly) this.storeBans(bans.filter((ban) => ban.reason === "repetition" || ban.reason === "terminal"));
    if (s.kind === "none") return null;
    const pos = this.book.root.clone();
    for (const step of s.line) pos.doMove(step.move);
    return this.fly(
      {
        sfen: pos.sfenKey(),
        keyHi: pos.keyHi,
        keyLo: pos.keyLo,
        line: s.line.map((st) => moveToUsi(st.move)),
        rootValue: s.rootValue,
        parentValues: listedValues(this.book.graph, s.leaf.node),
      },
      pos,
    );
  }

  /** One selection's bans, with the line that reached each, in one transaction. */
  private storeBans(bans: Ban[]): void {
    if (bans.length === 0) return;
    this.book.store.bans.addMany(
      bans.map((ban) => {
        const pos = this.book.root.clone();
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

  /**
   * Marks a job in flight. The position goes with it to the insert of its result: parsed
   * once (or made by the selection's own moves), its legal moves and its possible parents
   * (retrograde moves, verified when met in the graph) generated once.
   */
  private fly(job: Job, pos?: Position): Job {
    const c0 = this.costs && process.cpuUsage();
    const p = pos ?? Position.fromSfen(job.sfen);
    const key = `${job.keyHi}:${job.keyLo}`;
    const count = p.generateLegal(legalScratch);
    const legal = legalScratch.slice(0, count);
    job.legalCount = count;
    const preds = new Predecessors(p);
    this.flying.set(key, job);
    this.flyingPos.set(key, { pos: p, legal, preds });
    this.book.graph.setInFlight(job.keyHi, job.keyLo, true, preds.thoughtParents(this.book.graph));
    if (c0) this.costs!.fly += cpuSince(c0);
    return job;
  }

  /** Gives a position back unthought (stopped, cancelled, or not stored). */
  release(job: Job): void {
    const key = `${job.keyHi}:${job.keyLo}`;
    const held = this.flyingPos.get(key);
    const parents = held ? held.preds.thoughtParents(this.book.graph) : thoughtParents(this.book.graph, Position.fromSfen(job.sfen));
    this.flying.delete(key);
    this.flyingPos.delete(key);
    this.book.graph.setInFlight(job.keyHi, job.keyLo, false, parents);
  }

  /**
   * Stores a think result (one transaction, durable on return) and adds it to the graph, or,
   * while a selection is under way in slices, once that selection ends: taken in at once, it
   * would send the selection's next slice back to the root over a changed book (on a huge
   * book results come faster than a long selection's slices). Until then the position stays
   * in flight, as if its result had come a little later.
   */
  addResult(job: Job, candidates: Candidate[], provenance: Provenance): void {
    this.addResults([{ job, candidates, provenance }]);
  }

  /**
   * addResult for results that came together, stored in one transaction: one commit (and one
   * fsync) for all of them, where with many engines a commit each was most of the cost of
   * taking a position back (docs/MEASURED.md, the feed rate). All or nothing: when storing
   * fails none of them is stored or taken in, and they stay in flight.
   */
  addResults(results: ReadonlyArray<{ job: Job; candidates: Candidate[]; provenance: Provenance }>): void {
    if (results.length === 0) return;
    const c0 = this.costs && process.cpuUsage();
    const thoughtAt = Date.now();
    this.book.store.thoughts.addMany(
      results.map(({ job, candidates, provenance }) => ({
        sfen: job.sfen,
        keyHi: job.keyHi,
        keyLo: job.keyLo,
        candidates,
        provenance,
        thoughtAt,
      })),
    );
    if (c0) this.costs!.store += cpuSince(c0);
    for (const { job, candidates, provenance } of results)
      this.pendingResults.push(() => this.insertResult(job, candidates, provenance.kind === "import"));
    if (this.unfinished === null) this.takeResults();
  }

  /** Puts results stored during a selection into the graph now (a dig that pauses or stops, a close). */
  takeResults(): void {
    const pending = this.pendingResults;
    if (pending.length === 0) return;
    this.pendingResults = [];
    const c0 = this.costs && process.cpuUsage();
    for (const insert of pending) insert();
    if (c0) this.costs!.insert += cpuSince(c0);
  }

  private insertResult(job: Job, candidates: Candidate[], imported: boolean): void {
    const graph = this.book.graph;
    const key = `${job.keyHi}:${job.keyLo}`;
    const held = this.flyingPos.get(key);
    const pos = held?.pos ?? Position.fromSfen(job.sfen);
    const parents = held ? held.preds.thoughtParents(graph) : thoughtParents(graph, pos);
    this.flying.delete(key);
    this.flyingPos.delete(key);
    graph.setInFlight(job.keyHi, job.keyLo, false, parents);
    insertPosition(graph, pos, candidates, parents, held?.legal);
    this.minimax.resultTaken(job.sfen, candidates, imported);
    this.cover.resultTaken();
    this.settle.resultTaken(job);
  }

  /** Gives up on a position: stored as failed, kept out of selection. */
  markFailed(job: Job, error: string): void {
    this.book.store.failures.markFailed({ sfen: job.sfen, keyHi: job.keyHi, keyLo: job.keyLo });
    this.book.store.log.add("warn", "failed", `gave up on ${job.sfen}: ${error}`);
    this.flying.delete(`${job.keyHi}:${job.keyLo}`); // stays in the graph's searching set for good
    this.flyingPos.delete(`${job.keyHi}:${job.keyLo}`);
  }
}
