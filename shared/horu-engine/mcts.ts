// The Monte-Carlo tree search of the hybrid (docs/DESIGN.md §11.2), run beside alpha-beta:
// - tree nodes are kept only where a playout has passed, down to a depth limit;
// - UCB1-tuned chooses among a node's moves, a move never tried yet gets a provisional win
//   rate from its static score (progressive widening: good-looking moves first, the rest
//   as playouts accumulate), and alpha-beta's hash move gets a bonus;
// - a node's win rate is its best child's, blended with its own average while it has few
//   playouts (so a line is judged by the opponent's best reply, not by its average);
// - playouts pick moves at random weighted by the move score and stop after a few plies,
//   judged by the evaluation (win, loss, or draw near zero);
// - proven results (mates found in the tree, or read from alpha-beta's shared table)
//   propagate: a lost child makes its parent won, all children won makes it lost.
import type { Position } from "../rules/position.js";
import type { Move } from "../rules/types.js";
import { FILE0, REL_RANK } from "../rules/tables.js";
import { CAPTURE_GAIN, attackCount, see } from "./attacks.js";
import { evaluate } from "./eval.js";
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER } from "./tt.js";
import { VALUE_MATE_BOUND } from "../rules/types.js";
import type { TranspositionTable, TTHit } from "./tt.js";

export interface MctsOptions {
  /** UCB is used at tree nodes down to this depth; below, playouts pick at random. */
  treeDepth: number;
  /** A node joins the tree after this many playouts have passed through it. */
  expandAfter: number;
  /** Playouts stop after this many plies and are judged by the evaluation. */
  playoutPlies: number;
  /** |eval| below this at the cut is a draw (0.5). */
  drawMargin: number;
  /** Below this many playouts a node's own average is blended into its best child's rate. */
  blendPlayouts: number;
  /** Added to the UCB of alpha-beta's hash move. */
  hashBonus: number;
  /** The tree stops growing at this many nodes (playouts go on from its leaves): bounded memory on long thinks. */
  maxNodes: number;
}

export const DEFAULT_MCTS: MctsOptions = {
  treeDepth: 5,
  expandAfter: 1,
  playoutPlies: 12,
  drawMargin: 150,
  blendPlayouts: 40,
  hashBonus: 0.1,
  maxNodes: 200_000,
};

const WIN = 1,
  LOSS = 2;

class Node {
  visits = 0;
  wins = 0; // from the view of the side that moved into this node
  rate = 0.5; // blended best-child rate, same view
  proven = 0; // WIN / LOSS for the side to move here
  readonly n: Int32Array;
  readonly w: Float64Array;
  readonly w2: Float64Array;
  readonly children: (Node | null)[];
  constructor(
    readonly moves: Uint16Array,
    readonly prior: Float32Array,
  ) {
    const k = moves.length;
    this.n = new Int32Array(k);
    this.w = new Float64Array(k);
    this.w2 = new Float64Array(k);
    this.children = new Array<Node | null>(k).fill(null);
  }
}

export interface MctsMoveStat {
  move: Move;
  visits: number;
  rate: number;
}

export interface MctsResult {
  best: Move;
  playouts: number;
  rate: number;
  moves: MctsMoveStat[];
  proven: "win" | "loss" | null;
}

/** A deterministic xorshift generator (playouts must be reproducible in tests). */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

export class Mcts {
  opts: MctsOptions;
  playouts = 0;
  nodes = 0;
  private root: Node | null = null;
  private pos!: Position;
  private rand: () => number;
  /** The playouts' own history: moves of the winning side, by (side, from, to). */
  private readonly history = new Float32Array(2 * 128 * 128);
  private readonly buf = new Uint16Array(600);
  private readonly weights = new Float64Array(600);
  private readonly hit: TTHit = { move: 0, value: 0, depth: 0, bound: 0, eval: 0 };

  constructor(
    opts: Partial<MctsOptions> = {},
    /** Alpha-beta's table (shared memory in the engine) for hash moves and mates. */
    private readonly tt: TranspositionTable | null = null,
    seed = 12345,
  ) {
    this.opts = { ...DEFAULT_MCTS, ...opts };
    this.rand = xorshift(seed);
  }

  /** Static move score (the seed's SEE + move conditions + history): also the playout weight. */
  moveScore(pos: Position, m: Move): number {
    const board = pos.board,
      us = pos.side,
      them = us ^ 1;
    const to = m & 127,
      from = (m >> 7) & 127;
    const drop = from >= 81;
    let s = 100;
    const victim = drop ? 0 : board[to];
    if (victim !== 0 || m & 16384) {
      const x = see(board, m, us);
      s += x >= 0 ? 100 + x / 2 : -80;
      if (victim !== 0) s += CAPTURE_GAIN[victim & 15] / 20;
    } else {
      const enemyCover = attackCount(board, to, them);
      if (enemyCover > 0 && attackCount(board, to, us) < (drop ? 1 : 2) + enemyCover - 1) s -= 70;
    }
    if (drop) s -= 30;
    const ek = pos.kingSq[them],
      ok = pos.kingSq[us];
    if (ek >= 0) {
      const d = Math.max(Math.abs(FILE0[to] - FILE0[ek]), Math.abs((to % 9) - (ek % 9)));
      if (d <= 2) s += 40;
    }
    if (ok >= 0 && !drop) {
      const d = Math.max(Math.abs(FILE0[to] - FILE0[ok]), Math.abs((to % 9) - (ok % 9)));
      if (d <= 1) s += 10;
    }
    if (!drop && REL_RANK[us * 81 + to] < REL_RANK[us * 81 + from]) s += 20;
    s += Math.min(100, this.history[(us << 14) | (from << 7) | to]);
    return s < 1 ? 1 : s;
  }

