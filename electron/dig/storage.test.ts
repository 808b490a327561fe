// Storage faults: a full disk during a dig (in process and through `horu dig`) and during
// an export, and a second `horu dig` on a book another process digs.
//
// The disk is a REAL size-limited file system when we may mount one (a tmpfs; CI runs as
// root): the book lives on it and a filler file takes all but a little of the space.
// Where mounting is not permitted, the in-process dig falls back to SQLite's
// max_page_count (the same SQLITE_FULL path) and the tests that need a real full disk
// are skipped with a note saying so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { BookStore } from "../store/book-store.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { OpenBook } from "../book/open-book.js";
import { Dig, type DigEvent } from "./dig.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir, fairyDigArgs } from "../testing/paths.js";
import { followStored } from "./print-results.js";
import { missing } from "../testing/missing.js";
import { workerOf } from "../testing/dig-process.js";

function tryMount(dir: string, size: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function umount(dir: string): void {
  try {
    execFileSync("umount", ["-l", dir], { stdio: "ignore" });
  } catch {
    // already gone
  }
}

/**
 * Fills the file system of `dir` up (writing until ENOSPC: a dig may be writing at the
 * same time), then gives `leaveBytes` back; returns the filler's path.
 */
function fill(dir: string, leaveBytes: number): string {
  const f = path.join(dir, "filler");
  const fd = openSync(f, "w");
  const chunk = Buffer.alloc(64 * 1024);
  let size = 0;
  try {
    for (;;) size += writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
  } finally {
    closeSync(fd);
  }
  truncateSync(f, Math.max(0, size - leaveBytes));
  return f;
}

const base = tempDir("horu-storage-");
const mounts: string[] = [];
/** A fresh small file system per test, so one test's files never fill the next one's. */
function freshMount(name: string): string {
  const dir = path.join(base, name);
  mkdirSync(dir);
  if (!tryMount(dir, "16m")) throw new Error(`cannot mount a tmpfs on ${dir}`);
  mounts.push(dir);
  return dir;
}
// HORU_NO_MOUNT=1 exercises the fallback where mounting is not permitted.
const canMount =
  process.platform === "linux" &&
  !process.env.HORU_NO_MOUNT &&
  (() => {
    const probe = path.join(base, "probe");
    mkdirSync(probe);
    const ok = tryMount(probe, "1m");
    if (ok) umount(probe);
    return ok;
  })();
// HORU_NO_MOUNT is a deliberate choice; otherwise CI must be able to mount one.
const skipMount = !canMount && (process.env.HORU_NO_MOUNT !== undefined || missing(false, "a tmpfs mount (root on Linux)"));
if (!canMount)
  console.warn(
    "storage tests: cannot mount a tmpfs here (not root?); disk full is simulated with PRAGMA max_page_count, and the CLI/export full-disk tests are skipped",
  );
afterAll(() => {
  for (const m of mounts) umount(m);
  rmSync(base, { recursive: true, force: true });
});

const spec = (i: number) => ({ command: FAIRY, name: `fairy#${i}`, options: { Threads: 1, Hash: 16 } });

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`disk full during a dig (${NO_ENGINE})`, () => {
  it(
    `Dig emits a clear error and pauses, nothing stored is lost, and digging resumes once there is room (${canMount ? "tmpfs" : "max_page_count"})`,
    { timeout: 120_000 },
    async () => {
      const dir = canMount ? freshMount("inproc") : path.join(base, "inproc");
      if (!canMount) mkdirSync(dir);
      const file = path.join(dir, "full.horu");
      const book = OpenBook.create(file, { limit: { nodes: 2000 }, multipv: 3 });
      const db = (book.store as unknown as { db: Database.Database }).db;
      const acknowledged: string[] = [];
      const errors: string[] = [];
      let filler: string | null = null;
      let afterFull = 0;
      let onPaused: () => void = () => {};
      const paused = new Promise<void>((r) => (onPaused = r));
      let onMore: () => void = () => {};
      const more = new Promise<void>((r) => (onMore = r));
      const dig = new Dig(book, {
        engines: [spec(1), spec(2)],
        progressEveryMs: 50,
        onEvent: (e: DigEvent) => {
          if (e.kind === "result") {
            acknowledged.push(e.sfen);
            if (acknowledged.length === 5 && filler === null) {
              // Take the space away mid-dig.
              if (canMount) filler = fill(dir, 48 * 1024);
              else {
                filler = "max_page_count";
                db.pragma(`max_page_count = ${(db.pragma("page_count", { simple: true }) as number) + 6}`);
              }
            }
            if (errors.length) afterFull++;
            if (afterFull === 10) onMore();
          }
          if (e.kind === "error") errors.push(e.message);
          if (e.kind === "progress" && e.progress.state === "paused" && errors.length) onPaused();
        },
      });
      const run = dig.run();
      await paused;
      expect(errors[0]).toContain(file);
      expect(errors[0]).toMatch(/disk is full/);
      expect(dig.progress.state).toBe("paused");
      expect(dig.progress.inFlight).toEqual([]); // nothing half-handed-out while paused
      const beforeResume = acknowledged.length;
      const errorsAtPause = errors.length; // one per result that could not be stored (both engines may hit it)
      expect(errors.every((m) => /disk is full/.test(m))).toBe(true);
      for (const s of acknowledged) expect(book.store.thoughts.has(s), `lost ${s}`).toBe(true);
      expect(book.store.thoughts.count()).toBe(beforeResume);

      // Space returns: digging resumes where it paused.
      if (canMount) rmSync(filler!);
      else db.pragma("max_page_count = 1073741823");
      dig.resume();
      await more;
      await dig.stop();
      await run;
      expect(errors).toHaveLength(errorsAtPause);
      book.close();
      const store = BookStore.open(file, { readonly: true });
      expect(store.integrityCheck()).toBe("ok");
      for (const s of acknowledged) expect(store.thoughts.has(s), `lost ${s}`).toBe(true);
      expect(store.thoughts.count()).toBe(acknowledged.length);
      store.close();
    },
  );

  it.skipIf(skipMount)(
    "horu dig on a full disk: says the disk is full, exits 1, keeps every acknowledged result; a rerun digs on once there is room",
    { timeout: 120_000 },
    async () => {
      const dir = freshMount("cli");
      const file = path.join(dir, "cli.horu");
      const args = fairyDigArgs(file, { engines: 2, nodes: 2000, multipv: 3 }, "--print-results");
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
      const stored: string[] = [];
      let stderr = "",
        filler = "";
      followStored(child.stdout, (sfen) => {
        stored.push(sfen);
        if (stored.length === 5 && !filler) filler = fill(dir, 48 * 1024);
      });
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
      expect(code, stderr).toBe(1);
      expect(stderr).toMatch(
        /error: .*cli\.horu: the disk is full; the last result was not stored \(earlier results are intact\) \(dig paused\)/,
      );
      expect(stderr).toMatch(/stopped: .*disk is full/);
      expect(stored.length).toBeGreaterThanOrEqual(5);
      rmSync(filler);
      const rerun = spawnSync(process.execPath, [...args, "--positions", "5"], { encoding: "utf8" });
      expect(rerun.status, rerun.stderr).toBe(0);
      const store = BookStore.open(file, { readonly: true });
      expect(store.integrityCheck()).toBe("ok");
      for (const s of stored) expect(store.thoughts.has(s), `lost ${s}`).toBe(true);
      expect(store.thoughts.count()).toBeGreaterThanOrEqual(stored.length + 5);
      store.close();
    },
  );
});

