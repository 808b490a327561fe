// The position: mailbox board, hands, incremental Zobrist key, legal move generation with
// pin/check detection (no make-undo-test), repetition history, SFEN/USI text.
//
// Kept as one file over 600 lines: move generation, making moves and the key update share the
// board's layout and are the hottest code horu has; split, they would call across files per move.
import { DIR_BETWEEN, FILE0, KNIGHT_TO, REL_RANK, SLIDE_MASK, STEP, STEP_MASK } from "./tables.js";
import { HAND_MAX, Z_HAND_HI, Z_HAND_LO, Z_PIECE_HI, Z_PIECE_LO, Z_SIDE_HI, Z_SIDE_LO } from "./zobrist.js";
import { moveToUsi, parseUsiMove, squareToUsi } from "./usi.js";
import { parseUsiPosition } from "./usi-position.js";
import {
  COLOR_NAMES,
  PIECE_LIMITS,
  SfenError,
  STARTPOS_SFEN,
  TYPE_NAMES,
  formatSfenKey,
  readSfen,
  scanSfen,
  type SfenScan,
} from "./sfen.js";
import { BISHOP, BLACK, GOLD, KING, KNIGHT, LANCE, PAWN, ROOK, SILVER, WHITE } from "./types.js";
import type { Color, Move } from "./types.js";
import { grown } from "../util/typed-array.js";

export { SfenError };

const HS = HAND_MAX + 1;
const PROMO = 16384;

const loadScan: SfenScan = { side: BLACK, ply: 0, end: 0 };

// Scratch for generateLegal; the generator is not re-entrant (the pawn-drop-mate test uses none of it).
const PIN_STAMP = new Uint32Array(81);
const PIN_DIR = new Int8Array(81);
const TARGET_STAMP = new Uint32Array(81);
let stampCounter = 0;

/** Is `sq` attacked by a piece of colour `by`? */
function attacked(board: Uint8Array, sq: number, by: number): boolean {
  const base = sq * 8;
  for (let d = 0; d < 8; d++) {
    let s = STEP[base + d];
    if (s < 0) continue;
    const rd = d ^ 4;
    let p = board[s];
    if (p !== 0) {
      if (p >> 4 === by && ((STEP_MASK[p] | SLIDE_MASK[p]) >> rd) & 1) return true;
      continue;
    }
    for (;;) {
      s = STEP[s * 8 + d];
      if (s < 0) break;
      p = board[s];
      if (p !== 0) {
        if (p >> 4 === by && (SLIDE_MASK[p] >> rd) & 1) return true;
        break;
      }
    }
  }
  const kn = (by << 4) | KNIGHT,
    kb = ((by ^ 1) * 81 + sq) * 2;
  let k = KNIGHT_TO[kb];
  if (k >= 0 && board[k] === kn) return true;
  k = KNIGHT_TO[kb + 1];
  return k >= 0 && board[k] === kn;
}

/** Adds the board move(s) from -> to of an unpromoted-or-not piece type t of colour us. */
function pushMoves(out: Uint16Array | Uint32Array | number[], n: number, us: number, from: number, to: number, t: number): number {
  const base = to | (from << 7);
  if (t <= 6) {
    const rrTo = REL_RANK[us * 81 + to];
    if (rrTo <= 2 || REL_RANK[us * 81 + from] <= 2) {
      out[n++] = base | PROMO;
      // Dead-piece rule: no non-promotion onto a square with no further move.
      if (t <= LANCE ? rrTo === 0 : t === KNIGHT && rrTo <= 1) return n;
    }
  }
  out[n++] = base;
  return n;
}

/**
 * With a pawn of `us` just placed on `to`, checking the king on `ksq`: is it mate?
 * Self-contained (no generator scratch) so it can run inside generateLegal.
 */
