// A move's score in a record comment is Black's (先手から見た値), as ShogiGUI, Shogidokoro and
// ShogiHome write and read it; horu wrote the mover's own score, so a White move's sign was wrong.
import { describe, expect, it } from "vitest";
import { scoreCommentLines } from "./score-comment.js";

describe("a move's score in a record comment", () => {
  it("is from Black's side whoever moved: Floodgate's line in CSA, ShogiHome's in KIF, and in words", () => {
    expect(scoreCommentLines("csa", 120, "black")).toEqual(["* 120", "評価値 +120 先手から見た値 (score, Black's view)"]);
    // White's engine says White is 120 ahead: Black is 120 behind.
    expect(scoreCommentLines("csa", 120, "white")).toEqual(["* -120", "評価値 -120 先手から見た値 (score, Black's view)"]);
    expect(scoreCommentLines("kif", -45, "white")).toEqual(["*評価値=45", "評価値 +45 先手から見た値 (score, Black's view)"]);
    expect(scoreCommentLines("kif", 0, "white")).toEqual(["*評価値=0", "評価値 0 先手から見た値 (score, Black's view)"]);
    // A mate (32000 - n from the mover's side) keeps its size.
    expect(scoreCommentLines("csa", 31995, "white")[0]).toBe("* -31995");
  });
});
