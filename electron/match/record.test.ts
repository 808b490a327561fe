// How a match game's ending is worded: both languages in the records (read by Japanese GUIs),
// English alone on the command line (its progress line mixed them).
import { describe, expect, it } from "vitest";
import { reasonEnglish, reasonText } from "./record.js";
import { END_REASONS } from "../../shared/match/game.js";

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
