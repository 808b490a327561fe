// Thought positions and their moves (tables positions and moves, with the thought counter
// and the graph epoch in meta): storing think results, looking them up, streaming them out.
//
// Durability: every add is one transaction (position, its moves, a log row) and when it
// returns the WAL frame has been fsynced (book-store.ts sets synchronous=FULL). Batches
// (imports) are one transaction, so they pay one fsync in total.
import type Database from "better-sqlite3";
import type { Candidate, SbkStateRecord } from "../../shared/book/records.js";
import type { StoreDb } from "./db.js";
import { KeyCollisionError, keyHex } from "./errors.js";
import { keyHiSql, keyLoSql, keyToInt64 } from "./keys.js";
import type { StoreLog } from "./log.js";
import {
  MOVE_COLUMNS,
  NO_DEPTH,
  NO_VALUE,
  POSITION_COLUMNS,
  keepFileNotes,
  provenanceColumns,
  toCandidate,
  toThought,
  type KeyedThought,
  type MoveRaw,
  type PositionKey,
  type PositionRaw,
  type StoredThought,
} from "./thought-rows.js";

/** Moves per multi-row INSERT (x 10 parameters, far below SQLite's limit). */
const MOVES_PER_INSERT = 16;

export class Thoughts {
  private readonly st: {
    byKey: Database.Statement<[bigint], { id: number; sfen: string; state: string }>;
    insPos: Database.Statement<unknown[]>;
    updPos: Database.Statement<unknown[]>;
    delMoves: Database.Statement<[number]>;
    delFailure: Database.Statement<[string]>;
  };

