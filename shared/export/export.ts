// Minimax export over a whole book, compatible with YaneuraOu's `makebook peta_shock`
// (docs/DESIGN.md §5). Users diff our output against YaneuraOu's, so the steps below follow the
// design literally and in order; where a faster method is used (settle and perpetual-check
// passes are computed with work lists) it reproduces the pass-by-pass result exactly,
// including the pass caps.
//
// Everything lives in typed arrays indexed by node id (= block order), so a 1M-position
// book costs a few dozen bytes per position plus its SFEN strings.
//
// Kept as one file over 600 lines: it follows the design's steps in order, readable top to bottom
// (the node index and edges of a run of blocks are in export-graph.ts).

import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { sortIdsBySfen } from "../formats/db2016.js";
import {
  BlockIntake,
  buildRunEdges,
  indexKeys,
  IntList,
  LEAF,
  NodeIndex,
  NOT_LISTED,
  readSfenRecordBytes,
  REMOVED,
  VALUE_WIN,
  type RunEdges,
  type SfenSource,
} from "./export-graph.js";

export { readSfenRecordBytes, VALUE_WIN, type SfenSource };

// ---- results: (value, depth) pairs and their order (step 3) ----

/** Depth marking a move into a perpetual-check loop where the mover is the checker. */
export const DEPTH_PERPETUAL_CHECK = 9997;
/** Depth of a repetition found inside a loop-node search (the checked side escapes). */
export const DEPTH_REPETITION = 9998;
/** Depth of an unknown / cyclic distance. */
export const DEPTH_MAX = 9999;
/** The pass and round caps of steps 4, 5 and 7. */
export const PETA_LIMITS = { settlePasses: 256, checkPasses: 256, rounds: 356 } as const;
/** In propagation (a) only, a depth above this becomes DEPTH_MAX. */
const PROPAGATION_DEPTH_CAP = 256;

/**
 * Whether (v1, d1) is strictly better than (v2, d2): higher value; on equal values the
 * perpetual-check marker is worse than any other depth; otherwise win fast, lose slow.
 */
export function better(v1: number, d1: number, v2: number, d2: number): boolean {
  if (v1 !== v2) return v1 > v2;
  if (d1 === d2) return false;
  if (d1 === DEPTH_PERPETUAL_CHECK) return false;
  if (d2 === DEPTH_PERPETUAL_CHECK) return true;
  return v1 >= 0 ? d1 < d2 : d1 > d2;
}

/** A node's best as its parent sees it. */
const seenDepth = (d: number): number => (d + 1 < DEPTH_MAX ? d + 1 : DEPTH_MAX);

// ---- input and output ----

export interface ExportInputMove {
  move: string;
  value?: number | null;
  depth?: number | null;
}

export interface ExportInputBlock {
  /** Board, side, hands and optionally the ply, as written (no "sfen " prefix). */
  sfen: string;
  moves: readonly ExportInputMove[];
}

export interface ExportOptions {
  /** Keep only the moves whose value equals the best value. */
  shrink?: boolean;
  /**
   * Draw value for black / white (from that side's view). Both 0 (the default) is exactly
   * peta_shock; otherwise one zero-sum pass per owner side, each position written from
   * the pass whose owner is to move there. A node reached as a colour-flipped twin is
   * valued with its own side to move (twins share one stored pair, as in peta_shock).
   */
  drawBlack?: number;
  drawWhite?: number;
  /** Other caps than PETA_LIMITS: for tests that reach them on small books. */
  limits?: { settlePasses: number; checkPasses: number; rounds: number };
}

export interface ExportedMove {
  move: string;
  value: number;
  depth: number;
}

export interface ExportedBlock {
  sfen: string;
  moves: ExportedMove[];
}

