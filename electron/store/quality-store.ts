// The searches `horu book quality` keeps in a book (schema v8, quality-schema.ts), read and
// written through a connection of their own: a quality run may go on beside a dig that holds
// the book's writer lock, and these rows are written by quality runs only (SQLite's own
// locking orders the two writers; each row is its own transaction).
import Database from "better-sqlite3";
import { BookStore } from "./book-store.js";
import { BookLockedError } from "./errors.js";
import { readSchemaVersion } from "./schema.js";

export interface QualitySearch {
  sfen: string;
  engine: string;
  nodes: number;
  move: string;
  value: number;
  depth: number;
}

export class QualitySearches {
  private readonly byKey = new Map<string, QualitySearch>();
  private readonly insert: Database.Statement<unknown[]> | null;

  private constructor(
    private readonly db: Database.Database | null,
    /** Why the searches are not kept in the book (undefined when they are). */
    readonly notKept: string | undefined,
  ) {
    if (db) {
      for (const r of db.prepare("SELECT sfen, engine, nodes, move, value, depth FROM quality_searches").all() as QualitySearch[])
        this.byKey.set(QualitySearches.key(r.sfen, r.engine, r.nodes), r);
      this.insert = notKept
        ? null
        : db.prepare("INSERT OR REPLACE INTO quality_searches (sfen, engine, nodes, move, value, depth, at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    } else this.insert = null;
  }

  private static key(sfen: string, engine: string, nodes: number): string {
    return `${engine}\u0000${nodes}\u0000${sfen}`;
  }

  /**
   * The searches kept in the book at `path`. A book at an older schema is brought to v8 first
   * (a writable open, which needs the writer lock); when another process holds it, or `readonly`
   * is set, what is kept is read and new searches stay in memory (`notKept` says why).
   */
  static open(path: string, opts: { readonly?: boolean } = {}): QualitySearches {
    const why: string | undefined = opts.readonly ? "read-only" : undefined;
    const probe = new Database(path, { readonly: true, fileMustExist: true });
    let version: number;
    try {
      version = readSchemaVersion(probe);
    } finally {
      probe.close();
    }
    if (version < 8) {
      if (opts.readonly) return new QualitySearches(null, `the book is at schema ${version}; open it for writing once`);
      try {
        BookStore.open(path).close(); // migrates
      } catch (e) {
        if (!(e instanceof BookLockedError)) throw e;
        return new QualitySearches(null, `the book is at schema ${version} and ${e.message}`);
      }
    }
    const db = new Database(path, { readonly: opts.readonly === true, fileMustExist: true });
    db.pragma("busy_timeout = 10000");
    return new QualitySearches(db, why);
  }

  /** An in-memory set (tests, or a book that cannot keep them). */
  static memory(): QualitySearches {
    return new QualitySearches(null, "in memory");
  }

  get(sfen: string, engine: string, nodes: number): QualitySearch | undefined {
    return this.byKey.get(QualitySearches.key(sfen, engine, nodes));
  }

  /** The engines with kept searches, the one with most first. */
  engines(): string[] {
    const n = new Map<string, number>();
    for (const r of this.byKey.values()) n.set(r.engine, (n.get(r.engine) ?? 0) + 1);
    return [...n].sort((a, b) => b[1] - a[1]).map(([e]) => e);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Keeps one search (in the book when it can: its own transaction). */
  put(s: QualitySearch): void {
    this.byKey.set(QualitySearches.key(s.sfen, s.engine, s.nodes), s);
    this.insert?.run(s.sfen, s.engine, s.nodes, s.move, s.value, s.depth, Date.now());
  }

  close(): void {
    this.db?.close();
  }
}
