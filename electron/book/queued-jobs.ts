// The think queue's side of handing out: positions queued to be thought (game records,
// `import --think-plies`, think it now or deeper) go out ahead of selection.
import type { BookCore, Job } from "./book-core.js";
import { lineTo } from "./line-to.js";

/**
 * The oldest queued position that is not thought and not in flight (not yet marked in
 * flight). Thought or failed ones still queued (thought by an import, failed before they
 * were queued) are dropped on the way.
 */
export function nextQueued(book: BookCore, flying: number, isFlying: (keyHi: number, keyLo: number) => boolean): Job | null {
  const store = book.store;
  if (store.readonly) return null;
  for (;;) {
    // In-flight entries are skipped, so look a little past them.
    const rows = store.queue.peek(flying + 8);
    let dropped = false;
    for (const q of rows) {
      if (isFlying(q.keyHi, q.keyLo)) continue;
      // A position queued with its own limit is thought again even when thought ("deeper").
      const limit = q.limit;
      if ((limit === undefined && book.graph.find(q.keyHi, q.keyLo) >= 0) || book.graph.isInFlight(q.keyHi, q.keyLo)) {
        store.queue.remove(q.sfen);
        dropped = true;
        continue;
      }
      return {
        sfen: q.sfen,
        keyHi: q.keyHi,
        keyLo: q.keyLo,
        line: lineTo(book, q.sfen, { viaParent: true }) ?? [],
        rootValue: null,
        asked: true,
        ...(limit ? { limit } : {}),
      };
    }
    if (!dropped) return null; // empty, or all of it in flight
  }
}
