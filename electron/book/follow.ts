// Following a book another process digs: a read-only OpenBook takes in what the writer
// commits (new thought positions, bans, failed positions).
import { insertEntry, thoughtParents } from "../../shared/book/link.js";
import { Position } from "../../shared/rules/position.js";
import { storedBans, type BookCore } from "./book-core.js";

export class Follower {
  private followedId = 0;
  private followedVersion = -1;

  /** Made before the graph is read: what a writer commits meanwhile is read again by follow() (harmless). */
  constructor(private readonly book: BookCore) {
    if (book.store.readonly) this.followedId = book.store.thoughts.maxId();
  }

  /**
   * Takes in what another process committed since the last call. Cheap when nothing
   * changed (one PRAGMA). Returns the number of positions added.
   */
  follow(maxPositions = 50_000): number {
    const store = this.book.store;
    const graph = this.book.graph;
    const version = store.dataVersion();
    if (version === this.followedVersion) return 0;
    let added = 0;
    for (;;) {
      const rows = store.thoughts.since(this.followedId, 2000);
      for (const t of rows) {
        insertEntry(graph, t);
        this.followedId = t.id;
      }
      added += rows.length;
      if (rows.length < 2000 || added >= maxPositions) break;
    }
    if (added < maxPositions) this.followedVersion = version; // more to read next time otherwise
    for (const b of storedBans(store, graph)) if (!graph.isBanned(b.node, b.move)) graph.ban(b.node, b.move);
    for (const f of store.failures.iterateFailed())
      if (!graph.isInFlight(f.keyHi, f.keyLo)) graph.setInFlight(f.keyHi, f.keyLo, true, thoughtParents(graph, Position.fromSfen(f.sfen)));
    return added;
  }
}
