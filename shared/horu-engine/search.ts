// The alpha-beta search: iterative deepening, principal variation search with PV/NonPV
// node types, a transposition table, move ordering (hash move, SEE, killers, history), and
// a quiescence search whose move generation is chosen per node (docs/DESIGN.md §11.3): captures and
// promotions always; checks never, always, or only two plies after a move the mate-threat
// predictor flagged.
import type { Position } from "../rules/position.js";
import type { Move } from "../rules/types.js";
import { VALUE_MATE, mateIn, matedIn } from "../rules/types.js";
import { PIECE_VALUE, see } from "./attacks.js";
import { evaluate, progress } from "./eval.js";
import { threatProbability } from "./threat.js";
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TranspositionTable, valueFromTT, valueToTT } from "./tt.js";
import { VALUE_MATE_BOUND } from "../rules/types.js";
import type { TTHit } from "./tt.js";

export type QuiescenceChecks = "none" | "all" | "threat";

export interface SearchOptions {
  multiPV: number;
  /** Which checks the quiescence search generates (the variants of docs/DESIGN.md §11.3). */
  qChecks: QuiescenceChecks;
  /** Checks are generated only in the first qCheckPlies plies of a quiescence search. */
  qCheckPlies: number;
  /** A move is a mate threat when the predictor's probability is at least this. */
  threatThreshold: number;
  /** Value of a repetition (sennichite) for the side to move. */
  drawValue: number;
}

export const DEFAULT_OPTIONS: SearchOptions = { multiPV: 1, qChecks: "threat", qCheckPlies: 2, threatThreshold: 0.5, drawValue: 0 };

export interface Limits {
  depth?: number;
  nodes?: number;
  /** Polled every 1024 nodes; true ends the search (the last full iteration stands). */
  stop?: () => boolean;
  /** Root moves to consider (USI `go searchmoves`); all legal moves when absent. */
  searchMoves?: Move[];
}

export interface Line {
  move: Move;
  value: number;
  pv: Move[];
}

export interface Iteration {
  depth: number;
  seldepth: number;
  nodes: number;
  lines: Line[];
}

export interface SearchResult {
  best: Move;
  ponder: Move;
  value: number;
  depth: number;
  nodes: number;
  lines: Line[];
}

const MAX_PLY = 128;
const INF = VALUE_MATE + 1;
const isCapture = (pos: Position, m: Move): boolean => ((m >> 7) & 127) < 81 && pos.board[m & 127] !== 0;

export class Searcher {
  readonly tt: TranspositionTable;
  opts: SearchOptions;
  nodes = 0;
  seldepth = 0;
  private stopped = false;
  private limits: Limits = {};
  private pos!: Position;
  private readonly moveBufs: Uint16Array[] = [];
  private readonly scoreBufs: Int32Array[] = [];
  private readonly pvTable = new Uint16Array(MAX_PLY * MAX_PLY);
  private readonly pvLen = new Int32Array(MAX_PLY);
  private readonly killers = new Uint16Array(MAX_PLY * 2);
  /** History by (side, from, to): from 0..87 covers drops. */
  private readonly history = new Int32Array(2 * 128 * 128);
  /** threat[p]: the move that led to the node at ply p threatens mate (1), does not (0), not yet asked (2). */
  private readonly threat = new Uint8Array(MAX_PLY + 2);
  private readonly moveAt = new Uint16Array(MAX_PLY + 2);
  private readonly capturedAt = new Uint8Array(MAX_PLY + 2);
  /** How often the predictor was asked, and how often it said "threat". */
  threatAsked = 0;
  threatSaid = 0;
  private readonly keyHi = new Uint32Array(MAX_PLY + 2);
  private readonly keyLo = new Uint32Array(MAX_PLY + 2);
  private readonly checked = new Uint8Array(MAX_PLY + 2);
  private readonly hit: TTHit = { move: 0, value: 0, depth: 0, bound: 0, eval: 0 };
  private phase = 0;
  private rootDepth = 1;
  /** Whether the game move two plies before the root threatened mate (set by quiescenceOnly). */
  private rootThreat = false;

  constructor(tt: TranspositionTable, opts: Partial<SearchOptions> = {}) {
    this.tt = tt;
    this.opts = { ...DEFAULT_OPTIONS, ...opts };
    for (let i = 0; i < MAX_PLY + 1; i++) {
      this.moveBufs.push(new Uint16Array(600));
      this.scoreBufs.push(new Int32Array(600));
    }
  }

  clearHistory(): void {
    this.history.fill(0);
    this.killers.fill(0);
  }

