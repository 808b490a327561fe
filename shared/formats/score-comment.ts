// An engine's score in a game record's move comment, written as the shogi GUIs write and read
// it: from Black's side (先手から見た値), whichever side moved. horu's match records used to write
// the mover's own score ("評価値 (score) 30" after a White move meant White was ahead), which
// a reader takes for Black's: the sign was wrong on every White move.
//
// - CSA: Floodgate's analysis line `'** 30` (ShogiGUI and Shogidokoro write it so, ShogiHome
//   reads it as the player's score); the comment keeps it as "* 30", tsshogi writes the `'*`.
// - KIF: ShogiHome's player score line `**評価値=30`; the comment keeps it as "*評価値=30",
//   tsshogi writes the `*`.
// - Both: a line that says it in words, "評価値 +30 先手から見た値 (score, Black's view)", which
//   ShogiGUI/Kifu for Windows style readers (and horu's record pane) take as the same value.

import { signedValue } from "../util/signed.js";

export type ScoreRecordFormat = "csa" | "kif";

/**
 * The comment lines for a move's score: `score` in centipawns from the mover's own view (mate
 * as +-(32000 - n), as the engine's search gave it), `mover` the side that made the move.
 */
export function scoreCommentLines(format: ScoreRecordFormat, score: number, mover: "black" | "white"): string[] {
  const black = mover === "black" ? score : -score;
  // -0 would be written "0" anyway; keep the number plain.
  const value = black === 0 ? 0 : Math.round(black);
  const machine = format === "csa" ? `* ${value}` : `*評価値=${value}`;
  return [machine, `評価値 ${signedValue(value)} 先手から見た値 (score, Black's view)`];
}