export interface ExportCounts {
  /** Blocks added. */
  blocks: number;
  /** Blocks whose SFEN did not give a position (not nodes; not written). */
  badSfen: number;
  /** Nodes without any edge, dropped (step 9). */
  absent: number;
  /** Blocks written (nodes that are not absent). */
  written: number;
  internalEdges: number;
  leafEdges: number;
  /** Listed moves ignored: `none`, `resign`, not USI, duplicates. */
  ignoredMoves: number;
  settled: number;
  settlePasses: number;
  loopNodes: number;
  checkPasses: number;
  /** Propagation rounds, per owner pass (one entry without contempt). */
  rounds: number[];
  /** Moves written over all blocks. */
  writtenMoves: number;
  /** Time per stage: edges (steps 1-2, 9), settle (4), checks (5), propagate (6-7). */
  ms: { edges: number; settle: number; checks: number; propagate: number };
}

// Node states.
const S_OPEN = 0; // part of the cyclic remainder (or settled too late, after the pass cap)
const S_SETTLED = 1;
const S_ABSENT = 2;
const S_BAD = 3; // SFEN that is not a position

/**
 * The exporter: add() every block in input order (it keeps only compact data), then run(),
 * then read the result with blocks(). The steps are numbered as in docs/DESIGN.md §5.1.
 */
export class PetaShockExporter {
  /** The blocks' SFEN text, kept by add() (the text intake); null with the byte intake. */
  private sfens: string[] | null = null;
  /** Step 1's compact data, until run(). */
  private intake: BlockIntake | null = new BlockIntake();
  private ran = false;

  // Filled by run().
  private n = 0;
  private state = new Uint8Array(0);
  private inCheck = new Uint8Array(0);
  private side = new Uint8Array(0);
  private isLoop = new Uint8Array(0);
  private edgeStart = new Int32Array(0);
  private edgeChild = new Int32Array(0);
  private edgeMove = new Uint16Array(0);
  /** Leaf value; for an internal edge, the listed value (NOT_LISTED when not listed). */
  private edgeValue = new Int16Array(0);
  private parentStart = new Int32Array(0);
  private parents = new Int32Array(0);
  /** Stored pair of each node, as seen from its parent; one pair of arrays per owner pass. */
  private values: Int32Array[] = [];
  private depths: Int32Array[] = [];
  /** Which pass each side to move reads its children from. */
  private passOf = [0, 0];
  private counts: ExportCounts | null = null;

  private readonly limits: { settlePasses: number; checkPasses: number; rounds: number };

  constructor(private readonly opts: ExportOptions = {}) {
    this.limits = opts.limits ?? PETA_LIMITS;
  }

  private openIntake(): BlockIntake {
    if (this.ran || !this.intake) throw new Error("PetaShockExporter: a block added after run()");
    return this.intake;
  }

  /** Step 1 (intake) from text: every block is a node; its text is kept for blocks(). */
  add(block: ExportInputBlock): void {
    const intake = this.openIntake();
    if (intake.count > 0 && this.sfens === null) throw new Error("PetaShockExporter: add() after beginBlock()");
    this.sfens ??= [];
    this.sfens.push(block.sfen);
    if (sfenBytes.length < block.sfen.length * 3) sfenBytes = new Uint8Array(block.sfen.length * 3);
    const len = sfenEncoder.encodeInto(block.sfen, sfenBytes).written;
    intake.beginBlock(sfenBytes, 0, len);
    for (const m of block.moves) intake.addMove(parseUsiMove(m.move) ?? -1, m.value ?? null);
    intake.endBlock();
  }

  /**
   * Step 1 (intake) from bytes: a block whose SFEN text is src[start..end), then its move
   * lines with addMove(), then endBlock(). The last block with a key (or its twin's) owns it.
   */
  beginBlock(src: Uint8Array, start: number, end: number): void {
    this.openIntake().beginBlock(src, start, end);
  }

  /** A listed move of the open block: its code (-1: not a move, ignored) and value (null counts as 0). */
  addMove(code: number, value: number | null): void {
    this.openIntake().addMove(code, value);
  }

  endBlock(): void {
    this.openIntake().endBlock();
  }

