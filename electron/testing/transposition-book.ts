// A small crafted book with one transposition, for the tree's tests: 7g7f 3c3d 2g2f and
// 2g2f 3c3d 7g7f reach the same position, which is thought, so it has two thought parents.
import { OpenBook } from "../book/open-book.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";

/** Each thought position: the line reaching it and its candidate moves with values (mover's view). */
export const TRANSPOSITION_BOOK: CraftedBook = [
  {
    line: [],
    moves: [
      ["7g7f", 40],
      ["2g2f", 30],
      ["5g5f", -80],
    ],
  },
  {
    line: ["7g7f"],
    moves: [
      ["3c3d", -30],
      ["8c8d", -60],
    ],
  },
  {
    line: ["2g2f"],
    moves: [
      ["3c3d", -35],
      ["8c8d", -50],
    ],
  },
  {
    line: ["7g7f", "3c3d"],
    moves: [
      ["2g2f", 45],
      ["6g6f", 10],
    ],
  },
  {
    line: ["2g2f", "3c3d"],
    moves: [
      ["7g7f", 45],
      ["2f2e", 20],
    ],
  },
  {
    line: ["7g7f", "3c3d", "2g2f"],
    moves: [
      ["4c4d", -50],
      ["8c8d", -70],
      ["2b8h+", -900],
    ],
  },
];

/** The position a line from the start reaches. */
export function positionAfter(line: string[]): Position {
  const pos = Position.startpos();
  for (const u of line) pos.doMove(parseUsiMove(u)!);
  return pos;
}

/** Each thought position of a crafted book: the line reaching it and its moves with values (mover's view). */
export type CraftedBook = Array<{ line: string[]; moves: Array<[string, number]> }>;

/** Stores `pos` as thought by a crafted engine (depth 12, 1000 nodes) with `moves`, each one's pv itself. */
export function addCraftedThought(book: OpenBook, pos: Position, moves: Array<[string, number]>): void {
  book.store.thoughts.add({
    sfen: pos.sfenKey(),
    keyHi: pos.keyHi,
    keyLo: pos.keyLo,
    thoughtAt: Date.now(),
    provenance: { kind: "engine", engine: "crafted", nodes: 1000, depth: 12, timeMs: 5 },
    candidates: moves.map(([move, value]) => ({ move, value, depth: 12, pv: [move] })),
  });
}

/** Writes a crafted book (as if imported) into a new file. */
export function writeCraftedBook(file: string, entries: CraftedBook): void {
  const book = OpenBook.create(file, {});
  try {
    for (const { line, moves } of entries) addCraftedThought(book, positionAfter(line), moves);
  } finally {
    book.close();
  }
}

/** Writes the crafted transposition book into a new file. */
export function writeTranspositionBook(file: string): void {
  writeCraftedBook(file, TRANSPOSITION_BOOK);
}
