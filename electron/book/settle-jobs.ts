// The settle setting's deep thinks (shared/book/settle.ts): after every so many ordinary
// positions, a round of the positions the book plays into, thought again at the setting's
// multiple of the limit, ahead of the cover list and selection.
import { DEFAULT_PLAYED, playedPositions } from "../../shared/book/quality.js";
import { DEFAULT_SETTLE, playChoice, settleDue, settleFits, settleRound, type SettleOptions } from "../../shared/book/settle.js";
import { Position } from "../../shared/rules/position.js";
import type { BookCore, Job } from "./book-core.js";
import type { BookMinimax } from "./book-minimax.js";
import { lineTo } from "./line-to.js";

export class SettleJobs {
  /** Positions thought at the book's own limit since the last round. */
  private ordinary = 0;
  private round: string[] = [];
  private at = 0;
  /** The book outgrew the rounds (options.maxPositions): said once, in the book's log. */
  private outgrown = false;

  constructor(
    private readonly book: BookCore,
    private readonly minimax: BookMinimax,
    /** Rounds' size and pace (a test shrinks them). */
    public options: SettleOptions = DEFAULT_SETTLE,
  ) {}

  /** A result came in; one thought at the book's own limit counts toward the next round. */
  resultTaken(job: Job): void {
    if (job.limit === undefined) this.ordinary++;
  }

  /** The next deep think, marked nowhere yet; null when no round is under way or due. */
  next(factor: number, isFlying: (keyHi: number, keyLo: number) => boolean): Job | null {
    const limit = this.book.settings.limit;
    // A deep think is a multiple of a node limit; under another limit nothing is thought again (`horu dig` says so).
    if (!("nodes" in limit)) return null;
    if (this.at >= this.round.length && this.due()) this.compute(factor, limit.nodes);
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

  /**
   * A round after `every` ordinary positions, once the book's minimax is affordable again
   * (BookMinimax), while the book is small enough for one; the deep thinks made so far stay.
   */
  private due(): boolean {
    if (this.outgrown || !settleDue(this.ordinary, this.options)) return false;
    const positions = this.book.store.thoughts.count();
    if (!settleFits(positions, this.options)) {
      this.outgrown = true;
      this.minimax.release();
      this.book.store.log.add(
        "info",
        "settle",
        `no more settle rounds: the book holds ${positions.toLocaleString("en")} positions, more than ${this.options.maxPositions.toLocaleString("en")}; the deeper thinks made so far stay and the book still plays them`,
      );
      return false;
    }
    return this.minimax.affordable();
  }

  private compute(factor: number, digNodes: number): void {
    const book = this.minimax.compute();
    const root = this.book.root;
    const played = playedPositions({ rootSfen: root.sfenKey(), lookup: (k) => book.get(k) }, root, {
      ...DEFAULT_PLAYED,
      choice: playChoice(this.book.settings),
    });
    const thoughts = this.book.store.thoughts;
    const thinkNodes = (sfen: string): number | undefined => {
      const t = thoughts.get(sfen);
      // An imported position keeps the file's moves: it is not thought again.
      return t?.provenance.kind === "engine" ? t.provenance.nodes : undefined;
    };
    this.round = settleRound(played, thinkNodes, digNodes, { ...this.options, factor });
    this.at = 0;
    this.ordinary = 0;
  }
}
