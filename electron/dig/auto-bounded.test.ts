// `--multipv auto-bounded` through a real dig (issue 41): the book stores the full search's
// lines as auto does, and every move only the widening search found sits below the lowest of
// them. At 100,000 nodes an unbounded start position lists shallow moves above its 4th line
// (engine.test.ts), which is why the setting exists.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { Dig } from "./dig.js";
import { BookStore } from "../store/book-store.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { missing } from "../testing/missing.js";

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`auto-bounded thinks in a dig (${NO_ENGINE})`, () => {
  it("stores the full search's lines first and the widened moves below them", { timeout: 300_000 }, async () => {
    const file = path.join(tempDir(), "bounded.horu");
    const book = OpenBook.create(file, { limit: { nodes: 100_000 }, multipv: "auto-bounded" });
    const summary = await new Dig(book, {
      engines: [{ command: FAIRY, name: "fairy#1", options: { Threads: 1, Hash: 16 } }],
      positions: 1,
    }).run();
    expect(summary.searches).toBe(2); // the start position's 4th line is within the window: it widened
    book.close();
    const store = BookStore.open(file, { readonly: true });
    try {
      const moves = store.thoughts.get(Position.startpos().sfenKey())!.candidates;
      const deepest = Math.max(...moves.map((c) => c.depth));
      const full = moves.filter((c) => c.depth === deepest);
      const widened = moves.filter((c) => c.depth < deepest);
      expect(full.length).toBeGreaterThanOrEqual(4);
      expect(widened.length).toBeGreaterThan(10);
      // Stored best first: the full lines lead, each widened move below the lowest of them.
      expect(moves.slice(0, full.length).every((c) => c.depth === deepest)).toBe(true);
      for (const c of widened) expect(c.value).toBeLessThan(Math.min(...full.map((f) => f.value)));
    } finally {
      store.close();
    }
  });
});
