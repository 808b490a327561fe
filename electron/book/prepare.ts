// A big book written in bulk (an import, a generated benchmark book) is readied for digging
// the way a dig's close leaves one: the graph's snapshot and the selection's bounds beside it.
// Without them the first dig rebuilds the graph (minutes at 15M positions) and its first
// selection searches the whole book (about 10 s at 15M, and the next few much of it again
// while its cyclic bounds settle) while the engines wait; the bulk write is where the user
// waits anyway.
import { OpenBook, SNAPSHOT_MIN_POSITIONS, type OpenProgress } from "./open-book.js";
import { BookStore } from "../store/book-store.js";

export interface Prepared {
  /** False for a book too small to need it (it opens and selects in about a second). */
  prepared: boolean;
  positions: number;
  /** The open (a rebuild saves the snapshot), the searches of the whole book and the close (which saves their bounds). */
  ms: number;
  searchMs: number;
  /** The nodes each search of the whole book visited, until the bounds settled. */
  searches: number[];
}

export function prepareForDigging(file: string, o: { writer?: string; onProgress?: (p: OpenProgress) => void } = {}): Prepared {
  const t0 = performance.now();
  // A small book is not opened for writing at all: nothing about it changes.
  const reader = BookStore.open(file, { readonly: true });
  let positions = reader.thoughts.count();
  reader.close();
  if (positions < SNAPSHOT_MIN_POSITIONS) return { prepared: false, positions, ms: performance.now() - t0, searchMs: 0, searches: [] };
  const book = OpenBook.open(file, {}, { onProgress: o.onProgress, writer: o.writer });
  let searchMs: number, searches: number[];
  try {
    positions = book.graph.nodeCount;
    const s0 = performance.now();
    searches = book.settleBounds();
    searchMs = performance.now() - s0;
  } finally {
    book.close(); // saves the bounds the search made (a rebuilt graph was saved by the open)
  }
  return { prepared: true, positions, ms: performance.now() - t0, searchMs, searches };
}
