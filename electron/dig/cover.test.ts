// Super Tera-Shock with where games leave the book first (`--cover N`), in a real dig
// (fairy-stockfish): with one engine and nothing selected ahead, each position it thinks is
// the likeliest place the book's games leave it, worked out again over the book as stored
// just before (the export's minimax, shared/book/cover.ts), while there is one reached by
// 1 game in N; Super Tera-Shock selection otherwise.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { BookStore, type StoredThought } from "../store/book-store.js";
import { NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { digInOrder, expectRefused } from "../testing/dig-in-order.js";
import { missing } from "../testing/missing.js";
import { coverLeaves, DEFAULT_COVER } from "../../shared/book/cover.js";
import { bookChoice, type QPosition } from "../../shared/book/quality.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { compareSfenBytes } from "../../shared/formats/db2016.js";
import { Position } from "../../shared/rules/position.js";

const ONE_IN = 4;

/** The book of `thoughts` by the export's minimax (in byte order, as the export reads a book). */
function bookOf(thoughts: readonly StoredThought[]): Map<string, QPosition> {
  const ex = new PetaShockExporter({ drawBlack: 0, drawWhite: 0 });
  // In byte order, as the export reads a book (docs/DESIGN.md §5.1).
  for (const t of [...thoughts].sort((a, b) => compareSfenBytes(a.sfen, b.sfen)))
    ex.add({ sfen: t.sfen, moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })) });
  ex.run();
  const raw = new Map(thoughts.map((t) => [t.sfen, t.candidates.map((c) => ({ move: c.move, value: c.value }))]));
  const book = new Map<string, QPosition>();
  for (const b of ex.blocks("sfen")) book.set(b.sfen, { book: b.moves, raw: raw.get(b.sfen) ?? [] });
  return book;
}

/** Where the book of `thoughts` leaves its games, likeliest first. */
function leavesOf(thoughts: readonly StoredThought[]): string[] {
  const book = bookOf(thoughts);
  const root = Position.startpos();
  return coverLeaves({ rootSfen: root.sfenKey(), lookup: (k) => book.get(k) }, root, { ...DEFAULT_COVER, minReach: 1 / ONE_IN }).map((l) =>
    l.position.sfenKey(),
  );
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`tera-shock covering where games leave the book (${NO_ENGINE})`, () => {
  it("thinks the likeliest position out of the book first, then selects", { timeout: 240_000 }, () => {
    const file = path.join(tempDir(), "cover.horu");
    // One engine and no positions selected ahead: each hand-out sees every result before it.
    // No settle rounds (a new book's default): the cover list alone, over the minimax's moves.
    const out = digInOrder(file, ["--cover", String(ONE_IN), "--settle", "0", "--positions", "40"]);
    expect(out).toMatch(/positions thought: 40 \(failed 0\)/);
    const store = BookStore.open(file, { readonly: true });
    const thought: StoredThought[] = [...store.thoughts.iterate()];
    const settings = store.settings.all();
    store.close();
    expect(settings.coverOneIn).toBe(ONE_IN);

    let covered = 0,
      selected = 0;
    for (let i = 1; i < thought.length; i++) {
      const leaves = leavesOf(thought.slice(0, i));
      if (leaves.length === 0) {
        selected++;
        continue;
      }
      expect(thought[i]!.sfen, `position ${i}: the likeliest out of the book`).toBe(leaves[0]);
      covered++;
    }
    expect(covered).toBeGreaterThan(5);
    expect(selected).toBeGreaterThan(0); // rarer positions were left to selection
  });

  it("shows the book's value and best line while it covers, not the line to the position handed out", { timeout: 240_000 }, () => {
    const file = path.join(tempDir(), "cover-pv.horu");
    // Reached by 1 game in 1,000: the list does not run dry in 20 positions, so every one is covered.
    const out = digInOrder(file, ["--cover", "1000", "--settle", "0", "--positions", "20"]);
    const shown = /stopped: .*, root ([+-]?\d+) for Black pv ([^,]*)/.exec(out);
    expect(shown, out).not.toBeNull();
    const store = BookStore.open(file, { readonly: true });
    const thought: StoredThought[] = [...store.thoughts.iterate()];
    store.close();
    // The last position went out over the book of the 19 before it.
    const book = bookOf(thought.slice(0, 19));
    const pos = Position.startpos();
    const line: string[] = [];
    for (let p = book.get(pos.sfenKey()); p && line.length < 8; p = book.get(pos.sfenKey())) {
      const best = bookChoice(p)!;
      line.push(best.move);
      pos.doMove(parseUsiMove(best.move)!);
    }
    expect(Number(shown![1])).toBe(bookChoice(book.get(Position.startpos().sfenKey())!)!.value);
    expect(shown![2]!.replace(" ...", "").trim().split(" ")).toEqual(line);
  });

  it("refuses a --cover out of its range, naming it, and creates no book", () => {
    expectRefused([
      ["--cover=-1", /--cover must be a whole number >= 0, not '-1'/],
      ["--cover=1000001", /--cover must be at most 1000000, not '1000001'/],
    ]);
  });
});
