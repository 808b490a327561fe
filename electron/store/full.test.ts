import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BookStore, StoreFullError, type KeyedThought } from "./book-store.js";
import { fakeThought } from "../bench/books/fake-thought.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "horu-full-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A position with long PVs, so a few of them fill the small page budget. */
function fat(i: number): KeyedThought {
  const t = fakeThought(i, 8);
  return { ...t, candidates: t.candidates.map((c) => ({ ...c, pv: Array.from({ length: 60 }, (_, k) => `${c.move}${k}`) })) };
}

describe("disk full", () => {
  it("SQLITE_FULL on thoughts.add raises StoreFullError, rolls back, and writing resumes once there is room", () => {
    const path = join(dir, "a.horu");
    const s = BookStore.create(path);
    s.thoughts.addBatch(Array.from({ length: 50 }, (_, i) => fakeThought(i)));
    // max_page_count is per connection: reach into this store's own connection.
    const db = (s as unknown as { db: Database.Database }).db;
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 8}`);

    let stored = 0;
    let err: unknown;
    for (let i = 1000; i < 2000; i++) {
      try {
        s.thoughts.add(fat(i));
        stored++;
      } catch (e) {
        err = e;
        break;
      }
    }
    expect(err).toBeInstanceOf(StoreFullError);
    expect(stored).toBeGreaterThan(0); // the limit bit mid-dig, not on the first write
    expect((err as Error).message).toContain(path);
    expect((err as Error).message).toMatch(/disk is full/);
    expect(((err as Error).cause as { code?: string }).code).toBe("SQLITE_FULL");
    const failed = fat(1000 + stored);
    expect(s.thoughts.has(failed.sfen)).toBe(false); // nothing half-written
    expect(s.thoughts.count()).toBe(50 + stored);
    expect(s.integrityCheck()).toBe("ok");
    // Batches fail the same way, all or nothing.
    expect(() => s.thoughts.addBatch([fat(5000), fat(5001), fat(5002)])).toThrow(StoreFullError);
    expect(s.thoughts.has(fat(5000).sfen)).toBe(false);

    db.pragma("max_page_count = 1073741823");
    s.thoughts.add(failed);
    expect(s.thoughts.get(failed.sfen)?.candidates).toEqual(failed.candidates);
    s.close();

    const r = BookStore.open(path);
    expect(r.integrityCheck()).toBe("ok");
    expect(r.thoughts.count()).toBe(50 + stored + 1);
    for (let i = 0; i < 50; i++) expect(r.thoughts.get(fakeThought(i).sfen)?.candidates).toEqual(fakeThought(i).candidates);
    r.close();
  });
});
