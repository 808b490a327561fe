// The book as a match player and the export read it, kept beside a dig: every thought
// position's minimax values (the Peta-Shock export's) with the engine's own candidates. The
// cover list and the settle rounds walk it; it is computed again from the stored thoughts,
// which are read once and kept up with the results taken since.
import type { QMove, QPosition } from "../../shared/book/quality.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { compareSfenBytes } from "../../shared/formats/db2016.js";
import type { BookCore } from "./book-core.js";

/**
 * The book's minimax moves of each position of `thoughts` (the engine's candidates by SFEN),
 * with the given draw values: what the export writes and a match player plays.
 */
export function minimaxMoves(
  thoughts: Iterable<readonly [string, readonly QMove[]]>,
  draw: { drawBlack: number; drawWhite: number },
): Map<string, QMove[]> {
  const ex = new PetaShockExporter(draw);
  // In byte order, as the export and a match player read the book (a twin's owner depends on it).
  for (const [sfen, moves] of [...thoughts].sort((a, b) => compareSfenBytes(a[0], b[0])))
    ex.add({ sfen, moves: moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth ?? 0 })) });
  ex.run();
  const out = new Map<string, QMove[]>();
  for (const b of ex.blocks("sfen"))
    out.set(
      b.sfen,
      b.moves.map((m) => ({ move: m.move, value: m.value })),
    );
  return out;
}

/** Every thought position of `raw` with its minimax moves and the engine's own; `imported` marks a file's moves. */
export function minimaxBook(
  raw: ReadonlyMap<string, readonly QMove[]>,
  imported: ReadonlySet<string>,
  draw: { drawBlack: number; drawWhite: number },
): Map<string, QPosition> {
  const book = new Map<string, QPosition>();
  for (const [sfen, moves] of minimaxMoves(raw, draw))
    book.set(sfen, { book: moves, raw: raw.get(sfen) ?? [], ...(imported.has(sfen) ? { imported: true } : {}) });
  return book;
}

export class BookMinimax {
  /**
   * The engine's candidates of every thought position, read from the store once and kept up
   * with the results taken since; read again when the store holds another count (an import,
   * a prune, another process's dig).
   */
  private raw: Map<string, QMove[]> | null = null;
  /** Positions of `raw` whose moves came from an imported file. */
  private imported = new Set<string>();
  /** The last computed book, until a result comes in (the cover list and a settle round may ask at once). */
  private book: Map<string, QPosition> | null = null;
  /** When the book was last computed and what that cost (ms of wall time). */
  private computedAt = 0;
  private computeMs = 0;

  constructor(private readonly core: BookCore) {}

  /** A result came in (a first think or one that replaces an earlier think of the position). */
  resultTaken(sfen: string, candidates: readonly { move: string; value: number; depth: number }[], imported = false): void {
    this.book = null;
    if (imported) this.imported.add(sfen);
    else this.imported.delete(sfen);
    this.raw?.set(
      sfen,
      candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
    );
  }

  /** Thought positions as last read (0 before the first compute). */
  get size(): number {
    return this.raw?.size ?? 0;
  }

  /**
   * Whether computing the book again now keeps its cost at most a tenth of the time: always on
   * a book of up to a thousand positions; on a bigger one once nine times the last compute's
   * cost has passed since it (digs at 10,000 nodes a think that computed the cover list every
   * few results kept their engines busy only 75-86% of the time).
   */
  affordable(): boolean {
    return this.size <= 1000 || performance.now() - this.computedAt >= 9 * this.computeMs;
  }

  /** Whether compute() would answer from the last computed book (no result since, the same stored count). */
  get current(): boolean {
    return this.book !== null && this.raw !== null && this.raw.size === this.core.store.thoughts.count();
  }

  private computeCount = 0;
  /** Counts the computes, so a view of the book can tell whether it was made from the latest one. */
  get computes(): number {
    return this.computeCount;
  }

  /** Every thought position with its minimax values, as stored now. Its cost is an export's minimax over the book. */
  compute(): Map<string, QPosition> {
    const store = this.core.store,
      s = this.core.settings;
    if (this.current) return this.book!;
    const t0 = performance.now();
    if (this.raw === null || this.raw.size !== store.thoughts.count()) {
      this.raw = new Map();
      this.imported = new Set();
      for (const t of store.thoughts.iterate()) {
        if (t.provenance.kind === "import") this.imported.add(t.sfen);
        this.raw.set(
          t.sfen,
          t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
        );
      }
    }
    const book = minimaxBook(this.raw, this.imported, { drawBlack: s.drawBlack, drawWhite: s.drawWhite });
    this.book = book;
    this.computeCount++;
    this.computedAt = performance.now();
    this.computeMs = this.computedAt - t0;
    return book;
  }
}
