import { existsSync, linkSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BookOpenError, BookStore, KeyCollisionError, LOG_KEEP, type KeyedThought } from "./book-store.js";
import { int64ToKey, keyToInt64 } from "./keys.js";
import { SCHEMA_VERSION } from "./schema.js";
import { fakeThought } from "../bench/books/fake-thought.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "horu-store-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

function startThought(): KeyedThought {
  return {
    sfen: START,
    keyHi: 0xdeadbeef,
    keyLo: 0x80000001,
    candidates: [
      { move: "2g2f", value: 45, depth: 24, pv: ["2g2f", "8c8d", "2f2e"] },
      { move: "7g7f", value: 40, depth: 24, pv: ["7g7f"] },
      { move: "5g5f", value: -32000 + 5, depth: 0, pv: [] },
    ],
    provenance: { kind: "engine", engine: "YaneuraOu NNUE", nodes: 12_345_678, depth: 24, timeMs: 3210 },
    thoughtAt: 1_700_000_123_456,
  };
}

describe("keys", () => {
  it("round-trips halves through a signed 64-bit integer", () => {
    for (const [hi, lo] of [
      [0, 0],
      [0xffffffff, 0xffffffff],
      [0x80000000, 0],
      [0x7fffffff, 0xffffffff],
      [1, 2],
      [-1, -2],
    ] as const) {
      const v = keyToInt64(hi, lo);
      expect(v >= -(2n ** 63n) && v < 2n ** 63n).toBe(true);
      expect(int64ToKey(v)).toEqual({ keyHi: hi >>> 0, keyLo: lo >>> 0 });
    }
    expect(() => keyToInt64(2 ** 32, 0)).toThrow(RangeError);
    expect(() => keyToInt64(0, 1.5)).toThrow(RangeError);
  });
});

describe("BookStore create/open", () => {
  it("creates, reopens and keeps meta", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path, { writer: "horu test" });
    expect(s.path).toBe(path);
    expect(s.thoughts.count()).toBe(0);
    expect(s.integrityCheck()).toBe("ok");
    s.close();
    s.close(); // idempotent
    const r = BookStore.open(path);
    const meta = r.meta();
    expect(meta.app_id).toBe("horu-book");
    expect(meta.schema_version).toBe(String(SCHEMA_VERSION));
    expect(meta.created_by).toBe("horu test");
    expect(Number.isNaN(Date.parse(meta.created_at!))).toBe(false);
    r.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("refuses to overwrite an existing file", () => {
    const path = join(dir, "a.horu");
    writeFileSync(path, "precious");
    expect(() => BookStore.create(path)).toThrow(/already exists/);
    BookStore.create(join(dir, "b.horu")).close();
    expect(() => BookStore.create(join(dir, "b.horu"))).toThrow(BookOpenError);
  });

  it("refuses what is not a horu book, naming the file", () => {
    const missing = join(dir, "missing.horu");
    expect(() => BookStore.open(missing)).toThrow(`${missing} does not exist`);

    const random = join(dir, "random.bin");
    writeFileSync(random, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) & 255)));
    expect(() => BookStore.open(random)).toThrow(`${random} is not a horu book (not an SQLite file)`);

    const empty = join(dir, "empty.sqlite");
    new Database(empty).close();
    expect(() => BookStore.open(empty)).toThrow(`${empty} is not a horu book (no meta table)`);

    const zero = join(dir, "zero.sqlite");
    writeFileSync(zero, "");
    expect(() => BookStore.open(zero)).toThrow(`${zero} is not a horu book (no meta table)`);

    const other = join(dir, "other.sqlite");
    const db = new Database(other);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('app_id', 'something-else')");
    db.close();
    expect(() => BookStore.open(other)).toThrow(/is not a horu book \(app id "something-else"\)/);
    // The refusals did not touch the files.
    expect(new Database(other).pragma("journal_mode", { simple: true })).toBe("delete");
  });

  it("refuses a book from a newer horu", () => {
    const path = join(dir, "new.horu");
    BookStore.create(path).close();
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 3));
    db.close();
    expect(() => BookStore.open(path)).toThrow(
      `${path} was written by a newer horu (schema ${SCHEMA_VERSION + 3}, this program reads up to ${SCHEMA_VERSION})`,
    );
    expect(() => BookStore.open(path, { readonly: true })).toThrow(/newer horu/);
  });
});

