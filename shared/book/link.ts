// Where the rules meet the graph: a thought position becomes a node whose listed moves
// are checked for legality, whose every legal move is linked to a thought child, and
// whose thought parents are found by retrograde move generation and linked to it.

import { Position } from "../rules/position.js";
import { forEachUnmove, predecessor } from "../rules/unmove.js";
import { parseUsiMove } from "../rules/usi.js";
import { WHITE } from "../rules/types.js";
import { grown } from "../util/typed-array.js";
import {
  BookGraph,
  NODE_DECLARATION_WIN,
  NODE_IN_CHECK,
  NODE_NO_MOVES,
  NODE_WHITE,
  type LegalMoves,
  type ListedMove,
  type NodeInput,
  type ParentLink,
} from "./graph.js";

/** The part of a thought position the graph needs: where it is and what the engine listed. */
export interface BookEntry {
  sfen: string;
  candidates: ReadonlyArray<{ move: string; value: number }>;
}

export interface Linked {
  id: number;
  /** Listed moves dropped because they are not legal here (or not moves at all). */
  skipped: string[];
}

// Scratch buffers: the most legal moves a shogi position can have is 593.
const legalBuf = new Uint16Array(600);
const childHiBuf = new Uint32Array(600);
const childLoBuf = new Uint32Array(600);
const keyOut = new Uint32Array(2);
// Per 15-bit move: the stamp of the last node that had it legal (and its index there) or listed it.
const legalStamp = new Uint32Array(1 << 15);
const legalAt = new Uint16Array(1 << 15);
const listedStamp = new Uint32Array(1 << 15);
let stamp = 0;

/** The legal moves of a position with the keys of their children; valid until the next call. */
export function legalMoves(pos: Position): LegalMoves {
  const count = pos.generateLegal(legalBuf);
  keyChildren(pos, count);
  return { count, moves: legalBuf, childHi: childHiBuf, childLo: childLoBuf };
}

/** Fills the child keys of legalBuf's first `count` moves. */
function keyChildren(pos: Position, count: number): void {
  for (let i = 0; i < count; i++) {
    pos.keyAfter(legalBuf[i], keyOut);
    childHiBuf[i] = keyOut[0];
    childLoBuf[i] = keyOut[1];
  }
}

/**
 * The node a position becomes, from its legal moves in legalBuf (`count` of them, their
 * children keyed when `keyed`): its flags and its legal listed moves (first of duplicates
 * kept). The one place a node is made: a bulk build and a dig's insert both come here.
 */
function buildNode(
  pos: Position,
  candidates: BookEntry["candidates"],
  count: number,
  keyed: boolean,
): { input: NodeInput; skipped: string[] } {
  if (++stamp === 0xffffffff) {
    legalStamp.fill(0);
    listedStamp.fill(0);
    stamp = 1;
  }
  for (let i = 0; i < count; i++) {
    legalStamp[legalBuf[i]] = stamp;
    legalAt[legalBuf[i]] = i;
  }
  const flags =
    (pos.side === WHITE ? NODE_WHITE : 0) |
    (pos.inCheck() ? NODE_IN_CHECK : 0) |
    (count === 0 ? NODE_NO_MOVES : 0) |
    (count > 0 && pos.declarationWin() ? NODE_DECLARATION_WIN : 0);
  const listed: ListedMove[] = [];
  const skipped: string[] = [];
  for (const c of candidates) {
    const m = parseUsiMove(c.move);
    if (m === null || legalStamp[m] !== stamp) {
      skipped.push(c.move);
      continue;
    }
    if (listedStamp[m] === stamp) continue;
    listedStamp[m] = stamp;
    let childHi: number, childLo: number;
    if (keyed) {
      childHi = childHiBuf[legalAt[m]];
      childLo = childLoBuf[legalAt[m]];
    } else {
      pos.keyAfter(m, keyOut);
      childHi = keyOut[0];
      childLo = keyOut[1];
    }
    listed.push({ move: m, value: c.value, childHi, childLo });
  }
  return { input: { keyHi: pos.keyHi, keyLo: pos.keyLo, flags, listed }, skipped };
}

/** Puts the position's legal moves into legalBuf: the caller's when it generated them already. */
function fillLegal(pos: Position, legal: ArrayLike<number> | undefined): number {
  if (!legal) return pos.generateLegal(legalBuf);
  for (let i = 0; i < legal.length; i++) legalBuf[i] = legal[i];
  return legal.length;
}

/** The node a position becomes: its flags and its legal listed moves (first of duplicates kept). */
export function nodeInput(
  pos: Position,
  candidates: BookEntry["candidates"],
  /** Its legal moves in any order, when generated already (a generated book holds them). */
  legal?: ArrayLike<number>,
): { input: NodeInput; skipped: string[]; legalCount: number } {
  const legalCount = fillLegal(pos, legal);
  // Only the listed moves' children are keyed: a bulk build links the rest in its second pass.
  return { ...buildNode(pos, candidates, legalCount, false), legalCount };
}

/**
 * Calls `found` once for each thought parent of a position: a predecessor (by retrograde
 * move generation) whose key is in the graph, verified by playing its move forward.
 */
function forEachThoughtParent(graph: BookGraph, pos: Position, found: (parent: Position, link: ParentLink) => void): void {
  const seen = new Set<string>();
  forEachUnmove(pos, (keyHi, keyLo, move, captured) => {
    if (graph.find(keyHi, keyLo) < 0) return;
    const id = `${keyHi >>> 0}:${keyLo >>> 0}:${move}`;
    if (seen.has(id)) return;
    const parent = predecessor(pos, move, captured);
    if (parent.keyHi !== keyHi >>> 0 || parent.keyLo !== keyLo >>> 0 || !parent.isLegal(move)) return;
    parent.keyAfter(move, keyOut);
    if (keyOut[0] !== pos.keyHi || keyOut[1] !== pos.keyLo) return;
    seen.add(id);
    found(parent, { keyHi, keyLo, move });
  });
}

