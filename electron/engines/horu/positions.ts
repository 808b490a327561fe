// Positions for fitting and measuring the engine. records2016 holds only the first 24 plies
// of each game, so the middle and end of a game come from continuing record openings with
// fast self-play (alpha-beta at a small node budget) until the game ends.
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { Position } from "../../../shared/rules/position.js";
import { formatUsiPosition, parseUsiPosition } from "../../../shared/rules/usi-position.js";
import { Searcher } from "../../../shared/horu-engine/search.js";
import { TranspositionTable } from "../../../shared/horu-engine/tt.js";
import { rng } from "../../../shared/util/rng.js";

/** records2016 in ../shared/data, found from the running horu (bin/horu.js) or, failing that, from the working folder. */
export function recordsFile(): string {
  const rel = ["shared", "data", "positions", "records2016_10818.sfen"];
  const fromBin = path.resolve(path.dirname(process.argv[1] ?? "."), "..", "..", ...rel);
  return existsSync(fromBin) ? fromBin : path.resolve("..", ...rel);
}

export function readRecords(file = recordsFile()): string[][] {
  if (!existsSync(file)) throw new Error(`${file} is missing (the records2016 collection of ../shared/data)`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("startpos moves"))
    .map((l) => parseUsiPosition(l).moves);
}

export interface GamePosition {
  /** "startpos [moves ...]" up to this position. */
  usi: string;
  /** The move played here (USI), the next one in the game. */
  next: string;
  ply: number;
  /** Where the position came from: the record itself or the self-play continuation. */
  source: "record" | "selfplay";
}

/**
 * `games` record openings, each continued by self-play at `nodes` per move until mate,
 * repetition or `maxPlies`; every position of every game, in order.
 */
export function continuedGames(games: number, seed: number, nodes = 120, maxPlies = 240, records = readRecords()): GamePosition[][] {
  const r = rng(seed);
  const tt = new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(4)));
  const out: GamePosition[][] = [];
  for (let g = 0; g < games; g++) {
    const rec = records[Math.floor(r() * records.length)];
    const pos = Position.startpos();
    const moves: string[] = [];
    const game: GamePosition[] = [];
    const searcher = new Searcher(tt, { qChecks: "threat" });
    for (let ply = 0; ply < maxPlies; ply++) {
      if (pos.legalMoves().length === 0) break;
      let next: string;
      let source: GamePosition["source"] = "record";
      if (ply < rec.length) next = rec[ply];
      else {
        const res = searcher.search(pos, { nodes });
        if (!res.best) break;
        next = moveText(pos, res.best);
        source = "selfplay";
      }
      game.push({ usi: formatUsiPosition({ start: "startpos", moves }), next, ply, source });
      const m = pos.legalMoves().find((x) => moveText(pos, x) === next);
      if (m === undefined) break;
      pos.doMove(m);
      moves.push(next);
      if (pos.repetition() !== "none") break;
    }
    out.push(game);
  }
  return out;
}

const RANKS = "abcdefghi",
  DROPS = " PLNSBRG";
function moveText(_pos: Position, m: number): string {
  const to = m & 127,
    from = (m >> 7) & 127;
  const sq = (s: number) => String(Math.floor(s / 9) + 1) + RANKS[s % 9];
  if (from >= 81) return DROPS[from - 80] + "*" + sq(to);
  return sq(from) + sq(to) + (m & 16384 ? "+" : "");
}

/** Phase by ply, as the seed splits its table (opening / middle game / endgame). */
export function phaseOf(ply: number): "opening" | "middle" | "end" {
  return ply < 40 ? "opening" : ply < 90 ? "middle" : "end";
}
