// The book of record: one SQLite file (better-sqlite3, synchronous) per book. This file
// opens, checks, backs up and closes it; the tables are read and written through rooms,
// one per group of tables: `store.thoughts` (positions and moves), `store.queue`,
// `store.failures`, `store.bans`, `store.engines`, `store.settings`, `store.log`,
// `store.chart`, `store.notes` (comments), `store.seeds` and `store.moveStats` (game
// records), `store.prunes`, `store.imports`. README.md has the layout.
//
// Durability: WAL with synchronous=FULL. Every thoughts.add is one transaction (position,
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
import { Bans } from "./bans.js";
import { Chart } from "./chart.js";
import { StoreDb } from "./db.js";
import { Engines } from "./engines.js";
import { BookOpenError, type LockHolder } from "./errors.js";
import { Failures } from "./failures.js";
import { Imports } from "./imports.js";
import { acquireLock, readLockHolder, releaseLock } from "./lock.js";
import { StoreLog } from "./log.js";
import { Notes } from "./notes.js";
import { Prunes } from "./prunes.js";
import { ThinkQueue } from "./queue.js";
import { APP_ID, MIGRATIONS, migrate, readSchemaVersion, type Migration } from "./schema.js";
import { KifuSeeds, MoveStatsTable } from "./seeds.js";
import { Settings } from "./settings.js";
import { checkReplaceable, touchTemp } from "../fs/safe-file.js";
import { sameFile } from "../paths/same-file.js";
import { bookTag } from "../paths/book-tag.js";
import { Thoughts } from "./thoughts.js";

export { BookOpenError, BookLockedError, KeyCollisionError, StoreFullError } from "./errors.js";
export type { LockHolder } from "./errors.js";
export type { PositionKey, KeyedThought, StoredThought } from "./thought-rows.js";
export type { Ban } from "./bans.js";
export { CHART_KEEP, CHART_RECENT } from "./chart.js";
export type { EngineConfig } from "./engines.js";
export type { Failure } from "./failures.js";
export { LOG_KEEP, type LogEntry, type LogLevel } from "./log.js";
export type { QueuedPosition } from "./queue.js";
export type { KifuSeed, MoveStats, MoveStatsRow } from "./seeds.js";

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

const SQLITE_HEADER = "SQLite format 3\0";

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
  const head = fileHead(path, 16);
  // A zero-length file is a valid empty SQLite database: it fails the meta check instead.
  if (head.length > 0 && head.toString("latin1") !== SQLITE_HEADER) {
    throw new BookOpenError(path, "not-sqlite", `${path} is not a horu book (not an SQLite file)`);
  }
}

