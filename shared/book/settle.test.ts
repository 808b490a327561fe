import { describe, expect, it } from "vitest";
import { DEFAULT_SETTLE, SETTLED_CHOICE, playChoice, settleDue, settleFits, settleRound } from "./settle.js";
import { MINIMAX, bookChoice } from "./quality.js";
import type { PlayedPosition } from "./quality.js";

const p = (sfen: string, ply: number, reach: number): PlayedPosition => ({
  sfen,
  ply,
  side: 0,
  reach,
  bookMove: "7g7f",
  bookValue: 0,
  thinkMove: "7g7f",
  thinkValue: 0,
  engineMove: "7g7f",
  engineValue: 0,
});

describe("the settle dig's rounds", () => {
  it("thinks again the likeliest played positions not yet thought deep", () => {
    const played = [p("a", 2, 0.25), p("b", 0, 1), p("c", 2, 0.5), p("d", 1, 0.5), p("e", 3, 0.1)];
    const nodes: Record<string, number> = { a: 10_000, b: 80_000, c: 10_500, d: 9_000 };
    // b is deep already (80k >= 8 x 10k / 2), e is not thought; d before c (same chance, nearer the root).
    expect(settleRound(played, (s) => nodes[s], 10_000, { factor: 8, every: 400, perRound: 2, maxPositions: 1000 })).toEqual(["d", "c"]);
    expect(settleRound(played, (s) => nodes[s], 10_000)).toEqual(["d", "c", "a"]);
  });

  it("is due every so many ordinary positions", () => {
    expect(settleDue(199)).toBe(false);
    expect(settleDue(200)).toBe(true);
  });

  it("stops on a book bigger than its rounds' size", () => {
    expect(settleFits(250_000)).toBe(true);
    expect(settleFits(250_001)).toBe(false);
    expect(settleFits(11, { ...DEFAULT_SETTLE, maxPositions: 10 })).toBe(false);
  });
});

describe("a settled book's move", () => {
  const p = (imported: boolean) => ({
    // The engine's own best 7g7f is 40 cp below the minimax's 2g2f: within the margin.
    book: [
      { move: "2g2f", value: 60 },
      { move: "7g7f", value: 20 },
    ],
    raw: [
      { move: "7g7f", value: 20 },
      { move: "2g2f", value: 10 },
    ],
    ...(imported ? { imported: true } : {}),
  });

  it("is its engine's own best within the margin, the minimax's at an imported position", () => {
    expect(bookChoice(p(false), SETTLED_CHOICE)?.move).toBe("7g7f");
    expect(bookChoice(p(true), SETTLED_CHOICE)?.move).toBe("2g2f");
  });

  it("is the minimax's in a breadth-first or unsettled book", () => {
    expect(playChoice({ settleFactor: 8, policy: "tera-shock" })).toEqual(SETTLED_CHOICE);
    expect(playChoice({ settleFactor: 8, policy: "breadth-first" })).toEqual(MINIMAX);
    expect(playChoice({ settleFactor: 0, policy: "tera-shock" })).toEqual(MINIMAX);
  });
});
