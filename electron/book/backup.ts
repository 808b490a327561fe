// Backups of a book: a consistent snapshot (SQLite's online backup through
// BookStore.backup) on demand, or on a schedule while a dig runs, keeping the newest N.
//
// Names are `<book name>.<UTC timestamp>.backup.horu`, and a scheduled one's
// `<book name>.<UTC timestamp>.auto-<tag>.backup.horu`, the tag naming the book by its path:
// they sort by time as text, so retention needs no metadata. Retention deletes only the
// book's own scheduled backups: never one made on demand, nor another book's of the same
// file name in the same folder. A partial file (BookStore.backup writes
// `<target>.partial-<pid>` and renames) never matches the pattern and is never counted.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { BookStore } from "../store/book-store.js";
import { userError } from "../../shared/api/user-error.js";
import { bookTag } from "../paths/book-tag.js";

const SUFFIX = ".backup.horu";
const STAMP = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/;

/** `2026-01-02T03-04-05-678Z`: ISO time with characters every file system accepts. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, "-");
}

function bookStem(bookPath: string): string {
  return path.basename(bookPath).replace(/\.horu$/, "");
}

export function backupFileName(bookPath: string, at: Date, scheduled = false): string {
  return `${bookStem(bookPath)}.${stamp(at)}${scheduled ? `.auto-${bookTag(bookPath)}` : ""}${SUFFIX}`;
}

/** What a restore keeps of the book as it was: `<book name>.<UTC timestamp>.before-restore.horu`. */
const BEFORE_RESTORE = ".before-restore.horu";

/** The name the book as it was before a restore is kept under, beside it. */
export function beforeRestoreFile(bookPath: string, at: Date): string {
  return path.join(path.dirname(bookPath), `${bookStem(bookPath)}.${stamp(at)}${BEFORE_RESTORE}`);
}

/** Whether a backup listed is the copy a restore kept. */
export function isBeforeRestore(file: string): boolean {
  return file.endsWith(BEFORE_RESTORE);
}

/**
 * Whether a name is one of the book's backups (null: not), and whether it is a scheduled one of
 * the book at this path (`tag`): those alone are pruned. A scheduled backup with another tag is
 * listed (restorable) but never pruned: made while the book had another path (moved), or by
 * another book of the same file name.
 */
function parseName(name: string, stem: string, tag: string): { ownScheduled: boolean } | null {
  if (!name.startsWith(stem)) return null;
  // The book as it was before a restore: listed (restoring it undoes the restore), never pruned.
  if (name.endsWith(BEFORE_RESTORE)) return STAMP.test(name.slice(stem.length, -BEFORE_RESTORE.length)) ? { ownScheduled: false } : null;
  if (!name.endsWith(SUFFIX)) return null;
  const middle = name.slice(stem.length, -SUFFIX.length);
  if (STAMP.test(middle)) return { ownScheduled: false };
  const auto = /^(.*)\.auto-([0-9a-f]{8})$/.exec(middle);
  if (auto && STAMP.test(auto[1]!)) return { ownScheduled: auto[2] === tag };
  return null;
}

/**
 * The book's backups in `dir`, oldest first, by name: those made on demand, the copies restores
 * kept, and scheduled ones (another book's of the same file name among them: a name cannot
 * tell); with "scheduled", only the scheduled backups of the book at this path.
 */
export function listBackups(dir: string, bookPath: string, only?: "scheduled"): string[] {
  const stem = bookStem(bookPath) + ".";
  const tag = bookTag(bookPath);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => {
      const parsed = parseName(n, stem, tag);
      return parsed !== null && (only !== "scheduled" || parsed.ownScheduled);
    })
    .sort()
    .map((n) => path.join(dir, n));
}

/** Deletes all but the newest `keep` of the book's scheduled backups in `dir`; returns the deleted paths. */
export function pruneBackups(dir: string, bookPath: string, keep: number): string[] {
  const all = listBackups(dir, bookPath, "scheduled");
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const f of old) rmSync(f, { force: true });
  return old;
}

/** One backup into `dir` with a timestamped name; returns its path. */
export async function backupInto(store: BookStore, dir: string, at = new Date(), scheduled = false): Promise<string> {
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw userError(`${dir} is a file, not a folder: backups go into a folder`, { key: "notAFolder", params: { path: dir } });
  mkdirSync(dir, { recursive: true });
  let file = path.join(dir, backupFileName(store.path, at, scheduled));
  // Two backups in the same millisecond (tests): never overwrite the newer with the same name.
  for (let n = 1; existsSync(file); n++) {
    file = path.join(dir, backupFileName(store.path, new Date(at.getTime() + n), scheduled));
  }
  await store.backup(file);
  return file;
}

export type BackupEvent = { kind: "backup"; file: string; ms: number; removed: string[] } | { kind: "backup-error"; message: string };

export interface BackupScheduleOptions {
  everyMs: number;
  dir: string;
  /** Newest scheduled backups to keep (older ones are deleted after each successful backup; those made on demand never). */
  keep: number;
  onEvent?: (e: BackupEvent) => void;
}

/**
 * Backs the book up every `everyMs` while it is open. A failed backup (a full backup
 * disk) is reported and retried at the next tick; it never stops the dig, and it never
 * deletes an older backup (pruning only follows a backup that succeeded).
 */
export class BackupSchedule {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  made = 0;
  failed = 0;

  constructor(
    private readonly store: BookStore,
    private readonly o: BackupScheduleOptions,
  ) {
    if (!(o.everyMs > 0)) throw new Error("backup interval must be positive");
    if (!Number.isInteger(o.keep) || o.keep < 1) throw new Error("backups to keep must be a whole number >= 1");
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.once().finally(() => (this.running = null));
    }, this.o.everyMs);
  }

  /** Stops the schedule; waits for a backup in progress so the book can be closed after. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  async once(): Promise<void> {
    const t0 = performance.now();
    try {
      const file = await backupInto(this.store, this.o.dir, new Date(), true);
      const removed = pruneBackups(this.o.dir, this.store.path, this.o.keep);
      this.made++;
      this.o.onEvent?.({ kind: "backup", file, ms: performance.now() - t0, removed });
    } catch (e) {
      this.failed++;
      this.o.onEvent?.({ kind: "backup-error", message: e instanceof Error ? e.message : String(e) });
    }
  }
}
