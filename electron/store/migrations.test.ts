import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BookOpenError, BookStore } from "./book-store.js";
import { MIGRATIONS, SCHEMA_VERSION, migrate, readSchemaVersion, type Migration } from "./schema.js";
import { fakeThought } from "../bench/books/fake-thought.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "horu-store-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

// A stand-in for a future schema step: adds a column and backfills it from existing rows.
const v2: Migration = (db) => {
  db.exec("ALTER TABLE positions ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0");
  db.exec("UPDATE positions SET move_count = (SELECT count(*) FROM moves WHERE position_id = positions.id)");
};

describe("migrations", () => {
  it("the schema version is the number of migrations, recorded in meta and user_version", () => {
    const path = join(dir, "a.horu");
    BookStore.create(path).close();
    const db = new Database(path, { readonly: true });
    expect(readSchemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it("brings a v1 file forward, keeping its data, and the old program then refuses it", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    s.thoughts.addBatch([fakeThought(1, 3), fakeThought(2, 0), fakeThought(3, 6)]);
    s.close();

    const db = new Database(path);
    expect(migrate(db, "horu next", [...MIGRATIONS, v2])).toBe(SCHEMA_VERSION + 1);
    expect(migrate(db, "horu next", [...MIGRATIONS, v2])).toBe(SCHEMA_VERSION + 1); // idempotent
    expect(db.prepare("SELECT move_count FROM positions ORDER BY id").pluck().all()).toEqual([3, 0, 6]);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION + 1);
    db.close();

    expect(() => BookStore.open(path)).toThrow(BookOpenError);
    expect(() => BookStore.open(path)).toThrow(`(schema ${SCHEMA_VERSION + 1}, this program reads up to ${SCHEMA_VERSION})`);
  });

  it("a failing step rolls back to the previous version", () => {
    const path = join(dir, "a.horu");
    BookStore.create(path).close();
    const db = new Database(path);
    const broken: Migration = (d) => {
      d.exec("CREATE TABLE half_done (x)");
      throw new Error("step failed");
    };
    expect(() => migrate(db, "horu next", [...MIGRATIONS, broken])).toThrow("step failed");
    expect(readSchemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get()).toBe(0);
    db.close();
    BookStore.open(path).close();
  });

  it("opening for writing runs pending migrations; read-only asks for that first", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    s.thoughts.add(fakeThought(1, 4));
    s.close();
    const next = [...MIGRATIONS, v2];
    expect(() => BookStore.open(path, { readonly: true, migrations: next })).toThrow(
      `${path} has schema ${SCHEMA_VERSION}; open it for writing once to upgrade it to ${SCHEMA_VERSION + 1}`,
    );
    const w = BookStore.open(path, { migrations: next, writer: "horu next" });
    expect(w.meta()).toMatchObject({ schema_version: String(SCHEMA_VERSION + 1), last_writer: "horu next", created_by: "horu" });
    expect(w.thoughts.get(fakeThought(1).sfen)?.candidates).toHaveLength(4);
    w.close();
    const r = BookStore.open(path, { readonly: true, migrations: next });
    expect(r.thoughts.count()).toBe(1);
    r.close();
  });
});

describe("schema v6: what imported book files carry", () => {
  it("a v5 book opens, migrates and keeps its moves; afterwards none, comments, marks and .sbk states are kept", () => {
    const path = join(dir, "v5.horu");
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    migrate(db, "horu v5", MIGRATIONS.slice(0, 5));
    // One position with three moves, as the v5 program stored them.
    const f = fakeThought(1, 3);
    const key = BigInt.asIntN(64, (BigInt(f.keyHi >>> 0) << 32n) | BigInt(f.keyLo >>> 0));
    db.prepare(
      "INSERT INTO positions (id, sfen, key, state, thought_at, source, file) VALUES (1, ?, ?, 'thought', 5, 'import', 'old.db')",
    ).run(f.sfen, key);
    f.candidates.forEach((c, rank) =>
      db
        .prepare("INSERT INTO moves (position_id, rank, move, value, depth, pv, count) VALUES (1, ?, ?, ?, ?, ?, NULL)")
        .run(rank, c.move, c.value, c.depth, c.pv.join(" ")),
    );
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'thought_count'").run();
    db.close();
    expect(() => BookStore.open(path, { readonly: true })).toThrow(
      `has schema 5; open it for writing once to upgrade it to ${SCHEMA_VERSION}`,
    );

    const s = BookStore.open(path);
    expect(s.meta().schema_version).toBe(String(SCHEMA_VERSION));
    const before = s.thoughts.get(fakeThought(1).sfen)!;
    expect(before.candidates).toHaveLength(3);
    expect(before.candidates.every((c) => c.noValue === undefined && c.comment === undefined && c.mark === undefined)).toBe(true);
    const t = fakeThought(2, 2);
    s.thoughts.addBatch([
      {
        ...t,
        provenance: { kind: "import", file: "x.sbk" },
        comment: "a position comment",
        sbk: { games: 9, wonBlack: 4, wonWhite: 3, evals: [{ value: 5, depth: 27, selDepth: 30, nodes: "12", variation: "△７二金(61)" }] },
        candidates: [
          { ...t.candidates[0]!, value: 0, depth: 0, noValue: true, noDepth: true, mark: 4 },
          { ...t.candidates[1]!, comment: "line 1\nline 2", count: 7 },
        ],
      },
    ]);
    s.notes.setSbkBookMeta({ author: "将棋太郎", description: "d" });
    s.close();
    const r = BookStore.open(path, { readonly: true });
    try {
      const got = [...r.thoughts.iterateBySfen()].find((x) => x.sfen === t.sfen)!;
      expect(got.candidates[0]).toMatchObject({ noValue: true, noDepth: true, mark: 4 });
      expect(got.candidates[1]).toMatchObject({ comment: "line 1\nline 2", count: 7 });
      expect(got.comment).toBe("a position comment");
      expect(got.sbk).toEqual({
        games: 9,
        wonBlack: 4,
        wonWhite: 3,
        evals: [{ value: 5, depth: 27, selDepth: 30, nodes: "12", variation: "△７二金(61)" }],
      });
      expect(r.notes.sbkBookMeta()).toEqual({ author: "将棋太郎", description: "d" });
      expect(r.integrityCheck()).toBe("ok");
    } finally {
      r.close();
    }
  });
});
