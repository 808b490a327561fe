// How a match game's ending is worded: both languages in the records (read by Japanese GUIs),
// English alone on the command line (its progress line mixed them).
import { describe, expect, it } from "vitest";
import { importCSA } from "tsshogi";
import { BOOK_MARK, gameRecord, reasonEnglish, reasonText } from "./record.js";
import { END_REASONS, Game } from "../../shared/match/game.js";

describe("a game's ending in words", () => {
  it("is English alone for the command line, and both languages in records", () => {
    for (const r of END_REASONS) {
      expect(reasonEnglish(r)).toMatch(/^[a-z0-9 -]+$/);
      expect(reasonText(r)).toContain(`(${reasonEnglish(r)})`);
      expect(reasonText(r)).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    expect(reasonEnglish("max-moves")).toBe("move cap");
  });
});

describe("a match record's scores", () => {
  // 7g7f by Black, whose engine says +50 for itself; 3c3d by White, whose engine says +200 for itself.
  const game = new Game({ sfen: "startpos", moves: [] });
  game.play({ usi: "7g7f", book: false, score: 50, timeMs: 1000 });
  game.play({ usi: "3c3d", book: false, score: 200, timeMs: 1000 });
  game.play({ usi: "2g2f", book: true, timeMs: 0 });
  const result = game.forfeit("resign");
  const names = { black: "A", white: "B", title: "t" };

  it("CSA: Floodgate's `'** N` line from Black's side (a White move's own +200 is -200), and the words", () => {
    const csa = gameRecord(game, result, { ...names, format: "csa" });
    const after = (move: string) => csa.split("\n").slice(csa.split("\n").indexOf(move) + 1);
    expect(after("+7776FU").slice(1, 3)).toEqual(["'** 50", "'*評価値 +50 先手から見た値 (score, Black's view)"]);
    expect(after("-3334FU").slice(1, 3)).toEqual(["'** -200", "'*評価値 -200 先手から見た値 (score, Black's view)"]);
    expect(after("+2726FU")[1]).toBe(`'*${BOOK_MARK}`);
    // Read back by tsshogi, the move keeps its lines.
    const rec = importCSA(csa);
    if (rec instanceof Error) throw rec;
    rec.goto(2);
    expect(rec.current.comment.split("\n")[0]).toBe("* -200");
  });

  it("KIF: ShogiHome's `**評価値=N` from Black's side, and the words", () => {
    const kif = gameRecord(game, result, { ...names, format: "kif" });
    expect(kif).toContain("**評価値=50\n*評価値 +50 先手から見た値 (score, Black's view)");
    expect(kif).toContain("**評価値=-200\n*評価値 -200 先手から見た値 (score, Black's view)");
    expect(kif).not.toMatch(/評価値 \(score\)/);
  });
});