  private newNode(pos: Position, depth: number): Node {
    const k = pos.generateLegal(this.buf);
    const moves = this.buf.slice(0, k);
    const prior = new Float32Array(k);
    for (let i = 0; i < k; i++) {
      const s = this.moveScore(pos, moves[i]);
      // Provisional win rate of an untried move: 0.3..0.7 by its score.
      prior[i] = 0.3 + 0.4 / (1 + Math.exp(-(s - 150) / 60));
    }
    const node = new Node(moves, prior);
    this.nodes++;
    if (k === 0) node.proven = LOSS;
    else if (depth > 0 && this.tt && this.tt.probe(pos.keyHi, pos.keyLo, this.hit)) {
      // Mates alpha-beta proved (docs/DESIGN.md §11.2: shared mate information).
      const v = this.hit.value;
      if (v >= VALUE_MATE_BOUND && (this.hit.bound === BOUND_LOWER || this.hit.bound === BOUND_EXACT)) node.proven = WIN;
      else if (v <= -VALUE_MATE_BOUND && (this.hit.bound === BOUND_UPPER || this.hit.bound === BOUND_EXACT)) node.proven = LOSS;
    }
    return node;
  }

  /** Runs playouts from pos until `stop()` or `maxPlayouts`; pos is left as found. */
  run(pos: Position, maxPlayouts: number, stop: () => boolean = () => false): MctsResult {
    this.pos = pos;
    this.nodes = 0;
    this.root = this.newNode(pos, 0);
    this.playouts = 0;
    const root = this.root;
    while (this.playouts < maxPlayouts && root.proven === 0 && root.moves.length > 0) {
      // A playout is ~100 move scorings: checking before each one keeps the answer on time.
      if (stop()) break;
      this.playout(root);
      this.playouts++;
    }
    return this.result();
  }

  result(): MctsResult {
    const root = this.root!;
    const moves: MctsMoveStat[] = [];
    let best = -1;
    for (let i = 0; i < root.moves.length; i++) {
      const c = root.children[i];
      const rate = c ? (c.proven === LOSS ? 1 : c.proven === WIN ? 0 : c.rate) : root.n[i] ? root.w[i] / root.n[i] : 0;
      moves.push({ move: root.moves[i], visits: root.n[i], rate });
    }
    // The proven win first, else the most visited, ties by rate.
    for (let i = 0; i < moves.length; i++) {
      if (best < 0) best = i;
      const c = root.children[i];
      if (c && c.proven === LOSS) {
        best = i;
        break;
      }
      if (moves[i].visits > moves[best].visits || (moves[i].visits === moves[best].visits && moves[i].rate > moves[best].rate)) best = i;
    }
    return {
      best: best >= 0 ? moves[best].move : 0,
      playouts: this.playouts,
      rate: best >= 0 ? moves[best].rate : 0,
      moves,
      proven: root.proven === WIN ? "win" : root.proven === LOSS ? "loss" : null,
    };
  }

  private select(node: Node, lnN: number): number {
    const hashMove = this.tt && this.tt.probe(this.pos.keyHi, this.pos.keyLo, this.hit) ? this.hit.move : 0;
    let best = -1,
      bestU = -Infinity;
    for (let i = 0; i < node.moves.length; i++) {
      const c = node.children[i];
      if (c && c.proven === LOSS) return i; // a move into a lost position for the opponent wins
      if (c && c.proven === WIN) continue;
      const n = node.n[i];
      let u: number;
      if (n === 0) {
        u = node.prior[i] + Math.sqrt(lnN * 0.25);
      } else {
        const mean = c ? c.rate : node.w[i] / n;
        const avg = node.w[i] / n;
        const variance = node.w2[i] / n - avg * avg + Math.sqrt((2 * lnN) / n);
        u = mean + Math.sqrt((lnN / n) * Math.min(0.25, variance));
      }
      if (node.moves[i] === hashMove) u += this.opts.hashBonus;
      if (u > bestU) {
        bestU = u;
        best = i;
      }
    }
    return best;
  }