describe("thoughts", () => {
  it("round-trips thoughts.add and survives reopen", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    const t = startThought();
    const id = s.thoughts.add(t);
    expect(id).toBeGreaterThan(0);
    expect(s.thoughts.has(START)).toBe(true);
    expect(s.thoughts.has(START + " ")).toBe(false);
    expect(s.thoughts.count()).toBe(1);
    expect(s.thoughts.get(START)).toEqual({ ...t, id });
    const imp: KeyedThought = { ...fakeThought(3), provenance: { kind: "import", file: "/books/x.db" }, candidates: [] };
    s.thoughts.add(imp);
    s.close();

    const r = BookStore.open(path, { readonly: true });
    expect(r.thoughts.get(START)).toEqual({ ...t, id });
    expect(r.thoughts.get(imp.sfen)).toMatchObject({ candidates: [], provenance: { kind: "import", file: "/books/x.db" } });
    expect(r.thoughts.count()).toBe(2);
    expect(r.log.recent(5).map((e) => [e.event, e.message])).toEqual([
      ["thought", START],
      ["thought", imp.sfen],
    ]);
    expect(r.log.recent(1)[0]!.detail).toMatchObject({ moves: 0, file: "/books/x.db" });
    r.close();
  });

  it("stores long candidate lists (several multi-row inserts) in order", () => {
    const s = BookStore.create(join(dir, "a.horu"));
    for (const n of [15, 16, 17, 33, 100]) {
      const t = fakeThought(n, n);
      s.thoughts.add(t);
      expect(s.thoughts.get(t.sfen)?.candidates).toEqual(t.candidates);
    }
    s.close();
  });

  it("addMany stores what add stores one at a time: ids, moves in order, also with a position twice in one batch", () => {
    // One transaction for the lot (the dig's results that came together), each as add stores it.
    const batch = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => fakeThought(i, [0, 1, 8, 15, 16, 17, 40, 63, 64, 65][i - 1]));
    const again = { ...fakeThought(3, 5), thoughtAt: 1_800_000_000_000 };
    const list = [...batch.slice(0, 5), again, ...batch.slice(5), fakeThought(11, 9)];
    const one = BookStore.create(join(dir, "one.horu"));
    const together = BookStore.create(join(dir, "together.horu"));
    const ids = list.map((t) => one.thoughts.add(t));
    expect(together.thoughts.addMany(list)).toEqual(ids);
    expect([...together.thoughts.iterate()]).toEqual([...one.thoughts.iterate()]);
    expect(together.thoughts.get(again.sfen)?.candidates).toEqual(again.candidates);
    expect(together.thoughts.count()).toBe(11);
    expect(together.integrityCheck()).toBe("ok");
    one.close();
    together.close();
  });

  it("re-thinking replaces the moves and keeps the id", () => {
    const s = BookStore.create(join(dir, "a.horu"));
    const t = startThought();
    const id = s.thoughts.add(t);
    const again: KeyedThought = {
      ...t,
      candidates: [{ move: "7g7f", value: 10, depth: 30, pv: ["7g7f", "3c3d"] }],
      thoughtAt: t.thoughtAt + 1,
    };
    expect(s.thoughts.add(again)).toBe(id);
    expect(s.thoughts.get(START)).toEqual({ ...again, id });
    expect(s.thoughts.count()).toBe(1);
    s.close();
  });

  it("iterates every thought position in id order with its moves", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    const list = Array.from({ length: 500 }, (_, i) => fakeThought(i, i % 4 === 0 ? 0 : 1 + (i % 7)));
    s.thoughts.addBatch(list.slice(0, 300));
    s.failures.markFailed({ sfen: "failed b -", keyHi: 1, keyLo: 1 }); // failed rows sit between thought ones
    s.thoughts.addBatch(list.slice(300));
    s.thoughts.add({ ...list[10]!, candidates: [] }); // replaced moves leave none behind
    expect(s.thoughts.count()).toBe(500);
    const got = [...s.thoughts.iterate()];
    expect(got.map((g) => g.sfen)).toEqual(list.map((l) => l.sfen));
    expect(got.map((g) => g.id)).toEqual([...got.map((g) => g.id)].sort((a, b) => a - b));
    for (let i = 0; i < list.length; i++) {
      const { id: _id, ...rest } = got[i]!;
      expect(rest).toEqual(i === 10 ? { ...list[10], candidates: [] } : list[i]);
    }
    // Two iterations at once (e.g. a graph build and a UI listing) do not interfere.
    const a = s.thoughts.iterate();
    const b = s.thoughts.iterate();
    expect([a.next().value?.sfen, b.next().value?.sfen, a.next().value?.sfen]).toEqual([list[0]!.sfen, list[0]!.sfen, list[1]!.sfen]);
    a.return?.();
    b.return?.();
    // Breaking out early releases the cursors, so writing works again.
    for (const _ of s.thoughts.iterate()) break;
    s.thoughts.add(fakeThought(9999));
    expect([...s.failures.iterateFailed()]).toEqual([{ sfen: "failed b -", keyHi: 1, keyLo: 1 }]);
    s.close();
  });

  it("integrityCheck also checks the thought counter against the rows", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    s.thoughts.addBatch([fakeThought(1), fakeThought(2)]);
    expect(s.integrityCheck()).toBe("ok");
    const db = new Database(path);
    db.prepare("DELETE FROM positions WHERE sfen = ?").run(fakeThought(1).sfen);
    db.close();
    expect(s.integrityCheck()).toBe("meta thought_count is 2 but 1 positions are thought");
    s.close();
  });

  it("a failed mark gives way to a later thought", () => {
    const s = BookStore.create(join(dir, "a.horu"));
    const t = fakeThought(1);
    s.failures.markFailed(t);
    expect(s.thoughts.has(t.sfen)).toBe(false);
    expect(s.thoughts.count()).toBe(0);
    expect(s.failures.record(t.sfen, "engine crashed")).toBe(1);
    expect(s.failures.record(t.sfen, new Error("timeout"))).toBe(2);
    expect(s.failures.list()).toMatchObject([{ sfen: t.sfen, attempts: 2, lastError: "timeout" }]);
    s.thoughts.add(t);
    expect(s.thoughts.has(t.sfen)).toBe(true);
    expect(s.thoughts.count()).toBe(1);
    expect(s.failures.list()).toEqual([]);
    expect([...s.failures.iterateFailed()]).toEqual([]);
    s.close();
  });

  it("throws KeyCollisionError naming both SFENs, and stores nothing", () => {
    const s = BookStore.create(join(dir, "a.horu"));
    s.thoughts.add(startThought());
    const other: KeyedThought = { ...fakeThought(7), keyHi: 0xdeadbeef, keyLo: 0x80000001 };
    let err: unknown;
    try {
      s.thoughts.add(other);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KeyCollisionError);
    expect((err as Error).message).toContain(START);
    expect((err as Error).message).toContain(other.sfen);
    expect((err as Error).message).toContain("deadbeef80000001");
    expect(s.thoughts.has(other.sfen)).toBe(false);
    // In a batch the whole batch rolls back.
    expect(() => s.thoughts.addBatch([fakeThought(1), fakeThought(2), other])).toThrow(KeyCollisionError);
    expect(s.thoughts.count()).toBe(1);
    expect(s.thoughts.has(fakeThought(1).sfen)).toBe(false);
    // Same SFEN under a different key is a caller bug (key scheme changed), refused too.
    expect(() => s.thoughts.add({ ...startThought(), keyLo: 5 })).toThrow(/key scheme changed/);
    s.close();
  });
});

