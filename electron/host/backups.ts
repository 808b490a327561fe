// Backups of the open book as the host serves them: the schedule kept in the book, the timer
// that runs it, the list and the swap of a backup into the book's place (the book as it was
// is kept beside it).

import { copyFileSync, existsSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import {
  BACKUP_MIN_MINUTES,
  type BackupSchedule as BackupScheduleView,
  type BackupView,
  type HostEvent,
} from "../../shared/api/contract.js";
import { OpenBook } from "../book/open-book.js";
import { BackupSchedule, backupFileName } from "../book/backup.js";
import { userError } from "../../shared/api/user-error.js";

/** The book's backup schedule, when one is set. */
export function backupSchedule(book: OpenBook): BackupScheduleView | null {
  const v = book.store.settings.get<BackupScheduleView>("backupSchedule");
  return v && typeof v.everyMinutes === "number" && v.everyMinutes > 0
    ? { everyMinutes: Math.max(BACKUP_MIN_MINUTES, v.everyMinutes), keep: v.keep ?? 10, dir: v.dir ?? null }
    : null;
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

  constructor(private readonly emit: (e: HostEvent) => void) {}

  /** (Re)starts the schedule the book holds now. */
  start(book: OpenBook): void {
    void this.schedule?.stop();
    this.schedule = null;
    const s = backupSchedule(book);
    if (!s || book.store.readonly) return;
    this.schedule = new BackupSchedule(book.store, {
      everyMs: s.everyMinutes * 60_000,
      dir: s.dir ?? path.dirname(book.store.path),
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

/** Refuses a backup that is missing, the book itself or damaged, before anything is touched. */
export function checkBackup(from: string, bookFile: string): void {
  if (!existsSync(from)) throw userError(`${from} does not exist`, { key: "missingFile", params: { path: from } });
  if (path.resolve(from) === path.resolve(bookFile)) throw userError("that is the open book itself, not a backup", { key: "restoreSelf" });
  const probe = OpenBook.open(from, {}, { readonly: true });
  const check = probe.store.integrityCheck();
  probe.close();
  if (check !== "ok") throw userError(`${from} is damaged: ${check}`, { key: "badBackup", params: { path: from } });
}

/**
 * Puts a backup in the place of a closed book. The book as it was is kept beside it first
 * (<book>.<time>.before-restore.horu): nothing a user does may destroy a book. Returns that copy.
 */
export function swapInBackup(from: string, file: string): string {
  const kept = path.join(path.dirname(file), backupFileName(file, new Date()).replace(/\.backup\.horu$/, ".before-restore.horu"));
  copyFileSync(file, kept);
  const tmp = `${file}.restoring-${process.pid}`;
  copyFileSync(from, tmp);
  for (const side of ["-wal", "-shm"]) rmSync(file + side, { force: true });
  renameSync(tmp, file);
  return kept;
}
