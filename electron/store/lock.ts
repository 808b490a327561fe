// The writer lock: one process at a time may write a book.
//
// A row in `writer_lock` names the holder (random token, pid, host, since, and the
// process start time from /proc where available). Taking the lock is a check-and-set
// inside BEGIN IMMEDIATE, so two openers racing are serialised by SQLite itself. A
// holder on this host whose pid is gone (or is a zombie, or is a different process that
// reused the pid) is stale and is taken over: a kill -9 never leaves a book locked. A
// holder on another host cannot be checked and is always respected.
//
// We do not use locking_mode=EXCLUSIVE: it would also shut out read-only openers (a
// `horu select` or a backup while a dig runs) and leave nothing readable to say who
// holds the book.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import type Database from "better-sqlite3";
import { BookLockedError, type LockHolder } from "./errors.js";

interface LockRow {
  token: string;
  pid: number;
  host: string;
  since: number;
  proc_start: string | null;
}

/** Field 22 (starttime) and field 3 (state) of /proc/<pid>/stat, or undefined off Linux. */
function procStat(pid: number): { state: string; start: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm (field 2) may contain spaces and parentheses: split after the last ')'.
    const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: rest[0] ?? "", start: rest[19] ?? "" };
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether a process with this pid runs on this machine (a zombie does not). */
export function processRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return false;
  const state = procStat(pid)?.state;
  return state !== "Z" && state !== "X";
}

/** Whether the recorded holder may still be writing. */
export function holderAlive(row: Pick<LockRow, "pid" | "host" | "proc_start">): boolean {
  if (row.host !== hostname()) return true;
  if (row.pid === process.pid) return true; // another BookStore in this process
  if (!pidAlive(row.pid)) return false;
  const stat = procStat(row.pid);
  if (stat === undefined) return true;
  if (stat.state === "Z" || stat.state === "X") return false;
  return row.proc_start === null || row.proc_start === stat.start;
}

/**
 * Takes the lock or throws BookLockedError naming the live holder. Returns our token.
 * `force` takes it whatever the holder (for a holder on another host that is known dead).
 */
export function acquireLock(db: Database.Database, path: string, force = false): string {
  const token = randomBytes(12).toString("hex");
  const read = (): LockRow | undefined =>
    db.prepare("SELECT token, pid, host, since, proc_start FROM writer_lock WHERE id = 1").get() as LockRow | undefined;
  const refuseLive = (row: LockRow | undefined): void => {
    if (row && !force && holderAlive(row))
      throw new BookLockedError(path, { pid: row.pid, host: row.host, since: row.since } satisfies LockHolder);
  };
  // Check before asking for the write lock too: a holder busy in a long transaction
  // would otherwise make us wait out busy_timeout and fail with a bare SQLITE_BUSY.
  refuseLive(read());
  db.transaction(() => {
    refuseLive(read());
    db.prepare("INSERT OR REPLACE INTO writer_lock (id, token, pid, host, since, proc_start) VALUES (1, ?, ?, ?, ?, ?)").run(
      token,
      process.pid,
      hostname(),
      Date.now(),
      procStat(process.pid)?.start ?? null,
    );
  }).immediate();
  return token;
}

export function releaseLock(db: Database.Database, token: string): void {
  db.prepare("DELETE FROM writer_lock WHERE token = ?").run(token);
}

/** The current holder, if any (for read-only openers that want to show it). */
export function readLockHolder(db: Database.Database): LockHolder | undefined {
  const row = db.prepare("SELECT pid, host, since FROM writer_lock WHERE id = 1").get() as LockHolder | undefined;
  return row ? { pid: row.pid, host: row.host, since: row.since } : undefined;
}
