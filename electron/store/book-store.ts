// The book of record: one SQLite file (better-sqlite3, synchronous) per book.
//
// Durability: WAL with synchronous=FULL. Every addThought is one transaction (position,
// its moves, a log row) and when it returns the WAL frame has been fsynced, so the
// result survives a kill -9 of the process *and* a power loss / OS crash. NORMAL would
// also survive a process crash (the WAL is in the OS page cache) but can drop the last
// commits on power loss, and a think takes seconds, so one fsync per result is free.
// Batches (imports) are one transaction, so they pay one fsync in total.
//
// In flight is never stored: a position being thought has no row until its result
// commits, so after a crash it is just unthought and selection picks it again.
//
// One writer per book (lock.ts); any number of read-only openers. Iterators hold a read
// cursor: finish or break out of them before writing on the same BookStore.
import { closeSync, existsSync, lstatSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { BanView, ChartSample, EngineConfigView } from "../../shared/api/contract.js";
import type { Candidate, Provenance, SbkStateRecord, ThoughtPosition } from "../../shared/book/records.js";
import { parseStoredThinkLimit, type ThinkLimit } from "../../shared/dig/settings.js";
import { BookOpenError, KeyCollisionError, StoreFullError, keyHex, type LockHolder } from "./errors.js";
import { keyHiSql, keyLoSql, keyToInt64 } from "./keys.js";
import { acquireLock, readLockHolder, releaseLock } from "./lock.js";
import { APP_ID, MIGRATIONS, migrate, readSchemaVersion, type Migration } from "./schema.js";

export { BookOpenError, BookLockedError, KeyCollisionError, StoreFullError } from "./errors.js";
export type { LockHolder } from "./errors.js";

/** A position key as the rules core gives it: two 32-bit halves (returned unsigned). */
export interface PositionKey {
  keyHi: number;
  keyLo: number;
}

export type KeyedThought = ThoughtPosition & PositionKey;
export type StoredThought = KeyedThought & { id: number };

export interface KifuSeed extends PositionKey {
  sfen: string;
  /** The game record file (or other label) the position came from. */
  source: string;
  /** Ply of the position in that record (0 = its start position). */
  ply: number;
}

/** A position waiting to be thought ahead of selection (game records, `--think-plies`). */
export interface QueuedPosition extends PositionKey {
  sfen: string;
  source: string;
  ply: number;
  /** Its own think limit (think it now / deeper); absent: the book's. */
  limit?: ThinkLimit;
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

/** A stored ban: the UI's view (shared/api/contract.ts BanView) with the position's key. */
export interface Ban extends PositionKey, BanView {}

/** An engine as the book stores it: the contract's view is the one definition. */
export type EngineConfig = EngineConfigView;

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogEntry {
  id: number;
  at: number;
  level: LogLevel;
  event: string;
  message: string;
  detail: unknown;
}

export interface Failure {
  sfen: string;
  attempts: number;
  lastError: string;
  lastAt: number;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Recorded in meta as the last writer, e.g. "horu 0.1.0". */
  writer?: string;
  /**
   * Take the writer lock even from a holder that looks alive. Only for a holder on
   * another host that is known to be gone (this host's dead holders are detected).
   */
  forceLock?: boolean;
  /** Tests only: the migration list to open with (default MIGRATIONS). */
  migrations?: readonly Migration[];
}

/** dig_log keeps this many recent rows; older ones are pruned so a months-long dig does not grow the file with chatter. */
export const LOG_KEEP = 100_000;
/** Chart samples kept before old ones are thinned, and how many of the newest are never thinned. */
export const CHART_KEEP = 2000;
export const CHART_RECENT = 200;
const LOG_PRUNE_EVERY = 1024;
/** Moves per multi-row INSERT (x 10 parameters, far below SQLite's limit). */
const MOVES_PER_INSERT = 16;
const SQLITE_HEADER = "SQLite format 3\0";

function isFull(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "SQLITE_FULL";
}

function provenanceColumns(p: Provenance): [string, string | null, string | null, number | null, number | null, number | null] {
  return p.kind === "engine" ? ["engine", p.engine, null, p.nodes, p.depth, p.timeMs] : ["import", null, p.file, null, null, null];
}

function provenanceFrom(
  source: string | null,
  engine: string | null,
  file: string | null,
  nodes: number | null,
  depth: number | null,
  timeMs: number | null,
): Provenance {
  return source === "engine"
    ? { kind: "engine", engine: engine ?? "", nodes: nodes ?? 0, depth: depth ?? 0, timeMs: timeMs ?? 0 }
    : { kind: "import", file: file ?? "" };
}

const splitPv = (pv: string): string[] => (pv === "" ? [] : pv.split(" "));

const POSITION_COLUMNS = `id, sfen, ${keyHiSql("key")}, ${keyLoSql("key")}, thought_at, source, engine, file, nodes, depth, time_ms`;
type PositionRaw = [
  number,
  string,
  number,
  number,
  number,
  string | null,
  string | null,
  string | null,
  number | null,
  number | null,
  number | null,
];
type MoveRaw = [number, string, number, number, string, number | null, number | null, string | null, number | null];
const MOVE_COLUMNS = "position_id, move, value, depth, pv, count, flags, comment, mark";
/** moves.flags bits. */
const NO_VALUE = 1;
const NO_DEPTH = 2;

/**
 * Refuses a path with a NUL or another control character before any file operation: the
 * file system and SQLite would cut it at the NUL and open another file than the one named.
 */
export function checkPathText(path: string): void {
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u001f\u007f]/.exec(path);
  if (bad)
    throw new BookOpenError(
      path,
      "bad-path",
      `${JSON.stringify(path)} is not a usable file name: it holds the control character U+${bad[0].charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`,
    );
}

function probeFile(path: string): void {
  checkPathText(path);
  if (!existsSync(path)) throw new BookOpenError(path, "missing", `${path} does not exist`);
  if (!statSync(path).isFile()) throw new BookOpenError(path, "not-sqlite", `${path} is not a horu book (not a file)`);
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    // A zero-length file is a valid empty SQLite database: it fails the meta check instead.
    if (n > 0 && buf.toString("latin1", 0, n) !== SQLITE_HEADER) {
      throw new BookOpenError(path, "not-sqlite", `${path} is not a horu book (not an SQLite file)`);
    }
  } finally {
    closeSync(fd);
  }
}

