// Working on a book by hand: think now / deeper, add a move, retry, unban,
// prune with undo, comments, and a read-only opener following a writer. Real SQLite files.
import { afterEach, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "./open-book.js";
import { tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import type { Candidate } from "../../shared/book/records.js";

const after = (...moves: string[]) => Position.fromUsi(moves.length ? `startpos moves ${moves.join(" ")}` : "startpos").sfenKey();
const cands = (...moves: Array<[string, number]>): Candidate[] => moves.map(([move, value]) => ({ move, value, depth: 10, pv: [move] }));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Thinks a position by hand: hands it out as a job and stores the given candidates. */
function think(book: OpenBook, sfen: string, c: Candidate[], nodes = 1000): void {
  const p = Position.fromSfen(sfen);
  book.jobs.addResult({ sfen: p.sfenKey(), keyHi: p.keyHi, keyLo: p.keyLo, line: [], rootValue: null }, c, {
    kind: "engine",
    engine: "test",
    nodes,
    depth: 10,
    timeMs: 1,
  });
}

/**
 * root -> 7g7f -> 3c3d -> 2g2f (X), and root -> 2g2f -> 3c3d -> 7g7f reaching the same X
 * (a transposition); 7g7f 3c3d also has 8c8d below A2 = after(7g7f, 3c3d).
 */
function smallBook(): { book: OpenBook; file: string } {
  const dir = tempDir();
  dirs.push(dir);
  const file = path.join(dir, "b.horu");
  const book = OpenBook.create(file, { limit: { nodes: 1000 } });
  think(book, after(), cands(["7g7f", 50], ["2g2f", 40]));
  think(book, after("7g7f"), cands(["3c3d", -40]));
  think(book, after("2g2f"), cands(["3c3d", -45]));
  think(book, after("7g7f", "3c3d"), cands(["2g2f", 40], ["8h2b+", 10]));
  think(book, after("2g2f", "3c3d"), cands(["7g7f", 30]));
  think(book, after("7g7f", "3c3d", "2g2f"), cands(["8c8d", -30]));
  return { book, file };
}

describe("working on the book", () => {
  it("think now jumps the queue and selection; think deeper re-thinks a thought position with a higher limit, replacing the result", () => {
    const { book, file } = smallBook();
    const leaf = after("7g7f", "3c3d", "8h2b+");
    book.store.queue.add([{ sfen: after("2g2f", "8c8d"), keyHi: 1, keyLo: 2, source: "records", ply: 2 }]);
    book.edits.thinkNow(leaf);
    const job = book.jobs.next()!;
    expect(job.sfen).toBe(leaf);
    expect(job.limit).toBeUndefined(); // not thought yet: the book's own limit
    expect(job.line).toEqual(["7g7f", "3c3d", "8h2b+"]);
    book.jobs.release(job);

    // Deeper: the book's limit x4, and the job is a position already thought.
    const x = after("7g7f", "3c3d", "2g2f");
    expect(book.edits.thinkDeeper(x).limit).toEqual({ nodes: 4000 });
    expect(book.store.queue.peek(1)[0]!.sfen).toBe(x);
    const deep = book.jobs.next()!;
    expect(deep.sfen).toBe(x);
    expect(deep.limit).toEqual({ nodes: 4000 });
    const before = book.store.thoughts.count();
    book.jobs.addResult(deep, cands(["8c8d", -20], ["4a3b", -25]), { kind: "engine", engine: "deep", nodes: 4000, depth: 14, timeMs: 5 });
    const stored = book.store.thoughts.get(x)!;
    expect(stored.candidates.map((c) => [c.move, c.value])).toEqual([
      ["8c8d", -20],
      ["4a3b", -25],
    ]);
    expect(stored.provenance).toMatchObject({ engine: "deep", nodes: 4000 });
    expect(book.store.thoughts.count()).toBe(before); // replaced, not added
    // Deeper again: the book's limit x4 is this position's own think now, so twice that (it
    // asked for 4,000 again and replaced a deep settle think with a shallower one).
    expect(book.edits.thinkDeeper(x).limit).toEqual({ nodes: 8000 });
    book.store.queue.remove(x);
    // Thought positions leave the queue in the storing transaction; the released leaf and the record stay.
    expect(book.store.queue.peek(10).map((q) => q.sfen)).toEqual([leaf, after("2g2f", "8c8d")]);
    expect(() => book.edits.thinkNow("not a position")).toThrow();
    book.close();
    // The replacement survives a reopen; the queue order too.
    const again = OpenBook.open(file);
    expect(again.store.thoughts.get(x)!.candidates).toHaveLength(2);
    again.close();
  });

  it("add a move: its position is thought first and becomes an internal edge", () => {
    const { book } = smallBook();
    expect(() => book.edits.addMove(after("7g7f"), "7g7f")).toThrow(/not a legal move/);
    const r = book.edits.addMove(after("7g7f"), "8c8d");
    expect(r.sfen).toBe(after("7g7f", "8c8d"));
    const job = book.jobs.next()!;
    expect(job.sfen).toBe(r.sfen);
    expect(job.line).toEqual(["7g7f", "8c8d"]);
    book.jobs.addResult(job, cands(["2g2f", 30]), { kind: "engine", engine: "t", nodes: 1, depth: 1, timeMs: 1 });
    const parent = book.graph.find(Position.fromSfen(after("7g7f")).keyHi, Position.fromSfen(after("7g7f")).keyLo);
    const edges: Array<[string, boolean]> = [];
    book.graph.forEachEdge(parent, (m, child) => edges.push([String(m), child >= 0]));
    expect(edges.filter(([, internal]) => internal)).toHaveLength(2); // 3c3d and the added 8c8d
    // A move already in the book only says so.
    expect(book.edits.addMove(after(), "7g7f").limit).toBeNull();
    book.close();
  });

  it("retry failed positions and remove a ban, in the store and in selection", () => {
    const { book, file } = smallBook();
    const leaf = after("7g7f", "3c3d", "8h2b+");
    book.edits.thinkNow(leaf);
    const job = book.jobs.next()!;
    book.jobs.markFailed(job, "engine died");
    expect([...book.store.failures.iterateFailed()]).toHaveLength(1);
    expect(book.graph.isInFlight(job.keyHi, job.keyLo)).toBe(true); // kept out of selection
    expect(book.edits.retry()).toBe(1);
    expect([...book.store.failures.iterateFailed()]).toHaveLength(0);
    expect(book.graph.isInFlight(job.keyHi, job.keyLo)).toBe(false);

    const x = Position.fromSfen(after("7g7f", "3c3d", "2g2f"));
    book.store.bans.add({ sfen: x.sfenKey(), keyHi: x.keyHi, keyLo: x.keyLo, move: "8c8d", reason: "repetition" });
    book.close();
    const b2 = OpenBook.open(file);
    const node = b2.graph.find(x.keyHi, x.keyLo);
    expect(node).toBeGreaterThanOrEqual(0);
    expect(b2.graph.bans()).toHaveLength(1);
    const gen = b2.graph.generation;
    expect(b2.edits.unban(x.sfenKey(), "8c8d")).toBe(true);
    expect(b2.graph.bans()).toHaveLength(0);
    expect(b2.graph.generation).toBeGreaterThan(gen); // cached bounds die with the ban
    expect(b2.edits.unban(x.sfenKey(), "8c8d")).toBe(false);
    b2.close();
    const b3 = OpenBook.open(file);
    expect(b3.store.bans.list()).toHaveLength(0);
    b3.close();
  });

  it("prune removes only what the root reaches through the pruned position; undo puts it all back", () => {
    const { book, file } = smallBook();
    const total = book.store.thoughts.count();
    // X (after 7g7f 3c3d 2g2f) is also reached through 2g2f 3c3d 7g7f: pruning 7g7f keeps it.
    const set = book.edits.pruneSet(after("7g7f"));
    expect(new Set(set)).toEqual(new Set([after("7g7f"), after("7g7f", "3c3d")]));
    expect(() => book.edits.pruneSet(after())).toThrow(/root/);
    expect(() => book.edits.pruneSet(after("9g9f"))).toThrow(/not a thought position/);
    const r = book.edits.prune(after("7g7f"));
    expect(r.positions).toBe(2);
    expect(book.store.thoughts.count()).toBe(total - 2);
    expect(book.store.integrityCheck()).toBe("ok");
    expect(book.store.prunes.list()).toMatchObject([{ batch: r.batch, positions: 2, rootSfen: after("7g7f") }]);
    book.close();

    const reopened = OpenBook.open(file);
    expect(reopened.graph.nodeCount).toBe(total - 2);
    expect(reopened.store.thoughts.has(after("7g7f", "3c3d", "2g2f"))).toBe(true);
    // Thought again since the prune (a dig, a think by hand): the undo keeps the newer think
    // (it put the pruned copy back over it).
    const again = reopened.store.thoughts.get(after("7g7f", "3c3d"));
    expect(again).toBeUndefined();
    const p = Position.fromSfen(after("7g7f", "3c3d"));
    const newer = {
      sfen: p.sfenKey(),
      keyHi: p.keyHi,
      keyLo: p.keyLo,
      candidates: [{ move: "2g2f", value: 77, depth: 30, pv: ["2g2f"] }],
      provenance: { kind: "engine" as const, engine: "later", nodes: 1, depth: 30, timeMs: 1 },
      thoughtAt: Date.now(),
    };
    reopened.store.thoughts.put(newer);
    reopened.store.thoughts.bumpCount(1);
    const u = reopened.edits.undoPrune()!;
    expect(u).toMatchObject({ positions: 1, kept: 1 });
    expect(reopened.store.thoughts.get(after("7g7f", "3c3d"))!.candidates).toMatchObject([{ move: "2g2f", value: 77, depth: 30 }]);
    expect(reopened.store.thoughts.count()).toBe(total);
    expect(reopened.store.thoughts.get(after("7g7f"))!.candidates.map((c) => c.move)).toEqual(["3c3d"]);
    expect(reopened.store.integrityCheck()).toBe("ok");
    expect(reopened.edits.undoPrune()).toBeNull();
    reopened.close();
  });

  it("a comment per position, stored in the book", () => {
    const { book, file } = smallBook();
    book.edits.comment(after("7g7f"), "角道を開ける");
    book.edits.comment(`${after("7g7f").replace(/ \d+$/, "")} 99`, "角道を開ける (ply ignored)");
    book.close();
    const b = OpenBook.open(file);
    expect(b.store.notes.getComment(after("7g7f"))).toBe("角道を開ける (ply ignored)");
    b.edits.comment(after("7g7f"), "  ");
    expect(b.store.notes.getComment(after("7g7f"))).toBeNull();
    b.close();
  });

  it("a read-only opener refuses edits and follows what the writer commits", () => {
    const { book, file } = smallBook();
    const reader = OpenBook.open(file, {}, { readonly: true });
    expect(() => reader.edits.thinkNow(after())).toThrow(/read-only: pid \d+ on .+ is writing this book/);
    expect(() => reader.edits.comment(after(), "x")).toThrow(/read-only/);
    const n0 = reader.graph.nodeCount;
    expect(reader.follower.follow()).toBe(0);
    think(book, after("7g7f", "3c3d", "8h2b+"), cands(["3a2b", -100]));
    think(book, after("2g2f", "8c8d"), cands(["2f2e", 20]));
    const x = Position.fromSfen(after("7g7f", "3c3d", "2g2f"));
    book.store.bans.add({ sfen: x.sfenKey(), keyHi: x.keyHi, keyLo: x.keyLo, move: "8c8d", reason: "repetition" });
    expect(reader.follower.follow()).toBe(2);
    expect(reader.graph.nodeCount).toBe(n0 + 2);
    expect(reader.graph.bans()).toHaveLength(1);
    expect(reader.follower.follow()).toBe(0); // nothing new: one PRAGMA
    reader.close();
    book.close();
  });
});
