// The first selection of a book just opened, handed back unthought: what a dig's first selection costs.
import { OpenBook } from "../book/open-book.js";

export function firstSelection(file: string): { boundsRestored: boolean; nodes: number } {
  const book = OpenBook.open(file);
  try {
    const leaf = book.jobs.next()!;
    const nodes = book.jobs.lastSelection!.stats.nodes;
    book.jobs.release(leaf);
    return { boundsRestored: book.timings.boundsRestored, nodes };
  } finally {
    book.close();
  }
}
