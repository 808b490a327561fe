// The book as a match player and the export read it, kept beside a dig: every thought
// position's minimax values (the Peta-Shock export's) with the engine's own candidates. The
// cover list and the settle rounds walk it; it is computed again from the stored thoughts,
// which are read once and kept up with the results taken since.
import type { QMove, QPosition } from "../../shared/book/quality.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { compareSfenBytes } from "../../shared/formats/db2016.js";
import type { BookCore } from "./book-core.js";

export class BookMinimax {
  /**
   * The engine's candidates of every thought position, read from the store once and kept up
   * with the results taken since; read again when the store holds another count (an import,
   * a prune, another process's dig).
   */
  private raw: Map<string, QMove[]> | null = null;

  constructor(private readonly book: BookCore) {}

  /** A result came in (a first think or one that replaces an earlier think of the position). */
  resultTaken(sfen: string, candidates: readonly { move: string; value: number; depth: number }[]): void {
    this.raw?.set(
      sfen,
      candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
    );
  }

  /** Thought positions as last read (0 before the first compute). */
  get size(): number {
    return this.raw?.size ?? 0;
  }

  /** Every thought position with its minimax values, as stored now. Its cost is an export's minimax over the book. */
  compute(): Map<string, QPosition> {
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
    return book;
  }
}
