// Backups: a consistent snapshot while a dig writes (on demand through `horu backup`, on a
// schedule through `horu dig --backup-every`), timestamped names, and retention.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { fakeThought } from "../bench/books/fake-thought.js";
import { BackupSchedule, backupFileName, listBackups, pruneBackups } from "./backup.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

describe("backup files and retention", () => {
  it("names sort by time, partial files are never counted, prune keeps the book's newest N scheduled ones", () => {
    const dir = tempDir();
    const book = path.join(dir, "my.horu");
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    const names = [0, 1, 2, 3, 4].map((i) => backupFileName(book, at(i), true));
    for (const n of [...names].reverse()) writeFileSync(path.join(dir, n), "x");
    writeFileSync(path.join(dir, names[4] + ".partial-123"), "x");
    writeFileSync(path.join(dir, "other.2026-01-01T00-00-09-000Z.backup.horu"), "x");
    expect(listBackups(dir, book).map((f) => path.basename(f))).toEqual(names);
    expect(pruneBackups(dir, book, 2).map((f) => path.basename(f))).toEqual(names.slice(0, 3));
    expect(listBackups(dir, book).map((f) => path.basename(f))).toEqual(names.slice(3));
    expect(readdirSync(dir)).toContain("other.2026-01-01T00-00-09-000Z.backup.horu");
  });

  it("retention never deletes a backup made on demand, nor another book's of the same file name", () => {
    const dir = tempDir();
    const bk = path.join(dir, "bk");
    mkdirSync(bk);
    const book = path.join(dir, "my.horu");
    const stranger = path.join(dir, "other", "my.horu"); // the same file name, another book
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    const manual = backupFileName(book, at(0));
    const strangers = backupFileName(stranger, at(1), true);
    const scheduled = [2, 3, 4].map((i) => backupFileName(book, at(i), true));
    expect(strangers).not.toBe(backupFileName(book, at(1), true));
    for (const n of [manual, strangers, ...scheduled]) writeFileSync(path.join(bk, n), "x");
    // Listed, all (restorable: a scheduled one may be this book's from before it moved); pruned, only its own.
    expect(listBackups(bk, book).map((f) => path.basename(f))).toEqual([manual, strangers, ...scheduled]);
    expect(pruneBackups(bk, book, 1).map((f) => path.basename(f))).toEqual(scheduled.slice(0, 2));
    expect(readdirSync(bk).sort()).toEqual([manual, strangers, scheduled[2]].sort());
    expect(pruneBackups(bk, stranger, 1)).toEqual([]);
  });

  it("a schedule makes snapshots while writing goes on and keeps the newest N", async () => {
    const dir = tempDir();
    const file = path.join(dir, "sched.horu");
    const store = BookStore.create(file);
    const events: string[] = [];
    let made = 0;
    const done = new Promise<void>((resolve) => {
      const s = new BackupSchedule(store, {
        everyMs: 20,
        dir: path.join(dir, "bk"),
        keep: 3,
        onEvent: (e) => {
          events.push(e.kind);
          if (e.kind === "backup" && ++made === 6) void s.stop().then(resolve);
        },
      });
      s.start();
    });
    let i = 0;
    const writer = setInterval(() => store.thoughts.add(fakeThought(i++)), 2);
    await done;
    clearInterval(writer);
    expect(events.every((k) => k === "backup")).toBe(true);
    const kept = listBackups(path.join(dir, "bk"), file);
    expect(kept).toHaveLength(3);
    let last = -1;
    for (const f of kept) {
      const b = BookStore.open(f, { readonly: true });
      expect(b.integrityCheck()).toBe("ok");
      expect(b.lockHolder()).toBeUndefined(); // a backup is not locked by the digging process
      const n = b.thoughts.count();
      expect(n).toBeGreaterThanOrEqual(last); // newer backups hold at least as much
      last = n;
      b.close();
    }
    store.close();
  });

  it("a backup that fails (target directory unwritable) is reported and deletes nothing", async () => {
    const dir = tempDir();
    const store = BookStore.create(path.join(dir, "b.horu"));
    writeFileSync(path.join(dir, "notadir"), "x");
    const events: { kind: string; message?: string }[] = [];
    const s = new BackupSchedule(store, { everyMs: 1000, dir: path.join(dir, "notadir", "sub"), keep: 1, onEvent: (e) => events.push(e) });
    await s.once();
    expect(events[0]?.kind).toBe("backup-error");
    expect(s.failed).toBe(1);
    store.close();
  });
});