function pawnDropMates(board: Uint8Array, to: number, us: number, ksq: number): boolean {
  const them = us ^ 1;
  const pawn = (us << 4) | PAWN;
  board[to] = pawn;
  let mate = true;
  // Captures of the pawn by a non-king piece that is not pinned.
  outer: for (let d = 0; d < 8; d++) {
    let s = STEP[to * 8 + d];
    if (s < 0) continue;
    const rd = d ^ 4;
    let dist = 1;
    for (;;) {
      const p = board[s];
      if (p !== 0) {
        if (p >> 4 === them && (p & 15) !== KING && ((dist === 1 ? STEP_MASK[p] | SLIDE_MASK[p] : SLIDE_MASK[p]) >> rd) & 1) {
          board[s] = 0;
          board[to] = p;
          const ok = !attacked(board, ksq, us);
          board[s] = p;
          board[to] = pawn;
          if (ok) {
            mate = false;
            break outer;
          }
        }
        break;
      }
      s = STEP[s * 8 + d];
      if (s < 0) break;
      dist++;
    }
  }
  if (mate) {
    const kn = (them << 4) | KNIGHT,
      kb = (us * 81 + to) * 2;
    for (let i = 0; i < 2 && mate; i++) {
      const s = KNIGHT_TO[kb + i];
      if (s >= 0 && board[s] === kn) {
        board[s] = 0;
        board[to] = kn;
        if (!attacked(board, ksq, us)) mate = false;
        board[s] = kn;
        board[to] = pawn;
      }
    }
  }
  if (mate) {
    const king = board[ksq];
    board[ksq] = 0;
    for (let d = 0; d < 8; d++) {
      const s = STEP[ksq * 8 + d];
      if (s < 0) continue;
      const p = board[s];
      if (p !== 0 && p >> 4 === them) continue;
      if (!attacked(board, s, us)) {
        mate = false;
        break;
      }
    }
    board[ksq] = king;
  }
  board[to] = 0;
  return mate;
}

export class Position {
  board: Uint8Array = new Uint8Array(81);
  hands: Uint8Array = new Uint8Array(16);
  side: Color = BLACK;
  ply = 1;
  keyHi = 0;
  keyLo = 0;
  /** King square per colour, -1 when that king is absent (tsume-style positions). */
  kingSq: Int8Array = new Int8Array([-1, -1]);

  // History since construction: entry i is the position after i moves (0 = the start).
  private hMove = new Uint16Array(64);
  private hCap = new Uint8Array(64);
  private hKeyHi = new Uint32Array(64);
  private hKeyLo = new Uint32Array(64);
  /** 1 when the side to move at entry i is in check (the move into it gave check). */
  private hCheck = new Uint8Array(64);
  private hLen = 0;

  static startpos(): Position {
    return Position.fromSfen(STARTPOS_SFEN);
  }

  /**
   * A position from raw parts, without validation (predecessors built by retrograde
   * generation may be illegal; callers verify).
   */
  static fromParts(board: Uint8Array, hands: Uint8Array, side: Color, ply = 1): Position {
    const pos = new Position();
    pos.board.set(board);
    pos.hands.set(hands);
    pos.side = side;
    pos.ply = ply;
    pos.resetDerived();
    return pos;
  }

  private resetDerived(): void {
    let hi = 0,
      lo = 0;
    this.kingSq[0] = this.kingSq[1] = -1;
    for (let sq = 0; sq < 81; sq++) {
      const p = this.board[sq];
      if (p === 0) continue;
      hi ^= Z_PIECE_HI[p * 81 + sq];
      lo ^= Z_PIECE_LO[p * 81 + sq];
      if ((p & 15) === KING) this.kingSq[p >> 4] = sq;
    }
    for (let i = 1; i < 16; i++) {
      const n = this.hands[i];
      if ((i & 7) === 0 || n === 0) continue;
      hi ^= Z_HAND_HI[i * HS + n];
      lo ^= Z_HAND_LO[i * HS + n];
    }
    if (this.side === WHITE) {
      hi ^= Z_SIDE_HI;
      lo ^= Z_SIDE_LO;
    }
    this.keyHi = hi >>> 0;
    this.keyLo = lo >>> 0;
    this.hLen = 0;
    this.hKeyHi[0] = this.keyHi;
    this.hKeyLo[0] = this.keyLo;
    this.hMove[0] = 0;
    this.hCap[0] = 0;
    this.hCheck[0] = this.computeInCheck() ? 1 : 0;
  }

  private computeInCheck(): boolean {
    const k = this.kingSq[this.side];
    return k >= 0 && attacked(this.board, k, this.side ^ 1);
  }

