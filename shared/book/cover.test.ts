import { describe, expect, it } from "vitest";
import { Position } from "../rules/position.js";
import { coverLeaves, DEFAULT_COVER } from "./cover.js";
import type { QBook, QPosition } from "./quality.js";
import { handBook, key } from "../testing/played-book.js";

const pos = (moves: string): Position => Position.fromUsi(`startpos${moves ? ` moves ${moves}` : ""}`);
const bookOf = (entries: Array<[string, QPosition]>): QBook => {
  const m = new Map(entries.map(([moves, p]) => [key(moves), p]));
  return { rootSfen: key(""), lookup: (k) => m.get(k) };
};

/**
 * The quality tests' hand-made book (shared/testing/played-book.ts). As black the book plays
 * 2g2f (its minimax best, though its engine prefers 7g7f); white's likely replies are 8c8d and
 * 3c3d (4a3b is 110 cp worse, outside the 50 cp window), each half of its games as black.
 * After 8c8d the book plays 2f2e, after 3c3d 7g7f: positions it lacks. As white, black's likely
 * moves are 7g7f (lacked) and 2g2f, where the book answers 8c8d and black's one reply 2f2e
 * reaches the same lacked position as before.
 */
const hand = handBook();

const summary = (leaves: ReturnType<typeof coverLeaves>) => leaves.map((l) => [l.line.join(" "), l.ply, l.reach]);

describe("coverLeaves", () => {
  it("lists where games leave the book, likeliest first, their chances summed over both sides and every way", () => {
    const leaves = coverLeaves(hand, pos(""), { ...DEFAULT_COVER, minReach: 0.01 });
    expect(summary(leaves)).toEqual([
      ["2g2f 8c8d 2f2e", 3, 0.5],
      ["7g7f", 1, 0.25],
      ["2g2f 3c3d 7g7f", 3, 0.25],
    ]);
    expect(leaves[0]!.position.sfenKey()).toBe(key("2g2f 8c8d 2f2e"));
    expect(leaves[0]!.parent!.sfenKey()).toBe(key("2g2f 8c8d")); // the book's position it is a move of
    expect(leaves[1]!.parent!.sfenKey()).toBe(key(""));
  });

  it("leaves out the rarer positions and those past the ply limit", () => {
    expect(summary(coverLeaves(hand, pos(""), { ...DEFAULT_COVER, minReach: 0.3 }))).toEqual([["2g2f 8c8d 2f2e", 3, 0.5]]);
    expect(summary(coverLeaves(hand, pos(""), { ...DEFAULT_COVER, minReach: 0.01, maxPly: 2 }))).toEqual([["7g7f", 1, 0.25]]);
  });

  it("follows no move valued beyond the eval limit", () => {
    // As black the book's 2g2f (+50) is past a limit of 45: only white's games are followed.
    expect(summary(coverLeaves(hand, pos(""), { ...DEFAULT_COVER, minReach: 0.01, evalLimit: 45 }))).toEqual([
      ["7g7f", 1, 0.25],
      ["2g2f 8c8d 2f2e", 3, 0.25],
    ]);
  });

  it("follows the book's minimax move, not its engine's best, and only replies within the window", () => {
    // As black the book never plays 7g7f here, so nothing after it is asked for as black's line.
    const wide = coverLeaves(hand, pos(""), { ...DEFAULT_COVER, minReach: 0.01, replyWindowCp: 200 });
    expect(summary(wide)).toContainEqual(["2g2f 4a3b", 2, 1 / 6]);
    expect(wide.some((l) => l.line[0] === "7g7f" && l.line.length > 1)).toBe(false);
  });

  it("ends when the book's lines go round a cycle", () => {
    // Kings stepping out and back: the book holds every position on the way, with one reply each.
    const cyc: Array<[string, QPosition]> = [
      ["", { book: [{ move: "5i5h", value: 0 }], raw: [{ move: "5i5h", value: 0 }] }],
      ["5i5h", { book: [{ move: "5a5b", value: 0 }], raw: [{ move: "5a5b", value: 0 }] }],
      ["5i5h 5a5b", { book: [{ move: "5h5i", value: 0 }], raw: [{ move: "5h5i", value: 0 }] }],
      ["5i5h 5a5b 5h5i", { book: [{ move: "5b5a", value: 0 }], raw: [{ move: "5b5a", value: 0 }] }],
    ];
    expect(coverLeaves(bookOf(cyc), pos(""), { ...DEFAULT_COVER, minReach: 0.01 })).toEqual([]);
  });
});