  /**
   * Steps 2-7. `source` gives the blocks' SFEN bytes again (required after the byte
   * intake; the text intake uses the kept text).
   */
  run(source?: SfenSource): ExportCounts {
    if (this.ran) return this.counts!;
    const intake = this.openIntake();
    intake.endBlock();
    if (!source) {
      const sfens = this.sfens ?? [];
      if (sfens.length !== intake.count) throw new Error("PetaShockExporter: run() needs the blocks' SFEN source");
      source = (visit) => {
        for (let i = 0; i < sfens.length; i++) {
          const t = sfens[i];
          if (sfenBytes.length < t.length * 3) sfenBytes = new Uint8Array(t.length * 3);
          visit(i, sfenBytes, 0, sfenEncoder.encodeInto(t, sfenBytes).written);
        }
      };
    }
    const t0 = Date.now();
    const index = NodeIndex.forKeys(2 * intake.positions());
    indexKeys(index, intake.keys, intake.bad, intake.count, 0);
    const edges = buildRunEdges(intake, index, source);
    intake.release();
    this.intake = null;
    return this.runOnEdges(edges, intake.ignoredMoves, Date.now() - t0);
  }

  /**
   * Steps 3-9 on the edges of every block, made by buildRunEdges (and joinRuns when parts
   * were read on other threads). `edgesMs`: the time their making took, for counts.ms.
   */
  runOnEdges(edges: RunEdges, ignoredMoves: number, edgesMs = 0): ExportCounts {
    if (this.ran) throw new Error("PetaShockExporter: run twice");
    this.ran = true;
    this.intake = null;
    let t = Date.now();
    const lap = () => {
      const now = Date.now();
      const ms = now - t;
      t = now;
      return ms;
    };
    this.useRun(edges);
    const { internal, leaf } = edges;
    edgesMs += lap();
    const rounds: number[] = [];
    const absent = this.dropAbsentNodes();
    const { settled, passes: settlePasses } = this.settleAcyclicPart();
    const settleMs = lap();
    const checkPasses = this.findPerpetualCheckLoops();
    const checkMs = lap();
    const drawBlack = this.opts.drawBlack ?? 0;
    const drawWhite = this.opts.drawWhite ?? 0;
    if (drawBlack === 0 && drawWhite === 0) {
      rounds.push(this.propagate(0, 0));
      this.passOf = [0, 0];
    } else {
      // One zero-sum pass per book owner (docs/DESIGN.md §11.4): the owner's draws are worth drawX.
      rounds.push(this.propagate(0, drawBlack));
      rounds.push(this.propagate(1, drawWhite));
      this.passOf = [0, 1];
    }
    const propagateMs = lap();
    let loopNodes = 0;
    let written = 0;
    let writtenMoves = 0;
    let badSfen = 0;
    for (let i = 0; i < this.n; i++) {
      loopNodes += this.isLoop[i];
      if (this.state[i] === S_BAD) badSfen++;
      if (this.state[i] === S_OPEN || this.state[i] === S_SETTLED) {
        written++;
        writtenMoves += this.countMoves(i);
      }
    }
    this.counts = {
      blocks: this.n,
      badSfen,
      absent,
      written,
      internalEdges: internal,
      leafEdges: leaf,
      ignoredMoves,
      settled,
      settlePasses,
      loopNodes,
      checkPasses,
      rounds,
      writtenMoves,
      ms: { edges: edgesMs, settle: settleMs, checks: checkMs, propagate: propagateMs },
    };
    return this.counts;
  }

  // ---- step 2: the edges as one graph ----