  /** A position from an SFEN ("sfen " prefix and "startpos" accepted); throws SfenError. */
  static fromSfen(text: string): Position {
    const parts = readSfen(text);
    const pos = new Position();
    pos.board.set(parts.board);
    pos.hands.set(parts.hands);
    pos.side = parts.side;
    pos.ply = parts.ply ?? 1;
    pos.validate();
    pos.resetDerived();
    return pos;
  }

  /**
   * Sets this position in place from SFEN bytes src[start..end) (syntax checked, legality
   * not; history cleared): one Position reused over a million book positions allocates
   * nothing. Returns null, or what is wrong with the text.
   */
  loadSfenBytes(src: Uint8Array, start: number, end: number): string | null {
    const err = scanSfen(src, start, end, this.board, 0, this.hands, 0, loadScan);
    if (err !== null) return err;
    this.side = loadScan.side;
    this.ply = loadScan.ply || 1;
    this.resetDerived();
    return null;
  }

  /** Piece counts, kings, dead pieces, two pawns on a file, the side not to move in check. */
  private validate(): void {
    const perColor = [new Array<number>(9).fill(0), new Array<number>(9).fill(0)];
    const pawnFile = [0, 0];
    for (let sq = 0; sq < 81; sq++) {
      const p = this.board[sq];
      if (p === 0) continue;
      const c = p >> 4,
        t = p & 15;
      const base = t === KING ? KING : t & 7;
      perColor[c][base]++;
      const rr = REL_RANK[c * 81 + sq];
      if ((t === PAWN || t === LANCE) && rr === 0)
        throw new SfenError(`${COLOR_NAMES[c]} ${TYPE_NAMES[t].slice(0, -1)} on ${squareToUsi(sq)} has no move`);
      if (t === KNIGHT && rr <= 1) throw new SfenError(`${COLOR_NAMES[c]} knight on ${squareToUsi(sq)} has no move`);
      if (t === PAWN) {
        const bit = 1 << FILE0[sq];
        if (pawnFile[c] & bit) throw new SfenError(`two ${COLOR_NAMES[c]} pawns on file ${FILE0[sq] + 1}`);
        pawnFile[c] |= bit;
      }
    }
    for (let c = 0; c < 2; c++) {
      if (perColor[c][KING] > 1) throw new SfenError(`two ${COLOR_NAMES[c]} kings`);
      for (let t = 1; t <= 7; t++) perColor[c][t] += this.hands[c * 8 + t];
    }
    for (let t = 1; t <= 7; t++) {
      for (let c = 0; c < 2; c++) {
        if (perColor[c][t] > PIECE_LIMITS[t]) throw new SfenError(`too many ${TYPE_NAMES[t]} for ${COLOR_NAMES[c]}: ${perColor[c][t]}`);
      }
      const total = perColor[0][t] + perColor[1][t];
      if (total > PIECE_LIMITS[t])
        throw new SfenError(
          `too many ${TYPE_NAMES[t]}: ${total} (black ${perColor[0][t]}, white ${perColor[1][t]}), at most ${PIECE_LIMITS[t]}`,
        );
    }
    let ks = -1;
    for (let sq = 0; sq < 81; sq++) if (this.board[sq] === (((this.side ^ 1) << 4) | KING)) ks = sq;
    if (ks >= 0 && attacked(this.board, ks, this.side)) {
      throw new SfenError(`${COLOR_NAMES[this.side ^ 1]} king on ${squareToUsi(ks)} is in check with ${COLOR_NAMES[this.side]} to move`);
    }
  }

  /** "startpos moves 7g7f ...", "[position] sfen ... moves ...", a bare SFEN (parseUsiPosition); moves are applied with history. */
  static fromUsi(text: string): Position {
    const { start, moves } = parseUsiPosition(text);
    const pos = start === "startpos" ? Position.startpos() : Position.fromSfen(start);
    for (let i = 0; i < moves.length; i++) {
      const m = parseUsiMove(moves[i])!;
      if (!pos.isLegal(m)) throw new Error(`move ${i + 1} "${moves[i]}" is illegal in ${pos.toSfen()}`);
      pos.doMove(m);
    }
    return pos;
  }

  toSfen(withPly = true): string {
    return withPly ? `${this.sfenKey()} ${this.ply}` : this.sfenKey();
  }

  sfenKey(): string {
    return formatSfenKey(this.board, this.hands, this.side);
  }

