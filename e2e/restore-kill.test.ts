// Issue 42: kill -9 in the middle of a restore loses nothing. A real `horu web --book B` is
// asked to restore B's own backup; the moment a file of the restore appears in the book's
// folder (the copy of the book as it was being written, then the backup's temporary copy) the
// server's process is killed -9. Whatever step the kill hit, the book is a regular file that
// opens (integrity ok), and every position acknowledged before the restore is in the book (the
// kill came before the swap) or in the copy kept as it was (after); stray temporary files do not
// stop the next restore.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, watch, type FSWatcher } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { startHoru, type Horu } from "./harness";
import { makeBook } from "./books";
import { OpenBook } from "../electron/book/open-book";
import { backupInto } from "../electron/book/backup";
import { growBook } from "../electron/testing/grow";
import { ended, workerOf } from "../electron/testing/dig-process";
import { HostService } from "../electron/host/service";

let dir: string;
let book: string;
let backup: string;
/** Every position acknowledged before the restore (the backup has the first part only). */
let acked: string[];
let inBackup: string[];

/** The thought positions of a book file, read-only, after integrity_check. */
function positionsOf(file: string): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true }), file).toBe("ok");
    return new Set(db.prepare("SELECT sfen FROM positions WHERE state = 'thought'").pluck().all() as string[]);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "horu-restore-kill-"));
  book = path.join(dir, "b.horu");
  // Big enough (several MB) that each copy of the restore takes a while to write.
  inBackup = makeBook(book, 8_000);
  const b = OpenBook.open(book);
  try {
    backup = await backupInto(b.store, dir);
    acked = [...inBackup, ...growBook(b, 1_000)];
  } finally {
    b.close();
  }
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts horu web on the book, asks it to restore, and kills it -9 when a file whose name matches `at` appears. */
async function restoreKilledAt(at: RegExp): Promise<{ killed: string | null }> {
  const web: Horu = await startHoru({ HOME: dir }, ["--book", book]);
  const url = new URL(web.url);
  const worker = workerOf(web.proc.pid!);
  let killed: string | null = null;
  let watcher: FSWatcher | null = null;
  const seen = new Promise<void>((resolve) => {
    watcher = watch(dir, (_event, name) => {
      if (killed !== null || !name || !at.test(name)) return;
      killed = name;
      process.kill(worker, "SIGKILL");
      resolve();
    });
  });
  const answer = fetch(new URL("/api/call", url), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Horu-Token": url.searchParams.get("token")! },
    body: JSON.stringify({ method: "backup.restore", args: { path: backup } }),
  }).then(
    (r) => `answered ${r.status}`,
    () => "no answer (killed)",
  );
  // Either the file appeared and the server was killed, or the restore finished first.
  const outcome = await Promise.race([seen.then(() => "killed"), answer]);
  (watcher as FSWatcher | null)?.close();
  if (outcome !== "killed") process.kill(worker, "SIGKILL");
  await ended(worker, 10_000);
  await web.stop();
  return { killed };
}

/** Whatever the kill hit: the book a regular file that opens, and every acknowledged position kept. */
function assertNothingLost(): void {
  expect(lstatSync(book).isFile()).toBe(true);
  expect(lstatSync(book).isSymbolicLink()).toBe(false);
  const now = positionsOf(book);
  if (acked.every((s) => now.has(s))) return; // killed before the swap: the book as it was
  // Swapped: the book is the backup, and the book as it was is kept complete beside it.
  for (const s of inBackup) expect(now.has(s), s).toBe(true);
  const kept = readdirSync(dir).filter((n) => n.endsWith(".before-restore.horu"));
  expect(kept.length).toBeGreaterThan(0);
  const union = new Set(kept.flatMap((k) => [...positionsOf(path.join(dir, k))]));
  for (const s of acked) expect(union.has(s), s).toBe(true);
}

describe.skipIf(!existsSync("/proc/self/environ"))("kill -9 in the middle of a restore", () => {
  it.each([
    ["the copy of the book as it was is being written", /before-restore.*partial|\.partial-/],
    ["the backup's temporary copy is being written", /\.restoring-\d+$/],
  ])("killed when %s: nothing lost", { timeout: 120_000 }, async (_what, at) => {
    const r = await restoreKilledAt(at);
    console.log(`restore killed at: ${r.killed ?? "(the restore finished first)"}`);
    assertNothingLost();
  });

  it("the stray files of the killed restores do not stop the next one", { timeout: 120_000 }, async () => {
    const host = new HostService({ configDir: path.join(dir, "config") });
    await host.call("book.open", { path: book });
    try {
      const before = positionsOf(book).size;
      await host.call("backup.restore", { path: backup });
      expect(positionsOf(book).size).toBe(inBackup.length);
      expect(before).toBeGreaterThanOrEqual(inBackup.length);
    } finally {
      await host.closeBook();
    }
    expect(lstatSync(book).isFile()).toBe(true);
    assertNothingLost();
  });
});
