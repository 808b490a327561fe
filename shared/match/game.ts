// One game of a match under our rules core: legal moves only, sennichite (draw), perpetual
// check (the checker loses), the 27-point declaration, mate, a move cap (draw), resignation
// and score adjudication. Engines and clocks live in the host; this decides the result.
import { Position } from "../rules/position.js";
import { parseUsiMove, moveToUsi } from "../rules/usi.js";
import { BLACK, WHITE, type Color } from "../rules/types.js";
import { withMoveNumber } from "../rules/sfen.js";
import { formatUsiPosition, parseUsiPosition } from "../rules/usi-position.js";

export type EndReason =
  | "mate" // the side to move has no legal move
  | "resign"
  | "repetition" // fourfold repetition, draw
  | "perpetual-check" // the checking side loses
  | "declaration" // a correct 27-point declaration wins
  | "false-declaration" // declaring when the rule does not hold loses
  | "max-moves" // the move cap, draw
  | "adjudication" // both engines agreed on a decisive score long enough
  | "illegal-move"
  | "crash"
  | "timeout";

/** Every way a game ends, in one list (the views' labels and the records' words follow it). */
export const END_REASONS: readonly EndReason[] = [
  "mate",
  "resign",
  "repetition",
  "perpetual-check",
  "declaration",
  "false-declaration",
  "max-moves",
  "adjudication",
  "illegal-move",
  "crash",
  "timeout",
];

export interface GameResult {
  /** Colour that won, or null for a draw. */
  winner: Color | null;
  reason: EndReason;
}

export interface AdjudicationRules {
  /** Game ends as a draw after this many plies from the start position (0 = no cap). */
  maxPlies: number;
  /** A side whose own score stayed <= -resignScore for resignMoves of its moves in a row, while the opponent's last score was >= resignScore, loses. 0 = off. */
  resignScore: number;
  resignMoves: number;
}

export const DEFAULT_RULES: AdjudicationRules = { maxPlies: 320, resignScore: 3000, resignMoves: 4 };

/** One move as played, with what the record keeps about it. */
export interface PlayedMove {
  usi: string;
  /** From the book rather than the engine. */
  book: boolean;
  /** The mover's score in cp from its own view (mate as +-(32000 - n)); absent for book moves. */
  score?: number;
  timeMs: number;
}

/** An opening: a start position and the moves played from it before the engines take over. */
export interface Opening {
  /** SFEN with ply, or "startpos". */
  sfen: string;
  moves: string[];
}

export class Game {
  readonly pos: Position;
  readonly played: PlayedMove[] = [];
  result: GameResult | null = null;
  /** Plies played from the start position (opening moves included). */
  private readonly openingPlies: number;
  private readonly lowStreak: [number, number] = [0, 0];
  private readonly lastScore: [number | undefined, number | undefined] = [undefined, undefined];

  constructor(
    readonly opening: Opening,
    readonly rules: AdjudicationRules = DEFAULT_RULES,
  ) {
    this.pos = opening.sfen === "startpos" ? Position.startpos() : Position.fromSfen(opening.sfen);
    for (let i = 0; i < opening.moves.length; i++) {
      const m = parseUsiMove(opening.moves[i]!);
      if (m === null || !this.pos.isLegal(m)) throw new Error(`opening move ${i + 1} "${opening.moves[i]}" is not legal`);
      this.pos.doMove(m);
    }
    this.openingPlies = opening.moves.length;
    this.result = this.terminal();
  }

  get sideToMove(): Color {
    return this.pos.side;
  }

  /** Plies from the start position, the opening included. */
  get ply(): number {
    return this.openingPlies + this.played.length;
  }

  /** The USI `position` argument for the engines: start and every move so far. */
  positionCommand(): string {
    return formatUsiPosition({ start: this.opening.sfen, moves: [...this.opening.moves, ...this.played.map((m) => m.usi)] });
  }