describe("side tables", () => {
  it("kifu seeds, move stats, bans, engines, settings, log", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    const seeds = [
      { sfen: START, keyHi: 0xffffffff, keyLo: 0, source: "g1.kif", ply: 0 },
      { sfen: "x b -", keyHi: 1, keyLo: 2, source: "g1.kif", ply: 1 },
      { sfen: START, keyHi: 0xffffffff, keyLo: 0, source: "g2.csa", ply: 0 },
    ];
    expect(s.seeds.add(seeds)).toBe(3);
    expect(s.seeds.add(seeds.slice(0, 1))).toBe(0);
    expect([...s.seeds.iterate()]).toEqual(seeds.map((r, i) => ({ id: i + 1, ...r })));
    expect(s.seeds.maxId()).toBe(3);
    expect([...s.seeds.iterate(2)]).toEqual([{ id: 3, ...seeds[2] }]);

    s.moveStats.add([
      { sfen: START, keyHi: 1, keyLo: 1, move: "7g7f", games: 10, wins: 6 },
      { sfen: START, keyHi: 1, keyLo: 1, move: "2g2f", games: 3, wins: 1, draws: 1 },
    ]);
    s.moveStats.add([{ sfen: START, keyHi: 1, keyLo: 1, move: "2g2f", games: 9, wins: 4 }]);
    expect(s.moveStats.get(START)).toEqual([
      { move: "2g2f", games: 12, wins: 5, draws: 1 },
      { move: "7g7f", games: 10, wins: 6, draws: 0 },
    ]);
    expect(s.moveStats.get("nothing")).toEqual([]);

    expect(s.bans.add({ sfen: START, keyHi: 0x80000000, keyLo: 7, move: "8h2b+", reason: "repetition" })).toBe(true);
    expect(s.bans.add({ sfen: START, keyHi: 0x80000000, keyLo: 7, move: "8h2b+", reason: "repetition" })).toBe(false);
    expect(s.bans.list()).toMatchObject([{ sfen: START, keyHi: 0x80000000, keyLo: 7, move: "8h2b+", reason: "repetition" }]);
    expect(s.bans.clear()).toBe(1);
    expect(s.bans.list()).toEqual([]);

    const id = s.engines.add({
      name: "fs",
      command: "ssh",
      args: ["box", "fairy-stockfish"],
      cwd: null,
      options: { Threads: 4, USI_OwnBook: false },
      enabled: true,
    });
    expect(s.engines.get(id)).toEqual({
      id,
      name: "fs",
      command: "ssh",
      args: ["box", "fairy-stockfish"],
      cwd: null,
      options: { Threads: 4, USI_OwnBook: false },
      enabled: true,
    });
    s.engines.update({ ...s.engines.get(id)!, enabled: false, cwd: "/opt" });
    expect(s.engines.list()).toMatchObject([{ id, enabled: false, cwd: "/opt" }]);
    expect(() => s.engines.update({ ...s.engines.get(id)!, id: 999 })).toThrow(/no engine/);
    expect(s.engines.remove(id)).toBe(true);
    expect(s.engines.list()).toEqual([]);

    s.settings.set("dig", { multipv: "auto", window: 300, maxPly: 256 });
    s.settings.set("bonus", 100);
    expect(s.settings.get("dig")).toEqual({ multipv: "auto", window: 300, maxPly: 256 });
    expect(s.settings.get<number>("bonus")).toBe(100);
    expect(s.settings.get("none")).toBeUndefined();
    expect(s.settings.all()).toEqual({ bonus: 100, dig: { multipv: "auto", window: 300, maxPly: 256 } });
    s.settings.set("bonus", undefined);
    expect(s.settings.get("bonus")).toBeUndefined();

    s.log.add("warn", "engine", "engine 1 restarted", { code: 137 });
    s.log.add("info", "pause", "paused");
    const log = s.log.recent(2);
    expect(log.map((e) => [e.level, e.event, e.message, e.detail])).toEqual([
      ["warn", "engine", "engine 1 restarted", { code: 137 }],
      ["info", "pause", "paused", undefined],
    ]);
    s.close();
  });

  it("prunes the log to its cap", () => {
    const s = BookStore.create(join(dir, "a.horu"));
    // Fill the log past its cap directly (cheap: one transaction).
    const db = new Database(s.path);
    db.pragma("busy_timeout = 5000");
    const ins = db.prepare("INSERT INTO dig_log (at, level, event, message) VALUES (0, 'debug', 'x', 'x')");
    db.transaction(() => {
      for (let i = 0; i < LOG_KEEP + 10; i++) ins.run();
    })();
    db.close();
    s.log.add("debug", "y", "y"); // a session's first log write prunes
    const log = s.log.recent(LOG_KEEP * 2);
    expect(log.length).toBe(LOG_KEEP);
    expect(log[log.length - 1]!.event).toBe("y");
    s.close();
  });
});

