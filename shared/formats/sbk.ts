// ShogiGUI / BookConv books (`.sbk`): a protobuf SBook of states (positions) linked by
// moves. Decoded and encoded with @bufbuild/protobuf from code generated from the
// published schema (sbk/sbk.proto, CC0; scripts/gen-sbk.sh), never by hand.
//
// What a state means here: its position is its `Position` SFEN when given, else the one
// reached through the book's moves from a state that has one (state 0 without a Position
// is the start position, as ShogiGUI writes it). A move's value is the engine evaluation
// of the state whose variation starts with that move (horu writes one evaluation per move,
// like a MultiPV analysis), else minus the best evaluation of the state the move leads
// to, else 0; values are from the side to move. Weight is the move's count.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { SBookEvalSchema, SBookMoveEvaluation, SBookMoveSchema, SBookSchema, SBookStateSchema, type SBookState } from "./sbk/sbk_pb.js";
import { Position } from "../rules/position.js";
import type { SbkEvalRecord, SbkStateRecord } from "../book/records.js";
import { firstMoveOf, kifLineText } from "./ja-move.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import {
  isDrop,
  dropType,
  moveFrom,
  moveTo,
  isPromotion,
  makeDrop,
  makeMove,
  squareOf,
  fileOf,
  rankOf,
  type Move,
} from "../rules/types.js";

export interface SbkMove {
  move: string;
  /** From the evaluation of this move (or of the state it leads to); null when the file has none. */
  value: number | null;
  depth: number | null;
  /** The move's Weight. */
  count: number;
  /** ShogiGUI's mark (SBookMoveEvaluation): 0 none, 1 forced, 2 good, 3 bad, 4 blunder. */
  mark?: number;
  /** The reply the move's evaluation expects (its variation's second move), USI. */
  ponder?: string | null;
}

export interface SbkBlock {
  /** Normalized SFEN without ply. */
  sfen: string;
  /** In the file's order. */
  moves: SbkMove[];
  /** The state's Comment. */
  comment?: string;
  /** The state's games, wins and evaluations as written (absent: none to write). */
  state?: SbkStateRecord;
}

export class SbkError extends Error {}

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/** Our piece type (1..14) -> ShogiGUI's piece number (pawn 1, lance 2, knight 3, silver 4, gold 5, bishop 6, rook 7, king 8, promoted +8). */
const TO_SBK = [0, 1, 2, 3, 4, 6, 7, 5, 8, 9, 10, 11, 12, 14, 15];
const FROM_SBK = TO_SBK.reduce<number[]>((a, sbk, ours) => ((a[sbk] = ours), a), []);

/** A move as ShogiGUI encodes it (ranks/files 1-9, moving and captured piece, colour bit 31). */
export function encodeSbkMove(pos: Position, m: Move): number {
  const color = pos.side;
  const to = moveTo(m);
  const toBits = (fileOf(to) << 12) | (rankOf(to) << 8);
  if (isDrop(m)) return (color << 31) | ((TO_SBK[dropType(m)]! | (color ? 0x10 : 0)) << 24) | toBits | 0;
  const from = moveFrom(m);
  const piece = pos.board[from]! & 15;
  const captured = pos.board[to]! & 15;
  return (
    (color << 31) |
    ((TO_SBK[piece]! | (color ? 0x10 : 0)) << 24) |
    (TO_SBK[captured]! << 20) |
    (isPromotion(m) ? 1 << 19 : 0) |
    toBits |
    (fileOf(from) << 4) |
    rankOf(from) |
    0
  );
}

/** The move a ShogiGUI move number stands for in `pos`, or null when it is not legal there. */
export function decodeSbkMove(pos: Position, v: number): Move | null {
  const fromRank = v & 15,
    fromFile = (v >>> 4) & 15,
    toRank = (v >>> 8) & 15,
    toFile = (v >>> 12) & 15;
  if (toRank < 1 || toRank > 9 || toFile < 1 || toFile > 9) return null;
  const to = squareOf(toFile, toRank);
  let m: Move;
  if (fromRank === 0 && fromFile === 0) {
    const t = FROM_SBK[(v >>> 24) & 15];
    if (t === undefined || t < 1 || t > 7) return null;
    m = makeDrop(t, to);
  } else {
    if (fromRank < 1 || fromRank > 9 || fromFile < 1 || fromFile > 9) return null;
    m = makeMove(squareOf(fromFile, fromRank), to, ((v >>> 19) & 1) === 1);
  }
  return pos.isLegal(m) ? m : null;
}

