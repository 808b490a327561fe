// The think queue (table think_queue): positions to think ahead of selection, oldest
// first (game records, `--think-plies`, "think it now" at the head).
import { parseStoredThinkLimit, type ThinkLimit } from "../../shared/dig/settings.js";
import { BookDataError } from "./errors.js";
import type { StoreDb } from "./db.js";
import { keyHiSql, keyLoSql, keyToInt64 } from "./keys.js";
import type { StoreLog } from "./log.js";
import type { PositionKey } from "./thought-rows.js";

/** A position waiting to be thought ahead of selection (game records, `--think-plies`). */
export interface QueuedPosition extends PositionKey {
  sfen: string;
  source: string;
  ply: number;
  /** Its own think limit (think it now / deeper); absent: the book's. */
  limit?: ThinkLimit;
}

export class ThinkQueue {
  /**
   * The queue as last read, when that read found it empty: the book's data_version then
   * (it moves when another connection commits). Rows come only through add and putFirst
   * (which forget it) or another connection, so while it holds the queue is still empty and
   * peek need not ask SQLite: the dig asks before every selection, and on a book with
   * nothing queued a query each time was a share of handing a position out (issue 43).
   */
  private emptyAt: number | null = null;

  constructor(
    private readonly c: StoreDb,
    private readonly log: StoreLog,
  ) {}

  /** Queues positions to be thought, in the order given; already queued ones keep their place. Returns how many were new. */
  add(rows: Iterable<QueuedPosition>): number {
    this.emptyAt = null;
    return this.c.transaction(() => {
      const ins = this.c.q("INSERT OR IGNORE INTO think_queue (sfen, key, source, ply) VALUES (?, ?, ?, ?)");
      let n = 0;
      for (const r of rows) n += ins.run(r.sfen, keyToInt64(r.keyHi, r.keyLo), r.source, r.ply).changes;
      return n;
    });
  }

  /**
   * Puts a position at the head of the think queue (ahead of everything queued and of
   * selection), with its own think limit when given ("think it deeper"). Already queued:
   * moved to the head, with the new limit.
   */
  putFirst(p: PositionKey & { sfen: string; source: string; limit?: ThinkLimit }): void {
    this.emptyAt = null;
    this.c.transaction(() => {
      this.c.q("DELETE FROM think_queue WHERE sfen = ?").run(p.sfen);
      // Ids order the queue: one below the smallest puts this row first.
      this.c
        .q(
          "INSERT INTO think_queue (id, sfen, key, source, ply, think_limit) VALUES (min(coalesce((SELECT min(id) FROM think_queue), 1), 1) - 1, ?, ?, ?, 0, ?)",
        )
        .run(p.sfen, keyToInt64(p.keyHi, p.keyLo), p.source, p.limit === undefined ? null : JSON.stringify(p.limit));
      this.log.insert("info", "queued", p.sfen, { source: p.source, limit: p.limit });
    });
  }

  /**
   * Queued positions, oldest first, `limit` at a time (OpenBook jobs.next skips the ones in
   * flight, so it asks for a few more than it has out). Finished before any write.
   */
  peek(limit: number): QueuedPosition[] {
    // Read before the rows: a commit by another connection between the two reads is seen next time.
    const version = this.dataVersion();
    if (version === this.emptyAt) return [];
    const rows = this.c.q(PEEK).all(limit) as Array<QueuedPosition & { thinkLimit: string | null }>;
    this.emptyAt = rows.length === 0 ? version : null;
    return rows.map(({ thinkLimit, ...q }) => (thinkLimit === null ? q : { ...q, limit: storedLimit(thinkLimit, q.sfen) }));
  }

  /** The think limit a queued position carries (undefined: the book's own). */
  limitOf(sfen: string): ThinkLimit | undefined {
    const row = this.c.q("SELECT think_limit FROM think_queue WHERE sfen = ?").get(sfen) as { think_limit: string | null } | undefined;
    return row?.think_limit ? storedLimit(row.think_limit, sfen) : undefined;
  }

  /** Takes a position off the queue (thoughts.add and failures.markFailed do this themselves). */
  remove(sfen: string): boolean {
    return this.c.write(() => this.c.q("DELETE FROM think_queue WHERE sfen = ?").run(sfen).changes > 0);
  }

  /** PRAGMA data_version of this connection: moves when another connection commits. */
  private dataVersion(): number {
    return this.c.q("PRAGMA data_version").pluck().get() as number;
  }

  count(): number {
    return (this.c.q("SELECT count(*) AS n FROM think_queue").get() as { n: number }).n;
  }
}

const PEEK = `SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo, source, ply, think_limit AS thinkLimit FROM think_queue ORDER BY id LIMIT ?`;

/** A queued position's stored limit; a crafted or damaged one is the book's damage (BookDataError: 4xx), said with the position. */
function storedLimit(text: string, sfen: string): ThinkLimit {
  try {
    return parseStoredThinkLimit(text, sfen);
  } catch (e) {
    throw new BookDataError(`the book's think queue is damaged: ${(e as Error).message}`);
  }
}
