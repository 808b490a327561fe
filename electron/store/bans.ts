// Banned (position, move) pairs (table banned): selection does not play them.
import type { BanView } from "../../shared/api/contract.js";
import type { StoreDb } from "./db.js";
import { keyHiSql, keyLoSql, keyToInt64 } from "./keys.js";
import type { PositionKey } from "./thought-rows.js";

/** A stored ban: the UI's view (shared/api/contract.ts BanView) with the position's key. */
export interface Ban extends PositionKey, BanView {}

export class Bans {
  constructor(private readonly c: StoreDb) {}

  /** Bans a (position, move) pair for selection. Returns false if it was already banned. */
  add(b: PositionKey & { sfen: string; move: string; reason: string; line?: string[] }): boolean {
    return this.addMany([b]) > 0;
  }

  /** Bans several pairs in one transaction (one selection's bans). Returns how many were new. */
  addMany(list: Array<PositionKey & { sfen: string; move: string; reason: string; line?: string[] }>): number {
    if (list.length === 0) return 0;
    const at = Date.now();
    return this.c.transaction(() => {
      const ins = this.c.q("INSERT OR IGNORE INTO banned (sfen, key, move, created_at, reason, line) VALUES (?, ?, ?, ?, ?, ?)");
      let added = 0;
      for (const b of list)
        added += ins.run(b.sfen, keyToInt64(b.keyHi, b.keyLo), b.move, at, b.reason, b.line ? b.line.join(" ") : null).changes;
      return added;
    });
  }

  /** Bans in the order they were made; a page of them with `offset`/`limit`. */
  list(offset = 0, limit = -1): Ban[] {
    const rows = this.c
      .q(
        `SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo, move, reason, created_at AS createdAt, line FROM banned ORDER BY id LIMIT ? OFFSET ?`,
      )
      .all(limit, offset) as Array<Omit<Ban, "line"> & { line: string | null }>;
    return rows.map((r) => ({ ...r, line: r.line === null ? null : r.line === "" ? [] : r.line.split(" ") }));
  }

  count(): number {
    return (this.c.q("SELECT COUNT(*) AS n FROM banned").get() as { n: number }).n;
  }

  /** Lifts a ban. Returns false when the pair was not banned. */
  remove(sfen: string, move: string): boolean {
    return this.c.write(() => this.c.q("DELETE FROM banned WHERE sfen = ? AND move = ?").run(sfen, move).changes > 0);
  }

  /** Removes every ban (a new dig starts with none). Returns how many there were. */
  clear(): number {
    return this.c.write(() => this.c.q("DELETE FROM banned").run().changes);
  }
}
