import { describe, expect, it } from "vitest";
import type { Candidate } from "../book/records.js";
import { mergeDeepBest } from "./deep-best.js";

const c = (move: string, value: number, depth = 5): Candidate => ({ move, value, depth, pv: [move] });

describe("mergeDeepBest", () => {
  it("keeps the one-line search's move first and caps the shallower values one below it", () => {
    const got = mergeDeepBest(c("7g7f", 40, 11), [c("2g2f", 90), c("7g7f", 70), c("5g5f", 10), c("1g1f", -400)], 300);
    expect(got.map((x) => [x.move, x.value, x.depth])).toEqual([
      ["7g7f", 40, 11],
      ["2g2f", 39, 5],
      ["5g5f", 10, 5],
    ]);
  });

  it("leaves a shallower mate score as it is (a proof); the window then runs from the mate", () => {
    const got = mergeDeepBest(c("7g7f", 500, 11), [c("G*5b", 31999, 1), c("2g2f", 150)], 300);
    expect(got.map((x) => [x.move, x.value])).toEqual([["G*5b", 31999]]);
  });

  it("a losing lead caps every other move below it", () => {
    const got = mergeDeepBest(c("7g7f", -31990, 9), [c("2g2f", -200)], 64000);
    expect(got.map((x) => [x.move, x.value])).toEqual([
      ["7g7f", -31990],
      ["2g2f", -31991],
    ]);
  });
});
