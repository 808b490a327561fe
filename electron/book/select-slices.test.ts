// A selection in slices (the dig's 10 ms, a view's 20 ms) on a dig-shaped book: the first
// search of a book it has no bounds for runs out of time again and again, and each slice
// takes up the line where the last one ran out, in the order it had (what that saves is a
// benchmark's figure: `horu bench scale`'s first selection).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OpenBook } from "./open-book.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { tempDir } from "../testing/paths.js";
import { Selector, type Selection, type Unfinished } from "../../shared/book/select.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import type { Job } from "./open-book.js";

function candidatesOf(job: Job) {
  return Position.fromSfen(job.sfen)
    .legalMoves()
    .slice(0, 4)
    .map((m, k) => ({ move: moveToUsi(m), value: 30 - 20 * k, depth: 10, pv: [moveToUsi(m)] }));
}
const engine = { kind: "engine", engine: "test", nodes: 1, depth: 10, timeMs: 1 } as const;

/** A 40k-position dig-shaped book (made-up values), open for `use`: its first search takes some 11k nodes. */
function withBook(use: (book: OpenBook) => void): void {
  const file = path.join(tempDir("horu-slices-"), "book.horu");
  writeDigShapedBook(file, 40_000, { snapshot: false });
  const book = OpenBook.open(file);
  try {
    use(book);
  } finally {
    book.close();
  }
}

describe("a selection in slices on a dig-shaped book", () => {
  it("answers as one search does", () => {
    withBook((book) => {
      const whole = new Selector(book.graph);
      const once = whole.select(book.rootNode);
      const sliced = new Selector(book.graph);
      let slices = 0,
        s: Selection | Unfinished;
      do {
        s = sliced.select(book.rootNode, 0); // about 1,024 nodes a slice
        slices++;
      } while (s.kind === "unfinished" && slices < 100_000);
      const answer = (x: Selection | Unfinished) =>
        JSON.stringify(x.kind === "leaf" ? { value: x.rootValue, line: x.line, leaf: x.leaf } : x.kind);
      expect(answer(s)).toBe(answer(once));
      expect(slices).toBeGreaterThan(5);
      whole.close();
      sliced.close();
    });
  });

  it("takes a result that comes during a selection into the graph when the selection ends, stored at once", () => {
    withBook((book) => {
      const first = book.jobs.next();
      if (!first) throw new Error("nothing to select");
      // A new setting the search reads: the next selection starts from no bounds, in slices.
      book.updateSettings({ kifuBonus: 150 });
      expect(book.jobs.nextWithin(0)).toBe("later");
      book.jobs.addResult(first, candidatesOf(first), engine);
      // Stored (durable), but the graph keeps it in flight while the selection goes on.
      expect(book.store.thoughts.has(first.sfen)).toBe(true);
      expect(book.graph.find(first.keyHi, first.keyLo)).toBe(-1);
      expect(book.graph.isInFlight(first.keyHi, first.keyLo)).toBe(true);
      let next: ReturnType<OpenBook["jobs"]["nextWithin"]>;
      let slices = 1;
      do {
        next = book.jobs.nextWithin(0);
        slices++;
      } while (next === "later" && slices < 100_000);
      expect(slices).toBeGreaterThan(2);
      // The selection ended: the result is in, and the leaf handed out is another position.
      expect(book.graph.find(first.keyHi, first.keyLo)).toBeGreaterThanOrEqual(0);
      expect(book.graph.isInFlight(first.keyHi, first.keyLo)).toBe(false);
      expect(next && next !== "later" ? next.sfen : null).not.toBe(first.sfen);

      // A dig that stops during a selection takes its results in at once (Dig.settle), and a close does too.
      if (!next || next === "later") throw new Error("no second job");
      book.updateSettings({ kifuBonus: 120 });
      expect(book.jobs.nextWithin(0)).toBe("later");
      book.jobs.addResult(next, candidatesOf(next), engine);
      expect(book.graph.find(next.keyHi, next.keyLo)).toBe(-1);
      book.jobs.takeResults();
      expect(book.graph.find(next.keyHi, next.keyLo)).toBeGreaterThanOrEqual(0);
    });
  });
});
