// The one reader and writer of USI `position` arguments: "[position] startpos [moves ...]",
// "[position] sfen <sfen> [moves ...]" and, as horu's book keys and opening files have them, a
// bare SFEN with or without moves. Syntax only: whether the moves are legal is for the Position
// that plays them, so this file needs no board and Position.fromUsi can use it.
import { SfenError, checkSfen, withMoveNumber } from "./sfen.js";
import { parseUsiMove } from "./usi.js";

/** What is wrong with a `position` argument; an SfenError, so callers that catch those catch this. */
export class UsiPositionError extends SfenError {
  override name = "UsiPositionError";
}

/** A `position` argument split: where it starts and the moves played from there. */
export interface UsiPosition {
  /** "startpos", or the SFEN as written (without "sfen", its ply kept when present). */
  start: string;
  /** USI move texts, each a board move or drop by syntax. */
  moves: string[];
}

/**
 * Splits a `position` argument. Throws UsiPositionError when it is not one: nothing given,
 * words after "startpos" other than "moves", an SFEN that does not read, a move that is not
 * USI move syntax. An empty "moves" list is accepted (some programs write one). `maxMoves`
 * keeps the first moves only, unread beyond them: a game collection's openings are its first
 * plies, and whatever ends a record (a result word) must not spoil them.
 */
export function parseUsiPosition(text: string, maxMoves = Number.POSITIVE_INFINITY): UsiPosition {
  const tokens = text.trim().split(/\s+/);
  if (tokens[0] === "position") tokens.shift();
  if (tokens.length === 0 || tokens[0] === "") throw new UsiPositionError(`a position needs "startpos" or an SFEN, got nothing`);
  const at = tokens.indexOf("moves");
  const head = at < 0 ? tokens : tokens.slice(0, at);
  const moves = (at < 0 ? [] : tokens.slice(at + 1)).slice(0, maxMoves);
  let start: string;
  if (head[0] === "startpos") {
    if (head.length > 1)
      throw new UsiPositionError(`"startpos" takes only "moves ..." after it, got "${head.slice(1).join(" ").slice(0, 60)}"`);
    start = "startpos";
  } else {
    const word = head[0] === "sfen" ? head.shift() : undefined;
    if (head.length === 0)
      throw new UsiPositionError(word ? `"sfen" needs an SFEN after it` : `a position needs "startpos" or an SFEN before "moves"`);
    start = head.join(" ");
    const err = checkSfen(start);
    if (err !== null) throw new UsiPositionError(err);
  }
  for (let i = 0; i < moves.length; i++) {
    if (parseUsiMove(moves[i]!) === null) throw new UsiPositionError(`move ${i + 1} "${moves[i]}" is not a USI move`);
  }
  return { start, moves };
}

/** The `position` argument (without "position"): "startpos" or "sfen <sfen with ply>", then "moves ..." when there are any. */
export function formatUsiPosition(p: UsiPosition): string {
  const head = p.start === "startpos" ? "startpos" : `sfen ${withMoveNumber(p.start)}`;
  return p.moves.length ? `${head} moves ${p.moves.join(" ")}` : head;
}