  constructor(
    private readonly c: StoreDb,
    private readonly log: StoreLog,
  ) {
    const db = c.db;
    this.st = {
      byKey: db.prepare("SELECT id, sfen, state FROM positions WHERE key = ?"),
      insPos: db.prepare(
        "INSERT INTO positions (sfen, key, state, thought_at, source, engine, file, nodes, depth, time_ms) VALUES (?, ?, 'thought', ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      ),
      updPos: db.prepare(
        "UPDATE positions SET state = 'thought', thought_at = ?, source = ?, engine = ?, file = ?, nodes = ?, depth = ?, time_ms = ? WHERE id = ?",
      ),
      delMoves: db.prepare("DELETE FROM moves WHERE position_id = ?"),
      delFailure: db.prepare("DELETE FROM failures WHERE sfen = ?"),
    };
  }

  /**
   * Stores one think result in one transaction: the position (inserted or updated), its
   * moves (replaced), and a dig_log row. Durable when it returns. Returns the position id.
   */
  add(p: KeyedThought): number {
    return this.addMany([p])[0]!;
  }

  /**
   * Stores think results that came together in one transaction, each as `add` stores it (its
   * failures and queue row cleared, its own dig_log row): one commit, and so one fsync, for
   * all of them. All or nothing. Durable when it returns. Returns the position ids, in order.
   */
  addMany(list: readonly KeyedThought[]): number[] {
    return this.c.transaction(() => {
      const ids: number[] = [];
      let fresh = 0;
      const unqueue = this.c.q("DELETE FROM think_queue WHERE sfen = ?"); // done, in the same commit
      for (const p of list) {
        const r = this.put(p);
        this.st.delFailure.run(p.sfen);
        unqueue.run(p.sfen);
        const pr = p.provenance;
        this.log.insert("info", "thought", p.sfen, {
          id: r[0],
          moves: p.candidates.length,
          ...(pr.kind === "engine" ? { engine: pr.engine, nodes: pr.nodes, timeMs: pr.timeMs } : { file: pr.file }),
        });
        ids.push(r[0]);
        fresh += r[1];
      }
      if (fresh > 0) this.bumpCount(fresh);
      return ids;
    });
  }

  /** Stores many positions in one transaction (imports): all or nothing, one log row. Returns how many were given. */
  addBatch(list: Iterable<KeyedThought>): number {
    return this.c.transaction(() => {
      let count = 0;
      let fresh = 0;
      for (const p of list) {
        fresh += this.put(p)[1];
        count++;
      }
      if (fresh > 0) this.bumpCount(fresh);
      this.log.insert("info", "batch", `${count} positions stored`, { count, added: fresh });
      return count;
    });
  }

  get(sfen: string): StoredThought | undefined {
    const row = this.c.q(`SELECT ${POSITION_COLUMNS} FROM positions WHERE sfen = ? AND state = 'thought'`).raw().get(sfen) as
      PositionRaw | undefined;
    if (!row) return undefined;
    return toThought(row, this.movesOf(row[0]));
  }

  has(sfen: string): boolean {
    return this.c.q("SELECT 1 FROM positions WHERE sfen = ? AND state = 'thought'").get(sfen) !== undefined;
  }

  /** The SFEN of the thought position with this key (the graph keeps keys only), or null. */
  sfenOfKey(keyHi: number, keyLo: number): string | null {
    const row = this.st.byKey.get(keyToInt64(keyHi, keyLo));
    return row !== undefined && row.state === "thought" ? row.sfen : null;
  }

  /** The row (thought or failed) that holds this key, if any: for the other rooms' own checks. */
  rowOfKey(key: bigint): { id: number; sfen: string; state: string } | undefined {
    return this.st.byKey.get(key);
  }

  /** Number of thought positions: a counter kept in meta by the same transactions that add them, so O(1) at any size. */
  count(): number {
    return (this.c.q("SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'thought_count'").get() as { n: number }).n;
  }

  /**
   * The graph epoch: moves on whenever thought positions change other than by appending
   * new rows (a position thought again, a prune). A graph snapshot taken in one epoch can
   * be brought up to date by replaying the rows added after it; in another, it cannot.
   */
  graphEpoch(): number {
    const row = this.c.q("SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'graph_epoch'").get() as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /**
   * Every thought position with its moves, in id (= insertion) order, streamed: two
   * cursors (positions by id, moves by (position_id, rank)) merged, so memory stays flat
   * at any book size.
   */
  *iterate(): IterableIterator<StoredThought> {
    // Fresh statements (not the cache): two iterations may run at once.
    const positions = this.c.db
      .prepare(`SELECT ${POSITION_COLUMNS} FROM positions WHERE state = 'thought' ORDER BY id`)
      .raw()
      .iterate() as IterableIterator<PositionRaw>;
    const moves = this.c.db
      .prepare(`SELECT ${MOVE_COLUMNS} FROM moves ORDER BY position_id, rank`)
      .raw()
      .iterate() as IterableIterator<MoveRaw>;
    try {
      let m = moves.next();
      for (const row of positions) {
        const id = row[0];
        while (!m.done && m.value[0] < id) m = moves.next(); // moves of failed/replaced rows
        const cands: Candidate[] = [];
        while (!m.done && m.value[0] === id) {
          cands.push(toCandidate(m.value));
          m = moves.next();
        }
        yield toThought(row, cands);
      }
    } finally {
      positions.return?.();
      moves.return?.();
    }
  }

  /**
   * Thought positions in byte-wise SFEN order (SQLite compares TEXT as UTF-8 bytes), the
   * order book files are written in: an export streams from here instead of sorting in memory.
   */
  *iterateBySfen(): IterableIterator<StoredThought> {
    const db = this.c.db;
    const positions = db
      .prepare(`SELECT ${POSITION_COLUMNS} FROM positions WHERE state = 'thought' ORDER BY sfen`)
      .raw()
      .iterate() as IterableIterator<PositionRaw>;
    const moves = db.prepare(`SELECT ${MOVE_COLUMNS} FROM moves WHERE position_id = ? ORDER BY rank`).raw();
    // A position's comment and .sbk state go along (looked up only when the book has any).
    const comment = db.prepare("SELECT 1 FROM comments LIMIT 1").get()
      ? db.prepare("SELECT text FROM comments WHERE sfen = ?").pluck()
      : null;
    const sbk = db.prepare("SELECT 1 FROM sbk_states LIMIT 1").get()
      ? db.prepare("SELECT data FROM sbk_states WHERE sfen = ?").pluck()
      : null;
    try {
      for (const row of positions) {
        const t = toThought(row, (moves.all(row[0]) as MoveRaw[]).map(toCandidate));
        const c = comment?.get(t.sfen) as string | undefined;
        if (c !== undefined) t.comment = c;
        const data = sbk?.get(t.sfen) as string | undefined;
        if (data !== undefined) t.sbk = JSON.parse(data) as SbkStateRecord;
        yield t;
      }
    } finally {
      positions.return?.();
    }
  }

  /** Thought positions that list at least one move (a full scan: for exports). */
  countWithMoves(): number {
    return (
      this.c
        .q("SELECT count(*) AS n FROM positions p WHERE p.state = 'thought' AND EXISTS (SELECT 1 FROM moves m WHERE m.position_id = p.id)")
        .get() as { n: number }
    ).n;
  }

  /** Thought positions stored after `afterId` (a follower reading what a dig added), in id order. */
  since(afterId: number, limit: number): StoredThought[] {
    const rows = this.c
      .q(`SELECT ${POSITION_COLUMNS} FROM positions WHERE state = 'thought' AND id > ? ORDER BY id LIMIT ?`)
      .raw()
      .all(afterId, limit) as PositionRaw[];
    return rows.map((r) => toThought(r, this.movesOf(r[0])));
  }

  /** The largest position id (0 for an empty book). */
  maxId(): number {
    return (this.c.q("SELECT coalesce(max(id), 0) AS n FROM positions").get() as { n: number }).n;
  }

  // --- For the other rooms (prunes, imports), inside their transactions ----------------

  /** Upserts one position and replaces its moves. Returns [id, 1 if it was not thought before]. */
  put(p: KeyedThought): [number, number] {
    const key = keyToInt64(p.keyHi, p.keyLo);
    const [source, engine, file, nodes, depth, timeMs] = provenanceColumns(p.provenance);
    // Fast path, a new position: the INSERT alone, its UNIQUE indexes on sfen and key
    // doing the existence and collision checks. On a conflict, find out which it was.
    const ins = this.st.insPos.run(p.sfen, key, p.thoughtAt, source, engine, file, nodes, depth, timeMs);
    if (p.comment !== undefined || p.sbk !== undefined) this.putFileExtras(p, key);
    if (ins.changes === 1) return this.putMoves(Number(ins.lastInsertRowid), p.candidates, 1);
    const existing = this.st.byKey.get(key);
    if (existing === undefined) this.keySchemeError(p); // the sfen is there, under another key
    if (existing.sfen !== p.sfen) throw new KeyCollisionError(p.sfen, existing.sfen, p.keyHi >>> 0, p.keyLo >>> 0);
    this.st.updPos.run(p.thoughtAt, source, engine, file, nodes, depth, timeMs, existing.id);
    const candidates = existing.state === "thought" ? keepFileNotes(p.candidates, this.movesOf(existing.id)) : p.candidates;
    this.st.delMoves.run(existing.id);
    this.bumpGraphEpoch(); // a change in place: a graph snapshot cannot replay it
    return this.putMoves(existing.id, candidates, existing.state === "thought" ? 0 : 1);
  }

  /** Deletes a position row and its moves (the caller keeps the thought counter). */
  remove(id: number): void {
    this.st.delMoves.run(id);
    this.c.q("DELETE FROM positions WHERE id = ?").run(id);
  }

  bumpGraphEpoch(): void {
    this.c
      .q("INSERT INTO meta (key, value) VALUES ('graph_epoch', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
      .run();
  }

  bumpCount(by: number): void {
    this.c.q("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'thought_count'").run(by);
  }

  private keySchemeError(p: KeyedThought): never {
    const row = this.c
      .q(`SELECT ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo FROM positions WHERE sfen = ?`)
      .get(p.sfen) as PositionKey;
    throw new Error(
      `"${p.sfen}" is stored with key ${keyHex(row.keyHi, row.keyLo)} but was given key ${keyHex(p.keyHi, p.keyLo)}: the key scheme changed?`,
    );
  }

  /** An imported file's position comment (the book's own comment wins) and .sbk state data. */
  private putFileExtras(p: KeyedThought, key: bigint): void {
    if (p.comment !== undefined && p.comment.trim() !== "")
      this.c
        .q("INSERT INTO comments (sfen, key, text, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (sfen) DO NOTHING")
        .run(p.sfen, key, p.comment, p.thoughtAt);
    if (p.sbk !== undefined)
      this.c
        .q("INSERT INTO sbk_states (sfen, key, data) VALUES (?, ?, ?) ON CONFLICT (sfen) DO UPDATE SET data = excluded.data")
        .run(p.sfen, key, JSON.stringify(p.sbk));
  }

  private movesOf(id: number): Candidate[] {
    return (this.c.q(`SELECT ${MOVE_COLUMNS} FROM moves WHERE position_id = ? ORDER BY rank`).raw().all(id) as MoveRaw[]).map(toCandidate);
  }

  private putMoves(id: number, cands: Candidate[], added: number): [number, number] {
    // All of a position's moves in one multi-row INSERT: the per-statement call, not
    // SQLite, dominates the cost of small rows.
    for (let from = 0; from < cands.length; from += MOVES_PER_INSERT) {
      const to = Math.min(cands.length, from + MOVES_PER_INSERT);
      const args: unknown[] = [];
      for (let rank = from; rank < to; rank++) {
        const c = cands[rank]!;
        const flags = (c.noValue ? NO_VALUE : 0) | (c.noDepth ? NO_DEPTH : 0);
        args.push(id, rank, c.move, c.value, c.depth, c.pv.join(" "), c.count ?? null, flags || null, c.comment ?? null, c.mark ?? null);
      }
      this.c
        .q(
          `INSERT INTO moves (position_id, rank, move, value, depth, pv, count, flags, comment, mark) VALUES ${Array(to - from)
            .fill("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .join(", ")}`,
        )
        .run(args);
    }
    return [id, added];
  }
}
