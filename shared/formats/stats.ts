// Collection statistics over game records (docs/DESIGN.md §11.0: books built from
// floodgate game frequencies and win rates): per position and move, how often it was
// played and how the side that played it did.
import type { GameResult, ParsedGame } from "./kifu.js";
import { parseSfen } from "../rules/sfen.js";

export interface MoveStat {
  /** Games in which this move was played from this position. */
  played: number;
  /** ...which the side that played it won. */
  wins: number;
  losses: number;
  draws: number;
}

/** One move of one line of a game: the position before it, the move, who played it, how that line ended. */
export interface GameEdge {
  before: string;
  move: string;
  /** Ply of `before` (moves from the game's start). */
  ply: number;
  mover: "black" | "white";
  result?: GameResult;
  /** 0 for the main line, 1.. for variations. */
  line: number;
}

/**
 * Every move of a game whose position-before is listed (so up to the parse's maxPly),
 * main line first, then variations. A variation ends how its own record line ends;
 * it does not inherit the main line's result.
 */
export function gameEdges(game: ParsedGame): GameEdge[] {
  const edges: GameEdge[] = [];
  const start = parseSfen(game.start);
  const startSide = typeof start === "string" ? 0 : start.side;
  const moverAt = (ply: number): "black" | "white" => ((startSide + ply) & 1 ? "white" : "black");
  const mainEnd = game.variations.length ? game.variations[0].offset : game.positions.length;
  // positions[i] is the position before moves[i] on the main line.
  for (let i = 0; i < game.moves.length && i < mainEnd; i++) {
    edges.push({
      before: game.positions[i],
      move: game.moves[i],
      ply: game.plies[i],
      mover: moverAt(game.plies[i]),
      result: game.result,
      line: 0,
    });
  }
  game.variations.forEach((v, j) => {
    const end = j + 1 < game.variations.length ? game.variations[j + 1].offset : game.positions.length;
    const listed = end - v.offset;
    for (let k = 0; k < v.moves.length; k++) {
      // The position before move k is listed when k == 0 (the parent) or the previous move's child was.
      if (k > 0 && k - 1 >= listed) break;
      const before = k === 0 ? v.parentKey : game.positions[v.offset + k - 1];
      const ply = v.startPly + k;
      edges.push({ before, move: v.moves[k], ply, mover: moverAt(ply), result: v.result, line: j + 1 });
    }
  });
  return edges;
}

export interface StatsOptions {
  /** Count only moves made from positions up to this ply. Default: all listed. */
  maxPly?: number;
  /** Count variations too (default true). */
  variations?: boolean;
}

/** A MoveStat plus the last game that counted it (per-game de-duplication without a Set of ids). */
interface Entry extends MoveStat {
  lastGame: number;
}

const view = (e: Entry): MoveStat => ({ played: e.played, wins: e.wins, losses: e.losses, draws: e.draws });

export class CollectionStats {
  private readonly byPosition = new Map<string, Map<string, Entry>>();
  games = 0;
  gamesWithResult = 0;

  constructor(private readonly options: StatsOptions = {}) {}

  /** Adds one game; the same (position, move) counts once per game even if several lines repeat it. */
  addGame(game: ParsedGame): void {
    this.games++;
    if (game.result) this.gamesWithResult++;
    const maxPly = this.options.maxPly ?? Number.POSITIVE_INFINITY;
    const withVariations = this.options.variations ?? true;
    const stamp = this.games;
    for (const e of gameEdges(game)) {
      if (e.ply >= maxPly + 1 || (!withVariations && e.line > 0)) continue;
      let moves = this.byPosition.get(e.before);
      if (!moves) {
        moves = new Map();
        this.byPosition.set(e.before, moves);
      }
      let s = moves.get(e.move);
      if (!s) {
        s = { played: 0, wins: 0, losses: 0, draws: 0, lastGame: 0 };
        moves.set(e.move, s);
      } else if (s.lastGame === stamp) continue;
      s.lastGame = stamp;
      s.played++;
      if (e.result === "draw") s.draws++;
      else if (e.result === e.mover) s.wins++;
      else if (e.result) s.losses++;
    }
  }

  addGames(games: Iterable<ParsedGame>): this {
    for (const g of games) this.addGame(g);
    return this;
  }

  get(position: string, move: string): MoveStat | undefined {
    const e = this.byPosition.get(position)?.get(move);
    return e && view(e);
  }

  /** Times played, without copying (the filter's hot path). */
  played(position: string, move: string): number {
    return this.byPosition.get(position)?.get(move)?.played ?? 0;
  }

  /** Moves from a position, most played first (ties: more wins, then USI text). */
  movesOf(position: string): { move: string; stat: MoveStat }[] {
    const m = this.byPosition.get(position);
    if (!m) return [];
    return [...m.entries()]
      .map(([move, e]) => ({ move, stat: view(e) }))
      .sort((a, b) => b.stat.played - a.stat.played || b.stat.wins - a.stat.wins || (a.move < b.move ? -1 : a.move > b.move ? 1 : 0));
  }

  /** Win rate of the mover, draws as half, over games with a result; undefined when none. */
  winRate(position: string, move: string): number | undefined {
    const s = this.get(position, move);
    if (!s) return undefined;
    const decided = s.wins + s.losses + s.draws;
    return decided ? (s.wins + s.draws / 2) / decided : undefined;
  }

  get positions(): number {
    return this.byPosition.size;
  }
}

export function collectStats(games: Iterable<ParsedGame>, options: StatsOptions = {}): CollectionStats {
  return new CollectionStats(options).addGames(games);
}