  clone(): Position {
    const p = new Position();
    p.board.set(this.board);
    p.hands.set(this.hands);
    p.side = this.side;
    p.ply = this.ply;
    p.keyHi = this.keyHi;
    p.keyLo = this.keyLo;
    p.kingSq.set(this.kingSq);
    p.hMove = this.hMove.slice();
    p.hCap = this.hCap.slice();
    p.hKeyHi = this.hKeyHi.slice();
    p.hKeyLo = this.hKeyLo.slice();
    p.hCheck = this.hCheck.slice();
    p.hLen = this.hLen;
    return p;
  }

  /** Colour-flipped twin: board turned 180 degrees, colours and hands swapped, other side to move. History is not kept. */
  flipped(): Position {
    const b = new Uint8Array(81);
    for (let sq = 0; sq < 81; sq++) {
      const p = this.board[sq];
      if (p) b[80 - sq] = p ^ 16;
    }
    const h = new Uint8Array(16);
    for (let t = 1; t < 8; t++) {
      h[t] = this.hands[8 + t];
      h[8 + t] = this.hands[t];
    }
    return Position.fromParts(b, h, (this.side ^ 1) as Color, this.ply);
  }

  kingSquare(c: Color): number {
    return this.kingSq[c];
  }

  inCheck(): boolean {
    return this.hCheck[this.hLen] === 1;
  }

