// The connection every room of the store shares (book-store.ts opens it, the rooms in
// thoughts.ts, queue.ts, bans.ts, ... read and write their tables through it).
import type Database from "better-sqlite3";
import { StoreFullError } from "./errors.js";

function isFull(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "SQLITE_FULL";
}

export class StoreDb {
  private readonly stmtCache = new Map<string, Database.Statement<unknown[]>>();

  constructor(
    readonly db: Database.Database,
    readonly path: string,
    readonly readonly: boolean,
  ) {}

  /** A prepared statement, prepared once per store: preparing costs more than running a lookup. */
  q(sql: string): Database.Statement<unknown[]> {
    let st = this.stmtCache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.stmtCache.set(sql, st);
    }
    return st;
  }

  /** Runs a write, turning SQLITE_FULL into StoreFullError (the transaction has rolled back). */
  write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (isFull(e)) throw new StoreFullError(this.path, { cause: e });
      throw e;
    }
  }

  /** A write in one `BEGIN IMMEDIATE` transaction: it takes the write lock at once, so it never fails half way on a busy file. */
  transaction<T>(fn: () => T): T {
    return this.write(() => this.db.transaction(fn).immediate());
  }

  /** The meta table as key/value pairs (app_id, schema_version, created_at, ...). */
  meta(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of this.q("SELECT key, value FROM meta").all() as { key: string; value: string }[]) out[r.key] = r.value;
    return out;
  }
}
