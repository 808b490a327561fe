// `--multipv deep-best` through a real dig (issue 41): the root's best move is the one-line
// search's, searched deepest, every other move no higher than it, and the other moves' search
// covers the window as auto does (its widening pass at auto's share of the full limit: at a
// tenth of the quarter it searched at depth 1 and left moves such as 2g2f out of the book).
import { describe, expect, it } from "vitest";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { Dig } from "./dig.js";
import { BookStore } from "../store/book-store.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { missing } from "../testing/missing.js";

const fairy = (n: number) => ({ command: FAIRY, name: `fairy#${n}`, options: { Threads: 1, Hash: 16 } });

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`deep-best thinks in a dig (${NO_ENGINE})`, () => {
  it("stores the one-line best first and the window's other moves below it, as many as auto finds", { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const rootMoves = async (multipv: "auto" | "deep-best") => {
      const file = path.join(dir, `${multipv}.horu`);
      const book = OpenBook.create(file, { limit: { nodes: 10_000 }, multipv });
      const summary = await new Dig(book, { engines: [fairy(1)], positions: 1 }).run();
      expect(summary.searches).toBeGreaterThan(1);
      book.close();
      const store = BookStore.open(file, { readonly: true });
      try {
        return store.thoughts.get(Position.startpos().sfenKey())!.candidates;
      } finally {
        store.close();
      }
    };
    const deep = await rootMoves("deep-best");
    const auto = await rootMoves("auto");
    const [best, ...rest] = deep;
    for (const c of rest) {
      expect(c.value).toBeLessThan(best!.value);
      expect(c.depth).toBeLessThanOrEqual(best!.depth);
    }
    // The start position's window holds nearly every move for both (300 cp): the widening found them.
    expect(deep.length).toBeGreaterThanOrEqual(auto.length - 3);
    expect(deep.map((c) => c.move)).toContain("2g2f");
  });
});