  /** Writes every legal move into `out` and returns the count (at most 593 in shogi). */
  generateLegal(out: Uint16Array | Uint32Array | number[]): number {
    const board = this.board;
    const us = this.side,
      them = us ^ 1;
    const ksq = this.kingSq[us];
    const stamp = ++stampCounter;
    let nCheck = 0,
      csq = -1;
    if (ksq >= 0) {
      for (let d = 0; d < 8; d++) {
        let s = STEP[ksq * 8 + d];
        if (s < 0) continue;
        const rd = d ^ 4;
        let dist = 1;
        for (;;) {
          const p = board[s];
          if (p !== 0) {
            if (p >> 4 === them) {
              if (((dist === 1 ? STEP_MASK[p] | SLIDE_MASK[p] : SLIDE_MASK[p]) >> rd) & 1) {
                nCheck++;
                csq = s;
              }
            } else {
              // Own piece: pinned when an enemy slider along this line is next.
              const pinned = s;
              for (;;) {
                s = STEP[s * 8 + d];
                if (s < 0) break;
                const q = board[s];
                if (q !== 0) {
                  if (q >> 4 === them && (SLIDE_MASK[q] >> rd) & 1) {
                    PIN_STAMP[pinned] = stamp;
                    PIN_DIR[pinned] = d;
                  }
                  break;
                }
              }
            }
            break;
          }
          s = STEP[s * 8 + d];
          if (s < 0) break;
          dist++;
        }
      }
      const kn = (them << 4) | KNIGHT,
        kb = (us * 81 + ksq) * 2;
      for (let i = 0; i < 2; i++) {
        const s = KNIGHT_TO[kb + i];
        if (s >= 0 && board[s] === kn) {
          nCheck++;
          csq = s;
        }
      }
      if (nCheck === 1) {
        TARGET_STAMP[csq] = stamp;
        const d = DIR_BETWEEN[ksq * 81 + csq];
        if (d >= 0) for (let s = STEP[ksq * 8 + d]; s !== csq; s = STEP[s * 8 + d]) TARGET_STAMP[s] = stamp;
      }
    }
    const inCheck = nCheck > 0;
    let n = 0;
    let pawnFiles = 0;
    if (nCheck < 2) {
      for (let from = 0; from < 81; from++) {
        const p = board[from];
        if (p === 0 || p >> 4 !== us) continue;
        const t = p & 15;
        if (t === KING) continue;
        if (t === PAWN) pawnFiles |= 1 << FILE0[from];
        const sm = STEP_MASK[p],
          lm = SLIDE_MASK[p];
        const pinDir = PIN_STAMP[from] === stamp ? PIN_DIR[from] : -1;
        for (let d = 0; d < 8; d++) {
          if ((sm >> d) & 1) {
            const to = STEP[from * 8 + d];
            if (to < 0) continue;
            const q = board[to];
            if (q !== 0 && q >> 4 === us) continue;
            if (inCheck && TARGET_STAMP[to] !== stamp) continue;
            if (pinDir >= 0 && DIR_BETWEEN[ksq * 81 + to] !== pinDir) continue;
            n = pushMoves(out, n, us, from, to, t);
          } else if ((lm >> d) & 1) {
            let to = from;
            for (;;) {
              to = STEP[to * 8 + d];
              if (to < 0) break;
              const q = board[to];
              if (q !== 0 && q >> 4 === us) break;
              if ((!inCheck || TARGET_STAMP[to] === stamp) && (pinDir < 0 || DIR_BETWEEN[ksq * 81 + to] === pinDir)) {
                n = pushMoves(out, n, us, from, to, t);
              }
              if (q !== 0) break;
            }
          }
        }
        if (t === KNIGHT && pinDir < 0) {
          const kb = (us * 81 + from) * 2;
          for (let i = 0; i < 2; i++) {
            const to = KNIGHT_TO[kb + i];
            if (to < 0) continue;
            const q = board[to];
            if (q !== 0 && q >> 4 === us) continue;
            if (inCheck && TARGET_STAMP[to] !== stamp) continue;
            n = pushMoves(out, n, us, from, to, t);
          }
        }
      }
    }
    if (ksq >= 0) {
      const king = board[ksq];
      board[ksq] = 0; // so sliders see through the king's old square
      for (let d = 0; d < 8; d++) {
        const to = STEP[ksq * 8 + d];
        if (to < 0) continue;
        const q = board[to];
        if (q !== 0 && q >> 4 === us) continue;
        if (!attacked(board, to, them)) out[n++] = to | (ksq << 7);
      }
      board[ksq] = king;
    }
    if (nCheck >= 2) return n;
    // Drops.
    const hb = us * 8;
    const hands = this.hands;
    let held = 0;
    for (let t = 1; t <= 7; t++) if (hands[hb + t] !== 0) held |= 1 << t;
    if (held === 0) return n;
    const rrBase = us * 81;
    const tk = this.kingSq[them];
    const pawnCheckSq = tk >= 0 ? STEP[tk * 8 + (us === BLACK ? 4 : 0)] : -1;
    const heldPawn = (held >> PAWN) & 1,
      heldLance = (held >> LANCE) & 1,
      heldKnight = (held >> KNIGHT) & 1;
    const others = held & ~((1 << PAWN) | (1 << LANCE) | (1 << KNIGHT));
    for (let to = 0; to < 81; to++) {
      if (board[to] !== 0) continue;
      if (inCheck && TARGET_STAMP[to] !== stamp) continue;
      const rr = REL_RANK[rrBase + to];
      const dbase = to | (80 << 7);
      if (heldPawn && rr !== 0 && ((pawnFiles >> FILE0[to]) & 1) === 0) {
        if (to !== pawnCheckSq || !pawnDropMates(board, to, us, tk)) out[n++] = dbase + (PAWN << 7);
      }
      if (heldLance && rr !== 0) out[n++] = dbase + (LANCE << 7);
      if (heldKnight && rr > 1) out[n++] = dbase + (KNIGHT << 7);
      if (others !== 0) {
        for (let t = SILVER; t <= GOLD; t++) if ((others >> t) & 1) out[n++] = dbase + (t << 7);
      }
    }
    return n;
  }

  legalMoves(): Move[] {
    const buf = new Uint16Array(600);
    const n = this.generateLegal(buf);
    return Array.from(buf.subarray(0, n));
  }