  /**
   * Iterative deepening from `pos` (left as it was found). `onIteration` is called after
   * each completed depth with the MultiPV lines, best first.
   */
  search(pos: Position, limits: Limits, onIteration?: (it: Iteration) => void): SearchResult {
    this.pos = pos;
    this.limits = limits;
    this.nodes = 0;
    this.stopped = false;
    this.tt.newSearch();
    this.killers.fill(0);
    for (let i = 0; i < this.history.length; i++) this.history[i] >>= 2;
    this.phase = progress(pos);
    this.rootThreat = false;
    const all = pos.legalMoves();
    const rootMoves = limits.searchMoves?.length ? all.filter((m) => limits.searchMoves!.includes(m)) : all;
    const result: SearchResult = { best: 0, ponder: 0, value: 0, depth: 0, nodes: 0, lines: [] };
    if (rootMoves.length === 0) {
      result.value = pos.inCheck() || all.length === 0 ? matedIn(0) : 0;
      return result;
    }
    const values = new Int32Array(rootMoves.length).fill(-INF);
    const pvs: Move[][] = rootMoves.map((m) => [m]);
    const maxDepth = Math.min(limits.depth ?? MAX_PLY - 10, MAX_PLY - 10);
    const multiPV = Math.max(1, Math.min(this.opts.multiPV, rootMoves.length));
    this.keyHi[0] = pos.keyHi;
    this.keyLo[0] = pos.keyLo;
    this.checked[0] = pos.inCheck() ? 1 : 0;
    this.threat[0] = 0;
    for (let depth = 1; depth <= maxDepth; depth++) {
      this.seldepth = 0;
      this.rootDepth = depth;
      for (let pvIdx = 0; pvIdx < multiPV; pvIdx++) {
        this.searchRoot(rootMoves, values, pvs, pvIdx, depth);
        if (this.stopped) break;
      }
      if (this.stopped && depth > 1) break;
      const lines: Line[] = [];
      for (let i = 0; i < multiPV; i++) lines.push({ move: rootMoves[i], value: values[i], pv: pvs[i].slice() });
      result.lines = lines;
      result.best = lines[0].move;
      result.ponder = lines[0].pv[1] ?? 0;
      result.value = lines[0].value;
      result.depth = depth;
      result.nodes = this.nodes;
      onIteration?.({ depth, seldepth: this.seldepth, nodes: this.nodes, lines });
      if (this.stopped) break;
      // A proven mate needs no deeper search unless asked for more lines.
      if (multiPV === 1 && Math.abs(lines[0].value) >= VALUE_MATE_BOUND && depth >= VALUE_MATE - Math.abs(lines[0].value) + 1) break;
    }
    result.nodes = this.nodes;
    return result;
  }

  /** One root search for line pvIdx: the best of rootMoves[pvIdx..] moves to pvIdx. */
  private searchRoot(rootMoves: Move[], values: Int32Array, pvs: Move[][], pvIdx: number, depth: number): void {
    const pos = this.pos;
    let alpha = -INF;
    const beta = INF;
    for (let i = pvIdx; i < rootMoves.length; i++) values[i] = i === pvIdx ? values[i] : -INF;
    let bestIdx = pvIdx;
    for (let i = pvIdx; i < rootMoves.length; i++) {
      const m = rootMoves[i];
      const captured = pos.board[m & 127] & 15;
      pos.doMove(m);
      this.enter(1, m, captured);
      const ext = pos.inCheck() ? 1 : 0;
      let v: number;
      if (i === pvIdx) v = -this.search_(true, -beta, -alpha, depth - 1 + ext, 1);
      else {
        v = -this.search_(false, -alpha - 1, -alpha, depth - 1 + ext, 1);
        if (v > alpha && !this.stopped) v = -this.search_(true, -beta, -alpha, depth - 1 + ext, 1);
      }
      pos.undoMove();
      if (this.stopped && depth > 1) return;
      if (v > alpha || i === pvIdx) {
        values[i] = v;
        const line = [m];
        for (let j = 1; j < this.pvLen[1]; j++) line.push(this.pvTable[MAX_PLY + j]);
        pvs[i] = line;
        if (v > alpha) {
          alpha = v;
          bestIdx = i;
        }
      } else values[i] = -INF;
    }
    // Move the best to pvIdx, keeping the rest in order (ties: the earlier move).
    if (bestIdx !== pvIdx) {
      const m = rootMoves[bestIdx],
        v = values[bestIdx],
        pv = pvs[bestIdx];
      for (let i = bestIdx; i > pvIdx; i--) {
        rootMoves[i] = rootMoves[i - 1];
        values[i] = values[i - 1];
        pvs[i] = pvs[i - 1];
      }
      rootMoves[pvIdx] = m;
      values[pvIdx] = v;
      pvs[pvIdx] = pv;
    }
  }

