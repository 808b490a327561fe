// A game record as lines to step through: the main line and every variation as a full line
// from the start, so a branch is "another line with the same moves so far".
import { parseRecordFile, type ParsedGame } from "../../../shared/formats/kifu";
import { Position } from "../../../shared/rules/position";
import { parseUsiMove } from "../../../shared/rules/usi";

export interface RecordLines {
  file: string;
  /** The start position (SFEN with its move number). */
  start: string;
  /** lines[0] is the main line; the others are variations, each from the start. */
  lines: string[][];
  /** The record's comments, by the moves that reach the position they follow ("" the start; moves joined by spaces). */
  notes: Map<string, string>;
  /** What the reader could not take ("file:line: problem"): a line is cut at its first illegal or unreadable move. */
  problems: string[];
}

/** The position key after `moves` from `start`; null when a move is not legal. */
export function keyAfter(start: string, moves: readonly string[]): string | null {
  try {
    const pos = Position.fromSfen(start);
    for (const u of moves) {
      const m = parseUsiMove(u);
      if (!m || !pos.isLegal(m)) return null;
      pos.doMove(m);
    }
    return pos.sfenKey();
  } catch {
    return null;
  }
}

/** Full lines of a parsed game: each variation after the prefix of the line it branches from. */
export function gameLines(game: ParsedGame): string[][] {
  return linesAndNotes(game).lines;
}

/** The full lines, and the comments of every line by the moves that reach them (parse with `comments`). */
function linesAndNotes(game: ParsedGame): { lines: string[][]; notes: Map<string, string> } {
  const lines: string[][] = [game.moves];
  const notes = new Map<string, string>();
  const note = (line: readonly string[], ply: number, text: string | undefined) => {
    if (text?.trim()) notes.set(line.slice(0, ply).join(" "), text.trim());
  };
  note([], 0, game.startComment);
  game.comments?.forEach((c, i) => note(game.moves, i + 1, c));
  for (const v of game.variations) {
    const parent = lines.find((l) => l.length >= v.startPly && keyAfter(game.start, l.slice(0, v.startPly)) === v.parentKey);
    if (!parent) continue;
    const full = [...parent.slice(0, v.startPly), ...v.moves];
    lines.push(full);
    v.comments?.forEach((c, i) => note(full, v.startPly + i + 1, c));
  }
  return { lines, notes };
}

/**
 * The evaluation a record's comment carries, from Black's side: ShogiGUI's and Kifu for
 * Windows' analysis lines ("評価値 123"), ShogiHome's "#評価値=123", and the CSA analysis line
 * of Floodgate and ShogiGUI ("'** 50 7g7f 3c3d", which the comment keeps as "* 50 ..."). The
 * last one given wins (an analysis lists its best line last); null when there is none.
 */
export function commentEval(comment: string | undefined): number | null {
  if (!comment) return null;
  let value: number | null = null;
  for (const line of comment.split("\n")) {
    for (const m of line.matchAll(/評価値\s*[=:：]?\s*([+-]?\d+)/g)) value = Number(m[1]);
    const csa = /^\*\s*([+-]?\d+)(?:\s|$)/.exec(line);
    if (csa) value = Number(csa[1]);
  }
  return value;
}

/** Reads a record file's first game; the parser's first error when it has none. */
export function readRecord(bytes: Uint8Array, name: string): RecordLines | string {
  const parsed = parseRecordFile(bytes, name, { maxGames: 1, comments: true });
  const game = parsed.games[0];
  if (!game) return parsed.errors[0]?.message ?? "no game";
  const problems = parsed.errors.map((e) => `${e.file}${e.line !== undefined ? `:${e.line}` : ""}: ${e.message}`);
  return { file: name, start: game.start, ...linesAndNotes(game), problems };
}

/** The moves that follow `prefix` in some line (the first is the current line's), with a line that plays each. */
export function branchesAt(lines: readonly string[][], current: number, ply: number): Array<{ usi: string; line: number }> {
  const prefix = lines[current].slice(0, ply);
  const out: Array<{ usi: string; line: number }> = [];
  const order = [current, ...lines.keys()].filter((i, k, a) => a.indexOf(i) === k);
  for (const i of order) {
    const l = lines[i];
    if (l.length <= ply || !prefix.every((m, k) => l[k] === m)) continue;
    if (!out.some((b) => b.usi === l[ply])) out.push({ usi: l[ply], line: i });
  }
  return out;
}

/**
 * A reader's problem (file:line: what) in Japanese, for the record pane: the common ones the
 * reader gives (a binary or empty file, no record found, an illegal move cutting a line); the
 * file, line, move and SFEN stay as they are. Anything else is left in English.
 */
export function recordProblemJa(text: string): string {
  return text
    .replace(/\bgame (\d+): /g, "第$1局: ")
    .replace(
      /(main line|variation) move (\d+) "([^"]+)" is illegal in (.+?); the line is cut there/,
      (_, where: string, n: string, usi: string, sfen: string) =>
        `${where === "main line" ? "本譜" : "変化"} ${n}手目の「${usi}」は指せない手です (局面 ${sfen})。手順はここで切れます`,
    )
    .replace(
      /not a game record: binary data, not text \((\d+) control character\(s\), the first (0x[0-9a-f]+) at character (\d+)\)/,
      "棋譜ではありません: テキストではなくバイナリデータです (制御文字 $1 個、最初の $2 は $3 文字目)",
    )
    .replace(
      /not a game record \(no KIF, KI2, CSA, JKF, USEN or USI content found\)/,
      "棋譜ではありません (KIF・KI2・CSA・JKF・USEN・USI の内容が見つかりません)",
    )
    .replace(/^not a game record: /, "棋譜ではありません: ")
    .replace(/\bempty file$/, "空のファイルです");
}