function checkBook(db: Database.Database, path: string, readsUpTo: number): number {
  let hasMeta: boolean;
  try {
    hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
  } catch (e) {
    if ((e as { code?: string }).code === "SQLITE_NOTADB") {
      throw new BookOpenError(path, "not-sqlite", `${path} is not a horu book (not an SQLite file)`);
    }
    throw e;
  }
  if (!hasMeta) throw new BookOpenError(path, "not-horu", `${path} is not a horu book (no meta table)`);
  const app = db.prepare("SELECT value FROM meta WHERE key = 'app_id'").get() as { value: string } | undefined;
  if (app?.value !== APP_ID) {
    throw new BookOpenError(path, "not-horu", `${path} is not a horu book (app id ${JSON.stringify(app?.value ?? null)})`);
  }
  const version = readSchemaVersion(db);
  if (version > readsUpTo) {
    throw new BookOpenError(
      path,
      "newer-schema",
      `${path} was written by a newer horu (schema ${version}, this program reads up to ${readsUpTo})`,
    );
  }
  return version;
}

function setWriterPragmas(db: Database.Database, path: string): void {
  db.pragma("busy_timeout = 5000");
  const mode = db.pragma("journal_mode = WAL", { simple: true });
  // WAL needs shared memory (no network file systems); without it our durability story does not hold.
  if (mode !== "wal") throw new Error(`${path}: cannot use WAL journaling here (got ${String(mode)}); keep books on a local disk`);
  db.pragma("synchronous = FULL");
  db.pragma("cache_size = -65536"); // 64 MiB: keeps the sfen/key indexes hot during big imports
}

export class BookStore {
  readonly path: string;
  readonly readonly: boolean;
  private readonly db: Database.Database;
  private lockToken: string | undefined;
  // Starts one short of a prune, so each session prunes on its first log write.
  private logWrites = LOG_PRUNE_EVERY - 1;
  // Thinning is checked every 64 inserts (the count is cheap, but not free on every sample).
  private chartInserts = 0;
  private closed = false;
  private readonly stmtCache = new Map<string, Database.Statement<unknown[]>>();

  private readonly st: {
    byKey: Database.Statement<[bigint], { id: number; sfen: string; state: string }>;
    collision: Database.Statement<[bigint, string], { sfen: string }>;
    insPos: Database.Statement<unknown[]>;
    updPos: Database.Statement<unknown[]>;
    delMoves: Database.Statement<[number]>;
    delFailure: Database.Statement<[string]>;
    log: Database.Statement<unknown[]>;
  };

