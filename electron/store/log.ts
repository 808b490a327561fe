// The dig log (table dig_log): what happened to the book, kept to the last LOG_KEEP rows.
import type Database from "better-sqlite3";
import type { StoreDb } from "./db.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogEntry {
  id: number;
  at: number;
  level: LogLevel;
  event: string;
  message: string;
  detail: unknown;
}

/** dig_log keeps this many recent rows; older ones are pruned so a months-long dig does not grow the file with chatter. */
export const LOG_KEEP = 100_000;
const LOG_PRUNE_EVERY = 1024;

export class StoreLog {
  // Starts one short of a prune, so each session prunes on its first log write.
  private logWrites = LOG_PRUNE_EVERY - 1;
  private readonly ins: Database.Statement<unknown[]>;

  constructor(private readonly c: StoreDb) {
    this.ins = c.db.prepare("INSERT INTO dig_log (at, level, event, message, detail) VALUES (?, ?, ?, ?, ?)");
  }

  add(level: LogLevel, event: string, message: string, detail?: unknown): void {
    this.c.write(() => this.insert(level, event, message, detail));
  }

  /** A log row inside another room's transaction (the result and its log row commit together). */
  insert(level: LogLevel, event: string, message: string, detail: unknown): void {
    this.ins.run(Date.now(), level, event, message, detail === undefined ? null : JSON.stringify(detail));
    if (++this.logWrites % LOG_PRUNE_EVERY === 0) {
      this.c.q("DELETE FROM dig_log WHERE id <= (SELECT max(id) FROM dig_log) - ?").run(LOG_KEEP);
    }
  }

  /** The last n log entries, oldest first. */
  recent(n: number): LogEntry[] {
    const rows = this.c.q("SELECT id, at, level, event, message, detail FROM dig_log ORDER BY id DESC LIMIT ?").all(n) as (Omit<
      LogEntry,
      "detail"
    > & { detail: string | null })[];
    return rows.reverse().map((r) => ({ ...r, detail: r.detail === null ? undefined : JSON.parse(r.detail) }));
  }
}