/** The first `bytes` bytes of a file (fewer when it is shorter). */
function fileHead(path: string, bytes: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
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
  readonly thoughts: Thoughts;
  readonly queue: ThinkQueue;
  readonly failures: Failures;
  readonly bans: Bans;
  readonly engines: Engines;
  readonly settings: Settings;
  readonly log: StoreLog;
  readonly chart: Chart;
  readonly notes: Notes;
  readonly seeds: KifuSeeds;
  readonly moveStats: MoveStatsTable;
  readonly prunes: Prunes;
  readonly imports: Imports;
  private readonly db: Database.Database;
  private readonly c: StoreDb;
  private lockToken: string | undefined;
  private closed = false;
  /** Read-only: whether opening made the -wal and -shm files (none were there before). */
  private madeSideFiles = false;

  private constructor(db: Database.Database, path: string, readonly: boolean, lockToken: string | undefined) {
    this.db = db;
    this.path = path;
    this.readonly = readonly;
    this.lockToken = lockToken;
    const c = (this.c = new StoreDb(db, path, readonly));
    this.log = new StoreLog(c);
    this.thoughts = new Thoughts(c, this.log);
    this.queue = new ThinkQueue(c, this.log);
    this.failures = new Failures(c, this.log);
    this.bans = new Bans(c);
    this.engines = new Engines(c);
    this.settings = new Settings(c);
    this.chart = new Chart(c);
    this.notes = new Notes(c);
    this.seeds = new KifuSeeds(c);
    this.moveStats = new MoveStatsTable(c);
    this.prunes = new Prunes(c, this.thoughts, this.log);
    this.imports = new Imports(c, this.thoughts, this.log);
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
    if (!isFolder(dirname(path)))
      throw new BookOpenError(path, "no-folder", `${dirname(path)} is not a folder: create it first, or choose another place for the book`);
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
    const sidesBefore = existsSync(path + "-wal") || existsSync(path + "-shm");
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
        const store = new BookStore(db, path, true, undefined);
        store.madeSideFiles = !sidesBefore;
        return store;
      }
      checkOneName(path);
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
      if (readonly && !sidesBefore) tidySideFiles(path);
      throw e;
    }
  }

  /** Who holds the writer lock now (undefined when nobody does). */
  lockHolder(): LockHolder | undefined {
    return readLockHolder(this.db);
  }

  /**
   * A consistent snapshot to `toPath` with SQLite's online backup (digging may go on).
   * Written to a temporary file, stripped of our writer lock, switched to a
   * self-contained rollback journal, then renamed into place: a crash mid-backup never
   * destroys an earlier backup at the same path.
   */
  async backup(toPath: string): Promise<void> {
    if (toPath === this.path || sameFile(toPath, this.path)) throw new Error(`refusing to back ${this.path} up onto itself`);
    checkNotSideFile(toPath);
    checkNotInUse(toPath);
    // Before the copy too: a refused target is said at once, not after copying a book of gigabytes.
    checkNotAnotherDatabase(toPath, this.path);
    if (!isFolder(dirname(toPath))) throw new Error(`${dirname(toPath)} is not a folder: create it first`);
    const tmp = `${toPath}.partial-${process.pid}`;
    // Created here, exclusively and not through a link planted at the name (safe-file.ts).
    touchTemp(tmp);
    try {
      try {
        await this.db.backup(tmp);
      } catch (e) {
        // SQLite's error (a full disk) is about the copy, not the book it reads.
        throw new Error(`could not write ${toPath}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      const copy = new Database(tmp);
      try {
        copy.prepare("DELETE FROM writer_lock").run();
        // What it is a backup of: a later backup of the same book may replace it, nothing else.
        copy.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('backup_of', ?)").run(bookTag(this.path));
        copy.pragma("journal_mode = DELETE");
      } finally {
        copy.close();
      }
      checkReplaceable(toPath);
      checkNotInUse(toPath);
      checkNotAnotherDatabase(toPath, this.path);
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
      const rows = (this.c.q("SELECT count(*) AS n FROM positions WHERE state = 'thought'").get() as { n: number }).n;
      const counter = this.thoughts.count();
      if (rows !== counter) return `meta thought_count is ${counter} but ${rows} positions are thought`;
    }
    return problems.join("\n");
  }

  /** The meta table as key/value pairs (app_id, schema_version, created_at, ...). */
  meta(): Record<string, string> {
    return this.c.meta();
  }

  /** PRAGMA data_version: changes when another connection commits (how a read-only follower notices a dig). */
  dataVersion(): number {
    return this.db.pragma("data_version", { simple: true }) as number;
  }

  /**
   * Moves every committed page from the -wal file into the book file (PRAGMA wal_checkpoint(TRUNCATE)).
   * True when the whole log was copied (no reader held it back): the book file alone then holds
   * everything acknowledged. A follower in another process may keep it from finishing (false).
   */
  checkpoint(): boolean {
    try {
      const r = this.db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
      return r[0] !== undefined && r[0].busy === 0 && r[0].log === r[0].checkpointed;
    } catch {
      return false;
    }
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
      if (this.readonly && this.madeSideFiles) tidySideFiles(this.path);
    }
  }
}

/**
 * A reader of a book in WAL mode makes its -wal and -shm files and, read-only, cannot remove
 * them: a book a read-only command (horu select, export, backup) looked at was left beside them,
 * as if in use or not closed cleanly. A connection that may write removes them when it is the
 * last to close, so one is opened and closed, writing nothing: SQLite removes them only when no
 * other connection (a dig in another process) has the book open. Where the book cannot be opened
 * for writing (a read-only folder), they stay, as before.
 */
function tidySideFiles(path: string): void {
  if (!existsSync(path + "-wal") && !existsSync(path + "-shm")) return;
  try {
    const db = new Database(path, { fileMustExist: true });
    try {
      db.pragma("busy_timeout = 100");
      db.prepare("SELECT 1 FROM meta LIMIT 1").get();
    } finally {
      db.close();
    }
  } catch {
    // Left as they are: harmless, only untidy.
  }
}

/** Whether a book (or its backup) can be written in this folder: it is there and is one. */
function isFolder(folder: string): boolean {
  return existsSync(folder) && statSync(folder).isDirectory();
}

/**
 * SQLite's log, shared-memory and journal files of a database are named after it: a backup
 * written over one (the -wal of a book being dug) destroyed the book's last results.
 */
function checkNotSideFile(file: string): void {
  const side = ["-wal", "-shm", "-journal"].find((x) => file.endsWith(x));
  if (side)
    throw new Error(
      `${file} is named as SQLite names a database's ${side} file${existsSync(file.slice(0, -side.length)) ? ` (that of ${file.slice(0, -side.length)})` : ""}: replacing it would destroy that database; choose another name`,
    );
}

/**
 * A book with another name (a hard link, as `cp -al`, rsnapshot and `rsync --link-dest` make)
 * is refused for writing: SQLite keeps its log and locks beside the name, so a writer through
 * each name sees nothing of the other (the writer lock included) and the two corrupt the book.
 */
function checkOneName(path: string): void {
  const names = statSync(path).nlink;
  if (names > 1)
    throw new BookOpenError(
      path,
      "hard-linked",
      `${path} has ${names} names (hard links): a process writing it through another name would not be seen, and the two would corrupt it; write a copy of it (cp ${path} NEW.horu), or remove its other names`,
    );
}

/**
 * A database beside its -wal or -shm file is open (a dig writing it) or was not closed cleanly:
 * a new main file renamed over it would be read with the old WAL, and both would be lost.
 */
function checkNotInUse(file: string): void {
  const side = ["-wal", "-shm"].find((x) => existsSync(file + x));
  if (side)
    throw new Error(
      `${file} is in use or was not closed cleanly (its ${side} file is beside it): replacing it would destroy it; choose another file`,
    );
}

/**
 * A backup replaces a file that is no database, or an earlier backup of the same book: never
 * another book (`horu backup --out OTHER.horu --force` replaced one), another book's backup,
 * or another program's database. A book is in WAL mode (byte 18 of the header), a backup never.
 */
function checkNotAnotherDatabase(target: string, bookPath: string): void {
  if (!existsSync(target)) return;
  const head = fileHead(target, 20);
  if (head.length < 20 || head.toString("latin1", 0, 16) !== SQLITE_HEADER) return;
  const refuse = (what: string) =>
    new Error(
      `${target} is ${what}, not a backup of ${bookPath}: a backup replaces only an earlier backup of the same book; choose another file, or remove it first`,
    );
  if (head[18] === 2) throw refuse("a horu book (SQLite's WAL mode, which books are in and backups never)");
  let of: string | undefined;
  let horu = false;
  const db = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT key, value FROM meta WHERE key IN ('app_id', 'backup_of')").all() as { key: string; value: string }[];
    horu = rows.some((r) => r.key === "app_id" && r.value === APP_ID);
    of = rows.find((r) => r.key === "backup_of")?.value;
  } catch {
    // No meta table: another program's database.
  } finally {
    db.close();
  }
  if (!horu) throw refuse("another program's SQLite database");
  // A backup made before backups recorded their book has none: taken for an earlier one (a book
  // itself is in WAL mode, refused above).
  if (of !== undefined && of !== bookTag(bookPath)) throw refuse("a backup of another book");
}