  /** Bookkeeping on entering the node at `ply` through move m. */
  private enter(ply: number, m: Move, captured: number): void {
    const pos = this.pos;
    this.keyHi[ply] = pos.keyHi;
    this.keyLo[ply] = pos.keyLo;
    this.checked[ply] = pos.inCheck() ? 1 : 0;
    this.moveAt[ply] = m;
    this.capturedAt[ply] = captured;
    this.threat[ply] = 2;
  }

  /**
   * Did the move two plies before the node at `ply` (the side to move's own last move)
   * threaten mate? Asked lazily, only by quiescence nodes that may generate checks: the
   * predictor reads the position right after that move, so the last move is taken back
   * for the question and made again.
   */
  private threatened(ply: number): boolean {
    const p = ply - 1;
    if (p < 0) return this.rootThreat;
    if (p < 1) return false;
    if (this.threat[p] === 2) {
      const pos = this.pos;
      const last = this.moveAt[ply];
      pos.undoMove();
      this.threatAsked++;
      const yes = threatProbability(pos, this.moveAt[p], this.capturedAt[p], this.phase) >= this.opts.threatThreshold;
      pos.doMove(last);
      if (yes) this.threatSaid++;
      this.threat[p] = yes ? 1 : 0;
    }
    return this.threat[p] === 1;
  }

  private checkStop(): void {
    // Depth 1 always completes, so there is always a move to play.
    // Every 256 nodes: on a loaded machine 1,024 nodes can take most of a second past the deadline.
    if ((this.nodes & 255) === 0 && this.rootDepth > 1) {
      if ((this.limits.nodes !== undefined && this.nodes >= this.limits.nodes) || this.limits.stop?.()) this.stopped = true;
    }
  }

  /**
   * Repetition on the current line: the draw value, or a win for the side to move when the
   * other side gave check with every move of the cycle (perpetual check loses). Earlier
   * occurrences before the root count as a plain draw. null: no repetition.
   */
  private repetition(ply: number): number | null {
    const hi = this.keyHi[ply],
      lo = this.keyLo[ply];
    for (let i = ply - 2; i >= 0; i -= 2) {
      if (this.keyHi[i] === hi && this.keyLo[i] === lo) {
        let oppChecks = true,
          ourChecks = true;
        for (let j = ply; j > i; j -= 2) if (!this.checked[j]) oppChecks = false;
        for (let j = ply - 1; j > i; j -= 2) if (!this.checked[j]) ourChecks = false;
        if (oppChecks && !ourChecks) return VALUE_MATE_BOUND - 1;
        if (ourChecks && !oppChecks) return -(VALUE_MATE_BOUND - 1);
        return this.opts.drawValue;
      }
    }
    return this.pos.repetitionCount() > 1 ? this.opts.drawValue : null;
  }

