// The book file's schema and its forward migrations.
//
// MIGRATIONS[i] takes a file from schema version i to i + 1 (MIGRATIONS[0] builds a new
// book), so SCHEMA_VERSION is simply MIGRATIONS.length. Never edit a released
// migration: append a new one. Each runs in its own transaction together with the
// version bump, so a crash mid-migration leaves the file at the previous version.
import type Database from "better-sqlite3";
import { v8Quality } from "./quality-schema.js";

export const APP_ID = "horu-book";
/** PRAGMA application_id: lets `file`-style tools recognise a book ("HORU"). */
export const SQLITE_APPLICATION_ID = 0x484f5255;

export type Migration = (db: Database.Database) => void;

const v1: Migration = (db) => {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    -- Kept by the transactions that add thought positions (count(*) is a full scan at 15M).
    INSERT INTO meta (key, value) VALUES ('thought_count', '0');

    -- One row at most: the process that may write this book (see lock.ts).
    CREATE TABLE writer_lock (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      token TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
      since INTEGER NOT NULL, proc_start TEXT
    );

    -- Only finished work is stored. A position being thought ("in flight") has no row
    -- until its result commits, so after a crash it is simply unthought and selection
    -- picks it again; nothing needs cleaning up.
    CREATE TABLE positions (
      id INTEGER PRIMARY KEY,
      sfen TEXT NOT NULL UNIQUE,
      key INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('thought', 'failed')),
      thought_at INTEGER NOT NULL,
      source TEXT CHECK (source IN ('engine', 'import')),
      engine TEXT, file TEXT, nodes INTEGER, depth INTEGER, time_ms INTEGER
    );
    -- Unique: two positions under one key would be indistinguishable in the graph.
    CREATE UNIQUE INDEX positions_key ON positions (key);

    -- Clustered by position so a position's moves are read in one seek.
    CREATE TABLE moves (
      position_id INTEGER NOT NULL,
      rank INTEGER NOT NULL,
      move TEXT NOT NULL,
      value INTEGER NOT NULL,
      depth INTEGER NOT NULL,
      pv TEXT NOT NULL,
      PRIMARY KEY (position_id, rank)
    ) WITHOUT ROWID;

    CREATE TABLE kifu_seeds (
      id INTEGER PRIMARY KEY,
      sfen TEXT NOT NULL, key INTEGER NOT NULL,
      source TEXT NOT NULL, ply INTEGER NOT NULL,
      UNIQUE (sfen, source, ply)
    );

    CREATE TABLE move_stats (
      sfen TEXT NOT NULL, key INTEGER NOT NULL, move TEXT NOT NULL,
      games INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (sfen, move)
    ) WITHOUT ROWID;

    CREATE TABLE banned (
      id INTEGER PRIMARY KEY,
      sfen TEXT NOT NULL, key INTEGER NOT NULL, move TEXT NOT NULL,
      created_at INTEGER NOT NULL, reason TEXT NOT NULL,
      UNIQUE (sfen, move)
    );

    CREATE TABLE engines (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL, command TEXT NOT NULL,
      args TEXT NOT NULL DEFAULT '[]', cwd TEXT, options TEXT NOT NULL DEFAULT '{}',
      enabled INTEGER NOT NULL DEFAULT 1
    );

    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE dig_log (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL, level TEXT NOT NULL, event TEXT NOT NULL,
      message TEXT NOT NULL, detail TEXT
    );

    CREATE TABLE failures (
      sfen TEXT PRIMARY KEY, key INTEGER,
      attempts INTEGER NOT NULL, last_error TEXT NOT NULL, last_at INTEGER NOT NULL
    );
  `);
};

// v2: the play count imported books carry (DB2016 / Apery), NULL for engine
// results and for rows written before; and positions queued to be thought before
// selection (game records, the old `makebook think`).
const v2: Migration = (db) => {
  db.exec(`
    ALTER TABLE moves ADD COLUMN count INTEGER;

    -- Handed out in id order ahead of selection; a row goes when its position is thought or failed.
    CREATE TABLE think_queue (
      id INTEGER PRIMARY KEY,
      sfen TEXT NOT NULL UNIQUE, key INTEGER NOT NULL,
      source TEXT NOT NULL, ply INTEGER NOT NULL
    );
  `);
};

// v3 (working on the book by hand): a comment per position; a queued position may carry
// its own think limit ("think it deeper"); pruned subtrees kept whole so a prune can be undone.
const v3: Migration = (db) => {
  db.exec(`
    CREATE TABLE comments (
      sfen TEXT PRIMARY KEY, key INTEGER NOT NULL,
      text TEXT NOT NULL, updated_at INTEGER NOT NULL
    );

    -- NULL: the book's limit. A JSON think limit: think (again) with that limit.
    ALTER TABLE think_queue ADD COLUMN think_limit TEXT;

    -- Each row one pruned position with its moves (JSON), by prune batch; undo puts the newest batch back.
    CREATE TABLE pruned (
      batch INTEGER NOT NULL, sfen TEXT NOT NULL, data TEXT NOT NULL,
      pruned_at INTEGER NOT NULL, root_sfen TEXT NOT NULL,
      PRIMARY KEY (batch, sfen)
    ) WITHOUT ROWID;
  `);
};

// v4: each ban keeps the line from the root that led to it, written when the
// ban is made, so listing bans never searches the book (NULL on bans made before).
const v4: Migration = (db) => {
  db.exec(`
    ALTER TABLE banned ADD COLUMN line TEXT;
    -- Counting failed positions reads only them.
    CREATE INDEX positions_failed ON positions (state) WHERE state = 'failed';
  `);
};

// v5: the Dig view's chart history lives in the book, so it survives a reload of
// the page and a reopening of the book. A gap row marks a pause, a stop or the start of a run
// (the charts break their lines there); old rows are thinned, so the table stays small.
const v5: Migration = (db) => {
  db.exec(`
    CREATE TABLE chart_samples (
      id INTEGER PRIMARY KEY,
      t INTEGER NOT NULL,          -- ms since the epoch
      thought INTEGER NOT NULL,    -- positions thought by that run of the dig so far
      root_value INTEGER,          -- the selection's root value, from the root's side to move
      gap INTEGER NOT NULL DEFAULT 0
    );
  `);
};

// v6: what other programs' book files carry besides value, depth and count, so
// a book imported and exported again comes back as it went in: per move, whether the file
// gave no value or depth ("none"), its comment and ShogiGUI's mark; per position, a .sbk
// state's games, wins per side and evaluations (JSON). Position comments go to `comments`,
// a .sbk book's author and description to meta.
const v6: Migration = (db) => {
  db.exec(`
    ALTER TABLE moves ADD COLUMN flags INTEGER;   -- bit 0: no value in the file, bit 1: no depth
    ALTER TABLE moves ADD COLUMN comment TEXT;
    ALTER TABLE moves ADD COLUMN mark INTEGER;    -- .sbk: 1 forced, 2 good, 3 bad, 4 blunder

    CREATE TABLE sbk_states (
      sfen TEXT PRIMARY KEY, key INTEGER NOT NULL,
      data TEXT NOT NULL   -- {games, wonBlack, wonWhite, evals: [...], boardKey?, handKey?}
    ) WITHOUT ROWID;
  `);
};

// v7: every import is recorded so it can be undone. An import never overwrites a
// thought position (its moves join the engine's); each row is one position the import added
// (data NULL) or joined (data: the position as it was), with the thought_at it left, so undo
// leaves alone a position thought again since.
const v7: Migration = (db) => {
  db.exec(`
    CREATE TABLE imports (batch INTEGER PRIMARY KEY, file TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE TABLE import_undo (
      batch INTEGER NOT NULL,
      position_id INTEGER NOT NULL,
      thought_at INTEGER NOT NULL,
      data TEXT
    );
    CREATE INDEX import_undo_batch ON import_undo (batch);
  `);
};

// v8 (electron/store/quality-schema.ts): the searches `horu book quality` made.
export const MIGRATIONS: readonly Migration[] = [v1, v2, v3, v4, v5, v6, v7, v8Quality];
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version recorded in the file's meta table (0 when there is none yet). */
export function readSchemaVersion(db: Database.Database): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row ? Number(row.value) : 0;
}

/**
 * Brings the file forward to `migrations.length`, one transaction per step, and records
 * the writer. The list is a parameter so tests can exercise a future step.
 */
export function migrate(db: Database.Database, writer: string, migrations: readonly Migration[] = MIGRATIONS): number {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
  let version = hasMeta ? readSchemaVersion(db) : 0;
  const setMeta = (k: string, v: string): void => {
    db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(k, v);
  };
  while (version < migrations.length) {
    const from = version;
    db.transaction(() => {
      migrations[from]!(db);
      if (from === 0) {
        setMeta("app_id", APP_ID);
        setMeta("created_at", new Date().toISOString());
        setMeta("created_by", writer);
        db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
      }
      setMeta("schema_version", String(from + 1));
      db.pragma(`user_version = ${from + 1}`);
    }).immediate();
    version = from + 1;
  }
  return version;
}