/** The thought parents of a position as the links the graph stores. */
export function thoughtParents(graph: BookGraph, pos: Position): ParentLink[] {
  const found: ParentLink[] = [];
  forEachThoughtParent(graph, pos, (_, link) => found.push(link));
  return found;
}

/**
 * A position's possible predecessors by retrograde move generation, generated once and kept
 * with what their verification found, so that its thought parents can be found more than
 * once (a dig's job: when it goes in flight and when its result goes in) without generating
 * and verifying them again. `thoughtParents` gives what the function of that name gives for
 * the graph as it is then, in the same order.
 */
export class Predecessors {
  /** Per candidate, four words: its key's high and low halves, the move, the captured piece. */
  private readonly cand: Int32Array;
  /** Per candidate: 0 not verified yet, 1 a parent of the position, 2 not. */
  private readonly verified: Uint8Array;

  constructor(private readonly pos: Position) {
    let n = 0;
    forEachUnmove(pos, (keyHi, keyLo, move, captured) => {
      if (4 * n === unmoveScratch.length) unmoveScratch = grown(unmoveScratch, 2 * unmoveScratch.length);
      unmoveScratch[4 * n] = keyHi;
      unmoveScratch[4 * n + 1] = keyLo;
      unmoveScratch[4 * n + 2] = move;
      unmoveScratch[4 * n + 3] = captured;
      n++;
    });
    this.cand = unmoveScratch.slice(0, 4 * n);
    this.verified = new Uint8Array(n);
  }

  /** The thought parents now, as thoughtParents(graph, pos) finds them. */
  thoughtParents(graph: BookGraph): ParentLink[] {
    const found: ParentLink[] = [];
    const pos = this.pos,
      cand = this.cand;
    for (let i = 0; i < this.verified.length; i++) {
      const keyHi = cand[4 * i] >>> 0,
        keyLo = cand[4 * i + 1] >>> 0,
        move = cand[4 * i + 2];
      if (graph.find(keyHi, keyLo) < 0) continue;
      if (found.some((f) => f.keyHi === keyHi && f.keyLo === keyLo && f.move === move)) continue;
      if (this.verified[i] === 0) {
        const parent = predecessor(pos, move, cand[4 * i + 3]);
        let ok = parent.keyHi === keyHi && parent.keyLo === keyLo && parent.isLegal(move);
        if (ok) {
          parent.keyAfter(move, keyOut);
          ok = keyOut[0] === pos.keyHi && keyOut[1] === pos.keyLo;
        }
        this.verified[i] = ok ? 1 : 2;
      }
      if (this.verified[i] === 1) found.push({ keyHi, keyLo, move });
    }
    return found;
  }
}

/** Where Predecessors generates, before keeping what it found at its size. */
let unmoveScratch = new Int32Array(4 * 256);

/** The thought parents of a position as positions (for browsing), each with its move here. */
export function thoughtParentPositions(graph: BookGraph, pos: Position): Array<{ parent: Position; move: number }> {
  const found: Array<{ parent: Position; move: number }> = [];
  forEachThoughtParent(graph, pos, (parent, { move }) => found.push({ parent, move }));
  return found;
}

/**
 * Inserts a thought position the caller already holds (a dig's job: the position it
 * selected), with one legal-move generation for its flags, its listed moves' legality and
 * its forward links; `parents` when the caller found them already.
 */
export function insertPosition(
  graph: BookGraph,
  pos: Position,
  candidates: BookEntry["candidates"],
  parents: readonly ParentLink[] = thoughtParents(graph, pos),
  /** Its legal moves, when generated already (a dig generates them once, when it hands the position out). */
  legal?: ArrayLike<number>,
): Linked {
  const count = fillLegal(pos, legal);
  keyChildren(pos, count);
  const { input, skipped } = buildNode(pos, candidates, count, true);
  const id = graph.insert(input, { count, moves: legalBuf, childHi: childHiBuf, childLo: childLoBuf }, parents);
  return { id, skipped };
}

/** Inserts one thought position and links it both ways (the incremental path of a dig). */
export function insertEntry(graph: BookGraph, entry: BookEntry): Linked {
  return insertPosition(graph, Position.fromSfen(entry.sfen), entry.candidates);
}

/**
 * Builds a graph from a whole book by a full pass: every node first, then every node's
 * legal moves linked. `entries` is called twice, so it can stream from the store.
 */
export function buildGraph(
  entries: () => Iterable<BookEntry>,
  expected = 1024,
  onProgress?: (phase: "nodes" | "links", done: number) => void,
  /** Positions seeded from game records: known first, so that each node marks its moves into them. */
  kifu?: Iterable<readonly [number, number]>,
): { graph: BookGraph; skipped: number } {
  const graph = new BookGraph(expected);
  if (kifu) graph.knowKifu(kifu);
  let skipped = 0,
    done = 0;
  for (const entry of entries()) {
    const pos = Position.fromSfen(entry.sfen);
    const r = nodeInput(pos, entry.candidates);
    graph.addNode(r.input);
    skipped += r.skipped.length;
    if (onProgress && ++done % 100_000 === 0) onProgress("nodes", done);
  }
  done = 0;
  for (const entry of entries()) {
    const pos = Position.fromSfen(entry.sfen);
    graph.linkForward(graph.find(pos.keyHi, pos.keyLo), legalMoves(pos));
    if (onProgress && ++done % 100_000 === 0) onProgress("links", done);
  }
  return { graph, skipped };
}