  /** Full legality of an arbitrary 15-bit move in this position. */
  isLegal(m: Move): boolean {
    if (!Number.isInteger(m) || m <= 0 || m >= 32768) return false;
    const board = this.board;
    const us = this.side,
      them = us ^ 1;
    const to = m & 127,
      from = (m >> 7) & 127,
      promo = (m & PROMO) !== 0;
    if (to > 80) return false;
    const ksq = this.kingSq[us];
    if (from >= 81) {
      const t = from - 80;
      if (t > 7 || promo || this.hands[us * 8 + t] === 0 || board[to] !== 0) return false;
      const rr = REL_RANK[us * 81 + to];
      if ((t === PAWN || t === LANCE) && rr === 0) return false;
      if (t === KNIGHT && rr <= 1) return false;
      const pc = (us << 4) | t;
      if (t === PAWN) {
        const f0 = FILE0[to] * 9;
        for (let s = f0; s < f0 + 9; s++) if (board[s] === pc) return false;
      }
      if (ksq >= 0 && this.inCheck()) {
        board[to] = pc;
        const bad = attacked(board, ksq, them);
        board[to] = 0;
        if (bad) return false;
      }
      if (t === PAWN) {
        const tk = this.kingSq[them];
        if (tk >= 0 && STEP[tk * 8 + (us === BLACK ? 4 : 0)] === to && pawnDropMates(board, to, us, tk)) return false;
      }
      return true;
    }
    if (from > 80 || from === to) return false;
    const p = board[from];
    if (p === 0 || p >> 4 !== us) return false;
    const q = board[to];
    if (q !== 0 && (q >> 4 === us || (q & 15) === KING)) return false;
    const t = p & 15;
    // Reachability.
    if (t === KNIGHT) {
      const kb = (us * 81 + from) * 2;
      if (KNIGHT_TO[kb] !== to && KNIGHT_TO[kb + 1] !== to) return false;
    } else {
      const d = DIR_BETWEEN[from * 81 + to];
      if (d < 0) return false;
      if (STEP[from * 8 + d] === to) {
        if ((((STEP_MASK[p] | SLIDE_MASK[p]) >> d) & 1) === 0) return false;
      } else {
        if (((SLIDE_MASK[p] >> d) & 1) === 0) return false;
        for (let s = STEP[from * 8 + d]; s !== to; s = STEP[s * 8 + d]) if (board[s] !== 0) return false;
      }
    }
    const rrTo = REL_RANK[us * 81 + to];
    if (promo) {
      if (t > 6) return false;
      if (rrTo > 2 && REL_RANK[us * 81 + from] > 2) return false;
    } else if (((t === PAWN || t === LANCE) && rrTo === 0) || (t === KNIGHT && rrTo <= 1)) {
      return false;
    }
    const k = t === KING ? to : ksq;
    if (k < 0) return true;
    board[from] = 0;
    board[to] = promo ? p | 8 : p;
    const bad = attacked(board, k, them);
    board[from] = p;
    board[to] = q;
    return !bad;
  }

  private ensureHistory(): void {
    if (this.hLen + 1 < this.hMove.length) return;
    const cap = this.hMove.length * 2;
    this.hMove = grown(this.hMove, cap);
    this.hCap = grown(this.hCap, cap);
    this.hKeyHi = grown(this.hKeyHi, cap);
    this.hKeyLo = grown(this.hKeyLo, cap);
    this.hCheck = grown(this.hCheck, cap);
  }

  /** Makes a legal move (not checked), recording history for undo and repetition. */
  doMove(m: Move): void {
    this.ensureHistory();
    const board = this.board,
      hands = this.hands;
    const us = this.side;
    const to = m & 127,
      from = (m >> 7) & 127;
    let hi = this.keyHi ^ Z_SIDE_HI,
      lo = this.keyLo ^ Z_SIDE_LO;
    let cap = 0;
    if (from >= 81) {
      const t = from - 80,
        pc = (us << 4) | t,
        slot = us * 8 + t,
        c = hands[slot];
      board[to] = pc;
      hands[slot] = c - 1;
      hi ^= Z_PIECE_HI[pc * 81 + to] ^ Z_HAND_HI[slot * HS + c] ^ Z_HAND_HI[slot * HS + c - 1];
      lo ^= Z_PIECE_LO[pc * 81 + to] ^ Z_HAND_LO[slot * HS + c] ^ Z_HAND_LO[slot * HS + c - 1];
    } else {
      const pc = board[from];
      const np = m & PROMO ? pc | 8 : pc;
      cap = board[to];
      board[from] = 0;
      board[to] = np;
      hi ^= Z_PIECE_HI[pc * 81 + from] ^ Z_PIECE_HI[np * 81 + to];
      lo ^= Z_PIECE_LO[pc * 81 + from] ^ Z_PIECE_LO[np * 81 + to];
      if (cap !== 0) {
        const slot = us * 8 + (cap & 7),
          c = hands[slot];
        hands[slot] = c + 1;
        hi ^= Z_PIECE_HI[cap * 81 + to] ^ Z_HAND_HI[slot * HS + c] ^ Z_HAND_HI[slot * HS + c + 1];
        lo ^= Z_PIECE_LO[cap * 81 + to] ^ Z_HAND_LO[slot * HS + c] ^ Z_HAND_LO[slot * HS + c + 1];
      }
      if ((pc & 15) === KING) this.kingSq[us] = to;
    }
    this.keyHi = hi >>> 0;
    this.keyLo = lo >>> 0;
    this.side = (us ^ 1) as Color;
    this.ply++;
    const i = ++this.hLen;
    this.hMove[i] = m;
    this.hCap[i] = cap;
    this.hKeyHi[i] = this.keyHi;
    this.hKeyLo[i] = this.keyLo;
    const k = this.kingSq[us ^ 1];
    this.hCheck[i] = k >= 0 && attacked(board, k, us) ? 1 : 0;
  }

