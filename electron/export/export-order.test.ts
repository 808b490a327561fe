// A dug book stores positions in the order they were thought, not in SFEN order. The export's
// minimax must not depend on that order: where a position and its mirror twin are both in the
// book, moves into either lead to the last of them in byte order (docs/DESIGN.md §5.1 steps 1
// and the paragraph after 9, as YaneuraOu's peta_shock reads its sorted file). The export, the
// match player's reading of a horu book and the quality report must agree.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { exportFromStore } from "./export.js";
import { readBookFile } from "../formats/book-files.js";
import { loadQualityBook } from "../book/quality.js";
import { parseDb2016 } from "../../shared/formats/db2016.js";
import { Position } from "../../shared/rules/position.js";
import { tempDir } from "../testing/paths.js";

// From a real dig (cover + deep best, fairy-stockfish at 10,000 nodes), in the order it thought
// them. P2 is P3 turned half a circle with the colours exchanged: 4i5h 3c3d 5h4h reaches the
// mirror of 7g7f 6a6b. The engine valued them differently (-51 and +178 for the side to move).
const P1 = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B2G2R1/LNSGK1SNL b - 1";
const P2 = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B3G1R1/LNSGK1SNL w - 1";
const P3 = "lns1kgsnl/1r1g3b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1";
const thinks: Array<[string, Array<[string, number]>]> = [
  [
    P1,
    [
      ["7g7f", 150],
      ["7i7h", 149],
      ["5h4h", 131],
      ["4g4f", 126],
    ],
  ],
  [
    P2,
    [
      ["5a4b", -51],
      ["8b5b", -72],
      ["5c5d", -80],
    ],
  ],
  [
    P3,
    [
      ["2h7h", 178],
      ["2h6h", 177],
      ["7i7h", 177],
    ],
  ],
];

describe("the export's minimax and the order a book was dug in", () => {
  it("follows a move into a position that has a twin to the last of them in byte order, whatever order they were stored in", async () => {
    const dir = tempDir();
    const file = path.join(dir, "twins.horu");
    const store = BookStore.create(file, { writer: "horu test" });
    for (const [sfen, moves] of thinks) {
      const pos = Position.fromSfen(sfen);
      store.thoughts.add({
        sfen: pos.sfenKey(),
        keyHi: pos.keyHi,
        keyLo: pos.keyLo,
        candidates: moves.map(([move, value]) => ({ move, value, depth: 10, pv: [move] })),
        provenance: { kind: "import", file: "t" },
        thoughtAt: Date.now(),
      });
    }
    // Stored P1, P2, P3; in byte order P3 ("lns1...") comes before P2 ("lnsg..."), so P2 owns both keys.
    expect(P3 < P2).toBe(true);
    const out = path.join(dir, "twins.db");
    await exportFromStore(store, { path: out, format: "db", mode: "minimax" }, null);
    store.close();
    const exported = parseDb2016(readFileSync(out, "utf8")).blocks;
    const key = (s: string) => Position.fromSfen(s).sfenKey();
    const moveOf = (
      blocks: ReadonlyArray<{ sfen: string; moves: ReadonlyArray<{ move: string; value: number | null }> }>,
      sfen: string,
      move: string,
    ) => blocks.find((b) => b.sfen === key(sfen))!.moves.find((m) => m.move === move)!.value;
    // 5h4h leads to P2 itself: its best for white is -51, so +51 for black.
    expect(moveOf(exported, P1, "5h4h")).toBe(51);
    // The match player's reading of the horu book agrees, and so does the quality report's minimax.
    expect(moveOf(readBookFile(file), P1, "5h4h")).toBe(51);
    expect(
      loadQualityBook(file)
        .q.lookup(key(P1))!
        .book.find((m) => m.move === "5h4h")!.value,
    ).toBe(51);
  });
});