/** The book move an evaluation is of: its variation's first move (Japanese notation or USI), and the reply after it. */
function evalMove(pos: Position, variation: string): { move: Move; ponder: string | null } | null {
  const m = firstMoveOf(pos, variation);
  if (m === null) return null;
  const rest = variation.trim().split(/\s+/).slice(1).join(" ");
  let ponder: string | null = null;
  if (rest !== "") {
    const child = pos.clone();
    child.doMove(m);
    const r = firstMoveOf(child, rest, moveTo(m));
    if (r !== null) ponder = moveToUsi(r);
  }
  return { move: m, ponder };
}

const hex = (v: number): string => `0x${(v >>> 0).toString(16).padStart(8, "0")}`;

export interface SbkReadResult {
  blocks: SbkBlock[];
  /** States whose position no Position field or move from a placed state gives (left out). */
  unplaced: number;
  author: string;
  description: string;
  /** What was left out and why (the reader refuses damage; these are not damage). */
  problems: string[];
}

/**
 * Reads a whole .sbk. A file that is not an SBook, a state whose Position is not a position
 * and a move that is not legal in its state are SbkErrors naming the state; states whose
 * position cannot be found are left out and reported.
 */
export function readSbk(bytes: Uint8Array): SbkReadResult {
  let book;
  try {
    book = fromBinary(SBookSchema, bytes);
  } catch (e) {
    throw new SbkError(`not a ShogiGUI book (protobuf SBook): ${e instanceof Error ? e.message : String(e)}`);
  }
  const states = book.BookStates;
  if (bytes.length > 0 && states.length === 0 && book.Author === "" && book.Description === "")
    throw new SbkError("not a ShogiGUI book: no states, author or description");
  const byId = new Map<number, number>();
  states.forEach((s, i) => {
    if (byId.has(s.Id)) throw new SbkError(`state ${s.Id} (the ${i + 1}th): the id is used twice`);
    byId.set(s.Id, i);
  });
  const at = (id: number) => byId.get(id);
  const pos: (Position | undefined)[] = new Array(states.length);
  // Positions: from their own SFEN, else walked from a placed state through legal moves.
  const queue: number[] = [];
  states.forEach((s, i) => {
    const text = s.Position?.trim()
      .replace(/^position\s+/, "")
      .replace(/^sfen\s+/, "");
    if (text) {
      try {
        pos[i] = text === "startpos" ? Position.fromSfen(START) : Position.fromSfen(text.split(/\s+/).slice(0, 3).join(" "));
        queue.push(i);
      } catch (e) {
        throw new SbkError(`state ${s.Id}: Position '${text}': ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  });
  if (states.length > 0 && pos[0] === undefined) {
    pos[0] = Position.fromSfen(START);
    queue.unshift(0);
  }
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q]!;
    const s = states[i]!;
    s.Moves.forEach((mv, k) => {
      const m = decodeSbkMove(pos[i]!, mv.Move);
      if (m === null)
        throw new SbkError(`state ${s.Id} move ${k + 1}: ${hex(mv.Move)} is not a legal move in ${pos[i]!.sfenKey()} (a damaged file?)`);
      const j = at(mv.NextStateId);
      if (j === undefined || pos[j] !== undefined) return;
      const child = pos[i]!.clone();
      child.doMove(m);
      pos[j] = Position.fromSfen(child.sfenKey());
      queue.push(j);
    });
  }
  const blocks: SbkBlock[] = [];
  const unplacedIds: number[] = [];
  states.forEach((s, i) => {
    const p = pos[i];
    if (!p) {
      unplacedIds.push(s.Id);
      return;
    }
    const evals = s.Evals.map((e) => ({ e, of: evalMove(p, e.Variation) }));
    const moves: SbkMove[] = [];
    for (const mv of s.Moves) {
      const m = decodeSbkMove(p, mv.Move)!;
      const usi = moveToUsi(m);
      const own = evals.find((x) => x.of?.move === m);
      let value: number | null = null,
        depth: number | null = null,
        ponder: string | null = null;
      if (own) {
        value = own.e.EvaluationValue;
        depth = own.e.Depth;
        ponder = own.of!.ponder;
      } else {
        // The state the move leads to, valued by its best evaluation, from this side.
        const j = at(mv.NextStateId);
        const child = j === undefined ? undefined : states[j];
        if (child && child.Evals.length) {
          const best = child.Evals.reduce((a, b) => (b.EvaluationValue > a.EvaluationValue ? b : a));
          value = -best.EvaluationValue;
          depth = best.Depth + 1;
        }
      }
      const move: SbkMove = { move: usi, value, depth, count: Math.max(0, mv.Weight) };
      if (mv.Evaluation !== SBookMoveEvaluation.None) move.mark = mv.Evaluation;
      if (ponder !== null) move.ponder = ponder;
      moves.push(move);
    }
    const block: SbkBlock = { sfen: p.sfenKey(), moves };
    if (s.Comment) block.comment = s.Comment;
    const state: SbkStateRecord = {
      games: s.Games,
      wonBlack: s.WonBlack,
      wonWhite: s.WonWhite,
      evals: s.Evals.map((e) => {
        const r: SbkEvalRecord = {
          value: e.EvaluationValue,
          depth: e.Depth,
          selDepth: e.SelDepth,
          nodes: e.Nodes.toString(),
          variation: e.Variation,
        };
        if (e.EngineName) r.engine = e.EngineName;
        return r;
      }),
    };
    if (s.BoardKey !== 0n) state.boardKey = s.BoardKey.toString();
    if (s.HandKey !== 0) state.handKey = s.HandKey;
    block.state = state;
    blocks.push(block);
  });
  const problems: string[] = [];
  if (unplacedIds.length)
    problems.push(
      `${unplacedIds.length} state(s) have no Position and no move of a placed state leads to them (ids ${unplacedIds.slice(0, 10).join(", ")}${unplacedIds.length > 10 ? ", ..." : ""}): left out`,
    );
  return { blocks, unplaced: unplacedIds.length, author: book.Author, description: book.Description, problems };
}

/**
 * Writes blocks as an SBook: one state per position (with its SFEN), moves in the given
 * order linked to the states they reach, their marks and weights. A state read from a .sbk
 * gets its games, wins and evaluations back as read. A move with a value that no written
 * evaluation accounts for (neither one of this state's whose variation starts with the
 * move, nor one of the state it leads to) gets one, its variation in Japanese notation as
 * ShogiGUI writes it; a move without a value gets none.
 */
export function writeSbk(
  blocks: readonly SbkBlock[],
  meta: { author?: string; description?: string; engine?: (sfen: string) => string | undefined } = {},
): Uint8Array {
  const idOf = new Map<string, number>();
  const kept: { block: SbkBlock; pos: Position }[] = [];
  for (const b of blocks) {
    const pos = Position.fromSfen(b.sfen);
    const key = pos.sfenKey();
    if (idOf.has(key)) continue;
    idOf.set(key, kept.length);
    kept.push({ block: b, pos });
  }
  const states: SBookState[] = kept.map(({ block, pos }, id) => {
    const moves = [];
    const evals = [];
    const st = block.state;
    if (st)
      for (const e of st.evals)
        evals.push(
          create(SBookEvalSchema, {
            EvaluationValue: e.value,
            Depth: e.depth,
            SelDepth: e.selDepth,
            Nodes: BigInt(e.nodes),
            Variation: e.variation,
            ...(e.engine !== undefined ? { EngineName: e.engine } : {}),
          }),
        );
    const evaluated = new Set<Move>();
    for (const e of st?.evals ?? []) {
      const of = evalMove(pos, e.variation);
      if (of) evaluated.add(of.move);
    }
    const engine = meta.engine?.(block.sfen);
    for (const c of block.moves) {
      const m = parseUsiMove(c.move);
      if (m === null || !pos.isLegal(m)) continue;
      const child = pos.clone();
      child.doMove(m);
      const childId = idOf.get(child.sfenKey());
      moves.push(
        create(SBookMoveSchema, {
          Move: encodeSbkMove(pos, m),
          Evaluation: (c.mark ?? SBookMoveEvaluation.None) as SBookMoveEvaluation,
          Weight: Math.max(0, Math.min(0x7fffffff, c.count)),
          NextStateId: childId ?? -1,
        }),
      );
      const childEvals = childId === undefined ? 0 : (kept[childId]!.block.state?.evals.length ?? 0);
      if (c.value !== null && !evaluated.has(m) && childEvals === 0)
        evals.push(
          create(SBookEvalSchema, {
            EvaluationValue: c.value,
            Depth: c.depth ?? 0,
            SelDepth: 0,
            Nodes: 0n,
            Variation: kifLineText(pos, c.ponder ? [c.move, c.ponder] : [c.move]),
            ...(engine !== undefined ? { EngineName: engine } : {}),
          }),
        );
    }
    return create(SBookStateSchema, {
      Id: id,
      BoardKey: st?.boardKey !== undefined ? BigInt(st.boardKey) : 0n,
      HandKey: st?.handKey ?? 0,
      Games: st?.games ?? 0,
      WonBlack: st?.wonBlack ?? 0,
      WonWhite: st?.wonWhite ?? 0,
      Position: `${pos.sfenKey()} 1`,
      ...(block.comment ? { Comment: block.comment } : {}),
      Moves: moves,
      Evals: evals,
    });
  });
  return toBinary(
    SBookSchema,
    create(SBookSchema, { Author: meta.author ?? "horu", Description: meta.description ?? "", BookStates: states }),
  );
}
