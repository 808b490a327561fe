// Positions the engines fail on: attempts counted in the failures table, and a position
// given up on kept as a `failed` row of positions (selection then leaves it alone).
import type { StoreDb } from "./db.js";
import { KeyCollisionError } from "./errors.js";
import { keyHiSql, keyLoSql, keyToInt64 } from "./keys.js";
import type { StoreLog } from "./log.js";
import type { PositionKey } from "./thought-rows.js";

export interface Failure {
  sfen: string;
  attempts: number;
  lastError: string;
  lastAt: number;
}

export class Failures {
  constructor(
    private readonly c: StoreDb,
    private readonly log: StoreLog,
  ) {}

  /** Counts one more failed attempt at thinking `sfen`; returns the attempts so far. Cleared by thoughts.add. */
  record(sfen: string, error: string | Error): number {
    const msg = typeof error === "string" ? error : error.message;
    return this.c.write(() => {
      const row = this.c
        .q(
          `INSERT INTO failures (sfen, attempts, last_error, last_at) VALUES (?, 1, ?, ?)
           ON CONFLICT (sfen) DO UPDATE SET attempts = attempts + 1, last_error = excluded.last_error, last_at = excluded.last_at
           RETURNING attempts`,
        )
        .get(sfen, msg, Date.now()) as { attempts: number };
      return row.attempts;
    });
  }

  list(): Failure[] {
    return this.c
      .q("SELECT sfen, attempts, last_error AS lastError, last_at AS lastAt FROM failures ORDER BY last_at, sfen")
      .all() as Failure[];
  }

  clear(sfen: string): void {
    this.c.write(() => this.c.q("DELETE FROM failures WHERE sfen = ?").run(sfen));
  }

  /**
   * Marks a position as given up on (the engines kept failing on it). It stays out of
   * the thought set; a later successful thoughts.add replaces the mark.
   */
  markFailed(p: PositionKey & { sfen: string }): void {
    const key = keyToInt64(p.keyHi, p.keyLo);
    this.c.transaction(() => {
      const clash = this.c.q("SELECT sfen FROM positions WHERE key = ? AND sfen <> ? LIMIT 1").get(key, p.sfen) as
        { sfen: string } | undefined;
      if (clash) throw new KeyCollisionError(p.sfen, clash.sfen, p.keyHi >>> 0, p.keyLo >>> 0);
      this.c
        .q("INSERT INTO positions (sfen, key, state, thought_at) VALUES (?, ?, 'failed', ?) ON CONFLICT (sfen) DO NOTHING")
        .run(p.sfen, key, Date.now());
      this.c.q("DELETE FROM think_queue WHERE sfen = ?").run(p.sfen);
      this.log.insert("warn", "failed", p.sfen, undefined);
    });
  }

  *iterateFailed(): IterableIterator<PositionKey & { sfen: string }> {
    const rows = this.c.db
      .prepare(`SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo FROM positions WHERE state = 'failed' ORDER BY id`)
      .iterate() as IterableIterator<PositionKey & { sfen: string }>;
    yield* rows;
  }

  countFailed(): number {
    return (this.c.q("SELECT COUNT(*) AS n FROM positions WHERE state = 'failed'").get() as { n: number }).n;
  }

  /**
   * Forgets that the engines gave up on positions (all of them, or the one given), so
   * selection may hand them out again. Returns the positions released.
   */
  retryFailed(sfen?: string): Array<PositionKey & { sfen: string }> {
    return this.c.transaction(() => {
      const where = sfen === undefined ? "" : " AND sfen = ?";
      const args = sfen === undefined ? [] : [sfen];
      const rows = this.c
        .q(`SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo FROM positions WHERE state = 'failed'${where}`)
        .all(...args) as Array<PositionKey & { sfen: string }>;
      this.c.q(`DELETE FROM positions WHERE state = 'failed'${where}`).run(...args);
      this.c.q(`DELETE FROM failures${sfen === undefined ? "" : " WHERE sfen = ?"}`).run(...args);
      if (rows.length) this.log.insert("info", "retry", `${rows.length} failed position(s) released`, { sfen });
      return rows;
    });
  }
}
