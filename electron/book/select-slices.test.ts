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

describe("a selection in slices on a dig-shaped book", () => {
  it("answers as one search does", () => {
    const dir = tempDir("horu-slices-");
    const file = path.join(dir, "book.horu");
    writeDigShapedBook(file, 40_000, { snapshot: false });
    const book = OpenBook.open(file);
    try {
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
    } finally {
      book.close();
    }
  });
});