  private search_(pvNode: boolean, alpha: number, beta: number, depth: number, ply: number): number {
    if (depth <= 0) return this.qsearch(pvNode, alpha, beta, ply, 0);
    const pos = this.pos;
    this.nodes++;
    this.pvLen[ply] = ply;
    if (ply > this.seldepth) this.seldepth = ply;
    this.checkStop();
    if (this.stopped) return 0;
    const rep = this.repetition(ply);
    if (rep !== null) return rep;
    if (ply >= MAX_PLY - 2) return evaluate(pos);
    // Mate distance pruning.
    alpha = Math.max(alpha, matedIn(ply));
    beta = Math.min(beta, mateIn(ply + 1));
    if (alpha >= beta) return alpha;

    const hit = this.hit;
    const found = this.tt.probe(pos.keyHi, pos.keyLo, hit);
    const ttMove = found && pos.isLegal(hit.move) ? hit.move : 0;
    if (found && !pvNode && hit.depth >= depth) {
      const v = valueFromTT(hit.value, ply);
      if (hit.bound === BOUND_EXACT || (hit.bound === BOUND_LOWER && v >= beta) || (hit.bound === BOUND_UPPER && v <= alpha)) return v;
    }
    const inCheck = this.checked[ply] === 1;
    const staticEval = inCheck ? -INF : found ? hit.eval : evaluate(pos);

    // Reverse futility pruning: far above beta near the leaves, a quiet move will not fall below it.
    if (!pvNode && !inCheck && depth <= 3 && Math.abs(beta) < VALUE_MATE_BOUND && staticEval - 160 * depth >= beta) return staticEval;

    const moves = this.moveBufs[ply],
      scores = this.scoreBufs[ply];
    const n = pos.generateLegal(moves);
    if (n === 0) return matedIn(ply);
    this.scoreMoves(moves, scores, n, ttMove, ply);

    const alphaOrig = alpha;
    let best = -INF,
      bestMove = 0,
      moveCount = 0;
    const quietsTried: Move[] = [];
    for (let i = 0; i < n; i++) {
      const m = pickBest(moves, scores, i, n);
      const score = scores[i];
      moveCount++;
      const capture = isCapture(pos, m);
      const captured = capture ? pos.board[m & 127] & 15 : 0;
      const quiet = !capture && (m & 16384) === 0;
      // Late bad captures and far-down quiets at the frontier are not worth a node.
      if (!pvNode && !inCheck && best > -VALUE_MATE_BOUND && depth <= 2 && score < -(1 << 20)) continue;
      pos.doMove(m);
      const givesCheck = pos.inCheck();
      const ext = givesCheck && ply < 2 * this.rootDepth ? 1 : 0;
      const newDepth = depth - 1 + ext;
      this.enter(ply + 1, m, captured);
      let v: number;
      if (moveCount === 1) {
        v = -this.search_(pvNode, -beta, -alpha, newDepth, ply + 1);
      } else {
        // Late move reduction for quiet moves that neither check nor escape check.
        let r = 0;
        if (depth >= 3 && quiet && !givesCheck && !inCheck && moveCount > 3) r = 1 + (moveCount > 10 ? 1 : 0) + (pvNode ? 0 : 1);
        r = Math.min(r, newDepth - 1 < 0 ? 0 : newDepth - 1);
        v = -this.search_(false, -alpha - 1, -alpha, newDepth - r, ply + 1);
        if (v > alpha && r > 0) v = -this.search_(false, -alpha - 1, -alpha, newDepth, ply + 1);
        if (pvNode && v > alpha && v < beta) v = -this.search_(true, -beta, -alpha, newDepth, ply + 1);
      }
      pos.undoMove();
      if (this.stopped) return 0;
      if (v > best) {
        best = v;
        if (v > alpha) {
          bestMove = m;
          if (pvNode) this.updatePv(ply, m);
          if (v >= beta) {
            if (quiet) this.rewardQuiet(m, ply, depth, quietsTried);
            break;
          }
          alpha = v;
        }
      }
      if (quiet) quietsTried.push(m);
    }
    if (best === -INF) return alpha; // every move pruned (cannot happen with at least one searched)
    const bound = best >= beta ? BOUND_LOWER : pvNode && best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    this.tt.store(pos.keyHi, pos.keyLo, bestMove, valueToTT(best, ply), depth, bound, inCheck ? 0 : staticEval);
    return best;
  }

  /**
   * Quiescence search. Captures (SEE >= 0) and promotions always; all evasions in check;
   * checks per opts.qChecks in the first qCheckPlies plies. `maxQply` caps the depth (the
   * seed-003 measurement compares depth-limited variants with a full-width search).
   */
  qsearch(pvNode: boolean, alpha: number, beta: number, ply: number, qply: number, maxQply = 64): number {
    const pos = this.pos;
    this.nodes++;
    this.pvLen[ply] = ply;
    if (ply > this.seldepth) this.seldepth = ply;
    this.checkStop();
    if (this.stopped) return 0;
    const rep = ply > 0 ? this.repetition(ply) : null;
    if (rep !== null) return rep;
    const inCheck = this.checked[ply] === 1;
    if (ply >= MAX_PLY - 2 || qply >= maxQply) return inCheck ? evaluate(pos) : evaluate(pos);

    let best: number;
    if (inCheck) best = -INF;
    else {
      best = evaluate(pos);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
    }
    const moves = this.moveBufs[ply],
      scores = this.scoreBufs[ply];
    const n = pos.generateLegal(moves);
    if (n === 0) return matedIn(ply);
    const checks =
      !inCheck && qply < this.opts.qCheckPlies && (this.opts.qChecks === "all" || (this.opts.qChecks === "threat" && this.threatened(ply)));
    let k = 0;
    for (let i = 0; i < n; i++) {
      const m = moves[i];
      if (inCheck) {
        scores[k] = isCapture(pos, m) ? PIECE_VALUE[pos.board[m & 127] & 15] : 0;
        moves[k++] = m;
        continue;
      }
      const capture = isCapture(pos, m);
      if (capture || m & 16384) {
        const s = see(pos.board, m, pos.side);
        if (s >= 0) {
          scores[k] = (1 << 20) + (capture ? PIECE_VALUE[pos.board[m & 127] & 15] * 16 : 0) + s;
          moves[k++] = m;
          continue;
        }
      }
      if (checks && pos.givesCheck(m)) {
        scores[k] = 0;
        moves[k++] = m;
      }
    }
    for (let i = 0; i < k; i++) {
      const m = pickBest(moves, scores, i, k);
      const captured = isCapture(pos, m) ? pos.board[m & 127] & 15 : 0;
      pos.doMove(m);
      this.enter(ply + 1, m, captured);
      const v = -this.qsearch(pvNode, -beta, -alpha, ply + 1, qply + 1, maxQply);
      pos.undoMove();
      if (this.stopped) return 0;
      if (v > best) {
        best = v;
        if (v > alpha) {
          if (pvNode) this.updatePv(ply, m);
          if (v >= beta) break;
          alpha = v;
        }
      }
    }
    return best;
  }

