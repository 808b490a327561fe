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
  value: number;
  depth: number;
  count: number;
}

export interface SbkBlock {
  /** Normalized SFEN without ply. */
  sfen: string;
  moves: SbkMove[];
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

function firstToken(s: string): string {
  return s.trim().split(/\s+/, 1)[0] ?? "";
}

/** Reads a whole .sbk. A file that is not an SBook is an SbkError; states whose position cannot be found are skipped and counted. */
export function readSbk(bytes: Uint8Array): { blocks: SbkBlock[]; unplaced: number; author: string; description: string } {
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
  states.forEach((s, i) => byId.set(s.Id, i));
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
        pos[i] = Position.fromSfen(text.split(/\s+/).slice(0, 3).join(" "));
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
    for (const mv of states[i]!.Moves) {
      const j = at(mv.NextStateId);
      if (j === undefined || pos[j] !== undefined) continue;
      const m = decodeSbkMove(pos[i]!, mv.Move);
      if (m === null) continue;
      const child = pos[i]!.clone();
      child.doMove(m);
      pos[j] = Position.fromSfen(child.sfenKey());
      queue.push(j);
    }
  }
  const blocks: SbkBlock[] = [];
  let unplaced = 0;
  states.forEach((s, i) => {
    const p = pos[i];
    if (!p) {
      unplaced++;
      return;
    }
    const moves: SbkMove[] = [];
    for (const mv of s.Moves) {
      const m = decodeSbkMove(p, mv.Move);
      if (m === null) continue;
      const usi = moveToUsi(m);
      const own = s.Evals.find((e) => firstToken(e.Variation) === usi);
      let value = 0,
        depth = 0;
      if (own) {
        value = own.EvaluationValue;
        depth = own.Depth;
      } else {
        const j = at(mv.NextStateId);
        const child = j === undefined ? undefined : states[j];
        if (child && child.Evals.length) {
          const best = child.Evals.reduce((a, b) => (b.EvaluationValue > a.EvaluationValue ? b : a));
          value = -best.EvaluationValue;
          depth = best.Depth + 1;
        }
      }
      moves.push({ move: usi, value, depth, count: Math.max(0, mv.Weight) });
    }
    blocks.push({ sfen: p.sfenKey(), moves });
  });
  return { blocks, unplaced, author: book.Author, description: book.Description };
}

/** Writes blocks as an SBook: one state per position (with its SFEN), moves linked to the states they reach, one evaluation per move. */
export function writeSbk(blocks: readonly SbkBlock[], meta: { author?: string; description?: string } = {}): Uint8Array {
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
    for (const c of block.moves) {
      const m = parseUsiMove(c.move);
      if (m === null || !pos.isLegal(m)) continue;
      const child = pos.clone();
      child.doMove(m);
      moves.push(
        create(SBookMoveSchema, {
          Move: encodeSbkMove(pos, m),
          Evaluation: SBookMoveEvaluation.None,
          Weight: Math.max(0, Math.min(0x7fffffff, c.count)),
          NextStateId: idOf.get(child.sfenKey()) ?? -1,
        }),
      );
      evals.push(
        create(SBookEvalSchema, {
          EvaluationValue: c.value,
          Depth: c.depth,
          SelDepth: 0,
          Nodes: 0n,
          Variation: moveToUsi(m),
          EngineName: "horu",
        }),
      );
    }
    return create(SBookStateSchema, {
      Id: id,
      BoardKey: 0n,
      HandKey: 0,
      Games: 0,
      WonBlack: 0,
      WonWhite: 0,
      Position: `${pos.sfenKey()} 1`,
      Moves: moves,
      Evals: evals,
    });
  });
  return toBinary(
    SBookSchema,
    create(SBookSchema, { Author: meta.author ?? "horu", Description: meta.description ?? "", BookStates: states }),
  );
}