describe("read-only", () => {
  it("reads alongside the writer, sees its commits, and cannot write", () => {
    const path = join(dir, "a.horu");
    const w = BookStore.create(path);
    w.thoughts.add(fakeThought(1));
    const r = BookStore.open(path, { readonly: true });
    expect(r.thoughts.count()).toBe(1);
    w.thoughts.add(fakeThought(2));
    expect(r.thoughts.count()).toBe(2);
    expect(r.thoughts.get(fakeThought(2).sfen)?.candidates).toEqual(fakeThought(2).candidates);
    expect(() => r.thoughts.add(fakeThought(3))).toThrow(/readonly/);
    r.close();
    w.close();
  });
});

describe("backup", () => {
  it("snapshots while results keep arriving", async () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    for (let k = 0; k < 10; k++) s.thoughts.addBatch(Array.from({ length: 1000 }, (_, i) => fakeThought(k * 1000 + i)));
    const copy = join(dir, "copy.horu");
    let writing = true;
    let n = 10_000;
    const writer = (async () => {
      while (writing) {
        s.thoughts.add(fakeThought(n++));
        await new Promise((res) => setImmediate(res));
      }
    })();
    await s.backup(copy);
    writing = false;
    await writer;
    const c = BookStore.open(copy, { readonly: true });
    expect(c.integrityCheck()).toBe("ok");
    const count = c.thoughts.count();
    expect(count).toBeGreaterThanOrEqual(10_000);
    expect(count).toBeLessThanOrEqual(n);
    // A snapshot is a prefix of the results: ids are dense up to its count.
    expect([...c.thoughts.iterate()].map((p) => p.sfen)).toEqual(Array.from({ length: count }, (_, i) => fakeThought(i).sfen));
    c.close();
    s.close();
  });

  it("writes a consistent, unlocked, self-contained copy", async () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    s.thoughts.addBatch(Array.from({ length: 2000 }, (_, i) => fakeThought(i)));
    const copy = join(dir, "copy.horu");
    writeFileSync(copy, "old backup");
    await s.backup(copy);
    s.thoughts.add(fakeThought(5000));
    await expect(s.backup(path)).rejects.toThrow(/onto itself/);
    // The copy opens for writing while the original is still held: no lock came along.
    const c = BookStore.open(copy);
    expect(c.thoughts.count()).toBe(2000);
    expect(c.integrityCheck()).toBe("ok");
    expect(c.lockHolder()?.pid).toBe(process.pid);
    c.close();
    s.close();
  });
});

