import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookLockedError, BookStore } from "./book-store.js";
import { buildChild, spawnChild } from "./testing/build-child.js";

let dir: string;
let child: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "horu-lock-"));
  child = await buildChild(dir);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function runOpen(
  book: string,
): Promise<{ ok: boolean; name?: string; message?: string; holder?: { pid: number; host: string; since: number } }> {
  const p = spawnChild(child, ["open", book]);
  let out = "";
  p.stdout.on("data", (d: Buffer) => (out += d.toString()));
  let err = "";
  p.stderr.on("data", (d: Buffer) => (err += d.toString()));
  await once(p, "close");
  if (out.trim() === "") throw new Error(`child failed: ${err}`);
  return JSON.parse(out.trim().split("\n").pop()!);
}

describe("writer lock", () => {
  it("a second process gets BookLockedError naming the holder; read-only opens still work", async () => {
    const book = join(dir, "held.horu");
    const before = Date.now();
    const s = BookStore.create(book);
    const r = await runOpen(book);
    expect(r.ok).toBe(false);
    expect(r.name).toBe("BookLockedError");
    expect(r.holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(r.holder!.since).toBeGreaterThanOrEqual(before);
    expect(r.message).toContain(`pid ${process.pid} on ${hostname()}`);
    expect(r.message).toContain(book);

    // Another BookStore in this same process is refused too.
    expect(() => BookStore.open(book)).toThrow(BookLockedError);
    const ro = BookStore.open(book, { readonly: true });
    expect(ro.lockHolder()?.pid).toBe(process.pid);
    ro.close();

    s.close();
    expect((await runOpen(book)).ok).toBe(true);
  });

  it("a live holder in another process blocks us; once it is killed -9 its stale lock is taken over", async () => {
    const book = join(dir, "stale.horu");
    BookStore.create(book).close();
    const p = spawnChild(child, ["hold", book]);
    const lines = createInterface({ input: p.stdout });
    const [first] = (await once(lines, "line")) as [string];
    expect(first).toBe("ready");
    let err: unknown;
    try {
      BookStore.open(book);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BookLockedError);
    expect((err as BookLockedError).holder.pid).toBe(p.pid);
    expect((err as Error).message).toContain(`pid ${p.pid}`);

    p.kill("SIGKILL");
    await once(p, "close");
    const s = BookStore.open(book);
    expect(s.lockHolder()?.pid).toBe(process.pid);
    s.close();
  });

  it("a lock row from a recycled pid (different start time) is stale; another host's is respected", () => {
    const book = join(dir, "rows.horu");
    BookStore.create(book).close();
    const db = new Database(book);
    // pid 1 is alive but started at a different time than recorded: pid reuse.
    db.prepare("INSERT INTO writer_lock (id, token, pid, host, since, proc_start) VALUES (1, 't', 1, ?, 0, '-1')").run(hostname());
    db.close();
    BookStore.open(book).close();

    const db2 = new Database(book);
    db2.prepare("INSERT INTO writer_lock (id, token, pid, host, since, proc_start) VALUES (1, 't', 1, 'elsewhere', 0, NULL)").run();
    db2.close();
    expect(() => BookStore.open(book)).toThrow(/pid 1 on elsewhere, since 1970-01-01T00:00:00.000Z/);
    const forced = BookStore.open(book, { forceLock: true });
    expect(forced.lockHolder()).toMatchObject({ pid: process.pid, host: hostname() });
    forced.close();
  });
});
