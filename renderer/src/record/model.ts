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
  const lines: string[][] = [game.moves];
  for (const v of game.variations) {
    const parent = lines.find((l) => l.length >= v.startPly && keyAfter(game.start, l.slice(0, v.startPly)) === v.parentKey);
    if (parent) lines.push([...parent.slice(0, v.startPly), ...v.moves]);
  }
  return lines;
}

/** Reads a record file's first game; the parser's first error when it has none. */
export function readRecord(bytes: Uint8Array, name: string): RecordLines | string {
  const parsed = parseRecordFile(bytes, name, { maxGames: 1 });
  const game = parsed.games[0];
  if (!game) return parsed.errors[0]?.message ?? "no game";
  return { file: name, start: game.start, lines: gameLines(game) };
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