describe("backup onto a book in use", () => {
  it("never replaces a database that is open (its WAL beside it), nor the book itself by another name", async () => {
    const src = BookStore.create(join(dir, "src.horu"));
    src.thoughts.addBatch(Array.from({ length: 50 }, (_, i) => fakeThought(i)));
    // Another book, held open and written as a dig would: its -wal and -shm files are beside it.
    const live = BookStore.create(join(dir, "live.horu"));
    live.thoughts.addBatch(Array.from({ length: 300 }, (_, i) => fakeThought(1000 + i)));
    await expect(src.backup(join(dir, "live.horu"))).rejects.toThrow(/live\.horu is in use or was not closed cleanly \(its -wal file/);
    live.thoughts.add(fakeThought(5000));
    expect(live.thoughts.count()).toBe(301);
    expect(live.integrityCheck()).toBe("ok");
    live.close();
    const again = BookStore.open(join(dir, "live.horu"));
    expect(again.thoughts.count()).toBe(301);
    again.close();
    // Closed cleanly it is still another book: never replaced (`horu backup --out OTHER --force` did).
    await expect(src.backup(join(dir, "live.horu"))).rejects.toThrow(
      `live.horu is a horu book (SQLite's WAL mode, which books are in and backups never), not a backup of ${join(dir, "src.horu")}`,
    );
    const kept = BookStore.open(join(dir, "live.horu"), { readonly: true });
    expect(kept.thoughts.count()).toBe(301);
    kept.close();
    // Nor a backup of another book, nor another program's database; an earlier backup of the same book, yes.
    const liveAgain = BookStore.open(join(dir, "live.horu"));
    await liveAgain.backup(join(dir, "live-backup.horu"));
    liveAgain.close();
    await expect(src.backup(join(dir, "live-backup.horu"))).rejects.toThrow(
      "live-backup.horu is a backup of another book, not a backup of",
    );
    const foreign = new Database(join(dir, "foreign.db"));
    foreign.exec("CREATE TABLE t (x)");
    foreign.close();
    await expect(src.backup(join(dir, "foreign.db"))).rejects.toThrow("foreign.db is another program's SQLite database, not a backup of");
    await src.backup(join(dir, "src-backup.horu"));
    src.thoughts.add(fakeThought(7000));
    await src.backup(join(dir, "src-backup.horu"));
    const replaced = BookStore.open(join(dir, "src-backup.horu"), { readonly: true });
    expect(replaced.thoughts.count()).toBe(51);
    replaced.close();
    // A backup made before backups recorded their book (no backup_of) is taken for an earlier one.
    const old = new Database(join(dir, "src-backup.horu"));
    old.prepare("DELETE FROM meta WHERE key = 'backup_of'").run();
    old.close();
    await src.backup(join(dir, "src-backup.horu"));
    src.thoughts.add(fakeThought(7001)); // (counts below: 52)
    // Into a folder that is not there: said so (it was a raw ENOENT about a temporary file).
    await expect(src.backup(join(dir, "nowhere", "b.horu"))).rejects.toThrow(`${join(dir, "nowhere")} is not a folder: create it first`);
    // A book's -wal, -shm or journal file (the log of a book being dug held its last results).
    for (const side of ["-wal", "-shm", "-journal"])
      await expect(src.backup(join(dir, "live.horu") + side)).rejects.toThrow(
        `live.horu${side} is named as SQLite names a database's ${side} file (that of`,
      );
    // The book itself through a hard link.
    linkSync(join(dir, "src.horu"), join(dir, "src-link.horu"));
    await expect(src.backup(join(dir, "src-link.horu"))).rejects.toThrow(/onto itself/);
    expect(src.thoughts.count()).toBe(52);
    src.close();
  });
});

describe("a read-only open", () => {
  it("leaves no -wal or -shm beside a book it found without them, and never removes a writer's", () => {
    const file = join(dir, "r.horu");
    const w = BookStore.create(file);
    w.thoughts.add(fakeThought(1));
    w.close();
    expect([existsSync(file + "-wal"), existsSync(file + "-shm")]).toEqual([false, false]);
    const r = BookStore.open(file, { readonly: true });
    expect(r.thoughts.count()).toBe(1);
    expect(existsSync(file + "-shm")).toBe(true); // SQLite's, while it reads
    r.close();
    // They were left behind: a backup onto the book then refused it as "in use".
    expect([existsSync(file + "-wal"), existsSync(file + "-shm")]).toEqual([false, false]);
    // Beside a writer: its files stay, and it writes on.
    const writer = BookStore.open(file);
    writer.thoughts.add(fakeThought(2));
    const reader = BookStore.open(file, { readonly: true });
    expect(reader.thoughts.count()).toBe(2);
    reader.close();
    expect(existsSync(file + "-wal")).toBe(true);
    writer.thoughts.add(fakeThought(3));
    expect(writer.integrityCheck()).toBe("ok");
    writer.close();
    const again = BookStore.open(file, { readonly: true });
    expect(again.thoughts.count()).toBe(3);
    again.close();
  });
});

describe("a book with two names", () => {
  it("is not opened for writing through either (each name has its own log: two writers corrupted it); read, it opens", () => {
    const a = join(dir, "named.horu");
    BookStore.create(a).close();
    linkSync(a, join(dir, "also.horu"));
    for (const name of [a, join(dir, "also.horu")]) {
      let err: unknown;
      try {
        BookStore.open(name).close();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BookOpenError);
      expect((err as BookOpenError).reason).toBe("hard-linked");
      expect((err as Error).message).toContain(`${name} has 2 names (hard links)`);
    }
    const r = BookStore.open(a, { readonly: true });
    expect(r.meta().app_id).toBe("horu-book");
    r.close();
    // One name again: writable.
    rmSync(join(dir, "also.horu"));
    BookStore.open(a).close();
  });
});

describe("imports and prunes listed", () => {
  it("lists follow every import, undo, prune and undo, though the counts are kept between changes", () => {
    const s = BookStore.create(join(dir, "lists.horu"), { writer: "horu test" });
    let open = true;
    try {
      const fresh = () => [s.imports.list(), s.prunes.list()];
      expect(fresh()).toEqual([[], []]);
      const a = s.imports.begin("a.db");
      s.imports.add(a, [fakeThought(1), fakeThought(2)]);
      expect(s.imports.list()).toMatchObject([{ batch: a, file: "a.db", positions: 2 }]);
      // Another chunk of the same import: counted again.
      s.imports.add(a, [fakeThought(3)]);
      expect(s.imports.list()).toMatchObject([{ batch: a, positions: 3 }]);
      const b = s.imports.begin("b.db");
      expect(s.imports.list()).toMatchObject([
        { batch: b, positions: 0 },
        { batch: a, positions: 3 },
      ]);
      s.imports.add(b, [fakeThought(4)]);
      expect(s.imports.list()).toMatchObject([
        { batch: b, positions: 1 },
        { batch: a, positions: 3 },
      ]);
      // A caller changing the list it got changes nothing kept.
      s.imports.list()[0]!.positions = 99;
      expect(s.imports.list()[0]!.positions).toBe(1);
      s.imports.undo();
      expect(s.imports.list()).toMatchObject([{ batch: a, positions: 3 }]);

      const p = s.prunes.prune([fakeThought(1).sfen, fakeThought(2).sfen], fakeThought(1).sfen);
      expect(s.prunes.list()).toMatchObject([{ batch: p.batch, positions: 2, rootSfen: fakeThought(1).sfen }]);
      const q = s.prunes.prune([fakeThought(3).sfen], fakeThought(3).sfen);
      expect(s.prunes.list().map((x) => [x.batch, x.positions])).toEqual([
        [q.batch, 1],
        [p.batch, 2],
      ]);
      s.prunes.undo();
      expect(s.prunes.list().map((x) => [x.batch, x.positions])).toEqual([[p.batch, 2]]);
      // What a fresh read of the file says.
      const lists = fresh();
      s.close();
      open = false;
      const again = BookStore.open(join(dir, "lists.horu"), { writer: "horu test" });
      try {
        expect([again.imports.list(), again.prunes.list()]).toEqual(lists);
      } finally {
        again.close();
      }
    } finally {
      if (open) s.close();
    }
  });
});