describe.skipIf(skipMount)("export to a full disk", () => {
  let book: string;
  beforeAll(() => {
    // A book off the small file system whose export (~0.5 MB) cannot fit on it.
    book = path.join(base, "export-src.horu");
    const s = BookStore.create(book);
    // Real positions (export checks them): walks of legal moves, first moves as candidates.
    const seen = new Set<string>();
    const rows = [];
    for (let i = 0; rows.length < 4000; i++) {
      const p = Position.fromSfen("startpos");
      for (let ply = 0; ply < 1 + (i % 30); ply++) {
        const ms = p.legalMoves();
        p.doMove(ms[(i * 7 + ply * 13) % ms.length]!);
      }
      if (seen.has(p.sfenKey())) continue;
      seen.add(p.sfenKey());
      const candidates = p
        .legalMoves()
        .slice(0, 4)
        .map((m, k) => ({ move: moveToUsi(m), value: 50 - 10 * k, depth: 10, pv: [moveToUsi(m)] }));
      rows.push({
        sfen: p.sfenKey(),
        keyHi: p.keyHi,
        keyLo: p.keyLo,
        candidates,
        provenance: { kind: "import" as const, file: "t" },
        thoughtAt: 1,
      });
    }
    s.thoughts.addBatch(rows);
    s.settings.set("root", "startpos");
    s.close();
  });

  it("a clear error naming the file, no partial file, an existing file at the target unchanged", () => {
    const dir = freshMount("export");
    const target = path.join(dir, "book.db");
    writeFileSync(target, "the previous export\n");
    const filler = fill(dir, 64 * 1024);
    try {
      const r = spawnSync(process.execPath, [HORU, "export", "--book", book, "--out", target, "--raw", "--force"], { encoding: "utf8" });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`could not write ${target}`);
      expect(r.stderr).toMatch(/ENOSPC|no space left/i);
      expect(readFileSync(target, "utf8")).toBe("the previous export\n");
      expect(readdirSync(dir).sort()).toEqual(["book.db", "filler"]);
      // No file at the target before: none after.
      const fresh = path.join(dir, "fresh.bin");
      const r2 = spawnSync(process.execPath, [HORU, "export", "--book", book, "--out", fresh, "--raw"], { encoding: "utf8" });
      expect(r2.status).toBe(1);
      expect(r2.stderr).toContain(`could not write ${fresh}`);
      expect(existsSync(fresh)).toBe(false);
      expect(readdirSync(dir).sort()).toEqual(["book.db", "filler"]);
    } finally {
      rmSync(filler);
    }
    // With room again the export succeeds and replaces the old file.
    const ok = spawnSync(process.execPath, [HORU, "export", "--book", book, "--out", target, "--raw", "--force"], { encoding: "utf8" });
    expect(ok.status, ok.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).not.toBe("the previous export\n");
  });
});

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`two processes on one book (${NO_ENGINE})`, () => {
  it("a second horu dig is refused with a message naming the holder (pid and host); the first digs on", { timeout: 60_000 }, async () => {
    const file = path.join(base, "locked.horu");
    const args = [
      HORU,
      "dig",
      "--book",
      file,
      "--engine",
      FAIRY,
      "--engines",
      "1",
      "--option",
      "Threads=1",
      "--nodes",
      "2000",
      "--multipv",
      "2",
      "--print-results",
    ];
    const first = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const closed = new Promise<number | null>((r) => first.on("close", (c) => r(c)));
    await new Promise<void>((resolve, reject) => {
      first.stdout.on("data", (d: Buffer) => d.toString().includes("stored ") && resolve());
      first.on("close", () => reject(new Error("first dig ended")));
    });
    const second = spawnSync(process.execPath, args, { encoding: "utf8" });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`${file} is open for writing by another process (pid ${workerOf(first.pid!)} on ${hostname()}`);
    // ... and says what to do meanwhile.
    expect(second.stderr).toMatch(
      /\): wait for it to end or stop it; while a dig runs, its page \(horu dig --web\) takes positions to think/,
    );
    expect(second.stdout).not.toMatch(/stored /);
    // A read-only user (backup) is still served while the first digs.
    const snap = spawnSync(process.execPath, [HORU, "backup", "--book", file, "--out", path.join(base, "locked-snap.horu")], {
      encoding: "utf8",
    });
    expect(snap.status, snap.stderr).toBe(0);
    first.kill("SIGINT");
    setTimeout(() => first.kill("SIGINT"), 300);
    expect(await closed).toBe(0);
  });
});
