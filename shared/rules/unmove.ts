// Retrograde move generation: from a position, every (predecessor, move, captured piece)
// that could have led to it. Used to link a newly inserted book node to known parents, so
// it must be complete; extra candidates are fine because callers look the predecessor key
// up in the book and verify with isLegal.
import { KNIGHT_TO, REL_RANK, SLIDE_MASK, STEP, STEP_MASK } from "./tables.js";
import { HAND_MAX, Z_HAND_HI, Z_HAND_LO, Z_PIECE_HI, Z_PIECE_LO, Z_SIDE_HI, Z_SIDE_LO } from "./zobrist.js";
import { Position } from "./position.js";
import { KING, KNIGHT, LANCE, PAWN } from "./types.js";
import type { Color, Move, Piece } from "./types.js";

const HS = HAND_MAX + 1;
const PROMO = 16384;

/** Calls back for every (predecessor key, move, captured piece) such that some legal position P with that key has `move` as a legal move leading to `pos`. A superset is fine (callers verify), completeness is required. */
export function forEachUnmove(pos: Position, visit: (keyHi: number, keyLo: number, move: Move, captured: Piece) => void): void {
  const board = pos.board,
    hands = pos.hands;
  const mover = pos.side ^ 1,
    victim = pos.side;
  const baseHi = pos.keyHi ^ Z_SIDE_HI,
    baseLo = pos.keyLo ^ Z_SIDE_LO;
  const hb = mover * 8;
  for (let sq = 0; sq < 81; sq++) {
    const p = board[sq];
    if (p === 0 || p >> 4 !== mover) continue;
    const t = p & 15;
    const offHi = baseHi ^ Z_PIECE_HI[p * 81 + sq],
      offLo = baseLo ^ Z_PIECE_LO[p * 81 + sq];
    // Undrop: an unpromoted non-king piece goes back to the hand.
    if (t < KING) {
      const slot = hb + t,
        c = hands[slot];
      if (c < HAND_MAX) {
        visit(
          (offHi ^ Z_HAND_HI[slot * HS + c] ^ Z_HAND_HI[slot * HS + c + 1]) >>> 0,
          (offLo ^ Z_HAND_LO[slot * HS + c] ^ Z_HAND_LO[slot * HS + c + 1]) >>> 0,
          sq | ((80 + t) << 7),
          0,
        );
      }
    }
    // Board moves back: as the same piece, and as the unpromoted piece when t is promoted.
    const variants = t > KING ? 2 : 1;
    for (let v = 0; v < variants; v++) {
      const op = v === 0 ? p : p & ~8;
      const promo = v === 1;
      const toInZone = REL_RANK[mover * 81 + sq] <= 2;
      const sm = STEP_MASK[op],
        lm = SLIDE_MASK[op];
      for (let d = 0; d < 8; d++) {
        const back = d ^ 4;
        if ((sm >> d) & 1) {
          const from = STEP[sq * 8 + back];
          if (from >= 0 && board[from] === 0 && (!promo || toInZone || REL_RANK[mover * 81 + from] <= 2)) {
            emitFrom(visit, hands, mover, victim, offHi, offLo, op, from, sq, promo);
          }
        } else if ((lm >> d) & 1) {
          let from = sq;
          for (;;) {
            from = STEP[from * 8 + back];
            if (from < 0 || board[from] !== 0) break;
            if (!promo || toInZone || REL_RANK[mover * 81 + from] <= 2)
              emitFrom(visit, hands, mover, victim, offHi, offLo, op, from, sq, promo);
          }
        }
      }
      if ((op & 15) === KNIGHT) {
        // A mover's knight on `from` reaches sq iff from is a knight target of the other colour from sq.
        const kb = (victim * 81 + sq) * 2;
        for (let i = 0; i < 2; i++) {
          const from = KNIGHT_TO[kb + i];
          if (from >= 0 && board[from] === 0 && (!promo || toInZone || REL_RANK[mover * 81 + from] <= 2)) {
            emitFrom(visit, hands, mover, victim, offHi, offLo, op, from, sq, promo);
          }
        }
      }
    }
  }
}

function emitFrom(
  visit: (keyHi: number, keyLo: number, move: Move, captured: Piece) => void,
  hands: Uint8Array,
  mover: number,
  victim: number,
  offHi: number,
  offLo: number,
  op: number,
  from: number,
  to: number,
  promo: boolean,
): void {
  const m = to | (from << 7) | (promo ? PROMO : 0);
  const hi = offHi ^ Z_PIECE_HI[op * 81 + from],
    lo = offLo ^ Z_PIECE_LO[op * 81 + from];
  visit(hi >>> 0, lo >>> 0, m, 0);
  const rr = REL_RANK[victim * 81 + to];
  for (let bt = 1; bt <= 7; bt++) {
    const slot = mover * 8 + bt,
      c = hands[slot];
    if (c === 0) continue;
    const hHi = hi ^ Z_HAND_HI[slot * HS + c] ^ Z_HAND_HI[slot * HS + c - 1];
    const hLo = lo ^ Z_HAND_LO[slot * HS + c] ^ Z_HAND_LO[slot * HS + c - 1];
    // The captured piece stood on `to` for the victim: skip ones that could not stand there.
    const dead = ((bt === PAWN || bt === LANCE) && rr === 0) || (bt === KNIGHT && rr <= 1);
    if (!dead) {
      const cap = (victim << 4) | bt;
      visit((hHi ^ Z_PIECE_HI[cap * 81 + to]) >>> 0, (hLo ^ Z_PIECE_LO[cap * 81 + to]) >>> 0, m, cap);
    }
    if (bt <= 6) {
      const cap = (victim << 4) | bt | 8;
      visit((hHi ^ Z_PIECE_HI[cap * 81 + to]) >>> 0, (hLo ^ Z_PIECE_LO[cap * 81 + to]) >>> 0, m, cap);
    }
  }
}

/** Builds that predecessor position (for verification by isLegal + key comparison). */
export function predecessor(pos: Position, move: Move, captured: Piece): Position {
  const board = pos.board.slice(),
    hands = pos.hands.slice();
  const mover = pos.side ^ 1;
  const to = move & 127,
    from = (move >> 7) & 127;
  if (from >= 81) {
    board[to] = 0;
    hands[mover * 8 + from - 80]++;
  } else {
    const np = board[to];
    board[from] = move & PROMO ? np & ~8 : np;
    board[to] = captured;
    if (captured !== 0) hands[mover * 8 + (captured & 7)]--;
  }
  return Position.fromParts(board, hands, mover as Color, Math.max(1, pos.ply - 1));
}