  private useRun(r: RunEdges): void {
    const n = (this.n = r.count);
    this.isLoop = new Uint8Array(n);
    this.edgeStart = r.start;
    this.edgeChild = r.child;
    this.edgeMove = r.move;
    this.edgeValue = r.value;
    this.inCheck = r.inCheck;
    this.side = r.side;
    this.state = r.bad;
    for (let i = 0; i < n; i++) if (this.state[i]) this.state[i] = S_BAD;
    // Parents per node, one entry per internal edge.
    const start = this.edgeStart;
    const ch = this.edgeChild;
    const pStart = new Int32Array(n + 1);
    for (let e = 0; e < ch.length; e++) if (ch[e] >= 0) pStart[ch[e] + 1]++;
    for (let i = 0; i < n; i++) pStart[i + 1] += pStart[i];
    const fill = pStart.slice(0, n);
    const parents = new Int32Array(pStart[n]);
    for (let i = 0; i < n; i++) {
      for (let e = start[i]; e < start[i + 1]; e++) if (ch[e] >= 0) parents[fill[ch[e]]++] = i;
    }
    this.parentStart = pStart;
    this.parents = parents;
  }

  // ---- step 9 (applied before the search): nodes with no edges at all ----

  /**
   * A node with no edges is absent: a parent keeps a listed move to it as a leaf with the
   * listed value and loses an unlisted one, which may leave the parent without edges too.
   */
  private dropAbsentNodes(): number {
    const { edgeStart: start, edgeChild: child, edgeValue: value, parentStart, parents, state } = this;
    const work: number[] = [];
    let absent = 0;
    for (let i = 0; i < this.n; i++) {
      if (state[i] === S_OPEN && start[i] === start[i + 1]) {
        state[i] = S_ABSENT;
        work.push(i);
      }
    }
    while (work.length > 0) {
      const a = work.pop()!;
      absent++;
      for (let p = parentStart[a]; p < parentStart[a + 1]; p++) {
        const q = parents[p];
        if (state[q] !== S_OPEN) continue;
        let live = 0;
        for (let e = start[q]; e < start[q + 1]; e++) {
          if (child[e] === a) {
            if (value[e] === NOT_LISTED) child[e] = REMOVED;
            else child[e] = LEAF;
          }
          if (child[e] !== REMOVED) live++;
        }
        if (live === 0) {
          state[q] = S_ABSENT;
          work.push(q);
        }
      }
    }
    return absent;
  }

  // ---- step 4: settle the acyclic part ----

  /**
   * Passes over the nodes in input order settle a node once all its children are leaves or
   * settled nodes. A node settles in pass max(1, max over children c of pass(c), plus one
   * when c comes after it), so a work list in child-first order gives the same settled set
   * as the passes would, including the cap of 256 passes.
   */
  private settleAcyclicPart(): { settled: number; passes: number } {
    const n = this.n;
    const { edgeStart: start, edgeChild: child, parentStart, parents, state } = this;
    const value = new Int32Array(n);
    const depth = new Int32Array(n).fill(DEPTH_MAX);
    const pending = new Int32Array(n);
    const pass = new Int32Array(n);
    const work: number[] = [];
    for (let i = 0; i < n; i++) {
      if (state[i] !== S_OPEN) continue;
      for (let e = start[i]; e < start[i + 1]; e++) if (child[e] >= 0) pending[i]++;
      if (pending[i] === 0) work.push(i);
    }
    let settled = 0;
    let maxPass = 0;
    for (let w = 0; w < work.length; w++) {
      const i = work[w];
      const p = Math.max(1, pass[i]);
      if (p > this.limits.settlePasses) continue; // would settle too late: stays in the cyclic part
      state[i] = S_SETTLED;
      settled++;
      if (p > maxPass) maxPass = p;
      this.bestOfEdges(i, value, depth);
      value[i] = -bestValue;
      depth[i] = seenDepth(bestDepth);
      for (let k = parentStart[i]; k < parentStart[i + 1]; k++) {
        const q = parents[k];
        if (state[q] !== S_OPEN) continue;
        const via = i < q ? p : p + 1;
        if (via > pass[q]) pass[q] = via;
        if (--pending[q] === 0) work.push(q);
      }
    }
    this.values = [value];
    this.depths = [depth];
    return { settled, passes: maxPass };
  }