  undoMove(): void {
    const i = this.hLen;
    if (i === 0) throw new Error("undoMove: no move to undo");
    const m = this.hMove[i],
      cap = this.hCap[i];
    const board = this.board,
      hands = this.hands;
    const us = this.side ^ 1; // the side that made the move
    const to = m & 127,
      from = (m >> 7) & 127;
    if (from >= 81) {
      board[to] = 0;
      hands[us * 8 + from - 80]++;
    } else {
      const np = board[to];
      const pc = m & PROMO ? np & ~8 : np;
      board[from] = pc;
      board[to] = cap;
      if (cap !== 0) hands[us * 8 + (cap & 7)]--;
      if ((pc & 15) === KING) this.kingSq[us] = from;
    }
    this.side = us as Color;
    this.ply--;
    this.hLen = i - 1;
    this.keyHi = this.hKeyHi[i - 1];
    this.keyLo = this.hKeyLo[i - 1];
  }

  /** Moves made since this position was created (what undoMove can take back). */
  get historyLength(): number {
    return this.hLen;
  }

  givesCheck(m: Move): boolean {
    const board = this.board;
    const us = this.side;
    const tk = this.kingSq[us ^ 1];
    if (tk < 0) return false;
    const to = m & 127,
      from = (m >> 7) & 127;
    if (from >= 81) {
      board[to] = (us << 4) | (from - 80);
      const r = attacked(board, tk, us);
      board[to] = 0;
      return r;
    }
    const p = board[from],
      q = board[to];
    board[from] = 0;
    board[to] = m & PROMO ? p | 8 : p;
    const r = attacked(board, tk, us);
    board[from] = p;
    board[to] = q;
    return r;
  }

  /** Key after m without making it: out[0] = hi, out[1] = lo. */
  keyAfter(m: Move, out: Uint32Array): void {
    const board = this.board,
      hands = this.hands;
    const us = this.side;
    const to = m & 127,
      from = (m >> 7) & 127;
    let hi = this.keyHi ^ Z_SIDE_HI,
      lo = this.keyLo ^ Z_SIDE_LO;
    if (from >= 81) {
      const t = from - 80,
        pc = (us << 4) | t,
        slot = us * 8 + t,
        c = hands[slot];
      hi ^= Z_PIECE_HI[pc * 81 + to] ^ Z_HAND_HI[slot * HS + c] ^ Z_HAND_HI[slot * HS + c - 1];
      lo ^= Z_PIECE_LO[pc * 81 + to] ^ Z_HAND_LO[slot * HS + c] ^ Z_HAND_LO[slot * HS + c - 1];
    } else {
      const pc = board[from];
      const np = m & PROMO ? pc | 8 : pc;
      const cap = board[to];
      hi ^= Z_PIECE_HI[pc * 81 + from] ^ Z_PIECE_HI[np * 81 + to];
      lo ^= Z_PIECE_LO[pc * 81 + from] ^ Z_PIECE_LO[np * 81 + to];
      if (cap !== 0) {
        const slot = us * 8 + (cap & 7),
          c = hands[slot];
        hi ^= Z_PIECE_HI[cap * 81 + to] ^ Z_HAND_HI[slot * HS + c] ^ Z_HAND_HI[slot * HS + c + 1];
        lo ^= Z_PIECE_LO[cap * 81 + to] ^ Z_HAND_LO[slot * HS + c] ^ Z_HAND_LO[slot * HS + c + 1];
      }
    }
    out[0] = hi >>> 0;
    out[1] = lo >>> 0;
  }

