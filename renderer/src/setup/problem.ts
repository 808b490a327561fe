// What keeps a set-up position from being a root, in words of the UI's language. Kings are
// checked here: a position without a king of each side is legal to the rules module (tsume
// problems have none) but not a book's root, where engines and the selection need both.
// The rules module's other refusals (dead pieces, two pawns, too many pieces, the side not
// to move in check) are named by their kind, not passed on as its English text.
import { Position } from "../../../shared/rules/position";
import { KING } from "../../../shared/rules/types";
import type { Key } from "../i18n";

export interface SetupProblem {
  key: Key;
  /** side: the colour concerned ("black" or "white", a label key); square: USI; kanji: the square as ５一. */
  params: Record<string, string | number>;
}

/** The first reason `board` (with `sfen`, the same position written out) cannot be a root; null when it can. */
export function setupProblem(board: ArrayLike<number>, sfen: string): SetupProblem | null {
  const kings = [0, 0];
  for (let sq = 0; sq < 81; sq++) if ((board[sq] & 15) === KING) kings[board[sq] >> 4]++;
  for (const c of [0, 1]) {
    const side = c === 0 ? "black" : "white";
    if (kings[c] === 0) return { key: "setupNoKing", params: { side } };
    if (kings[c] > 1) return { key: "setupTwoKings", params: { side } };
  }
  let pos: Position;
  try {
    pos = Position.fromSfen(sfen);
  } catch (e) {
    return ruleProblem(e instanceof Error ? e.message : String(e));
  }
  // Mated (or no move at all): there is nothing to think or dig from it.
  if (pos.legalMoves().length === 0) return { key: "setupNoMoves", params: { side: pos.side === 0 ? "black" : "white" } };
  return null;
}

/** The rules module's refusal by kind (its messages: shared/rules/position.ts validate()). */
function ruleProblem(message: string): SetupProblem {
  const side = (name: string | undefined) => (name === "white" ? "white" : "black");
  let m = message.match(/^(black|white) \w+ on (\w+) has no move$/);
  if (m) return { key: "setupDeadPiece", params: { side: side(m[1]), square: m[2]!, kanji: kanjiSquare(m[2]!) } };
  m = message.match(/^two (black|white) pawns on file (\d)$/);
  if (m) return { key: "setupTwoPawns", params: { side: side(m[1]), file: m[2]!, fileWide: "１２３４５６７８９"[Number(m[2]) - 1]! } };
  if (/^too many /.test(message)) return { key: "setupTooMany", params: {} };
  m = message.match(/^(black|white) king on \w+ is in check/);
  if (m) return { key: "setupInCheck", params: { side: side(m[1]) } };
  return { key: "setupIllegal", params: {} };
}

/** "5a" as a Japanese reader names it: ５一. */
function kanjiSquare(usi: string): string {
  return "１２３４５６７８９"[Number(usi[0]) - 1]! + "一二三四五六七八九"["abcdefghi".indexOf(usi[1]!)]!;
}
