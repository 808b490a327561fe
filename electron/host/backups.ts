// Backups of the open book as the host serves them: the schedule kept in the book, the timer
// that runs it, the list and the swap of a backup into the book's place (the book as it was
// is kept beside it).

import { existsSync, lstatSync, renameSync, rmSync, statSync } from "node:fs";
import { checkRegular, checkReplaceable, copyToTemp } from "../fs/safe-file.js";
import path from "node:path";
import {
  BACKUP_MIN_MINUTES,
  type BackupSchedule as BackupScheduleView,
  type BackupView,
  type HostEvent,
} from "../../shared/api/contract.js";
import { OpenBook } from "../book/open-book.js";
import { BackupSchedule } from "../book/backup.js";
import { userError } from "../../shared/api/user-error.js";

/**
 * The book's backup schedule, when one is set. A book file is anyone's to craft: a setting that
 * is not JSON, not an object or out of range counts as no schedule (or its default), never a fault.
 */
export function backupSchedule(book: OpenBook): BackupScheduleView | null {
  let v: Partial<BackupScheduleView> | null | undefined;
  try {
    v = book.store.settings.get<Partial<BackupScheduleView>>("backupSchedule");
  } catch {
    return null;
  }
  if (!v || typeof v !== "object" || typeof v.everyMinutes !== "number" || !(v.everyMinutes > 0) || !Number.isFinite(v.everyMinutes))
    return null;
  const keep = typeof v.keep === "number" && Number.isInteger(v.keep) && v.keep >= 1 ? v.keep : 10;
  return {
    everyMinutes: Math.max(BACKUP_MIN_MINUTES, v.everyMinutes),
    keep,
    dir: typeof v.dir === "string" && v.dir !== "" ? v.dir : null,
  };
}

/** Where the book's backups go: the schedule's folder, else beside the book. */
export function backupDir(book: OpenBook): string {
  return backupSchedule(book)?.dir ?? path.dirname(book.store.path);
}

export function backupView(file: string): BackupView {
  const st = statSync(file);
  return { path: file, bytes: st.size, at: st.mtimeMs };
}

/** Runs the open book's backup schedule (none for a book this process only follows). */
export class BackupTimer {
  private schedule: BackupSchedule | null = null;

  constructor(
    private readonly emit: (e: HostEvent) => void,
    /** Confined (docs/SECURITY.md): a schedule's folder other than the book's is ignored, with a line in the book's log. */
    private readonly confined: () => boolean = () => false,
  ) {}

  /** (Re)starts the schedule the book holds now. */
  start(book: OpenBook): void {
    void this.schedule?.stop();
    this.schedule = null;
    const s = backupSchedule(book);
    if (!s || book.store.readonly) return;
    const folder = path.dirname(path.resolve(book.store.path));
    let dir = s.dir === null ? folder : path.resolve(folder, s.dir);
    if (dir !== folder && this.confined()) {
      try {
        book.store.log.add(
          "warn",
          "backup",
          `the book's backup schedule names ${s.dir}, outside the book's folder: backups go beside the book instead (this page may not write elsewhere)`,
        );
      } catch {
        // a log line is a courtesy
      }
      dir = folder;
    }
    this.schedule = new BackupSchedule(book.store, {
      everyMs: s.everyMinutes * 60_000,
      dir,
      keep: s.keep,
      onEvent: (e) =>
        this.emit({
          type: "backup.done",
          backup: e.kind === "backup" ? backupView(e.file) : null,
          error: e.kind === "backup-error" ? e.message : null,
        }),
    });
    this.schedule.start();
  }

  async stop(): Promise<void> {
    const s = this.schedule;
    this.schedule = null;
    await s?.stop();
  }
}

/** Refuses a backup that is missing, not a regular file, the book itself or damaged, before anything is touched. */
export function checkBackup(from: string, bookFile: string): void {
  if (!existsSync(from) && !isLink(from)) throw userError(`${from} does not exist`, { key: "missingFile", params: { path: from } });
  // A link named like a backup, a FIFO: refused before SQLite opens (or blocks on) it.
  checkRegular(from);
  if (path.resolve(from) === path.resolve(bookFile)) throw userError("that is the open book itself, not a backup", { key: "restoreSelf" });
  let check: string;
  try {
    const probe = OpenBook.open(from, {}, { readonly: true });
    try {
      check = probe.store.integrityCheck();
    } finally {
      probe.close();
    }
  } catch (e) {
    check = e instanceof Error ? e.message : String(e);
  }
  if (check !== "ok") throw userError(`${from} is damaged: ${check}`, { key: "badBackup", params: { path: from } });
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Puts a backup in the place of a closed book (the caller has kept the book as it was, with
 * the live connection, and checkpointed it). The backup is copied to a temporary name created
 * exclusively (a link planted there is removed, never written through), the book's -wal and
 * -shm are removed (a stale log must never be replayed onto the backup) and the copy is renamed
 * over the book, which must be a regular file. A kill at any point leaves a book that opens:
 * the old one (checkpointed) or the backup.
 */
export function swapInBackup(from: string, file: string): void {
  const tmp = `${file}.restoring-${process.pid}`;
  copyToTemp(from, tmp);
  try {
    checkReplaceable(file);
    for (const side of ["-wal", "-shm"]) {
      checkReplaceable(file + side);
      rmSync(file + side, { force: true });
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
