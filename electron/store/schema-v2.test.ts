// Schema v2: move counts and the think queue. A book written by the v1 program
// must open, keep its data, and take counts and queued positions afterwards.
import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BookStore } from "./book-store.js";
import { MIGRATIONS, migrate, readSchemaVersion } from "./schema.js";
import { tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";

let dir: string;
beforeEach(() => {
  dir = tempDir("horu-store-");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const start = Position.startpos();

/** A book file exactly as the v1 program left it: one position with two moves. */
function v1Book(path: string): void {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  migrate(db, "horu v1", MIGRATIONS.slice(0, 1));
  const key = (BigInt(start.keyHi >>> 0) << 32n) | BigInt(start.keyLo >>> 0);
  const signed = BigInt.asIntN(64, key);
  db.prepare(
    "INSERT INTO positions (id, sfen, key, state, thought_at, source, file) VALUES (1, ?, ?, 'thought', 5, 'import', 'old.db')",
  ).run(start.sfenKey(), signed);
  db.prepare(
    "INSERT INTO moves (position_id, rank, move, value, depth, pv) VALUES (1, 0, '2g2f', 60, 20, '2g2f 8c8d'), (1, 1, '7g7f', 40, 18, '7g7f')",
  ).run();
  db.prepare("UPDATE meta SET value = '1' WHERE key = 'thought_count'").run();
  db.close();
}

describe("schema v2: move counts and the think queue", () => {
  it("opens a v1 book, migrating it: old moves have no count, new ones keep theirs", () => {
    const path = join(dir, "v1.horu");
    v1Book(path);
    const s = BookStore.open(path);
    expect(s.meta().schema_version).toBe(String(MIGRATIONS.length));
    const old = s.thoughts.get(start.sfenKey())!;
    expect(old.candidates).toEqual([
      { move: "2g2f", value: 60, depth: 20, pv: ["2g2f", "8c8d"] },
      { move: "7g7f", value: 40, depth: 18, pv: ["7g7f"] },
    ]);
    expect("count" in old.candidates[0]!).toBe(false);
    expect(s.integrityCheck()).toBe("ok");

    const child = start.clone();
    child.doMove(parseUsiMove("2g2f")!);
    s.thoughts.add({
      sfen: child.sfenKey(),
      keyHi: child.keyHi,
      keyLo: child.keyLo,
      thoughtAt: 6,
      provenance: { kind: "import", file: "new.db" },
      candidates: [
        { move: "8c8d", value: -50, depth: 0, pv: ["8c8d"], count: 7 },
        { move: "3c3d", value: -60, depth: 0, pv: ["3c3d"] },
      ],
    });
    expect(s.thoughts.get(child.sfenKey())!.candidates.map((c) => c.count)).toEqual([7, undefined]);
    expect([...s.thoughts.iterate()].map((t) => t.candidates.map((c) => c.count ?? null))).toEqual([
      [null, null],
      [7, null],
    ]);
    s.close();

    const db = new Database(path, { readonly: true });
    expect(readSchemaVersion(db)).toBe(MIGRATIONS.length);
    db.close();
  });

  it("queues positions in order, ignores repeats, and drops them once thought or failed", () => {
    const path = join(dir, "q.horu");
    const s = BookStore.create(path);
    const positions = [start.clone()];
    for (const m of ["7g7f", "3c3d", "2g2f"]) {
      const p = positions[positions.length - 1]!.clone();
      p.doMove(parseUsiMove(m)!);
      positions.push(p);
    }
    const rows = positions.map((p, ply) => ({ sfen: p.sfenKey(), keyHi: p.keyHi, keyLo: p.keyLo, source: "a.kif", ply }));
    expect(s.queue.add(rows)).toBe(4);
    expect(s.queue.add(rows.slice(1, 2))).toBe(0);
    expect(s.queue.count()).toBe(4);
    expect(s.queue.peek(2)).toEqual(rows.slice(0, 2).map((r) => ({ ...r, keyHi: r.keyHi >>> 0, keyLo: r.keyLo >>> 0 })));

    s.thoughts.add({
      ...rows[0]!,
      thoughtAt: 1,
      provenance: { kind: "engine", engine: "e", nodes: 1, depth: 1, timeMs: 1 },
      candidates: [],
    });
    s.failures.markFailed(rows[2]!);
    expect(s.queue.peek(10).map((r) => r.ply)).toEqual([1, 3]);
    expect(s.queue.remove(rows[1]!.sfen)).toBe(true);
    expect(s.queue.remove(rows[1]!.sfen)).toBe(false);
    expect(s.queue.count()).toBe(1);
    s.close();
  });

  it("peek keeps up with rows queued since it last found the queue empty: by this store or by another connection", () => {
    // peek remembers an empty queue (the dig asks before each selection) until this store
    // queues something or another connection commits.
    const path = join(dir, "e.horu");
    const s = BookStore.create(path);
    const row = (ply: number) => {
      const p = start.clone();
      p.doMove(parseUsiMove(["7g7f", "2g2f", "6g6f"][ply]!)!);
      return { sfen: p.sfenKey(), keyHi: p.keyHi >>> 0, keyLo: p.keyLo >>> 0, source: "t", ply };
    };
    expect(s.queue.peek(8)).toEqual([]);
    expect(s.queue.peek(8)).toEqual([]);
    s.queue.add([row(0)]);
    expect(s.queue.peek(8)).toEqual([row(0)]);
    s.queue.remove(row(0).sfen);
    expect(s.queue.peek(8)).toEqual([]);
    s.queue.putFirst(row(1));
    expect(s.queue.peek(8).map((r) => r.sfen)).toEqual([row(1).sfen]);
    s.queue.remove(row(1).sfen);
    expect(s.queue.peek(8)).toEqual([]);
    // Another connection (another process, a worker) queues a position: the next peek sees it.
    const other = new Database(path);
    other.pragma("busy_timeout = 5000");
    other
      .prepare("INSERT INTO think_queue (sfen, key, source, ply) VALUES (?, ?, 't', 2)")
      .run(row(2).sfen, BigInt.asIntN(64, (BigInt(row(2).keyHi) << 32n) | BigInt(row(2).keyLo)));
    other.close();
    expect(s.queue.peek(8)).toEqual([row(2)]);
    s.close();
  });
});
