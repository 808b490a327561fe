// A horu book written as a YaneuraOu DB2016 file whose best move in each position is the one
// a move-choice rule picks (shared/book/quality.ts: "minimax" is the Peta-Shock export's own
// choice, "robust:CP" the engine's own best unless the minimax beats it by more than CP).
// The chosen move comes first and carries the position's best minimax value, so a player or
// an engine that plays a book's best move plays it; the other moves keep their minimax values.
import { writeFileSync } from "node:fs";
import { db2016BlockText, db2016HeaderLines, sortIdsBySfen } from "../../shared/formats/db2016.js";
import { chosenFirst, type MoveChoice } from "../../shared/book/quality.js";
import { loadQualityBook } from "./quality.js";

export interface ChoiceBlock {
  sfen: string;
  moves: { move: string; value: number }[];
}

/** The blocks of the file: per position, the chosen move first with the best value, then the rest best first. */
export function choiceBlocks(
  positions: Iterable<{ sfen: string; book: readonly { move: string; value: number }[]; raw: readonly { move: string; value: number }[] }>,
  choice: MoveChoice,
): ChoiceBlock[] {
  const out: ChoiceBlock[] = [];
  for (const p of positions) {
    const moves = chosenFirst(p.book, p.raw[0]?.move, choice);
    if (moves.length > 0) out.push({ sfen: p.sfen, moves: moves.map((m) => ({ move: m.move, value: m.value })) });
  }
  return out;
}

/** Writes the book at `file` (a horu book) as a DB2016 file at `out` with `choice`'s moves first; returns the positions written. */
export function exportWithChoice(file: string, out: string, choice: MoveChoice): number {
  const b = loadQualityBook(file);
  const positions = b.order.map((t) => ({ sfen: t.sfen, ...b.q.lookup(t.sfen)! }));
  const blocks = choiceBlocks(positions, choice);
  const ids = blocks.map((_, i) => i);
  sortIdsBySfen(ids, (i) => blocks[i]!.sfen);
  const parts = [db2016HeaderLines(blocks.length).join("\n") + "\n"];
  for (const i of ids) {
    const bl = blocks[i]!;
    parts.push(db2016BlockText({ sfen: bl.sfen, moves: bl.moves.map((m) => ({ move: m.move, value: m.value, depth: 0 })) }));
  }
  writeFileSync(out, parts.join(""));
  return blocks.length;
}
