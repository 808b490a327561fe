// Japanese notation for the UI, through tsshogi: moves as KIF text ("▲７六歩(77)") and a
// position as a KIF board diagram that other shogi programs paste.
import { Position as TsPosition, Record as TsRecord, formatKIFMove, formatMove, exportKIF, exportKI2, exportCSA } from "tsshogi";
import { formatSfenKey, parseSfen } from "../rules/sfen.js";

/** Each of several USI moves from one SFEN position in KIF notation (the position read once), or its USI text when it cannot be read. */
export function kifMoves(sfen: string, usis: readonly string[]): string[] {
  const pos = tsPosition(sfen);
  return usis.map((usi) => {
    const move = pos?.createMoveByUSI(usi);
    return move ? formatKIFMove(move) : usi;
  });
}

/** A position as a KIF record with no moves: its board diagram (BOD). */
export function kifPosition(sfen: string): string {
  const pos = tsPosition(sfen);
  if (!pos) return "";
  return exportKIF(new TsRecord(pos));
}

/**
 * tsshogi's position of an SFEN ("sfen " before it or not, "startpos", with or without its
 * move number), read by our one SFEN reader; null when it does not read.
 */
export function tsPosition(sfen: string): TsPosition | null {
  const p = parseSfen(sfen);
  return typeof p === "string" ? null : TsPosition.newBySFEN(`${formatSfenKey(p.board, p.hands, p.side)} ${p.ply ?? 1}`);
}

/**
 * A line of USI moves from a position in the notation players read: "▲７六歩", "△同\u3000角".
 * A move that cannot be played there (and everything after it) stays in USI.
 */
export function lineNotation(sfen: string, usis: readonly string[]): string[] {
  const pos = tsPosition(sfen);
  const out: string[] = [];
  let last: ReturnType<TsPosition["createMoveByUSI"]> = null;
  let broken = !pos;
  for (const usi of usis) {
    const move = broken ? null : pos!.createMoveByUSI(usi);
    if (!pos || !move || !pos.isValidMove(move)) {
      out.push(usi);
      broken = true;
      continue;
    }
    out.push(
      formatMove(pos, move, { lastMove: last ?? undefined })
        .replace("☗", "▲")
        .replace("☖", "△"),
    );
    pos.doMove(move);
    last = move;
  }
  return out;
}

/** One move in the notation players read ("▲７六歩"), or its USI text when it is not legal there. */
export function moveNotation(sfen: string, usi: string): string {
  return lineNotation(sfen, [usi])[0] ?? usi;
}

export type CopyFormat = "kif" | "ki2" | "csa" | "usi" | "sfen";
export const COPY_FORMATS: readonly CopyFormat[] = ["kif", "ki2", "csa", "usi", "sfen"];

/** The record of a line from a start position, its moves applied until one is not legal. */
function lineRecord(startSfen: string, usis: readonly string[]): TsRecord | null {
  const start = tsPosition(startSfen);
  if (!start) return null;
  const record = new TsRecord(start);
  for (const usi of usis) {
    const move = record.position.createMoveByUSI(usi);
    if (!move || !record.position.isValidMove(move) || !record.append(move)) break;
  }
  return record;
}

/**
 * A line (from `startSfen`, `usis` played) as text to paste into another program. KIF, KI2
 * and CSA are full records with the moves; USI is a `position` command; SFEN is the
 * position the line reaches, with its move number. With no moves it is the position alone.
 */
export function lineText(format: CopyFormat, startSfen: string, usis: readonly string[]): string {
  const record = lineRecord(startSfen, usis);
  if (!record) return "";
  switch (format) {
    case "kif":
      return exportKIF(record);
    case "ki2":
      return exportKI2(record);
    case "csa":
      return exportCSA(record);
    case "usi":
      // tsshogi writes the start position with move number 1; keep the one we were given.
      return record
        .getUSI({ allMoves: true })
        .replace(/^position sfen (\S+ [bw] \S+) \d+/, (_, p: string) => `position sfen ${p} ${startPly(startSfen)}`);
    case "sfen":
      return `sfen ${record.position.getSFEN(startPly(startSfen) + record.length)}`;
  }
}

function startPly(sfen: string): number {
  const p = parseSfen(sfen);
  return typeof p === "string" ? 1 : (p.ply ?? 1);
}

/** Each of several moves from one position in the notation players read (one position parsed for all). */
export function movesNotation(sfen: string, usis: readonly string[]): string[] {
  const pos = tsPosition(sfen);
  return usis.map((usi) => {
    const move = pos?.createMoveByUSI(usi);
    return pos && move && pos.isValidMove(move) ? formatMove(pos, move).replace("☗", "▲").replace("☖", "△") : usi;
  });
}
