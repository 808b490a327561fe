// Building a match from user choices: player names, openings (an SFEN file, or a book's
// positions at a ply), and the printed table.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseOpenings, type Opening } from "../../shared/match/game.js";
import { formatElo, type MatchTable } from "../../shared/match/stats.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove, moveToUsi } from "../../shared/rules/usi.js";
import { decodeRecordBytes } from "../../shared/formats/encoding.js";
import { openMatchBook } from "../books/files.js";
import type { MatchConfig, GameRow } from "./runner.js";
import { reasonText } from "./record.js";

/** Openings from an SFEN file (`startpos moves ...` / `sfen ...` lines), moves cut to `plies`. */
export function openingsFromFile(file: string, plies?: number): Opening[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return parseOpenings(decodeRecordBytes(bytes, file).text, file, plies ?? Number.POSITIVE_INFINITY);
}

/**
 * The distinct positions a book reaches at exactly `ply` plies from the start position,
 * following every book move (breadth-first, in the book's move order), as opening lines.
 */
export function openingsFromBook(file: string, ply: number, max = 10_000): Opening[] {
  const book = openMatchBook(file);
  let frontier: { pos: Position; moves: string[] }[] = [{ pos: Position.startpos(), moves: [] }];
  for (let d = 0; d < ply && frontier.length; d++) {
    const next: typeof frontier = [];
    const seen = new Set<string>();
    for (const f of frontier) {
      for (const bm of book.lookup(f.pos.sfenKey()) ?? []) {
        const m = parseUsiMove(bm.move);
        if (m === null || !f.pos.isLegal(m)) continue;
        const child = f.pos.clone();
        child.doMove(m);
        const key = child.sfenKey();
        if (seen.has(key)) continue;
        seen.add(key);
        next.push({ pos: child, moves: [...f.moves, moveToUsi(m)] });
        if (d === ply - 1 && next.length >= max) break;
      }
      if (d === ply - 1 && next.length >= max) break;
    }
    frontier = next;
  }
  if (frontier.length === 0) throw new Error(`${file}: the book reaches no position at ply ${ply}`);
  return frontier.map((f) => ({ sfen: "startpos", moves: f.moves }));
}

/** A player's display name: the engine's file name, with the book's file name when it has one. */
export function playerName(engine: string, book: string | undefined, index: number): string {
  const e = path.basename(engine.split(/\s+/)[0] ?? engine);
  return `${index + 1}:${e}${book ? `+${path.basename(book)}` : ""}`;
}

export function formatGameLine(config: MatchConfig, row: GameRow, done: number, table: MatchTable): string {
  const names = config.players.map((p) => p.name);
  const b = names[row.black]!, w = names[1 - row.black]!;
  const res = row.winner === null ? "1/2-1/2" : row.winner === row.black ? "1-0" : "0-1";
  const t = table.wdl;
  return `game ${row.game + 1} (${done}/${config.games}): ${b} vs ${w} ${res} ${reasonText(row.reason)}, ${row.plies} plies | ${names[0]}: +${t.wins} =${t.draws} -${t.losses}, Elo ${formatElo(table.elo)}`;
}

/** The table printed at the end (and by --json as figures). */
export function formatTable(config: MatchConfig, table: MatchTable): string {
  const [a, b] = config.players.map((p) => p.name);
  const t = table.wdl;
  const lines = [
    `${a} vs ${b}: ${table.games} games`,
    `  W-D-L (${a}):   ${t.wins}-${t.draws}-${t.losses}`,
    `  score:         ${table.points} / ${table.games} = ${(table.score * 100).toFixed(1)}%`,
    `  Elo (95%):     ${formatElo(table.elo)}${table.elo ? ` from ${table.elo.samples} ${table.pentanomial.some((x) => x > 0) ? "game pairs (pentanomial)" : "games (trinomial)"}` : ""}`,
    `  pentanomial:   [${table.pentanomial.join(", ")}] (pairs scoring 0, 0.5, 1, 1.5, 2)${table.unpaired ? `, ${table.unpaired} unpaired` : ""}`,
  ];
  if (table.sprt) {
    const s = table.sprt;
    const spec = config.sprt!;
    lines.push(`  SPRT(${spec.elo0}, ${spec.elo1}): LLR ${s.llr.toFixed(2)} [${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}] ${s.verdict === "continue" ? "undecided" : `accept ${s.verdict}`}`);
  }
  if (table.perOpening.length > 1 && table.perOpening.length <= 40) {
    lines.push("  per opening (points of " + a + "):");
    for (const o of table.perOpening) {
      const op = config.openings[o.opening]!;
      const text = op.moves.length ? op.moves.slice(0, 8).join(" ") + (op.moves.length > 8 ? " ..." : "") : op.sfen;
      lines.push(`    ${String(o.opening + 1).padStart(3)}: ${o.points}/${o.games}  ${text}`);
    }
  }
  return lines.join("\n");
}
