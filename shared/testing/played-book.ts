// A hand-made book whose answers are known, for the tests of what a book plays into
// (shared/book/quality.ts) and where its games leave it (shared/book/cover.ts).
import { Position } from "../rules/position.js";
import type { QBook, QPosition } from "../book/quality.js";

/** The SFEN key of the start position after `moves` (USI, space-separated). */
export const key = (moves: string): string => Position.fromUsi(`startpos${moves ? ` moves ${moves}` : ""}`).sfenKey();

/**
 * A hand-made book whose answers are known. Black's book plays 2g2f (its minimax best) where
 * the engine alone plays 7g7f; white's likely replies to 2g2f are 8c8d and 3c3d (4a3b is
 * 110 cp worse, outside the 50 cp window); after 2g2f 8c8d the book plays 2f2e, after
 * 2g2f 3c3d it plays 7g7f (the engine alone: 2f2e).
 */
export function handBook(): QBook {
  const m = new Map<string, QPosition>([
    [
      key(""),
      {
        book: [
          { move: "2g2f", value: 50 },
          { move: "7g7f", value: 40 },
        ],
        raw: [
          { move: "7g7f", value: 30 },
          { move: "2g2f", value: 20 },
          { move: "5g5f", value: -100 },
        ],
      },
    ],
    [
      key("2g2f"),
      {
        book: [
          { move: "8c8d", value: -45 },
          { move: "3c3d", value: -50 },
        ],
        raw: [
          { move: "8c8d", value: 10 },
          { move: "3c3d", value: 0 },
          { move: "4a3b", value: -100 },
        ],
      },
    ],
    [key("2g2f 8c8d"), { book: [{ move: "2f2e", value: 45 }], raw: [{ move: "2f2e", value: 45 }] }],
    [
      key("2g2f 3c3d"),
      {
        book: [
          { move: "7g7f", value: 60 },
          { move: "2f2e", value: 10 },
        ],
        raw: [
          { move: "2f2e", value: 30 },
          { move: "7g7f", value: 20 },
        ],
      },
    ],
  ]);
  return { rootSfen: key(""), lookup: (k) => m.get(k) };
}