  /** Ends the game: the side to move loses for `reason` (resign, crash, illegal move, timeout, false declaration). */
  forfeit(reason: EndReason): GameResult {
    this.result = { winner: this.pos.side === BLACK ? WHITE : BLACK, reason };
    return this.result;
  }

  /** The side to move declares a win (USI `bestmove win`). */
  declare(): GameResult {
    if (this.pos.declarationWin()) this.result = { winner: this.pos.side, reason: "declaration" };
    else this.forfeit("false-declaration");
    return this.result!;
  }

  /** Plays the side to move's move; an illegal or unreadable one loses. Returns the result when the game ended. */
  play(move: PlayedMove): GameResult | null {
    if (this.result) throw new Error("the game is over");
    const m = parseUsiMove(move.usi);
    if (m === null || !this.pos.isLegal(m)) return this.forfeit("illegal-move");
    const mover = this.pos.side;
    this.pos.doMove(m);
    this.played.push({ ...move, usi: moveToUsi(m) });
    if (!move.book && move.score !== undefined) this.noteScore(mover, move.score);
    this.result = this.terminal() ?? this.adjudicate(mover);
    return this.result;
  }

  private noteScore(mover: Color, score: number): void {
    this.lastScore[mover] = score;
    const r = this.rules;
    this.lowStreak[mover] = r.resignScore > 0 && score <= -r.resignScore ? this.lowStreak[mover] + 1 : 0;
  }

  private adjudicate(mover: Color): GameResult | null {
    const r = this.rules;
    if (r.resignScore <= 0 || r.resignMoves <= 0) return null;
    for (const side of [mover, (mover ^ 1) as Color]) {
      const other = (side ^ 1) as Color;
      const theirs = this.lastScore[other];
      if (this.lowStreak[side] >= r.resignMoves && theirs !== undefined && theirs >= r.resignScore) {
        return { winner: other, reason: "adjudication" };
      }
    }
    return null;
  }

  /** Rules that end the game in the current position, from the rules core. */
  private terminal(): GameResult | null {
    const rep = this.pos.repetition();
    // repetition() speaks for the side to move: "win" when the opponent checked throughout.
    if (rep === "draw") return { winner: null, reason: "repetition" };
    if (rep === "win") return { winner: this.pos.side, reason: "perpetual-check" };
    if (rep === "lose") return { winner: (this.pos.side ^ 1) as Color, reason: "perpetual-check" };
    if (this.pos.legalMoves().length === 0) return { winner: (this.pos.side ^ 1) as Color, reason: "mate" };
    if (this.rules.maxPlies > 0 && this.ply >= this.rules.maxPlies) return { winner: null, reason: "max-moves" };
    return null;
  }
}

/** Points of the player who had `color` in a game with this result. */
export function pointsFor(result: GameResult, color: Color): number {
  return result.winner === null ? 0.5 : result.winner === color ? 1 : 0;
}

/**
 * Opening lines from an SFEN file: `startpos moves ...`, `[position] sfen ... [moves ...]`
 * or a bare SFEN per line; `#` comments and blank lines skipped. Moves are cut to
 * `plies` (a game collection gives its first plies); lines that reach the same position
 * are one opening. Errors name the line.
 */
export function parseOpenings(text: string, fileName: string, plies = Number.POSITIVE_INFINITY): Opening[] {
  const out: Opening[] = [];
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("//")) continue;
    let game: Game;
    let sfen: string;
    let moves: string[];
    try {
      const p = parseUsiPosition(line, plies);
      sfen = p.start === "startpos" ? "startpos" : withMoveNumber(p.start);
      moves = p.moves;
      game = new Game({ sfen, moves }, { maxPlies: 0, resignScore: 0, resignMoves: 0 });
    } catch (e) {
      throw new Error(`${fileName}:${i + 1}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    // A collection repeats its common openings, and move orders transpose: each position plays once.
    const key = game.pos.sfenKey();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ sfen, moves });
  }
  if (out.length === 0) throw new Error(`${fileName}: no positions in the file`);
  return out;
}