  /** Sets bestValue/bestDepth to the best pair over node i's edges, from i's side. */
  private bestOfEdges(i: number, value: Int32Array, depth: Int32Array): void {
    const { edgeStart: start, edgeChild: child, edgeValue: leafValue } = this;
    let bv = 0;
    let bd = 0;
    let first = true;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const c = child[e];
      if (c === REMOVED) continue;
      const v = c === LEAF ? leafValue[e] : value[c];
      const d = c === LEAF ? 0 : depth[c];
      if (first || better(v, d, bv, bd)) {
        bv = v;
        bd = d;
        first = false;
      }
    }
    bestValue = bv;
    bestDepth = bd;
  }

  // ---- step 5: perpetual-check loops ----

  /**
   * Start from the unsettled nodes in check; in passes, drop a node when no node two plies
   * ahead is still in the set. As in step 4, a node drops in pass max(1, max over its
   * grandchildren g of drop(g), plus one when g comes after it), so a work list gives the
   * passes' result, including their cap. Survivors and the nodes between two survivors
   * become loop nodes. Returns the number of passes that dropped something.
   */
  private findPerpetualCheckLoops(): number {
    const n = this.n;
    const { edgeStart: start, edgeChild: child, state, inCheck, isLoop } = this;
    const inSet = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (state[i] === S_OPEN && inCheck[i]) inSet[i] = 1;
    // Grandchildren in the set, without repeats; a node that is its own grandchild never drops.
    const gStart = new Int32Array(n + 1);
    const gList = new IntList();
    const stamp = new Int32Array(n);
    const selfKept = new Uint8Array(n);
    for (let x = 0; x < n; x++) {
      gStart[x] = gList.length;
      if (!inSet[x]) continue;
      for (let e = start[x]; e < start[x + 1]; e++) {
        const c = child[e];
        if (c < 0) continue;
        for (let f = start[c]; f < start[c + 1]; f++) {
          const g = child[f];
          if (g < 0 || !inSet[g] || stamp[g] === x + 1) continue;
          stamp[g] = x + 1;
          if (g === x) selfKept[x] = 1;
          else gList.push(g);
        }
      }
    }
    gStart[n] = gList.length;
    const grand = gList.data;
    // Reverse: who has g as a grandchild.
    const rStart = new Int32Array(n + 1);
    for (let k = 0; k < gList.length; k++) rStart[grand[k] + 1]++;
    for (let i = 0; i < n; i++) rStart[i + 1] += rStart[i];
    const rFill = rStart.slice(0, n);
    const rev = new Int32Array(gList.length);
    for (let x = 0; x < n; x++) for (let k = gStart[x]; k < gStart[x + 1]; k++) rev[rFill[grand[k]]++] = x;

    const pending = new Int32Array(n);
    const drop = new Int32Array(n);
    const work: number[] = [];
    for (let x = 0; x < n; x++) {
      if (!inSet[x] || selfKept[x]) continue;
      pending[x] = gStart[x + 1] - gStart[x];
      if (pending[x] === 0) work.push(x);
    }
    let maxPass = 0;
    for (let w = 0; w < work.length; w++) {
      const g = work[w];
      const p = Math.max(1, drop[g]);
      if (p > this.limits.checkPasses) continue; // survives: the passes stopped before reaching it
      inSet[g] = 0;
      if (p > maxPass) maxPass = p;
      for (let k = rStart[g]; k < rStart[g + 1]; k++) {
        const x = rev[k];
        if (selfKept[x]) continue;
        const via = g < x ? p : p + 1;
        if (via > drop[x]) drop[x] = via;
        if (--pending[x] === 0) work.push(x);
      }
    }
    // Survivors, and every node between two survivors (the checking side's positions).
    for (let x = 0; x < n; x++) {
      if (!inSet[x]) continue;
      isLoop[x] = 1;
      for (let e = start[x]; e < start[x + 1]; e++) {
        const c = child[e];
        if (c < 0 || isLoop[c] === 1) continue;
        for (let f = start[c]; f < start[c + 1]; f++) {
          const g = child[f];
          if (g >= 0 && inSet[g]) {
            isLoop[c] = 1;
            break;
          }
        }
      }
    }
    return maxPass;
  }

  // ---- steps 6 and 7: start values and propagation over the cycles ----

  /**
   * One zero-sum pass for a book owner (0 black, 1 white) whose draws are worth `draw` to
   * it; without contempt, draw = 0 and this is peta_shock. Returns the rounds run.
   */
  private propagate(owner: number, draw: number): number {
    const n = this.n;
    const { state, isLoop, inCheck, side, parentStart, parents } = this;
    const value = owner === 0 ? this.values[0] : this.values[0].slice();
    const depth = owner === 0 ? this.depths[0] : this.depths[0].slice();
    this.values[owner] = value;
    this.depths[owner] = depth;

    // Step 6: start values of what is left. Stored pairs are seen from the parent, whose
    // side is the other one: a draw is worth `draw` to it when it is the owner.
    const drawSeenFromParent = (i: number): number => (side[i] !== owner ? draw : -draw);
    const open: number[] = [];
    const loops: number[] = [];
    for (let i = 0; i < n; i++) {
      if (state[i] !== S_OPEN) continue;
      depth[i] = DEPTH_MAX;
      if (isLoop[i]) {
        value[i] = inCheck[i] ? -VALUE_WIN : VALUE_WIN;
        loops.push(i);
      } else {
        value[i] = drawSeenFromParent(i);
        open.push(i);
      }
    }

    // Step 7. A node whose children did not change since it was last updated would get
    // the same pair again, so only "dirty" nodes are recomputed; the result is the same as
    // updating every node in every round.
    const dirty = new Uint8Array(n);
    for (const i of open) dirty[i] = 1;
    const markParents = (i: number): void => {
      for (let k = parentStart[i]; k < parentStart[i + 1]; k++) dirty[parents[k]] = 1;
    };
    const onPath = new Uint8Array(n);
    let round = 0;
    while (round < this.limits.rounds) {
      round++;
      // (a) unsettled, non-loop nodes in input order, updated in place.
      let changed = false;
      for (const i of open) {
        if (!dirty[i]) continue;
        dirty[i] = 0;
        this.bestOfEdges(i, value, depth);
        const v = -bestValue;
        let d = seenDepth(bestDepth);
        if (d > PROPAGATION_DEPTH_CAP) d = DEPTH_MAX;
        if (v !== value[i] || d !== depth[i]) {
          value[i] = v;
          depth[i] = d;
          changed = true;
          markParents(i);
        }
      }
      // (b) each loop node from a fresh depth-first search over loop nodes.
      for (const i of loops) {
        this.searchLoop(i, value, depth, onPath);
        if (bestValue !== value[i] || bestDepth !== depth[i]) {
          value[i] = bestValue;
          depth[i] = bestDepth;
          markParents(i);
        }
      }
      if (!changed) break;
    }
    return round;
  }

  /**
   * Step 7(b): the pair of loop node i as seen from its parent, into bestValue/bestDepth.
   * A non-loop child gives its stored pair; a node already on the path is a repetition:
   * the perpetual checker loses (-32000, 9997 seen from the checker), or the checked side
   * escapes into it (+32000, 9998); otherwise the best over the edges. Nothing is cached.
   */
  private searchLoop(i: number, value: Int32Array, depth: Int32Array, onPath: Uint8Array): void {
    if (onPath[i]) {
      bestValue = this.inCheck[i] ? -VALUE_WIN : VALUE_WIN;
      bestDepth = this.inCheck[i] ? DEPTH_PERPETUAL_CHECK : DEPTH_REPETITION;
      return;
    }
    onPath[i] = 1;
    const { edgeStart: start, edgeChild: child, edgeValue: leafValue, isLoop } = this;
    let bv = 0;
    let bd = 0;
    let first = true;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const c = child[e];
      let v: number;
      let d: number;
      if (c === REMOVED) continue;
      if (c === LEAF) {
        v = leafValue[e];
        d = 0;
      } else if (!isLoop[c]) {
        v = value[c];
        d = depth[c];
      } else {
        this.searchLoop(c, value, depth, onPath);
        v = bestValue;
        d = bestDepth;
      }
      if (first || better(v, d, bv, bd)) {
        bv = v;
        bd = d;
        first = false;
      }
    }
    onPath[i] = 0;
    bestValue = -bv;
    bestDepth = seenDepth(bd);
  }

  // ---- step 8: writing ----

  /** How many moves movesOf(i) gives, without building them: shrink keeps the best value's. */
  private countMoves(i: number): number {
    const value = this.values[this.passOf[this.side[i]]];
    const { edgeStart: start, edgeChild: child, edgeValue: leafValue } = this;
    let count = 0;
    let best = -Infinity;
    let atBest = 0;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const c = child[e];
      if (c === REMOVED) continue;
      count++;
      const v = c === LEAF ? leafValue[e] : value[c];
      if (v > best) {
        best = v;
        atBest = 1;
      } else if (v === best) atBest++;
    }
    return this.opts.shrink ? atBest : count;
  }

  /**
   * Node i's moves into the scratch arrays (sortMove/sortValue/sortDepth), best first, after
   * shrink and the value-1 rule; returns how many.
   */
  private sortMoves(i: number): number {
    const pass = this.passOf[this.side[i]];
    const value = this.values[pass];
    const depth = this.depths[pass];
    const { edgeStart: start, edgeChild: child, edgeValue: leafValue, edgeMove, isLoop, inCheck } = this;
    if (sortMove.length < start[i + 1] - start[i]) {
      const size = start[i + 1] - start[i];
      sortMove = new Uint16Array(size);
      sortValue = new Int32Array(size);
      sortDepth = new Int32Array(size);
    }
    let count = 0;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const c = child[e];
      if (c === REMOVED) continue;
      let v: number;
      let d: number;
      if (c === LEAF) {
        v = leafValue[e];
        d = 0;
      } else {
        v = value[c];
        // A move into a loop node where the opponent is in check continues a perpetual check.
        d = isLoop[c] && inCheck[c] ? DEPTH_PERPETUAL_CHECK : depth[c];
      }
      // Insertion sort, best first: a node has few moves.
      let k = count++;
      for (; k > 0 && better(v, d, sortValue[k - 1], sortDepth[k - 1]); k--) {
        sortMove[k] = sortMove[k - 1];
        sortValue[k] = sortValue[k - 1];
        sortDepth[k] = sortDepth[k - 1];
      }
      sortMove[k] = edgeMove[e];
      sortValue[k] = v;
      sortDepth[k] = d;
    }
    if (count === 0) return 0;
    const bv = sortValue[0];
    const bd = sortDepth[0];
    if (this.opts.shrink) {
      let keep = 1;
      while (keep < count && sortValue[keep] === bv) keep++;
      count = keep;
    }
    for (let k = 1; k < count && sortValue[k] === bv; k++) if (sortDepth[k] !== bd) sortValue[k] = bv - 1;
    return count;
  }

  /** Node i's moves, best first, after shrink and the value-1 rule. */
  private movesOf(i: number): ExportedMove[] {
    const count = this.sortMoves(i);
    const out: ExportedMove[] = new Array<ExportedMove>(count);
    for (let k = 0; k < count; k++) out[k] = { move: usiText(sortMove[k]), value: sortValue[k], depth: sortDepth[k] };
    return out;
  }

  /** Most bytes writeMoves() writes for one node. */
  maxMoveBytes(i: number): number {
    return (this.edgeStart[i + 1] - this.edgeStart[i]) * MOVE_LINE_BYTES;
  }

  /**
   * Node i's move lines ("move none value depth\n", docs/DESIGN.md §5.1 step 8) as bytes into out at
   * `at` (room for maxMoveBytes(i)); returns the offset after them.
   */
  writeMoves(i: number, out: Uint8Array, at: number): number {
    const count = this.sortMoves(i);
    for (let k = 0; k < count; k++) {
      const text = usiBytes(sortMove[k]);
      for (let j = 0; j < text.length; j++) out[at++] = text[j];
      out[at++] = 32;
      out[at++] = 110; // "none"
      out[at++] = 111;
      out[at++] = 110;
      out[at++] = 101;
      out[at++] = 32;
      at = writeInt(out, at, sortValue[k]);
      out[at++] = 32;
      at = writeInt(out, at, sortDepth[k]);
      out[at++] = 10;
    }
    return at;
  }

  /** The ids of the blocks written (not absent, not bad), in input order. */
  writtenIds(): Int32Array {
    if (!this.ran) this.run();
    let count = 0;
    for (let i = 0; i < this.n; i++) if (this.state[i] === S_OPEN || this.state[i] === S_SETTLED) count++;
    const ids = new Int32Array(count);
    let k = 0;
    for (let i = 0; i < this.n; i++) if (this.state[i] === S_OPEN || this.state[i] === S_SETTLED) ids[k++] = i;
    return ids;
  }

  /** Blocks written (not absent, not bad), in input order or byte-wise SFEN order (text intake only). */
  *blocks(order: "input" | "sfen" = "sfen"): Generator<ExportedBlock> {
    if (!this.ran) this.run();
    const sfens = this.sfens;
    if (sfens === null && this.n > 0) throw new Error("PetaShockExporter: blocks() needs the text intake (add())");
    const ids = Array.from(this.writtenIds());
    if (order === "sfen") sortIdsBySfen(ids, (i) => sfens![i]);
    for (const i of ids) yield { sfen: sfens![i], moves: this.movesOf(i) };
  }
}

