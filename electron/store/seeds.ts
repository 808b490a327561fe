// What game records add to a book besides positions to think: the positions they pass
// (table kifu_seeds, for selection's bonus) and their move statistics (table move_stats).
import type { StoreDb } from "./db.js";
import { keyHiSql, keyLoSql, keyToInt64 } from "./keys.js";
import type { PositionKey } from "./thought-rows.js";

export interface KifuSeed extends PositionKey {
  sfen: string;
  /** The game record file (or other label) the position came from. */
  source: string;
  /** Ply of the position in that record (0 = its start position). */
  ply: number;
}

export interface MoveStatsRow extends PositionKey {
  sfen: string;
  move: string;
  games: number;
  /** Games the side playing `move` won. */
  wins: number;
  draws?: number;
}

export interface MoveStats {
  move: string;
  games: number;
  wins: number;
  draws: number;
}

export class KifuSeeds {
  constructor(private readonly c: StoreDb) {}

  /** Adds positions seeded from game records; duplicates (same sfen, source, ply) are ignored. Returns how many were new. */
  add(rows: Iterable<KifuSeed>): number {
    return this.c.transaction(() => {
      const ins = this.c.q("INSERT OR IGNORE INTO kifu_seeds (sfen, key, source, ply) VALUES (?, ?, ?, ?)");
      let n = 0;
      for (const r of rows) n += ins.run(r.sfen, keyToInt64(r.keyHi, r.keyLo), r.source, r.ply).changes;
      return n;
    });
  }

  /** The seeds in the order they were added; `afterId`: only those added after that one. */
  *iterate(afterId = 0): IterableIterator<KifuSeed & { id: number }> {
    yield* this.c.db
      .prepare(
        `SELECT id, sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo, source, ply FROM kifu_seeds WHERE id > ? ORDER BY id`,
      )
      .iterate(afterId) as IterableIterator<KifuSeed & { id: number }>;
  }

  /** The id of the last seed added (0: none). */
  maxId(): number {
    return (this.c.db.prepare("SELECT COALESCE(MAX(id), 0) AS m FROM kifu_seeds").get() as { m: number }).m;
  }
}

export class MoveStatsTable {
  constructor(private readonly c: StoreDb) {}

  /** Adds game counts to a position's move statistics (accumulates). */
  add(rows: Iterable<MoveStatsRow>): void {
    this.c.transaction(() => {
      const up = this.c.q(
        `INSERT INTO move_stats (sfen, key, move, games, wins, draws) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (sfen, move) DO UPDATE SET games = games + excluded.games, wins = wins + excluded.wins, draws = draws + excluded.draws`,
      );
      for (const r of rows) up.run(r.sfen, keyToInt64(r.keyHi, r.keyLo), r.move, r.games, r.wins, r.draws ?? 0);
    });
  }

  /** Move statistics of one position, most played first. */
  get(sfen: string): MoveStats[] {
    return this.c.q("SELECT move, games, wins, draws FROM move_stats WHERE sfen = ? ORDER BY games DESC, move").all(sfen) as MoveStats[];
  }
}
