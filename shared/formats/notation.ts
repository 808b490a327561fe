// Japanese notation for the UI, through tsshogi: moves as KIF text ("▲７六歩(77)") and a
// position as a KIF board diagram that other shogi programs paste.
import { Position as TsPosition, Record as TsRecord, formatKIFMove, exportKIF } from "tsshogi";

/** A USI move from an SFEN position in KIF notation, or the USI text when it cannot be read. */
export function kifMove(sfen: string, usi: string): string {
  const pos = TsPosition.newBySFEN(sfen.startsWith("sfen ") ? sfen.slice(5) : `${sfen}${/ \d+$/.test(sfen) ? "" : " 1"}`);
  const move = pos?.createMoveByUSI(usi);
  return move ? formatKIFMove(move) : usi;
}

/** A position as a KIF record with no moves: its board diagram (BOD). */
export function kifPosition(sfen: string): string {
  const pos = TsPosition.newBySFEN(sfen.startsWith("sfen ") ? sfen.slice(5) : `${sfen}${/ \d+$/.test(sfen) ? "" : " 1"}`);
  if (!pos) return "";
  return exportKIF(new TsRecord(pos));
}
