// A finished match game as a CSA or KIF record, written by tsshogi: player names, the
// opening moves, every move with its time and the mover's engine's score (from Black's side,
// as the formats have it: shared/formats/score-comment.ts), book moves marked "定跡 (book)" in
// the move comment, and how the game ended.
import { Color, exportCSA, exportKIF, Record as TsRecord, RecordMetadataKey, SpecialMoveType } from "tsshogi";
import type { EndReason, Game, GameResult } from "../../shared/match/game.js";
import { tsPosition } from "../../shared/formats/notation.js";
import { scoreCommentLines } from "../../shared/formats/score-comment.js";

export const BOOK_MARK = "定跡 (book)";

const REASON_TEXT: Record<EndReason, string> = {
  mate: "詰み (mate)",
  resign: "投了 (resign)",
  repetition: "千日手 (repetition draw)",
  "perpetual-check": "連続王手の千日手 (perpetual check)",
  declaration: "入玉宣言 (27-point declaration)",
  "false-declaration": "宣言の誤り (false declaration)",
  "max-moves": "最大手数 (move cap)",
  adjudication: "判定 (adjudication)",
  "illegal-move": "反則 (illegal move)",
  crash: "エンジン停止 (engine crash)",
  timeout: "時間切れ (time out)",
};

/** How a game ended, in both languages: the records' comments are read by Japanese GUIs. */
export function reasonText(r: EndReason): string {
  return REASON_TEXT[r];
}

/** How a game ended, in English alone (the command line's words). */
export function reasonEnglish(r: EndReason): string {
  return /\((.*)\)$/.exec(REASON_TEXT[r])![1]!;
}

function specialMove(r: GameResult, sideToMove: 0 | 1): SpecialMoveType {
  switch (r.reason) {
    case "mate":
      return SpecialMoveType.MATE;
    case "resign":
      return SpecialMoveType.RESIGN;
    case "repetition":
      return SpecialMoveType.REPETITION_DRAW;
    case "perpetual-check":
      // The side to move wins when the opponent's last move continued the perpetual check.
      return r.winner === sideToMove ? SpecialMoveType.FOUL_WIN : SpecialMoveType.FOUL_LOSE;
    case "declaration":
      return SpecialMoveType.ENTERING_OF_KING;
    case "false-declaration":
    case "illegal-move":
      return SpecialMoveType.FOUL_LOSE;
    case "max-moves":
      return SpecialMoveType.MAX_MOVES;
    case "timeout":
      return SpecialMoveType.TIMEOUT;
    case "adjudication":
    case "crash":
      return SpecialMoveType.INTERRUPT;
  }
}

export function gameRecord(
  game: Game,
  result: GameResult,
  o: { black: string; white: string; title: string; format: "csa" | "kif" },
): string {
  const start = tsPosition(game.opening.sfen);
  if (!start) throw new Error(`not a position: ${game.opening.sfen}`);
  const rec = new TsRecord(start);
  rec.metadata.setStandardMetadata(RecordMetadataKey.TITLE, o.title);
  rec.metadata.setStandardMetadata(RecordMetadataKey.BLACK_NAME, o.black);
  rec.metadata.setStandardMetadata(RecordMetadataKey.WHITE_NAME, o.white);
  const append = (usi: string) => {
    const m = rec.position.createMoveByUSI(usi);
    if (!m || !rec.append(m)) throw new Error(`record: cannot append ${usi}`);
  };
  for (const usi of game.opening.moves) {
    append(usi);
    rec.current.comment = "開始局面 (opening)";
  }
  for (const m of game.played) {
    const mover = rec.position.color === Color.BLACK ? "black" : "white";
    append(m.usi);
    rec.current.setElapsedMs(m.timeMs);
    const notes: string[] = [];
    if (m.book) notes.push(BOOK_MARK);
    // One line each: the score's lines are read line by line (Floodgate's `'** 30` starts its own).
    if (m.score !== undefined) notes.push(...scoreCommentLines(o.format, m.score, mover));
    rec.current.comment = notes.join("\n");
  }
  rec.append(specialMove(result, game.sideToMove));
  const who =
    result.winner === null
      ? "引き分け (draw)"
      : result.winner === 0
        ? `先手勝ち (black wins): ${o.black}`
        : `後手勝ち (white wins): ${o.white}`;
  rec.current.comment = `${reasonText(result.reason)} ${who}`;
  return o.format === "csa" ? exportCSA(rec) : exportKIF(rec);
}
