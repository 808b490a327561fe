// The cover setting's hand-out order (shared/book/cover.ts): the positions where the book's
// games would leave it, likeliest first, before Super Tera-Shock selection. The book's
// minimax is the Peta-Shock export's (what a match player and the export play), computed
// again from the stored thoughts as results come in.
import { coverLeaves, DEFAULT_COVER, type CoverLeaf } from "../../shared/book/cover.js";
import { bookChoice, type QMove, type QPosition } from "../../shared/book/quality.js";
import type { Position } from "../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../shared/rules/usi.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { compareSfenBytes } from "../../shared/formats/db2016.js";
import { listedValues, type BookCore, type Job } from "./book-core.js";

export class CoverJobs {
  private queue: CoverLeaf[] = [];
  private at = 0;
  /** Results taken since the queue was computed; it is computed again after `refreshAfter` of them. */
  private taken = 0;
  private refreshAfter = 0;
  /** When the queue was last computed and what that cost (ms of wall time). */
  private computedAt = 0;
  private computeMs = 0;
  /**
   * The engine's candidates of every thought position, read from the store once and kept up
   * with the results taken since; read again when the store holds another count (an import,
   * a prune, another process's dig).
   */
  private raw: Map<string, QMove[]> | null = null;
  /** The root's value by the book's minimax when the queue was computed (null: the root has no move). */
  private rootValue: number | null = null;
  /** The book's best line from the root then (its minimax moves while the book has the position). */
  private pv: string[] = [];
  /** The settings the queue was computed for: another root or limit computes it again at once. */
  private optionsKey = "";

  constructor(private readonly book: BookCore) {}

  /** A result came in: the book's lines may have moved. */
  resultTaken(sfen: string, candidates: readonly { move: string; value: number; depth: number }[]): void {
    this.taken++;
    this.raw?.set(
      sfen,
      candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
    );
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

  /**
   * Enough results came since the queue was computed. On a book past a thousand positions
   * also enough time: at most a tenth of it goes to computing the queue (digs at 10,000 nodes
   * a think that computed it every few results kept their engines busy only 75-86% of the time).
   */
  private keyOf(oneIn: number): string {
    const s = this.book.settings;
    return `${oneIn} ${s.root} ${s.maxLeafPly} ${s.evalLimit} ${s.drawBlack} ${s.drawWhite}`;
  }

  private due(): boolean {
    if (this.taken < this.refreshAfter) return false;
    return (this.raw?.size ?? 0) <= 1000 || performance.now() - this.computedAt >= 9 * this.computeMs;
  }

  /**
   * The queue over the book as stored now. Its cost grows with the book (an export's minimax
   * over every thought position), so it is paid once per a few results, more of them on a
   * bigger book.
   */
  private compute(oneIn: number): void {
    const t0 = performance.now();
    const store = this.book.store,
      s = this.book.settings;
    if (this.raw === null || this.raw.size !== store.thoughts.count()) {
      this.raw = new Map();
      for (const t of store.thoughts.iterate())
        this.raw.set(
          t.sfen,
          t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
        );
    }
    const raw = this.raw;
    const ex = new PetaShockExporter({ drawBlack: s.drawBlack, drawWhite: s.drawWhite });
    // In byte order, as the export and a match player read the book (a twin's owner depends on it).
    for (const sfen of [...raw.keys()].sort(compareSfenBytes))
      ex.add({ sfen, moves: raw.get(sfen)!.map((m) => ({ ...m, depth: m.depth ?? 0 })) });
    ex.run();
    const book = new Map<string, QPosition>();
    for (const b of ex.blocks("sfen"))
      book.set(b.sfen, { book: b.moves.map((m) => ({ move: m.move, value: m.value })), raw: raw.get(b.sfen) ?? [] });
    const rootMoves = book.get(this.book.root.sfenKey())?.book ?? [];
    this.rootValue = rootMoves.length > 0 ? Math.max(...rootMoves.map((m) => m.value)) : null;
    this.pv = bookLine(this.book.root, (k) => book.get(k));
    this.queue = coverLeaves({ rootSfen: this.book.root.sfenKey(), lookup: (k) => book.get(k) }, this.book.root, {
      ...DEFAULT_COVER,
      minReach: 1 / oneIn,
      maxPly: s.maxLeafPly,
      evalLimit: s.evalLimit,
    });
    this.at = 0;
    this.taken = 0;
    // On a small book after every result (a test can follow it exactly), on a big one after more.
    this.refreshAfter = Math.max(1, Math.ceil(raw.size / 500));
    this.optionsKey = this.keyOf(oneIn);
    this.computedAt = performance.now();
    this.computeMs = this.computedAt - t0;
  }
}

/** The book's best line from `root`: its minimax move while it has the position, until a position repeats. */
function bookLine(root: Position, lookup: (sfenKey: string) => QPosition | undefined): string[] {
  const pos = root.clone();
  const seen = new Set<string>();
  const line: string[] = [];
  for (let p = lookup(pos.sfenKey()); p && !seen.has(pos.sfenKey()); p = lookup(pos.sfenKey())) {
    seen.add(pos.sfenKey());
    const best = bookChoice(p);
    const m = best && parseUsiMove(best.move);
    if (!m || !pos.isLegal(m)) break;
    pos.doMove(m);
    line.push(moveToUsi(m));
  }
  return line;
}