  private constructor(db: Database.Database, path: string, readonly: boolean, lockToken: string | undefined) {
    this.db = db;
    this.path = path;
    this.readonly = readonly;
    this.lockToken = lockToken;
    this.st = {
      byKey: db.prepare("SELECT id, sfen, state FROM positions WHERE key = ?"),
      collision: db.prepare("SELECT sfen FROM positions WHERE key = ? AND sfen <> ? LIMIT 1"),
      insPos: db.prepare(
        "INSERT INTO positions (sfen, key, state, thought_at, source, engine, file, nodes, depth, time_ms) VALUES (?, ?, 'thought', ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      ),
      updPos: db.prepare(
        "UPDATE positions SET state = 'thought', thought_at = ?, source = ?, engine = ?, file = ?, nodes = ?, depth = ?, time_ms = ? WHERE id = ?",
      ),
      delMoves: db.prepare("DELETE FROM moves WHERE position_id = ?"),
      delFailure: db.prepare("DELETE FROM failures WHERE sfen = ?"),
      log: db.prepare("INSERT INTO dig_log (at, level, event, message, detail) VALUES (?, ?, ?, ?, ?)"),
    };
  }

  /** Creates a new book. Refuses to overwrite an existing non-empty file. */
  static create(path: string, opts: { writer?: string } = {}): BookStore {
    checkPathText(path);
    // Any file there is refused, an empty one too (it may be someone's placeholder), and a
    // link (to a file or not): a new book is a new file.
    let there: boolean;
    try {
      lstatSync(path);
      there = true;
    } catch {
      there = false;
    }
    if (there) throw new BookOpenError(path, "exists", `${path} already exists; refusing to overwrite it (open it, or choose a new name)`);
    const folder = dirname(path);
    if (!existsSync(folder) || !statSync(folder).isDirectory())
      throw new BookOpenError(path, "no-folder", `${folder} is not a folder: create it first, or choose another place for the book`);
    const db = new Database(path);
    try {
      setWriterPragmas(db, path);
      migrate(db, opts.writer ?? "horu");
      const token = acquireLock(db, path);
      return new BookStore(db, path, false, token);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * Opens an existing book, refusing anything that is not one (missing, not SQLite, no
   * horu meta, newer schema). A writable open takes the writer lock (BookLockedError
   * if a live process holds it) and runs pending migrations.
   */
  static open(path: string, opts: OpenOptions = {}): BookStore {
    probeFile(path);
    const readonly = opts.readonly === true;
    const db = new Database(path, { readonly, fileMustExist: true });
    try {
      db.pragma("busy_timeout = 5000");
      const migrations = opts.migrations ?? MIGRATIONS;
      const version = checkBook(db, path, migrations.length);
      if (readonly) {
        if (version < migrations.length) {
          throw new BookOpenError(
            path,
            "needs-migration",
            `${path} has schema ${version}; open it for writing once to upgrade it to ${migrations.length}`,
          );
        }
        return new BookStore(db, path, true, undefined);
      }
      setWriterPragmas(db, path);
      const token = acquireLock(db, path, opts.forceLock === true);
      try {
        migrate(db, opts.writer ?? "horu", migrations);
        db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('last_writer', ?)").run(opts.writer ?? "horu");
      } catch (e) {
        releaseLock(db, token);
        throw e;
      }
      return new BookStore(db, path, false, token);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** Who holds the writer lock now (undefined when nobody does). */
  lockHolder(): LockHolder | undefined {
    return readLockHolder(this.db);
  }

  /** Runs a write, turning SQLITE_FULL into StoreFullError (the transaction has rolled back). */
  private write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (isFull(e)) throw new StoreFullError(this.path, { cause: e });
      throw e;
    }
  }

  private keySchemeError(p: KeyedThought): never {
    const row = this.q(`SELECT ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo FROM positions WHERE sfen = ?`).get(
      p.sfen,
    ) as PositionKey;
    throw new Error(
      `"${p.sfen}" is stored with key ${keyHex(row.keyHi, row.keyLo)} but was given key ${keyHex(p.keyHi, p.keyLo)}: the key scheme changed?`,
    );
  }

  /** Upserts one position and replaces its moves. Returns [id, 1 if it was not thought before]. */
  private putThought(p: KeyedThought): [number, number] {
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

  /** An imported file's position comment (the book's own comment wins) and .sbk state data. */
  private putFileExtras(p: KeyedThought, key: bigint): void {
    if (p.comment !== undefined && p.comment.trim() !== "")
      this.q("INSERT INTO comments (sfen, key, text, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (sfen) DO NOTHING").run(
        p.sfen,
        key,
        p.comment,
        p.thoughtAt,
      );
    if (p.sbk !== undefined)
      this.q("INSERT INTO sbk_states (sfen, key, data) VALUES (?, ?, ?) ON CONFLICT (sfen) DO UPDATE SET data = excluded.data").run(
        p.sfen,
        key,
        JSON.stringify(p.sbk),
      );
  }

  private movesOf(id: number): Candidate[] {
    return (this.q(`SELECT ${MOVE_COLUMNS} FROM moves WHERE position_id = ? ORDER BY rank`).raw().all(id) as MoveRaw[]).map(toCandidate);
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
      this.insMoves(to - from).run(args);
    }
    return [id, added];
  }

  /** A prepared statement, prepared once per store: preparing costs more than running a lookup. */
  private q(sql: string): Database.Statement<unknown[]> {
    let st = this.stmtCache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.stmtCache.set(sql, st);
    }
    return st;
  }

  private insMoves(n: number): Database.Statement<unknown[]> {
    return this.q(
      `INSERT INTO moves (position_id, rank, move, value, depth, pv, count, flags, comment, mark) VALUES ${Array(n).fill("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
    );
  }

  private insertLog(level: LogLevel, event: string, message: string, detail: unknown): void {
    this.st.log.run(Date.now(), level, event, message, detail === undefined ? null : JSON.stringify(detail));
    if (++this.logWrites % LOG_PRUNE_EVERY === 0) {
      this.q("DELETE FROM dig_log WHERE id <= (SELECT max(id) FROM dig_log) - ?").run(LOG_KEEP);
    }
  }

  /**
   * Stores one think result in one transaction: the position (inserted or updated), its
   * moves (replaced), and a dig_log row. Durable when it returns. Returns the position id.
   */
  addThought(p: KeyedThought): number {
    const [id] = this.write(() =>
      this.db
        .transaction(() => {
          const r = this.putThought(p);
          this.st.delFailure.run(p.sfen);
          this.q("DELETE FROM think_queue WHERE sfen = ?").run(p.sfen); // done, in the same commit
          const pr = p.provenance;
          this.insertLog("info", "thought", p.sfen, {
            id: r[0],
            moves: p.candidates.length,
            ...(pr.kind === "engine" ? { engine: pr.engine, nodes: pr.nodes, timeMs: pr.timeMs } : { file: pr.file }),
          });
          if (r[1] > 0) this.bumpCount(r[1]);
          return r;
        })
        .immediate(),
    );
    return id;
  }

  /** Stores many positions in one transaction (imports): all or nothing, one log row. Returns how many were given. */
  addThoughtBatch(list: Iterable<KeyedThought>): number {
    return this.write(() =>
      this.db
        .transaction(() => {
          let count = 0;
          let fresh = 0;
          for (const p of list) {
            fresh += this.putThought(p)[1];
            count++;
          }
          if (fresh > 0) this.bumpCount(fresh);
          this.insertLog("info", "batch", `${count} positions stored`, { count, added: fresh });
          return count;
        })
        .immediate(),
    );
  }

  getPosition(sfen: string): StoredThought | undefined {
    const row = this.q(`SELECT ${POSITION_COLUMNS} FROM positions WHERE sfen = ? AND state = 'thought'`).raw().get(sfen) as
      PositionRaw | undefined;
    if (!row) return undefined;
    const moves = this.q(`SELECT ${MOVE_COLUMNS} FROM moves WHERE position_id = ? ORDER BY rank`).raw().all(row[0]) as MoveRaw[];
    return toThought(row, moves.map(toCandidate));
  }

  hasPosition(sfen: string): boolean {
    return this.q("SELECT 1 FROM positions WHERE sfen = ? AND state = 'thought'").get(sfen) !== undefined;
  }

  /** The SFEN of the thought position with this key (the graph keeps keys only), or null. */
  thoughtSfenOfKey(keyHi: number, keyLo: number): string | null {
    const row = this.st.byKey.get(keyToInt64(keyHi, keyLo));
    return row !== undefined && row.state === "thought" ? row.sfen : null;
  }

  /** Number of thought positions: a counter kept in meta by the same transactions that add them, so O(1) at any size. */
  countThought(): number {
    return (this.q("SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'thought_count'").get() as { n: number }).n;
  }

  /**
   * The graph epoch: moves on whenever thought positions change other than by appending
   * new rows (a position thought again, a prune). A graph snapshot taken in one epoch can
   * be brought up to date by replaying the rows added after it; in another, it cannot.
   */
  graphEpoch(): number {
    const row = this.q("SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'graph_epoch'").get() as { n: number } | undefined;
    return row?.n ?? 0;
  }

  private bumpGraphEpoch(): void {
    this.q(
      "INSERT INTO meta (key, value) VALUES ('graph_epoch', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
    ).run();
  }

  private bumpCount(by: number): void {
    this.q("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'thought_count'").run(by);
  }

  /**
   * Every thought position with its moves, in id (= insertion) order, streamed: two
   * cursors (positions by id, moves by (position_id, rank)) merged, so memory stays flat
   * at any book size.
   */
  *iterateThought(): IterableIterator<StoredThought> {
    // Fresh statements (not the cache): two iterations may run at once.
    const positions = this.db
      .prepare(`SELECT ${POSITION_COLUMNS} FROM positions WHERE state = 'thought' ORDER BY id`)
      .raw()
      .iterate() as IterableIterator<PositionRaw>;
    const moves = this.db
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
  *iterateThoughtBySfen(): IterableIterator<StoredThought> {
    const positions = this.db
      .prepare(`SELECT ${POSITION_COLUMNS} FROM positions WHERE state = 'thought' ORDER BY sfen`)
      .raw()
      .iterate() as IterableIterator<PositionRaw>;
    const moves = this.db.prepare(`SELECT ${MOVE_COLUMNS} FROM moves WHERE position_id = ? ORDER BY rank`).raw();
    // A position's comment and .sbk state go along (looked up only when the book has any).
    const comment = this.db.prepare("SELECT 1 FROM comments LIMIT 1").get()
      ? this.db.prepare("SELECT text FROM comments WHERE sfen = ?").pluck()
      : null;
    const sbk = this.db.prepare("SELECT 1 FROM sbk_states LIMIT 1").get()
      ? this.db.prepare("SELECT data FROM sbk_states WHERE sfen = ?").pluck()
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
  countThoughtWithMoves(): number {
    return (
      this.q(
        "SELECT count(*) AS n FROM positions p WHERE p.state = 'thought' AND EXISTS (SELECT 1 FROM moves m WHERE m.position_id = p.id)",
      ).get() as { n: number }
    ).n;
  }

  /** Every position comment and .sbk state the book keeps, by SFEN (small tables: read whole). */
  positionNotes(): Map<string, { comment?: string; sbk?: SbkStateRecord }> {
    const out = new Map<string, { comment?: string; sbk?: SbkStateRecord }>();
    for (const r of this.q("SELECT sfen, text FROM comments").all() as { sfen: string; text: string }[])
      out.set(r.sfen, { comment: r.text });
    for (const r of this.q("SELECT sfen, data FROM sbk_states").all() as { sfen: string; data: string }[]) {
      const n = out.get(r.sfen) ?? {};
      n.sbk = JSON.parse(r.data) as SbkStateRecord;
      out.set(r.sfen, n);
    }
    return out;
  }

  /** The author and description of the ShogiGUI book last imported (written back into .sbk exports). */
  sbkBookMeta(): { author?: string; description?: string } {
    const m = this.meta();
    return { author: m["sbk_author"], description: m["sbk_description"] };
  }

  setSbkBookMeta(meta: { author: string; description: string }): void {
    this.write(() =>
      this.db.transaction(() => {
        const set = this.q("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
        set.run("sbk_author", meta.author);
        set.run("sbk_description", meta.description);
      })(),
    );
  }

  /**
   * Marks a position as given up on (the engines kept failing on it). It stays out of
   * the thought set; a later successful addThought replaces the mark.
   */
  markFailed(p: PositionKey & { sfen: string }): void {
    const key = keyToInt64(p.keyHi, p.keyLo);
    this.write(() =>
      this.db
        .transaction(() => {
          const clash = this.st.collision.get(key, p.sfen);
          if (clash) throw new KeyCollisionError(p.sfen, clash.sfen, p.keyHi >>> 0, p.keyLo >>> 0);
          this.q("INSERT INTO positions (sfen, key, state, thought_at) VALUES (?, ?, 'failed', ?) ON CONFLICT (sfen) DO NOTHING").run(
            p.sfen,
            key,
            Date.now(),
          );
          this.q("DELETE FROM think_queue WHERE sfen = ?").run(p.sfen);
          this.insertLog("warn", "failed", p.sfen, undefined);
        })
        .immediate(),
    );
  }

  *iterateFailed(): IterableIterator<PositionKey & { sfen: string }> {
    const rows = this.db
      .prepare(`SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo FROM positions WHERE state = 'failed' ORDER BY id`)
      .iterate() as IterableIterator<PositionKey & { sfen: string }>;
    yield* rows;
  }

  /** Counts one more failed attempt at thinking `sfen`; returns the attempts so far. Cleared by addThought. */
  recordFailure(sfen: string, error: string | Error): number {
    const msg = typeof error === "string" ? error : error.message;
    return this.write(() => {
      const row = this.q(
        `INSERT INTO failures (sfen, attempts, last_error, last_at) VALUES (?, 1, ?, ?)
           ON CONFLICT (sfen) DO UPDATE SET attempts = attempts + 1, last_error = excluded.last_error, last_at = excluded.last_at
           RETURNING attempts`,
      ).get(sfen, msg, Date.now()) as { attempts: number };
      return row.attempts;
    });
  }

  listFailures(): Failure[] {
    return this.q(
      "SELECT sfen, attempts, last_error AS lastError, last_at AS lastAt FROM failures ORDER BY last_at, sfen",
    ).all() as Failure[];
  }

  clearFailure(sfen: string): void {
    this.write(() => this.st.delFailure.run(sfen));
  }

  /** Adds positions seeded from game records; duplicates (same sfen, source, ply) are ignored. Returns how many were new. */
  addKifuSeeds(rows: Iterable<KifuSeed>): number {
    return this.write(() =>
      this.db
        .transaction(() => {
          const ins = this.q("INSERT OR IGNORE INTO kifu_seeds (sfen, key, source, ply) VALUES (?, ?, ?, ?)");
          let n = 0;
          for (const r of rows) n += ins.run(r.sfen, keyToInt64(r.keyHi, r.keyLo), r.source, r.ply).changes;
          return n;
        })
        .immediate(),
    );
  }

  *iterateKifuSeeds(): IterableIterator<KifuSeed> {
    yield* this.db
      .prepare(`SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo, source, ply FROM kifu_seeds ORDER BY id`)
      .iterate() as IterableIterator<KifuSeed>;
  }

  /** Queues positions to be thought, in the order given; already queued ones keep their place. Returns how many were new. */
  addToThinkQueue(rows: Iterable<QueuedPosition>): number {
    return this.write(() =>
      this.db
        .transaction(() => {
          const ins = this.q("INSERT OR IGNORE INTO think_queue (sfen, key, source, ply) VALUES (?, ?, ?, ?)");
          let n = 0;
          for (const r of rows) n += ins.run(r.sfen, keyToInt64(r.keyHi, r.keyLo), r.source, r.ply).changes;
          return n;
        })
        .immediate(),
    );
  }

  /**
   * Queued positions, oldest first, `limit` at a time (OpenBook.next skips the ones in
   * flight, so it asks for a few more than it has out). Finished before any write.
   */
  peekThinkQueue(limit: number): QueuedPosition[] {
    const rows = this.q(
      `SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo, source, ply, think_limit AS thinkLimit FROM think_queue ORDER BY id LIMIT ?`,
    ).all(limit) as Array<QueuedPosition & { thinkLimit: string | null }>;
    return rows.map(({ thinkLimit, ...q }) => (thinkLimit === null ? q : { ...q, limit: parseStoredThinkLimit(thinkLimit, q.sfen) }));
  }

  /** Takes a position off the queue (addThought and markFailed do this themselves). */
  removeFromThinkQueue(sfen: string): boolean {
    return this.write(() => this.q("DELETE FROM think_queue WHERE sfen = ?").run(sfen).changes > 0);
  }

  countThinkQueue(): number {
    return (this.q("SELECT count(*) AS n FROM think_queue").get() as { n: number }).n;
  }

  /** Adds game counts to a position's move statistics (accumulates). */
  addMoveStats(rows: Iterable<MoveStatsRow>): void {
    this.write(() =>
      this.db
        .transaction(() => {
          const up = this.q(
            `INSERT INTO move_stats (sfen, key, move, games, wins, draws) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (sfen, move) DO UPDATE SET games = games + excluded.games, wins = wins + excluded.wins, draws = draws + excluded.draws`,
          );
          for (const r of rows) up.run(r.sfen, keyToInt64(r.keyHi, r.keyLo), r.move, r.games, r.wins, r.draws ?? 0);
        })
        .immediate(),
    );
  }

  /** Move statistics of one position, most played first. */
  getMoveStats(sfen: string): MoveStats[] {
    return this.q("SELECT move, games, wins, draws FROM move_stats WHERE sfen = ? ORDER BY games DESC, move").all(sfen) as MoveStats[];
  }

  /** Bans a (position, move) pair for selection. Returns false if it was already banned. */
  addBan(b: PositionKey & { sfen: string; move: string; reason: string; line?: string[] }): boolean {
    return this.addBans([b]) > 0;
  }

  /** Bans several pairs in one transaction (one selection's bans). Returns how many were new. */
  addBans(list: Array<PositionKey & { sfen: string; move: string; reason: string; line?: string[] }>): number {
    if (list.length === 0) return 0;
    const at = Date.now();
    return this.write(() =>
      this.db
        .transaction(() => {
          const ins = this.q("INSERT OR IGNORE INTO banned (sfen, key, move, created_at, reason, line) VALUES (?, ?, ?, ?, ?, ?)");
          let added = 0;
          for (const b of list)
            added += ins.run(b.sfen, keyToInt64(b.keyHi, b.keyLo), b.move, at, b.reason, b.line ? b.line.join(" ") : null).changes;
          return added;
        })
        .immediate(),
    );
  }

  /** Bans in the order they were made; a page of them with `offset`/`limit`. */
  listBans(offset = 0, limit = -1): Ban[] {
    const rows = this.q(
      `SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo, move, reason, created_at AS createdAt, line FROM banned ORDER BY id LIMIT ? OFFSET ?`,
    ).all(limit, offset) as Array<Omit<Ban, "line"> & { line: string | null }>;
    return rows.map((r) => ({ ...r, line: r.line === null ? null : r.line === "" ? [] : r.line.split(" ") }));
  }

  countBans(): number {
    return (this.q("SELECT COUNT(*) AS n FROM banned").get() as { n: number }).n;
  }

  countFailed(): number {
    return (this.q("SELECT COUNT(*) AS n FROM positions WHERE state = 'failed'").get() as { n: number }).n;
  }

  /**
   * Appends a chart sample. Past CHART_KEEP rows, every other old one (gaps kept, the newest
   * CHART_RECENT untouched) goes, so a months-long dig keeps its whole shape in a few hundred KiB.
   */
  addChartSample(s: ChartSample, limits: { keep: number; recent: number } = { keep: CHART_KEEP, recent: CHART_RECENT }): void {
    this.write(() =>
      this.db
        .transaction(() => {
          this.q("INSERT INTO chart_samples (t, thought, root_value, gap) VALUES (?, ?, ?, ?)").run(
            Math.round(s.t),
            s.thought,
            s.rootValue,
            s.gap ? 1 : 0,
          );
          if (++this.chartInserts % 64 !== 0 || this.countChartSamples() <= limits.keep) return;
          this.q(
            `DELETE FROM chart_samples WHERE id IN (
             SELECT id FROM (SELECT id, gap, row_number() OVER (ORDER BY id) AS r FROM chart_samples
                             WHERE id < (SELECT min(id) FROM (SELECT id FROM chart_samples ORDER BY id DESC LIMIT ?)))
             WHERE gap = 0 AND r % 2 = 0)`,
          ).run(limits.recent);
        })
        .immediate(),
    );
  }

  /** The chart history, oldest first. */
  chartSamples(): ChartSample[] {
    const rows = this.q("SELECT t, thought, root_value AS rootValue, gap FROM chart_samples ORDER BY id").all() as Array<{
      t: number;
      thought: number;
      rootValue: number | null;
      gap: number;
    }>;
    return rows.map((r) => ({ t: r.t, thought: r.thought, rootValue: r.rootValue, gap: r.gap !== 0 }));
  }

  /** The newest chart sample, if any. */
  lastChartSample(): ChartSample | undefined {
    const r = this.q("SELECT t, thought, root_value AS rootValue, gap FROM chart_samples ORDER BY id DESC LIMIT 1").get() as
      { t: number; thought: number; rootValue: number | null; gap: number } | undefined;
    return r && { t: r.t, thought: r.thought, rootValue: r.rootValue, gap: r.gap !== 0 };
  }

  countChartSamples(): number {
    return (this.q("SELECT COUNT(*) AS n FROM chart_samples").get() as { n: number }).n;
  }

  /** Removes every ban (a new dig starts with none). Returns how many there were. */
  clearBans(): number {
    return this.write(() => this.q("DELETE FROM banned").run().changes);
  }

  addEngine(e: Omit<EngineConfig, "id">): number {
    return this.write(() =>
      Number(
        this.q("INSERT INTO engines (name, command, args, cwd, options, enabled) VALUES (?, ?, ?, ?, ?, ?)").run(
          e.name,
          e.command,
          JSON.stringify(e.args),
          e.cwd,
          JSON.stringify(e.options),
          e.enabled ? 1 : 0,
        ).lastInsertRowid,
      ),
    );
  }

  updateEngine(e: EngineConfig): void {
    const changes = this.write(
      () =>
        this.q("UPDATE engines SET name = ?, command = ?, args = ?, cwd = ?, options = ?, enabled = ? WHERE id = ?").run(
          e.name,
          e.command,
          JSON.stringify(e.args),
          e.cwd,
          JSON.stringify(e.options),
          e.enabled ? 1 : 0,
          e.id,
        ).changes,
    );
    if (changes === 0) throw new Error(`no engine with id ${e.id}`);
  }

  removeEngine(id: number): boolean {
    return this.write(() => this.q("DELETE FROM engines WHERE id = ?").run(id).changes > 0);
  }

  getEngine(id: number): EngineConfig | undefined {
    const row = this.q("SELECT * FROM engines WHERE id = ?").get(id) as EngineRow | undefined;
    return row && toEngine(row);
  }

  listEngines(): EngineConfig[] {
    return (this.q("SELECT * FROM engines ORDER BY id").all() as EngineRow[]).map(toEngine);
  }

  getSetting<T = unknown>(key: string): T | undefined {
    const row = this.q("SELECT value FROM settings WHERE key = ?").get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Stores a JSON-serialisable setting; undefined deletes it. */
  setSetting(key: string, value: unknown): void {
    this.write(() => {
      if (value === undefined) this.q("DELETE FROM settings WHERE key = ?").run(key);
      else this.q("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run(key, JSON.stringify(value));
    });
  }

  /** Several settings in one transaction (undefined values are left as they are). */
  setSettings(values: Record<string, unknown>): void {
    this.write(() =>
      this.db
        .transaction(() => {
          for (const [key, value] of Object.entries(values)) {
            if (value !== undefined) this.q("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run(key, JSON.stringify(value));
          }
        })
        .immediate(),
    );
  }

  allSettings(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const r of this.q("SELECT key, value FROM settings ORDER BY key").all() as { key: string; value: string }[]) {
      out[r.key] = JSON.parse(r.value);
    }
    return out;
  }

  log(level: LogLevel, event: string, message: string, detail?: unknown): void {
    this.write(() => this.insertLog(level, event, message, detail));
  }

  /** The last n log entries, oldest first. */
  recentLog(n: number): LogEntry[] {
    const rows = this.q("SELECT id, at, level, event, message, detail FROM dig_log ORDER BY id DESC LIMIT ?").all(n) as (Omit<
      LogEntry,
      "detail"
    > & { detail: string | null })[];
    return rows.reverse().map((r) => ({ ...r, detail: r.detail === null ? undefined : JSON.parse(r.detail) }));
  }

  /**
   * A consistent snapshot to `toPath` with SQLite's online backup (digging may go on).
   * Written to a temporary file, stripped of our writer lock, switched to a
   * self-contained rollback journal, then renamed into place: a crash mid-backup never
   * destroys an earlier backup at the same path.
   */
  async backup(toPath: string): Promise<void> {
    if (toPath === this.path) throw new Error(`refusing to back ${this.path} up onto itself`);
    const tmp = `${toPath}.partial-${process.pid}`;
    rmSync(tmp, { force: true });
    try {
      await this.db.backup(tmp);
      const copy = new Database(tmp);
      try {
        copy.prepare("DELETE FROM writer_lock").run();
        copy.pragma("journal_mode = DELETE");
      } finally {
        copy.close();
      }
      renameSync(tmp, toPath);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }

  /** PRAGMA integrity_check plus the store's own counter check: "ok" when sound, else the problems, one a line. */
  integrityCheck(): string {
    const problems = (this.db.pragma("integrity_check") as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (problems.length === 1 && problems[0] === "ok") {
      // Our own invariant on top of SQLite's: the thought counter matches the rows.
      const rows = (this.q("SELECT count(*) AS n FROM positions WHERE state = 'thought'").get() as { n: number }).n;
      const counter = this.countThought();
      if (rows !== counter) return `meta thought_count is ${counter} but ${rows} positions are thought`;
    }
    return problems.join("\n");
  }

  /** The meta table as key/value pairs (app_id, schema_version, created_at, ...). */
  meta(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const r of this.q("SELECT key, value FROM meta").all() as { key: string; value: string }[]) out[r.key] = r.value;
    return out;
  }

  // --- Working on the book by hand ------------------------------------------

  /**
   * Puts a position at the head of the think queue (ahead of everything queued and of
   * selection), with its own think limit when given ("think it deeper"). Already queued:
   * moved to the head, with the new limit.
   */
  queueFirst(p: PositionKey & { sfen: string; source: string; limit?: ThinkLimit }): void {
    this.write(() =>
      this.db
        .transaction(() => {
          this.q("DELETE FROM think_queue WHERE sfen = ?").run(p.sfen);
          // Ids order the queue: one below the smallest puts this row first.
          this.q(
            "INSERT INTO think_queue (id, sfen, key, source, ply, think_limit) VALUES (min(coalesce((SELECT min(id) FROM think_queue), 1), 1) - 1, ?, ?, ?, 0, ?)",
          ).run(p.sfen, keyToInt64(p.keyHi, p.keyLo), p.source, p.limit === undefined ? null : JSON.stringify(p.limit));
          this.insertLog("info", "queued", p.sfen, { source: p.source, limit: p.limit });
        })
        .immediate(),
    );
  }

  /** The think limit a queued position carries (undefined: the book's own). */
  queuedLimit(sfen: string): ThinkLimit | undefined {
    const row = this.q("SELECT think_limit FROM think_queue WHERE sfen = ?").get(sfen) as { think_limit: string | null } | undefined;
    return row?.think_limit ? parseStoredThinkLimit(row.think_limit, sfen) : undefined;
  }

  /** Lifts a ban. Returns false when the pair was not banned. */
  removeBan(sfen: string, move: string): boolean {
    return this.write(() => this.q("DELETE FROM banned WHERE sfen = ? AND move = ?").run(sfen, move).changes > 0);
  }

  /**
   * Forgets that the engines gave up on positions (all of them, or the one given), so
   * selection may hand them out again. Returns the positions released.
   */
  retryFailed(sfen?: string): Array<PositionKey & { sfen: string }> {
    return this.write(() =>
      this.db
        .transaction(() => {
          const where = sfen === undefined ? "" : " AND sfen = ?";
          const args = sfen === undefined ? [] : [sfen];
          const rows = this.q(
            `SELECT sfen, ${keyHiSql("key")} AS keyHi, ${keyLoSql("key")} AS keyLo FROM positions WHERE state = 'failed'${where}`,
          ).all(...args) as Array<PositionKey & { sfen: string }>;
          this.q(`DELETE FROM positions WHERE state = 'failed'${where}`).run(...args);
          this.q(`DELETE FROM failures${sfen === undefined ? "" : " WHERE sfen = ?"}`).run(...args);
          if (rows.length) this.insertLog("info", "retry", `${rows.length} failed position(s) released`, { sfen });
          return rows;
        })
        .immediate(),
    );
  }

  /** Sets a position's comment; an empty text removes it. */
  setComment(p: PositionKey & { sfen: string }, text: string): void {
    this.write(() => {
      if (text.trim() === "") this.q("DELETE FROM comments WHERE sfen = ?").run(p.sfen);
      else
        this.q(
          "INSERT INTO comments (sfen, key, text, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (sfen) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at",
        ).run(p.sfen, keyToInt64(p.keyHi, p.keyLo), text, Date.now());
    });
  }

  getComment(sfen: string): string | null {
    const row = this.q("SELECT text FROM comments WHERE sfen = ?").get(sfen) as { text: string } | undefined;
    return row?.text ?? null;
  }

  listComments(): Array<{ sfen: string; text: string; updatedAt: number }> {
    return this.q("SELECT sfen, text, updated_at AS updatedAt FROM comments ORDER BY updated_at DESC").all() as Array<{
      sfen: string;
      text: string;
      updatedAt: number;
    }>;
  }

  /**
   * Removes thought positions in one transaction, keeping each (moves and provenance) in
   * the `pruned` table under a new batch number, so undoPrune can put them back.
   */
  prune(sfens: Iterable<string>, rootSfen: string): { batch: number; positions: number } {
    this.prunesMemo = null;
    return this.write(() =>
      this.db
        .transaction(() => {
          const batch = ((this.q("SELECT max(batch) AS b FROM pruned").get() as { b: number | null }).b ?? 0) + 1;
          const now = Date.now();
          let n = 0;
          for (const sfen of sfens) {
            const t = this.getPosition(sfen);
            if (!t) continue;
            this.q("INSERT INTO pruned (batch, sfen, data, pruned_at, root_sfen) VALUES (?, ?, ?, ?, ?)").run(
              batch,
              sfen,
              JSON.stringify(t),
              now,
              rootSfen,
            );
            this.st.delMoves.run(t.id);
            this.q("DELETE FROM positions WHERE id = ?").run(t.id);
            n++;
          }
          if (n > 0) {
            this.bumpCount(-n);
            this.bumpGraphEpoch();
          }
          this.insertLog("info", "prune", `pruned ${n} position(s) below ${rootSfen}`, { batch, positions: n });
          return { batch, positions: n };
        })
        .immediate(),
    );
  }

  /**
   * The book summary lists the imports and prunes on every change, and counting the rows of a
   * big one takes long (0.1 s per 3M positions imported): the lists are kept until this store
   * changes them. Only a writer keeps them (it holds the writer lock: nothing else changes them).
   */
  private importsMemo: Array<{ batch: number; file: string; positions: number; at: number }> | null = null;
  private prunesMemo: Array<{ batch: number; rootSfen: string; positions: number; at: number }> | null = null;

  /** The prune batches that can be undone, newest first. */
  listPrunes(): Array<{ batch: number; rootSfen: string; positions: number; at: number }> {
    const list =
      this.prunesMemo ??
      (this.q(
        "SELECT batch, root_sfen AS rootSfen, count(*) AS positions, max(pruned_at) AS at FROM pruned GROUP BY batch ORDER BY batch DESC",
      ).all() as Array<{ batch: number; rootSfen: string; positions: number; at: number }>);
    if (!this.readonly) this.prunesMemo = list;
    return list.map((p) => ({ ...p }));
  }

  /** Puts the newest prune batch back (one transaction); returns the positions restored. */
  undoPrune(): { batch: number; restored: KeyedThought[] } | null {
    this.prunesMemo = null;
    return this.write(() =>
      this.db
        .transaction(() => {
          const last = this.q("SELECT max(batch) AS b FROM pruned").get() as { b: number | null };
          if (last.b === null) return null;
          const rows = this.q("SELECT data FROM pruned WHERE batch = ?").all(last.b) as { data: string }[];
          const restored: KeyedThought[] = [];
          let fresh = 0;
          for (const r of rows) {
            const { id: _id, ...t } = JSON.parse(r.data) as StoredThought;
            fresh += this.putThought(t)[1];
            restored.push(t);
          }
          if (fresh > 0) this.bumpCount(fresh);
          this.q("DELETE FROM pruned WHERE batch = ?").run(last.b);
          this.insertLog("info", "unprune", `restored ${restored.length} pruned position(s)`, { batch: last.b });
          return { batch: last.b, restored };
        })
        .immediate(),
    );
  }

  /** Starts recording an import of `file` (undoImport takes it back); returns its batch number. */
  beginImport(file: string): number {
    this.importsMemo = null;
    return this.write(() => {
      const batch = ((this.q("SELECT max(batch) AS b FROM imports").get() as { b: number | null }).b ?? 0) + 1;
      this.q("INSERT INTO imports (batch, file, at) VALUES (?, ?, ?)").run(batch, file, Date.now());
      return batch;
    });
  }

  /**
   * Stores imported positions in one transaction, recorded under `batch`. A position not
   * thought yet is added; a thought one keeps its moves, values and provenance (an engine's
   * results are never overwritten), and the imported moves it does not list join them at the
   * end, with the import's values. Returns positions added, joined (moves added) and moves added.
   */
  importThoughts(batch: number, list: Iterable<KeyedThought>): { added: number; joined: number; moves: number } {
    this.importsMemo = null;
    return this.write(() =>
      this.db
        .transaction(() => {
          let added = 0,
            joined = 0,
            moves = 0,
            fresh = 0;
          const undo = this.q("INSERT INTO import_undo (batch, position_id, thought_at, data) VALUES (?, ?, ?, ?)");
          for (const p of list) {
            const existing = this.st.byKey.get(keyToInt64(p.keyHi, p.keyLo));
            if (!existing || existing.state !== "thought" || existing.sfen !== p.sfen) {
              const [id, isNew] = this.putThought(p); // a collision throws there
              fresh += isNew;
              undo.run(batch, id, p.thoughtAt, null);
              added++;
              moves += p.candidates.length;
              continue;
            }
            const before = this.getPosition(existing.sfen)!;
            const listed = new Set(before.candidates.map((c) => c.move));
            const extra = p.candidates.filter((c) => !listed.has(c.move));
            if (extra.length === 0) continue;
            const { id, ...kept } = before;
            undo.run(batch, id, before.thoughtAt, JSON.stringify(before));
            this.putThought({ ...kept, candidates: [...before.candidates, ...extra] });
            joined++;
            moves += extra.length;
          }
          if (fresh > 0) this.bumpCount(fresh);
          this.insertLog("info", "import", `${added} positions added, ${joined} joined`, { batch, added, joined, moves });
          return { added, joined, moves };
        })
        .immediate(),
    );
  }

  /** The imports that can be undone, newest first (with the positions each added or joined). */
  listImports(): Array<{ batch: number; file: string; positions: number; at: number }> {
    const list =
      this.importsMemo ??
      (this.q(
        "SELECT i.batch AS batch, i.file AS file, i.at AS at, (SELECT count(*) FROM import_undo u WHERE u.batch = i.batch) AS positions FROM imports i ORDER BY i.batch DESC",
      ).all() as Array<{ batch: number; file: string; positions: number; at: number }>);
    if (!this.readonly) this.importsMemo = list;
    return list.map((i) => ({ ...i }));
  }

  /**
   * Takes the newest import back (one transaction): positions it added are removed, positions
   * it joined get their moves as they were. A position thought again since the import is left
   * as it is now (`kept`): undo never removes what an engine thought later.
   */
  undoImport(): { batch: number; file: string; removed: number; restored: number; kept: number } | null {
    this.importsMemo = null;
    return this.write(() =>
      this.db
        .transaction(() => {
          const last = this.q("SELECT batch, file FROM imports ORDER BY batch DESC LIMIT 1").get() as
            { batch: number; file: string } | undefined;
          if (!last) return null;
          const rows = this.q("SELECT position_id AS id, thought_at AS at, data FROM import_undo WHERE batch = ?").all(
            last.batch,
          ) as Array<{
            id: number;
            at: number;
            data: string | null;
          }>;
          const now = this.q("SELECT thought_at AS at FROM positions WHERE id = ? AND state = 'thought'");
          let removed = 0,
            restored = 0,
            kept = 0;
          for (const r of rows) {
            const cur = now.get(r.id) as { at: number } | undefined;
            if (!cur || cur.at !== r.at) {
              kept++;
              continue;
            }
            if (r.data === null) {
              this.st.delMoves.run(r.id);
              this.q("DELETE FROM positions WHERE id = ?").run(r.id);
              removed++;
            } else {
              const { id: _id, ...before } = JSON.parse(r.data) as StoredThought;
              this.putThought(before);
              restored++;
            }
          }
          if (removed > 0) this.bumpCount(-removed);
          this.bumpGraphEpoch();
          this.q("DELETE FROM import_undo WHERE batch = ?").run(last.batch);
          this.q("DELETE FROM imports WHERE batch = ?").run(last.batch);
          this.insertLog("info", "unimport", `undid the import of ${last.file}`, { batch: last.batch, removed, restored, kept });
          return { batch: last.batch, file: last.file, removed, restored, kept };
        })
        .immediate(),
    );
  }

  /** PRAGMA data_version: changes when another connection commits (how a read-only follower notices a dig). */
  dataVersion(): number {
    return this.db.pragma("data_version", { simple: true }) as number;
  }

  /** Thought positions stored after `afterId` (a follower reading what a dig added), in id order. */
  thoughtSince(afterId: number, limit: number): StoredThought[] {
    const rows = this.q(`SELECT ${POSITION_COLUMNS} FROM positions WHERE state = 'thought' AND id > ? ORDER BY id LIMIT ?`)
      .raw()
      .all(afterId, limit) as PositionRaw[];
    const moves = this.q(`SELECT ${MOVE_COLUMNS} FROM moves WHERE position_id = ? ORDER BY rank`).raw();
    return rows.map((r) => toThought(r, (moves.all(r[0]) as MoveRaw[]).map(toCandidate)));
  }

  /** The largest position id (0 for an empty book). */
  maxPositionId(): number {
    return (this.q("SELECT coalesce(max(id), 0) AS n FROM positions").get() as { n: number }).n;
  }

  /** Releases the writer lock and closes the file. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.lockToken !== undefined) {
        try {
          releaseLock(this.db, this.lockToken);
        } catch {
          // A full disk must not keep the file open; the stale row is taken over later (our pid is gone then).
        }
        this.lockToken = undefined;
      }
    } finally {
      this.db.close();
    }
  }
}

interface EngineRow {
  id: number;
  name: string;
  command: string;
  args: string;
  cwd: string | null;
  options: string;
  enabled: number;
}

function toEngine(r: EngineRow): EngineConfig {
  return {
    id: r.id,
    name: r.name,
    command: r.command,
    args: JSON.parse(r.args) as string[],
    cwd: r.cwd,
    options: JSON.parse(r.options) as EngineConfig["options"],
    enabled: r.enabled !== 0,
  };
}

/**
 * A position thought again (think deeper, a re-import) keeps what a person wrote on its
 * moves in an imported file, its comment and mark, and the file's play count, where the
 * new result lists the same move without them.
 */
function keepFileNotes(next: Candidate[], old: Candidate[]): Candidate[] {
  if (!old.some((c) => c.comment !== undefined || c.mark !== undefined || c.count !== undefined)) return next;
  const byMove = new Map(old.map((c) => [c.move, c]));
  return next.map((c) => {
    const o = byMove.get(c.move);
    if (!o) return c;
    const out = { ...c };
    if (out.comment === undefined && o.comment !== undefined) out.comment = o.comment;
    if (out.mark === undefined && o.mark !== undefined) out.mark = o.mark;
    if (out.count === undefined && o.count !== undefined) out.count = o.count;
    return out;
  });
}

function toCandidate(m: MoveRaw): Candidate {
  const c: Candidate = { move: m[1], value: m[2], depth: m[3], pv: splitPv(m[4]) };
  if (m[5] !== null) c.count = m[5]; // absent, not undefined, for engine results
  const flags = m[6];
  if (flags !== null) {
    if (flags & NO_VALUE) c.noValue = true;
    if (flags & NO_DEPTH) c.noDepth = true;
  }
  if (m[7] !== null) c.comment = m[7];
  if (m[8] !== null) c.mark = m[8];
  return c;
}

function toThought(r: PositionRaw, candidates: Candidate[]): StoredThought {
  return {
    id: r[0],
    sfen: r[1],
    keyHi: r[2],
    keyLo: r[3],
    candidates,
    provenance: provenanceFrom(r[5], r[6], r[7], r[8], r[9], r[10]),
    thoughtAt: r[4],
  };
}
