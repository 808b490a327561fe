// The settle setting's deep thinks (shared/book/settle.ts): after every so many ordinary
// positions, a round of the positions the book plays into, thought again at the setting's
// multiple of the limit, ahead of the cover list and selection. Which positions those are is
// worked out on a worker thread (settle-thread.ts) while the dig goes on selecting.
import { DEFAULT_SETTLE, settleDue, settleFits, type SettleOptions } from "../../shared/book/settle.js";
import { Position } from "../../shared/rules/position.js";
import type { BookCore, Job } from "./book-core.js";
import { lineTo } from "./line-to.js";
import { settleRoundInThread, type SettleRun } from "./settle-thread.js";

export class SettleJobs {
  /** Positions thought at the book's own limit since the last round. */
  private ordinary = 0;
  private round: string[] = [];
  private at = 0;
  /** The book outgrew the rounds (options.maxPositions): said once, in the book's log. */
  private outgrown = false;
  /** The round being worked out, and when the last one ended and what it took (ms of wall time). */
  private computing: { run: SettleRun; done: Promise<void> } | null = null;
  private endedAt = 0;
  private lastMs = 0;
  private closed = false;
  /** The book's line by the moves it plays, as the last round read the book (null before one). */
  private lastLine: { root: string; line: string[] } | null = null;

  constructor(
    private readonly book: BookCore,
    /** Rounds' size and pace (a test shrinks them). */
    public options: SettleOptions = DEFAULT_SETTLE,
  ) {}

  /** A result came in; one thought at the book's own limit counts toward the next round. */
  resultTaken(job: Job): void {
    if (job.limit === undefined) this.ordinary++;
  }

  /** The next deep think, marked nowhere yet; null when no round is ready (one may be being worked out). */
  next(factor: number, isFlying: (keyHi: number, keyLo: number) => boolean): Job | null {
    const limit = this.book.settings.limit;
    // A deep think is a multiple of a node limit; under another limit nothing is thought again (`horu dig` says so).
    if (!("nodes" in limit)) return null;
    if (this.at >= this.round.length && this.computing === null && this.due()) this.start(factor, limit.nodes);
    const g = this.book.graph;
    while (this.at < this.round.length) {
      const sfen = this.round[this.at++]!;
      const pos = Position.fromSfen(sfen);
      if (g.find(pos.keyHi, pos.keyLo) < 0 || g.isInFlight(pos.keyHi, pos.keyLo) || isFlying(pos.keyHi, pos.keyLo)) continue;
      return {
        sfen,
        keyHi: pos.keyHi,
        keyLo: pos.keyLo,
        line: lineTo(this.book, sfen) ?? [],
        rootValue: null,
        limit: { nodes: limit.nodes * factor },
        oneLineBest: true,
      };
    }
    return null;
  }

  /** The book's line from `root` by the moves it plays, as the last round found it; null before one (or from another root). */
  lineFrom(root: string): string[] | null {
    return this.lastLine?.root === root ? this.lastLine.line : null;
  }

  /** Resolves once no round is being worked out (a test waits for one). */
  ready(): Promise<void> {
    return this.computing?.done ?? Promise.resolve();
  }

  /** The book closes: a round being worked out is dropped. */
  close(): void {
    this.closed = true;
    this.computing?.run.stop();
  }

  /**
   * A round after `every` ordinary positions, while the book is small enough for one, and on a
   * book past a thousand positions once nine times the last round's time has passed since it
   * (its thread takes a core the engines would have); the deep thinks made so far stay.
   */
  private due(): boolean {
    if (this.outgrown || !settleDue(this.ordinary, this.options)) return false;
    const positions = this.book.store.thoughts.count();
    if (!settleFits(positions, this.options)) {
      this.outgrown = true;
      this.book.store.log.add(
        "info",
        "settle",
        `no more settle rounds: the book holds ${positions.toLocaleString("en")} positions, more than ${this.options.maxPositions.toLocaleString("en")}; the deeper thinks made so far stay and the book still plays them`,
      );
      return false;
    }
    return positions <= 1000 || performance.now() - this.endedAt >= 9 * this.lastMs;
  }

  private start(factor: number, digNodes: number): void {
    const s = this.book.settings;
    this.ordinary = 0;
    const t0 = performance.now();
    const root = this.book.root.sfenKey();
    const run = settleRoundInThread({
      book: this.book.store.path,
      root,
      settings: { drawBlack: s.drawBlack, drawWhite: s.drawWhite, settleFactor: s.settleFactor, policy: s.policy },
      digNodes,
      options: { ...this.options, factor },
    });
    const done = run.result
      .then(
        (r) => {
          this.round = r.round;
          this.at = 0;
          this.lastLine = { root, line: r.line };
        },
        (e: unknown) => {
          if (!this.closed)
            this.book.store.log.add("warn", "settle", `a settle round failed, the dig goes on without it: ${(e as Error).message}`);
        },
      )
      .finally(() => {
        this.endedAt = performance.now();
        this.lastMs = this.endedAt - t0;
        this.computing = null;
      });
    this.computing = { run, done };
  }
}
