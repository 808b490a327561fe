// The book's settings (table settings): JSON values by key.
import type { StoreDb } from "./db.js";

export class Settings {
  constructor(private readonly c: StoreDb) {}

  /** A setting's value; a value that is not JSON (a crafted or damaged book) counts as unset. */
  get<T = unknown>(key: string): T | undefined {
    const row = this.c.q("SELECT value FROM settings WHERE key = ?").get(key) as { value: string } | undefined;
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return undefined;
    }
  }

  /** Stores a JSON-serialisable setting; undefined deletes it. */
  set(key: string, value: unknown): void {
    this.c.write(() => {
      if (value === undefined) this.c.q("DELETE FROM settings WHERE key = ?").run(key);
      else this.c.q("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run(key, JSON.stringify(value));
    });
  }

  /** Several settings in one transaction (undefined values are left as they are). */
  setMany(values: Record<string, unknown>): void {
    this.c.transaction(() => {
      for (const [key, value] of Object.entries(values)) {
        if (value !== undefined) this.c.q("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run(key, JSON.stringify(value));
      }
    });
  }

  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const r of this.c.q("SELECT key, value FROM settings ORDER BY key").all() as { key: string; value: string }[]) {
      try {
        out[r.key] = JSON.parse(r.value);
      } catch {
        // not JSON (a crafted or damaged book): unset, as get() reads it
      }
    }
    return out;
  }
}