// Scratch of sortMoves.
let sortMove = new Uint16Array(64);
let sortValue = new Int32Array(64);
let sortDepth = new Int32Array(64);

/** "8h2b+ none -32000 9999\n" is 23 bytes. */
const MOVE_LINE_BYTES = 24;

/** Writes integer v (|v| < 10^9) as decimal text; returns the offset after it. */
function writeInt(out: Uint8Array, at: number, v: number): number {
  if (v < 0) {
    out[at++] = 45;
    v = -v;
  }
  if (v < 10) {
    out[at++] = 48 + v;
    return at;
  }
  let digits = 1;
  for (let x = v; x >= 10; x = (x / 10) | 0) digits++;
  for (let k = at + digits - 1; k >= at; k--) {
    out[k] = 48 + (v % 10);
    v = (v / 10) | 0;
  }
  return at + digits;
}

const usiByteCache: Uint8Array[] = new Array<Uint8Array>(1 << 15);
function usiBytes(m: number): Uint8Array {
  return (usiByteCache[m] ??= sfenEncoder.encode(usiText(m)));
}

/** USI text per move code, made once: an export writes millions of moves. */
const usiCache: string[] = new Array<string>(1 << 15);
function usiText(m: number): string {
  return (usiCache[m] ??= moveToUsi(m));
}

let sfenBytes = new Uint8Array(256);
const sfenEncoder = new TextEncoder();

/** readSfenRecordBytes over text. */
export function readSfenRecord(sfen: string, rec: Uint8Array, at: number, key: Uint32Array): boolean {
  if (sfenBytes.length < sfen.length * 3) sfenBytes = new Uint8Array(sfen.length * 3);
  const n = sfenEncoder.encodeInto(sfen, sfenBytes).written;
  return readSfenRecordBytes(sfenBytes, 0, n, rec, at, key);
}

// Results of bestOfEdges / searchLoop: module scratch, so the hot loops allocate nothing.
let bestValue = 0;
let bestDepth = 0;

/** The whole export in one call (docs/DESIGN.md §5): blocks in byte-wise SFEN order, ready for the writer. */
export function exportPetaShock(
  input: Iterable<ExportInputBlock>,
  opts: ExportOptions = {},
): { blocks: ExportedBlock[]; counts: ExportCounts } {
  const ex = new PetaShockExporter(opts);
  for (const b of input) ex.add(b);
  const counts = ex.run();
  return { blocks: [...ex.blocks()], counts };
}