  /** One playout down the tree and beyond; returns the result for the side to move at `node`. */
  private playout(root: Node): void {
    const pos = this.pos;
    const path: Node[] = [];
    const idx: number[] = [];
    let node = root;
    let made = 0;
    let reward: number; // for the side to move at the last tree node on the path
    for (;;) {
      if (node.proven !== 0) {
        // Only the root can get here with an empty path, and run() stops on a proven root.
        reward = node.proven === WIN ? 0 : 1;
        break;
      }
      const i = this.select(node, Math.log(node.visits + 1));
      if (i < 0) {
        // Every move leads to a proven win for the opponent.
        node.proven = LOSS;
        reward = 0;
        break;
      }
      path.push(node);
      idx.push(i);
      pos.doMove(node.moves[i]);
      made++;
      let child = node.children[i];
      if (!child && path.length <= this.opts.treeDepth && node.n[i] + 1 >= this.opts.expandAfter && this.nodes < this.opts.maxNodes) {
        child = this.newNode(pos, path.length);
        node.children[i] = child;
      }
      if (!child) {
        // Beyond the tree: a weighted-random playout; its result for the side to move now.
        reward = this.randomPlayout();
        // Seen from the side that moved at the last tree node.
        reward = 1 - reward;
        break;
      }
      if (child.proven !== 0 || child.moves.length === 0) {
        reward = child.proven === LOSS || child.moves.length === 0 ? 1 : 0;
        if (child.moves.length === 0) child.proven = LOSS;
        break;
      }
      node = child;
      if (child.visits === 0) {
        // A fresh tree node: one playout from it.
        reward = 1 - this.randomPlayout();
        break;
      }
    }
    for (let i = 0; i < made; i++) pos.undoMove();
    // reward is from the view of the side that made the last move on the path.
    for (let k = path.length - 1; k >= 0; k--) {
      const nd = path[k],
        i = idx[k];
      nd.n[i]++;
      nd.w[i] += reward;
      nd.w2[i] += reward * reward;
      const c = nd.children[i];
      if (c) {
        c.visits++;
        c.wins += reward;
        this.refresh(c);
      }
      reward = 1 - reward;
    }
    root.visits++;
    root.wins += reward;
    this.refresh(root);
  }

  /**
   * Proof propagation and the blended best-child rate (the seed's node win rate). The best
   * child is taken only among children with at least half the visits of the most visited
   * one: the maximum over many children with a playout or two each is the luckiest noise,
   * not the best reply, and taking it drove every rate toward 0 (the first hybrid match,
   * docs/ENGINE.md).
   */
  private refresh(node: Node): void {
    let allWon = node.moves.length > 0,
      anyLost = false,
      most = 0;
    for (let i = 0; i < node.moves.length; i++) {
      const c = node.children[i];
      if (c?.proven === LOSS) anyLost = true;
      if (c?.proven !== WIN) allWon = false;
      if (c?.proven !== WIN && node.n[i] > most) most = node.n[i];
    }
    if (anyLost) node.proven = WIN;
    else if (allWon) node.proven = LOSS;
    if (node.proven === WIN) {
      node.rate = 0;
      return;
    }
    if (node.proven === LOSS) {
      node.rate = 1;
      return;
    }
    const enough = Math.max(1, most / 2);
    let bestChild = -1;
    for (let i = 0; i < node.moves.length; i++) {
      const c = node.children[i];
      if (c?.proven === WIN || node.n[i] < enough) continue;
      const r = c && c.visits > 0 ? c.rate : node.w[i] / node.n[i];
      if (r > bestChild) bestChild = r;
    }
    const own = node.visits > 0 ? node.wins / node.visits : 0.5;
    if (bestChild < 0) node.rate = own;
    else {
      const a = Math.min(1, node.visits / this.opts.blendPlayouts);
      node.rate = (1 - a) * own + a * (1 - bestChild);
    }
  }

  /** Weighted-random moves from the current position; the result for the side to move now (1 win, 0 loss, 0.5 draw). */
  private randomPlayout(): number {
    const pos = this.pos;
    const startSide = pos.side;
    let made = 0;
    let result = -1;
    const moves: Move[] = [];
    for (; made < this.opts.playoutPlies; made++) {
      const k = pos.generateLegal(this.buf);
      if (k === 0) {
        result = pos.side === startSide ? 0 : 1;
        break;
      }
      let total = 0;
      for (let i = 0; i < k; i++) {
        const s = this.moveScore(pos, this.buf[i]);
        this.weights[i] = s;
        total += s;
      }
      let r = this.rand() * total,
        j = 0;
      while (j < k - 1 && r >= this.weights[j]) r -= this.weights[j++];
      const m = this.buf[j];
      moves.push(m);
      pos.doMove(m);
    }
    if (result < 0) {
      const v = evaluate(pos);
      const forMover = pos.side === startSide ? v : -v;
      result = forMover > this.opts.drawMargin ? 1 : forMover < -this.opts.drawMargin ? 0 : 0.5;
    }
    for (let i = 0; i < made; i++) pos.undoMove();
    // The seed's history: every move of the winning side is remembered (drops and captures too).
    if (result !== 0.5) {
      for (let i = 0; i < moves.length; i++) {
        const side = (startSide + i) & 1;
        const won = (side === startSide) === (result === 1);
        if (!won) continue;
        const m = moves[i];
        const h = (side << 14) | (((m >> 7) & 127) << 7) | (m & 127);
        this.history[h] = Math.min(100, this.history[h] + 1);
      }
    }
    return result;
  }
}