  /** A depth-limited quiescence search from the root position (the seed-003 measurement). */
  quiescenceOnly(pos: Position, maxQply: number, rootThreat = false): number {
    this.pos = pos;
    this.rootThreat = rootThreat;
    this.stopped = false;
    this.limits = {};
    this.rootDepth = 1;
    this.phase = progress(pos);
    this.keyHi[0] = pos.keyHi;
    this.keyLo[0] = pos.keyLo;
    this.checked[0] = pos.inCheck() ? 1 : 0;
    this.threat[0] = 0;
    return this.qsearch(true, -INF, INF, 0, 0, maxQply);
  }

  private updatePv(ply: number, m: Move): void {
    const t = this.pvTable;
    t[ply * MAX_PLY + ply] = m;
    const childLen = this.pvLen[ply + 1];
    for (let j = ply + 1; j < childLen; j++) t[ply * MAX_PLY + j] = t[(ply + 1) * MAX_PLY + j];
    this.pvLen[ply] = Math.max(childLen, ply + 1);
  }

  private rewardQuiet(m: Move, ply: number, depth: number, tried: Move[]): void {
    const k = ply * 2;
    if (this.killers[k] !== m) {
      this.killers[k + 1] = this.killers[k];
      this.killers[k] = m;
    }
    const side = this.pos.side;
    const bonus = Math.min(depth * depth, 400);
    const h = this.history;
    const idx = (mm: Move) => (side << 14) | (((mm >> 7) & 127) << 7) | (mm & 127);
    h[idx(m)] += bonus - Math.trunc((h[idx(m)] * bonus) / 16384);
    for (const q of tried) h[idx(q)] -= bonus + Math.trunc((h[idx(q)] * bonus) / 16384);
  }

  /** Ordering: hash move, good captures/promotions by MVV and SEE, killers, history, bad captures last. */
  private scoreMoves(moves: Uint16Array, scores: Int32Array, n: number, ttMove: Move, ply: number): void {
    const pos = this.pos,
      board = pos.board,
      side = pos.side;
    const k0 = this.killers[ply * 2],
      k1 = this.killers[ply * 2 + 1];
    for (let i = 0; i < n; i++) {
      const m = moves[i];
      if (m === ttMove) {
        scores[i] = 1 << 30;
        continue;
      }
      const to = m & 127,
        from = (m >> 7) & 127;
      const victim = from < 81 ? board[to] : 0;
      if (victim !== 0 || m & 16384) {
        const s = see(board, m, side);
        scores[i] =
          s >= 0 ? (1 << 28) + PIECE_VALUE[victim & 15] * 16 - (from < 81 ? PIECE_VALUE[board[from] & 15] >> 4 : 0) + s : -(1 << 21) + s;
      } else if (m === k0) scores[i] = (1 << 27) + 1;
      else if (m === k1) scores[i] = 1 << 27;
      else scores[i] = this.history[(side << 14) | (from << 7) | to];
    }
  }
}

/** Selection sort step: brings the highest-scored remaining move to i. */
function pickBest(moves: Uint16Array, scores: Int32Array, i: number, n: number): Move {
  let b = i;
  for (let j = i + 1; j < n; j++) if (scores[j] > scores[b]) b = j;
  if (b !== i) {
    const m = moves[b],
      s = scores[b];
    moves[b] = moves[i];
    scores[b] = scores[i];
    moves[i] = m;
    scores[i] = s;
  }
  return moves[i];
}
