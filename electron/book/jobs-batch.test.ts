// Results that came together are stored in one transaction (jobs.addResults, the dig's
// results of one turn of the event loop): the book must come out as if each had been given
// back alone, in the same order. Two copies of one book dig the same schedule, one giving the
// results back one at a time, the other in batches; every selection, every stored row and the
// graph must agree.
import path from "node:path";
import { copyFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OpenBook, type Job } from "./open-book.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { rng } from "../../shared/util/rng.js";

/** A made-up engine answer, the same for a position every time: up to 6 legal moves, values from its SFEN. */
function candidatesOf(job: Job) {
  let h = 0;
  for (let i = 0; i < job.sfen.length; i++) h = (Math.imul(h, 31) + job.sfen.charCodeAt(i)) | 0;
  const best = (h % 301) - 150;
  return Position.fromSfen(job.sfen)
    .legalMoves()
    .slice(0, 6)
    .map((m, k) => ({ move: moveToUsi(m), value: best - 35 * k, depth: 10, pv: [moveToUsi(m)] }));
}
const engine = { kind: "engine", engine: "test", nodes: 1, depth: 10, timeMs: 1 } as const;

/**
 * Digs `book`: 16 in flight, the oldest results given back `sizes()` at a time, each followed
 * by as many selections. Returns the positions handed out, in order.
 */
function dig(book: OpenBook, results: number, batched: boolean, sizes: () => number): string[] {
  const handed: string[] = [];
  const flying: Job[] = [];
  const take = () => {
    const job = book.jobs.next();
    if (!job) return false;
    flying.push(job);
    handed.push(job.sfen);
    return true;
  };
  while (flying.length < 16 && take());
  for (let given = 0; given < results && flying.length > 0;) {
    const done = flying.splice(0, Math.min(sizes(), flying.length));
    const list = done.map((job) => ({ job, candidates: candidatesOf(job), provenance: engine }));
    if (batched) book.jobs.addResults(list);
    else for (const r of list) book.jobs.addResult(r.job, r.candidates, r.provenance);
    for (let k = 0; k < done.length; k++) take();
    given += done.length;
  }
  return handed;
}

/** What the store holds of the thought positions, in insertion order, without the times. */
function rows(book: OpenBook): string[] {
  return [...book.store.thoughts.iterate()].map((t) => `${t.sfen} ${t.candidates.map((c) => `${c.move}:${c.value}`).join(",")}`);
}

describe("results stored together", () => {
  it.each([
    ["an empty book", 0],
    ["a dig-shaped book", 20_000],
  ])("leave %s as the same results given back one at a time do, in the same order", (_, positions) => {
    const dir = tempDir("horu-batch-");
    const a = path.join(dir, "a.horu"),
      b = path.join(dir, "b.horu");
    if (positions > 0) writeDigShapedBook(a, positions, { snapshot: false });
    else OpenBook.create(a).close();
    copyFileSync(a, b);
    const one = OpenBook.open(a),
      many = OpenBook.open(b);
    try {
      // The same schedule of batch sizes (1 to 16) for both: only how they are stored differs.
      const r1 = rng(43),
        r2 = rng(43);
      const handedOne = dig(one, 600, false, () => 1 + Math.floor(r1() * 16));
      const handedMany = dig(many, 600, true, () => 1 + Math.floor(r2() * 16));
      expect(handedMany).toEqual(handedOne);
      expect(many.store.thoughts.count()).toBe(one.store.thoughts.count());
      expect(rows(many)).toEqual(rows(one));
      expect(many.graph.nodeCount).toBe(one.graph.nodeCount);
      expect(many.jobs.inFlight.map((j) => j.sfen)).toEqual(one.jobs.inFlight.map((j) => j.sfen));
    } finally {
      one.close();
      many.close();
    }
  });

  it("stores none of a batch when one of them cannot be stored, and keeps them all in flight", () => {
    const file = path.join(tempDir("horu-batch-"), "c.horu");
    OpenBook.create(file).close();
    const book = OpenBook.open(file);
    try {
      const root = book.jobs.next()!;
      book.jobs.addResult(root, candidatesOf(root), engine);
      const jobs = [book.jobs.next()!, book.jobs.next()!];
      const count = book.store.thoughts.count();
      // The second one's SFEN under the first one's key: a key collision, which rolls the transaction back.
      const bad = { ...jobs[1]!, keyHi: jobs[0]!.keyHi, keyLo: jobs[0]!.keyLo };
      expect(() =>
        book.jobs.addResults([
          { job: jobs[0]!, candidates: candidatesOf(jobs[0]!), provenance: engine },
          { job: bad, candidates: candidatesOf(bad), provenance: engine },
        ]),
      ).toThrow();
      expect(book.store.thoughts.count()).toBe(count);
      expect(book.jobs.flyingCount).toBe(2);
    } finally {
      book.close();
    }
  });
});
