// The cover setting's hand-out order (shared/book/cover.ts): the positions where the book's
// games would leave it, likeliest first, before Super Tera-Shock selection. The book's
// minimax is the Peta-Shock export's (what a match player and the export play), computed
// again from the stored thoughts as results come in.
import { coverLeaves, DEFAULT_COVER, type CoverLeaf } from "../../shared/book/cover.js";
import { bookLine } from "../../shared/book/quality.js";
import { playChoice } from "../../shared/book/settle.js";
import { listedValues, type BookCore, type Job } from "./book-core.js";
import type { BookMinimax } from "./book-minimax.js";

export class CoverJobs {
  private queue: CoverLeaf[] = [];
  private at = 0;
  /** Results taken since the queue was computed; it is computed again after `refreshAfter` of them. */
  private taken = 0;
  private refreshAfter = 0;
  /** The root's value by the book's minimax when the queue was computed (null: the root has no move). */
  private rootValue: number | null = null;
  /** The book's best line from the root then (its minimax moves while the book has the position). */
  private pv: string[] = [];
  /** The settings the queue was computed for: another root or limit computes it again at once. */
  private optionsKey = "";

  constructor(
    private readonly book: BookCore,
    private readonly minimax: BookMinimax,
  ) {}

  /** A result came in: the book's lines may have moved. */
  resultTaken(): void {
    this.taken++;
  }

  /**
   * The next position to think, not yet marked in flight, reached by a game with a chance of
   * at least 1/`oneIn`; null when none is free now.
   */
  next(oneIn: number, isFlying: (keyHi: number, keyLo: number) => boolean): Job | null {
    for (let pass = 0; pass < 2; pass++) {
      if (pass === 1 || this.due() || this.keyOf(oneIn) !== this.optionsKey) this.compute(oneIn);
      while (this.at < this.queue.length) {
        const leaf = this.queue[this.at++]!;
        const { keyHi, keyLo } = leaf.position;
        const g = this.book.graph;
        // Thought or handed out meanwhile; in flight for good means failed.
        if (g.find(keyHi, keyLo) >= 0 || g.isInFlight(keyHi, keyLo) || isFlying(keyHi, keyLo)) continue;
        // The position the walk came from is in the book: found by its key, not by generating
        // the leaf's possible parents (fly does that once for the job).
        const parent = leaf.parent ? g.find(leaf.parent.keyHi, leaf.parent.keyLo) : -1;
        return {
          sfen: leaf.position.sfenKey(),
          keyHi,
          keyLo,
          line: leaf.line,
          rootValue: this.rootValue,
          pv: this.pv,
          ...(parent >= 0 ? { parentValues: listedValues(g, parent) } : {}),
        };
      }
      if (this.taken === 0 && pass === 0) return null; // computed on this book already: nothing new
    }
    return null;
  }

  /** The settings the queue depends on: another of them computes it again at once. */
  private keyOf(oneIn: number): string {
    const s = this.book.settings;
    return `${oneIn} ${s.root} ${s.maxLeafPly} ${s.evalLimit} ${s.drawBlack} ${s.drawWhite} ${s.settleFactor}`;
  }

  /** Enough results came since the queue was computed, and the book's minimax is affordable again (BookMinimax). */
  private due(): boolean {
    return this.taken >= this.refreshAfter && this.minimax.affordable();
  }

  /**
   * The queue over the book as stored now. Its cost grows with the book (an export's minimax
   * over every thought position), so it is paid once per a few results, more of them on a
   * bigger book.
   */
  private compute(oneIn: number): void {
    const s = this.book.settings;
    const book = this.minimax.compute();
    const rootMoves = book.get(this.book.root.sfenKey())?.book ?? [];
    this.rootValue = rootMoves.length > 0 ? Math.max(...rootMoves.map((m) => m.value)) : null;
    const choice = playChoice(s);
    this.pv = bookLine(this.book.root, (k) => book.get(k), choice);
    this.queue = coverLeaves({ rootSfen: this.book.root.sfenKey(), lookup: (k) => book.get(k) }, this.book.root, {
      ...DEFAULT_COVER,
      minReach: 1 / oneIn,
      maxPly: s.maxLeafPly,
      evalLimit: s.evalLimit,
      choice,
    });
    this.at = 0;
    this.taken = 0;
    // On a small book after every result (a test can follow it exactly), on a big one after more.
    this.refreshAfter = Math.max(1, Math.ceil(book.size / 500));
    this.optionsKey = this.keyOf(oneIn);
  }
}
