// The dig-shaped benchmark book with values "horu": each listed move carries horu's
// quiescence value of the position it leads to, from the side to move's view as an engine's
// MultiPV scores are stored, ranked best first; the selection reads the book the same way.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeDigShapedBook } from "./dig-shaped-book.js";
import { HoruMoveValues, fromChild } from "./horu-values.js";
import { BookStore, type StoredThought } from "../../store/book-store.js";
import { OpenBook } from "../../book/open-book.js";
import { Position } from "../../../shared/rules/position.js";
import { parseUsiMove } from "../../../shared/rules/usi.js";
import { Searcher } from "../../../shared/horu-engine/search.js";
import { TranspositionTable } from "../../../shared/horu-engine/tt.js";
import { mateIn, matedIn } from "../../../shared/rules/types.js";
import { tempDir } from "../../testing/paths.js";

// Black to move in both; in the first white has no bishop, in the second black has none.
const BLACK_BISHOP_UP = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const BLACK_BISHOP_DOWN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b - 1";

const dir = tempDir("horu-dig-shaped-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thoughts(file: string): StoredThought[] {
  const store = BookStore.open(file, { readonly: true });
  try {
    return [...store.thoughts.iterate()];
  } finally {
    store.close();
  }
}

describe("dig-shaped book with horu's values", () => {
  it("a bishop up is worth a bishop to the side ahead and minus one to the side behind, in the rows and in the book's value", () => {
    for (const [root, sign] of [
      [BLACK_BISHOP_UP, 1],
      [BLACK_BISHOP_DOWN, -1],
    ] as const) {
      const file = path.join(dir, `${sign > 0 ? "up" : "down"}.horu`);
      const made = writeDigShapedBook(file, 300, { values: "horu", root, snapshot: false });
      expect(made.positions).toBe(300);
      expect(made.evalNodes).toBeGreaterThan(made.edges - 1);
      const rows = thoughts(file);
      const [first, ...rest] = rows;
      expect(first!.sfen).toBe(Position.fromSfen(root).sfenKey());
      // The root's side to move (black) is ahead or behind by a bishop whatever it plays;
      // every position one move on (white to move) the other way round.
      for (const c of first!.candidates) expect(c.value * sign).toBeGreaterThan(500);
      const children = new Set(first!.candidates.map((c) => afterMove(root, c.move)));
      const atPly1 = rest.filter((t) => children.has(t.sfen));
      expect(atPly1.length).toBeGreaterThan(0);
      for (const t of atPly1) for (const c of t.candidates) expect(c.value * sign).toBeLessThan(-500);
      // The book (the selection's search over the graph) values the root the same way.
      const book = OpenBook.open(file, {}, { readonly: true });
      try {
        expect(book.bookValue()! * sign).toBeGreaterThan(500);
      } finally {
        book.close();
      }
    }
  });

  it("each listed move carries minus the child's quiescence value, ranked best first; the same moves and budget as the noise book", () => {
    const file = path.join(dir, "start.horu");
    const made = writeDigShapedBook(file, 2000, { values: "horu", snapshot: false });
    const noise = writeDigShapedBook(path.join(dir, "noise.horu"), 2000, { snapshot: false });
    expect(made.positions).toBe(2000);
    // Which moves are listed (4-8 each) does not depend on the values.
    expect(made.edges / made.positions).toBeGreaterThan(4);
    expect(made.edges / made.positions).toBeLessThan(8);
    expect(Math.abs(made.edges - noise.edges) / noise.edges).toBeLessThan(0.05);
    const searcher = new Searcher(new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(1))));
    const rows = thoughts(file);
    let differ = 0;
    for (const t of rows.slice(0, 200)) {
      const values = t.candidates.map((c) => c.value);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const pos = Position.fromSfen(t.sfen);
      for (const c of t.candidates) {
        pos.doMove(parseUsiMove(c.move)!);
        const q = searcher.quiescenceOnly(pos, 64);
        pos.undoMove();
        expect(c.value).toBe(fromChild(q));
        if (c.value !== values[0]) differ++;
      }
    }
    // Real values: siblings differ (the noise book's differ too, but not by horu's evaluation).
    expect(differ).toBeGreaterThan(100);
    // The start position's moves are close to even for horu.
    for (const c of rows[0]!.candidates) expect(Math.abs(c.value)).toBeLessThan(300);
  });

  it("mates are stored as an engine's: the mating move is mate in 1 (32000 - 1), a move into mate in 3 is mated in 4", () => {
    expect(fromChild(matedIn(0))).toBe(mateIn(1));
    expect(fromChild(mateIn(3))).toBe(matedIn(4));
    expect(fromChild(-120)).toBe(120);
    // G*5b, protected by the pawn on 5c, mates the lone king on 5a.
    const pos = Position.fromSfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    const before = pos.sfenKey();
    const values = new HoruMoveValues();
    expect(values.value(pos, parseUsiMove("G*5b")!)).toBe(32000 - 1);
    expect(pos.sfenKey()).toBe(before);
    expect(Math.abs(values.value(pos, parseUsiMove("G*9i")!))).toBeLessThan(31000);
  });
});

/** The SFEN key (no ply) of `root` after the USI move. */
function afterMove(root: string, usi: string): string {
  const pos = Position.fromSfen(root);
  pos.doMove(parseUsiMove(usi)!);
  return pos.sfenKey();
}