function storedLines(child: ReturnType<typeof spawn>, n: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const got: string[] = [];
    let buf = "";
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith("stored ")) got.push(line.slice(7));
        if (got.length === n) resolve(got);
      }
    });
    child.on("close", () => (got.length >= n ? resolve(got) : reject(new Error(`dig ended after ${got.length} results`))));
  });
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`backups while digging (${NO_ENGINE})`, () => {
  it(
    "horu backup snapshots a book another process is digging; horu dig --backup-every keeps the newest N",
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const book = path.join(dir, "dug.horu");
      const bk = path.join(dir, "backups");
      const child = spawn(
        process.execPath,
        [
          HORU,
          "dig",
          "--book",
          book,
          "--engine",
          FAIRY,
          "--engines",
          "2",
          "--option",
          "Threads=1",
          "--option",
          "Hash=16",
          "--nodes",
          "3000",
          "--multipv",
          "3",
          "--print-results",
          "--backup-every",
          "0.01",
          "--backup-dir",
          bk,
          "--backup-keep",
          "2",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
      const before = await storedLines(child, 10);

      // On demand, while the dig holds the writer lock and keeps writing.
      const out = path.join(dir, "snap.horu");
      const r = spawnSync(process.execPath, [HORU, "backup", "--book", book, "--out", out], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^wrote .*snap\.horu: [\d,]+ bytes/);
      const snap = BookStore.open(out, { readonly: true });
      expect(snap.integrityCheck()).toBe("ok");
      for (const s of before) expect(snap.thoughts.has(s), `snapshot misses acknowledged ${s}`).toBe(true);
      snap.close();

      // An existing file is replaced only with --force, and a book in use never: the dig's book
      // given as another book's backup target would be destroyed.
      const again = spawnSync(process.execPath, [HORU, "backup", "--book", book, "--out", out], { encoding: "utf8" });
      expect(again.status).not.toBe(0);
      expect(again.stderr).toMatch(/snap\.horu exists: give --force/);
      const onLive = spawnSync(process.execPath, [HORU, "backup", "--book", out, "--out", book, "--force"], { encoding: "utf8" });
      expect(onLive.status).not.toBe(0);
      expect(onLive.stderr).toMatch(/dug\.horu is in use or was not closed cleanly/);
      const forced = spawnSync(process.execPath, [HORU, "backup", "--book", book, "--out", out, "--force"], { encoding: "utf8" });
      expect(forced.status, forced.stderr).toBe(0);

      // Let the schedule run several times (every 0.6 s), then stop the dig with Ctrl-C.
      await new Promise<void>((resolve) => {
        const check = () =>
          /removed \d+ older/.test(stderr) && (stderr.match(/^backup /gm) ?? []).length >= 4 ? resolve() : setTimeout(check, 100);
        check();
      });
      // Ctrl-C twice: the first would let running thinks finish, the second stops at once.
      child.kill("SIGINT");
      setTimeout(() => child.kill("SIGINT"), 300);
      expect(await exited, stderr).toBe(0);
      const dug = BookStore.open(book, { readonly: true });
      expect(dug.integrityCheck()).toBe("ok");
      for (const s of before) expect(dug.thoughts.has(s), `the dug book misses acknowledged ${s}`).toBe(true);
      dug.close();
      const kept = listBackups(bk, book);
      expect(kept).toHaveLength(2);
      for (const f of kept) {
        const b = BookStore.open(f); // a backup opens for writing too: it carries no lock
        expect(b.integrityCheck()).toBe("ok");
        b.close();
      }
      expect(readdirSync(bk).filter((n) => n.includes(".partial-"))).toEqual([]);
    },
  );
});