  /**
   * CSA 27-point entering-king declaration for the side to move: king in the enemy camp,
   * not in check, at least 10 other own pieces in the camp, and points (rook/bishop and
   * their promotions 5, others 1) over pieces in the camp plus the hand: black 28, white 27.
   */
  declarationWin(): boolean {
    const us = this.side;
    const ksq = this.kingSq[us];
    if (ksq < 0 || REL_RANK[us * 81 + ksq] > 2 || this.inCheck()) return false;
    let count = 0,
      points = 0;
    for (let sq = 0; sq < 81; sq++) {
      const p = this.board[sq];
      if (p === 0 || p >> 4 !== us || REL_RANK[us * 81 + sq] > 2) continue;
      const t = p & 15;
      if (t === KING) continue;
      count++;
      points += (t & 7) === BISHOP || (t & 7) === ROOK ? 5 : 1;
    }
    if (count < 10) return false;
    const h = us * 8;
    points += 5 * (this.hands[h + BISHOP] + this.hands[h + ROOK]);
    points += this.hands[h + PAWN] + this.hands[h + LANCE] + this.hands[h + KNIGHT] + this.hands[h + SILVER] + this.hands[h + GOLD];
    return points >= (us === BLACK ? 28 : 27);
  }

  /** A move that mates at once, or 0. Tries every checking move. */
  mateInOne(): Move {
    const buf = new Uint16Array(600),
      reply = new Uint16Array(600);
    const n = this.generateLegal(buf);
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      if (!this.givesCheck(m)) continue;
      this.doMove(m);
      const replies = this.generateLegal(reply);
      this.undoMove();
      if (replies === 0) return m;
    }
    return 0;
  }

  /** How many times the current position (board, hands, side) occurs in the history, itself included. */
  repetitionCount(): number {
    const n = this.hLen,
      hi = this.keyHi,
      lo = this.keyLo;
    let count = 1;
    for (let i = n - 2; i >= 0; i -= 2) if (this.hKeyHi[i] === hi && this.hKeyLo[i] === lo) count++;
    return count;
  }

  /**
   * Sennichite from the side to move's view: "draw" once the position has occurred four
   * times, unless one side gave check with every one of its moves since the first of the
   * last four occurrences (that side loses; both sides checking throughout is a draw).
   */
  repetition(): "none" | "draw" | "win" | "lose" {
    const n = this.hLen,
      hi = this.keyHi,
      lo = this.keyLo;
    let count = 1,
      first = n;
    for (let i = n - 2; i >= 0 && count < 4; i -= 2) {
      if (this.hKeyHi[i] === hi && this.hKeyLo[i] === lo) {
        count++;
        first = i;
      }
    }
    if (count < 4) return "none";
    // Entry j is in check when move j gave check; moves n, n-2, ... are the opponent's.
    let oppAll = true,
      usAll = true;
    for (let j = n; j > first; j -= 2) if (!this.hCheck[j]) oppAll = false;
    for (let j = n - 1; j > first; j -= 2) if (!this.hCheck[j]) usAll = false;
    if (oppAll && !usAll) return "win";
    if (usAll && !oppAll) return "lose";
    return "draw";
  }
}

export function perft(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  const bufs: Uint16Array[] = [];
  for (let i = 0; i < depth; i++) bufs.push(new Uint16Array(600));
  return perftRec(pos, depth, bufs);
}

function perftRec(pos: Position, depth: number, bufs: Uint16Array[]): number {
  const buf = bufs[depth - 1];
  const n = pos.generateLegal(buf);
  if (depth === 1) return n;
  let total = 0;
  for (let i = 0; i < n; i++) {
    pos.doMove(buf[i]);
    total += perftRec(pos, depth - 1, bufs);
    pos.undoMove();
  }
  return total;
}

/** Per-move counts at depth - 1 after each legal move, sorted by USI text. */
export function perftDivide(pos: Position, depth: number): Array<{ move: string; count: number }> {
  const moves = pos.legalMoves();
  const out = moves.map((m) => {
    pos.doMove(m);
    const count = perft(pos, depth - 1);
    pos.undoMove();
    return { move: moveToUsi(m), count };
  });
  out.sort((a, b) => (a.move < b.move ? -1 : a.move > b.move ? 1 : 0));
  return out;
}
