// The book as a compact in-memory graph: thought positions (nodes) with integer ids,
// their listed candidate moves (leaf or internal edges) and the unlisted legal moves
// that reach other thought nodes (transpositions, non-promotions). Everything lives in
// typed arrays so a 15M-position book fits in a few GB and the selection search walks
// it without allocating.
//
// The graph knows positions only by their 64-bit keys; the shogi rules stay outside
// (see link.ts), which keeps this structure testable on abstract random books. It keeps no
// key of a listed move's child (8 bytes a move, 720 MB of a 15M book): a thought child is its
// node, and the edges into an unthought one are named by its parents and their moves, which
// the rules find from the position's side (retrograde generation).
//
// Kept as one file over 600 lines: the typed-array layout and every accessor of it belong together,
// so exactly one file knows how a node and an edge are laid out.

import { KeyIndex } from "./key-index.js";
import { clampValue } from "../rules/types.js";
import { moveToUsi } from "../rules/usi.js";
import { grown } from "../util/typed-array.js";

/** Node flags: facts about the position that the search needs without the rules. */
export const NODE_WHITE = 1; // white to move
export const NODE_IN_CHECK = 2; // the side to move is in check (the move into it gave check)
export const NODE_DECLARATION_WIN = 4; // the side to move wins by the 27-point declaration
export const NODE_NO_MOVES = 8; // no legal move: the side to move is mated
export const NODE_HAS_BAN = 16; // some (node, move) pair is banned: check the ban set

/** Edge flags. */
export const EDGE_KIFU = 1; // the child position appears in a seeded game record
export const EDGE_IN_FLIGHT = 2; // the child position is in the graph's in-flight set (kept by setInFlight)

export interface ListedMove {
  move: number;
  value: number;
  childHi: number;
  childLo: number;
}

/** The legal moves of a position with the keys of their children. */
export interface LegalMoves {
  count: number;
  moves: ArrayLike<number>;
  childHi: ArrayLike<number>;
  childLo: ArrayLike<number>;
}

export interface NodeInput {
  keyHi: number;
  keyLo: number;
  /** NODE_WHITE | NODE_IN_CHECK | NODE_DECLARATION_WIN | NODE_NO_MOVES. */
  flags: number;
  /** Legal candidate moves in the engine's order; the graph orders them by value, stably. */
  listed: readonly ListedMove[];
}

/** A possible parent of a node: its key and the move that leads to the node. */
export interface ParentLink {
  keyHi: number;
  keyLo: number;
  move: number;
}

const NONE = -1;
/** In a parent block (BookGraph.pNode): the block's last parent. */
export const PARENT_LAST = 1 << 31;

/** The arrays of a graph's structure, in snapshot order. */
export const GRAPH_ARRAYS = [
  "keyHi",
  "keyLo",
  "flags",
  "edgeStart",
  "edgeCount",
  "extraHead",
  "eMove",
  "eValue",
  "eChild",
  "eFlags",
  "xMove",
  "xChild",
  "xNext",
  "slots",
] as const;
export type GraphArrayName = (typeof GRAPH_ARRAYS)[number];
export interface GraphCounts {
  nodes: number;
  edges: number;
  extras: number;
  /** The key index's size (a power of two). */
  slots: number;
}

let usiRank: Uint16Array | undefined;
/** Rank of every 15-bit move in USI text order: the fixed order of unlisted edges (docs/DESIGN.md §3.9). */
export function usiOrder(): Uint16Array {
  if (usiRank) return usiRank;
  const texts: Array<[string, number]> = [];
  for (let m = 1; m < 1 << 15; m++) {
    const to = m & 127,
      from = (m >> 7) & 127;
    if (to >= 81 || from === to || from > 87 || (from >= 81 && m & (1 << 14))) continue;
    texts.push([moveToUsi(m), m]);
  }
  texts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  usiRank = new Uint16Array(1 << 15).fill(0xffff);
  texts.forEach(([, m], i) => (usiRank![m] = i));
  return usiRank;
}

/** How many changes a reader may fall behind before it is told to start over. */
const FEED_MAX = 1 << 20;

/**
 * What changed since a reader last read, or "everything" (lost): the nodes whose own moves
 * changed, each as node * 2 + 1 when only selection sees the change (the in-flight set and
 * bans, which the plain book ignores), node * 2 otherwise.
 */
export class TouchFeed {
  changes: number[] = [];
  lost = true;
  constructor(readonly close: () => void) {}
  push(change: number): void {
    if (this.lost) return;
    if (this.changes.length >= FEED_MAX) this.lose();
    else this.changes.push(change);
  }
  lose(): void {
    this.lost = true;
    this.changes = [];
  }
  /** Takes what changed: null when the reader must start over. */
  take(): number[] | null {
    const changes = this.lost ? null : this.changes;
    this.lost = false;
    this.changes = [];
    return changes;
  }
}

export class BookGraph {
  // Nodes.
  nodeCount = 0;
  keyHi: Uint32Array;
  keyLo: Uint32Array;
  flags: Uint8Array;
  /** Listed edges of node n: [edgeStart[n], edgeStart[n] + edgeCount[n]). */
  edgeStart: Uint32Array;
  edgeCount: Uint16Array;
  /** Unlisted internal edges of node n: a list through xNext, in USI order. */
  extraHead: Int32Array;

  // Listed edges.
  edgeTotal = 0;
  eMove: Uint16Array;
  eValue: Int16Array;
  eChild: Int32Array;
  eFlags: Uint8Array;

  // Unlisted internal edges.
  extraTotal = 0;
  xMove: Uint16Array;
  xChild: Int32Array;
  xNext: Int32Array;

  /**
   * Bumped whenever the book, the in-flight set or the banned set changes: views memoized on
   * it (a preview, the plain book value) are made again. Selectors follow the changes node by
   * node through their TouchFeed instead.
   */
  generation = 1;

  /** Readers of the changes (selectors): each is told which nodes' own moves changed. */
  private feeds = new Set<TouchFeed>();
  get tracksTouches(): boolean {
    return this.feeds.size !== 0;
  }
  /** A new reader of the changes; it starts lost (everything is new to it). Close it when done. */
  openFeed(): TouchFeed {
    const feed = new TouchFeed(() => this.feeds.delete(feed));
    this.feeds.add(feed);
    return feed;
  }
  /** Everything changed at once (kifu marks): readers start over. */
  touchAll(): void {
    for (const f of this.feeds) f.lose();
  }
  private touch(node: number, selectionOnly = false): void {
    const change = node * 2 + (selectionOnly ? 1 : 0);
    for (const f of this.feeds) f.push(change);
  }

  // Parents through internal edges, as a chain per child from pHead[child]: first the links
  // added since the build, newest first (a link k is -(k + 2): pMoreNode[k], then pMoreNext[k]),
  // then the child's block of the bulk build, side by side in pNode (an index >= 0: the parents
  // follow one another, the last with PARENT_LAST set). A superset: a link that a node's new
  // moves replaced stays, which only makes a walk up longer. Built on first use (a bulk build
  // or a snapshot load does without), then kept by link(). Blocks need no next pointers: on a
  // book of millions that is 4 bytes a link saved, and a walk reads a child's parents from one
  // place, not from a link scattered per parent edge (most of a walk's time was that read).
  pHead: Int32Array | null = null;
  pNode = new Int32Array(0);
  pMoreNode = new Int32Array(0);
  pMoreNext = new Int32Array(0);
  private pMoreCount = 0;

  /** Builds the parent chains if they are not there yet (a counting sort: one pass to count, one to fill). */
  ensureParents(): void {
    if (this.pHead) return;
    const { head, node } = this.buildParentBlocks(this.keyHi.length);
    this.adoptParents(head, node);
  }

  /**
   * The parent blocks a bulk build makes of the graph as it is now (what ensureParents builds
   * after an open), for a snapshot: the next open reads them instead of building them (seconds
   * on a book of millions). Built afresh, not the chains kept now, which hold links a node's new
   * moves replaced.
   */
  parentBlocks(): { head: Int32Array<ArrayBuffer>; node: Int32Array<ArrayBuffer> } {
    return this.buildParentBlocks(this.nodeCount);
  }

  /**
   * Takes parent blocks as parentBlocks made them for this structure, `head` sized to the
   * graph's room (keyHi.length, the rest NONE), as growNodes keeps it.
   */
  adoptParents(head: Int32Array<ArrayBuffer>, node: Int32Array<ArrayBuffer>): void {
    if (head.length !== this.keyHi.length)
      throw new Error(`parent heads for ${head.length} positions, the graph has room for ${this.keyHi.length}`);
    this.pHead = head;
    this.pNode = node;
    this.pMoreNode = new Int32Array(1024);
    this.pMoreNext = new Int32Array(1024);
    this.pMoreCount = 0;
  }

  private buildParentBlocks(room: number): { head: Int32Array<ArrayBuffer>; node: Int32Array<ArrayBuffer> } {
    const n = this.nodeCount;
    // head[c] counts c's links, then (prefix sums) marks where its block ends, then where it starts.
    const head = new Int32Array(room).fill(NONE);
    head.fill(0, 0, n);
    const { edgeStart, edgeCount, eChild, extraHead, xChild, xNext } = this;
    for (let p = 0; p < n; p++) {
      for (let e = edgeStart[p], end = e + edgeCount[p]; e < end; e++) if (eChild[e] !== NONE) head[eChild[e]]++;
      for (let x = extraHead[p]; x !== NONE; x = xNext[x]) head[xChild[x]]++;
    }
    let links = 0;
    for (let c = 0; c < n; c++) head[c] = links += head[c];
    const pNode = new Int32Array(links);
    // No duplicate check here: a node's moves lead to distinct positions, so each (child,
    // parent) pair comes once; later links go through addParent, which checks.
    for (let p = 0; p < n; p++) {
      for (let e = edgeStart[p], end = e + edgeCount[p]; e < end; e++) if (eChild[e] !== NONE) pNode[--head[eChild[e]]] = p;
      for (let x = extraHead[p]; x !== NONE; x = xNext[x]) pNode[--head[xChild[x]]] = p;
    }
    for (let c = 0; c < n; c++) {
      const end = c + 1 < n ? head[c + 1] : links;
      if (head[c] === end) head[c] = NONE;
      else pNode[end - 1] |= PARENT_LAST;
    }
    return { head, node: pNode };
  }

  /** The parents of `child` as the chains hold them (built first if need be): for tests and tools, not hot paths. */
  parentsOf(child: number): number[] {
    this.ensureParents();
    const parents: number[] = [];
    for (let p = this.pHead![child]; p !== NONE;) {
      if (p >= 0) {
        const v = this.pNode[p];
        parents.push(v & ~PARENT_LAST);
        p = v & PARENT_LAST ? NONE : p + 1;
      } else {
        parents.push(this.pMoreNode[-p - 2]);
        p = this.pMoreNext[-p - 2];
      }
    }
    return parents;
  }

  private addParent(child: number, parent: number): void {
    const head = this.pHead!;
    // A few links a new position (not a hot path): the chain as parentsOf reads it.
    if (this.parentsOf(child).includes(parent)) return;
    if (this.pMoreCount === this.pMoreNode.length) {
      const size = Math.ceil(this.pMoreCount * 1.5) + 1024;
      this.pMoreNode = grown(this.pMoreNode, size);
      this.pMoreNext = grown(this.pMoreNext, size);
    }
    const k = this.pMoreCount++;
    this.pMoreNode[k] = parent;
    this.pMoreNext[k] = head[child];
    head[child] = -(k + 2);
  }

  private slots: Int32Array; // open-addressing index: node id + 1, 0 = empty
  private slotMask: number;
  readonly kifu = new KeyIndex(16);
  readonly inFlight = new KeyIndex(16);
  private banned = new Set<number>();
  kifuBonus = 100;

  constructor(expectedNodes = 1024) {
    const n = Math.max(16, expectedNodes);
    const e = n * 6;
    this.keyHi = new Uint32Array(n);
    this.keyLo = new Uint32Array(n);
    this.flags = new Uint8Array(n);
    this.edgeStart = new Uint32Array(n);
    this.edgeCount = new Uint16Array(n);
    this.extraHead = new Int32Array(n).fill(NONE);
    this.eMove = new Uint16Array(e);
    this.eValue = new Int16Array(e);
    this.eChild = new Int32Array(e);
    this.eFlags = new Uint8Array(e);
    const x = Math.max(16, n >> 2);
    this.xMove = new Uint16Array(x);
    this.xChild = new Int32Array(x);
    this.xNext = new Int32Array(x);
    let cap = 16;
    while (cap < n * 2) cap *= 2;
    this.slots = new Int32Array(cap);
    this.slotMask = cap - 1;
  }

  /** The id of the thought node with this key, or -1. */
  find(keyHi: number, keyLo: number): number {
    keyHi >>>= 0;
    keyLo >>>= 0;
    const mask = this.slotMask;
    for (let i = (keyLo ^ Math.imul(keyHi, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i];
      if (s === 0) return NONE;
      if (this.keyLo[s - 1] === keyLo && this.keyHi[s - 1] === keyHi) return s - 1;
    }
  }

  /**
   * Adds a thought node with its listed moves (or replaces the moves of a node that is
   * already there), without linking anything. Call linkForward and linkFromParents next,
   * or use insert() which does all three.
   */
  addNode(input: NodeInput): number {
    let id = this.find(input.keyHi, input.keyLo);
    if (id === NONE) {
      id = this.nodeCount++;
      if (id === this.keyHi.length) this.growNodes();
      this.keyHi[id] = input.keyHi >>> 0;
      this.keyLo[id] = input.keyLo >>> 0;
      this.extraHead[id] = NONE;
      this.indexPlace(id);
    }
    this.flags[id] = (this.flags[id] & NODE_HAS_BAN) | (input.flags & ~NODE_HAS_BAN);

    // Best engine value first; the sort is stable, so listed order breaks ties (docs/DESIGN.md §3.9).
    const listed = [...input.listed].sort((a, b) => clampValue(b.value) - clampValue(a.value));
    if (this.edgeTotal + listed.length > this.eMove.length) this.growEdges(this.edgeTotal + listed.length);
    const start = this.edgeTotal;
    this.edgeStart[id] = start;
    this.edgeCount[id] = listed.length;
    this.edgeTotal += listed.length;
    for (let i = 0; i < listed.length; i++) {
      const e = start + i,
        l = listed[i];
      this.eMove[e] = l.move;
      this.eValue[e] = clampValue(l.value);
      this.eChild[e] = this.find(l.childHi, l.childLo);
      this.eFlags[e] = (this.kifu.has(l.childHi, l.childLo) ? EDGE_KIFU : 0) | (this.isInFlight(l.childHi, l.childLo) ? EDGE_IN_FLIGHT : 0);
    }
    this.extraHead[id] = NONE; // rebuilt by linkForward from the legal moves
    this.generation++;
    this.touch(id);
    return id;
  }

  /** Links every legal move of node `id` whose child is a thought node (listed or not). */
  linkForward(id: number, legal: LegalMoves): void {
    const start = this.edgeStart[id],
      end = start + this.edgeCount[id];
    for (let i = 0; i < legal.count; i++) {
      const child = this.find(legal.childHi[i], legal.childLo[i]);
      if (child === NONE) continue;
      this.link(id, legal.moves[i], child, start, end);
    }
    this.generation++;
  }

  /** Links node `id` from those of the given possible parents that are thought nodes. */
  linkFromParents(id: number, parents: Iterable<ParentLink>): void {
    for (const p of parents) {
      const parent = this.find(p.keyHi, p.keyLo);
      if (parent === NONE) continue;
      const start = this.edgeStart[parent];
      this.link(parent, p.move, id, start, start + this.edgeCount[parent]);
    }
    this.generation++;
  }

  /** Adds a node and links it both ways: to its thought children and from its thought parents. */
  insert(input: NodeInput, legal: LegalMoves, parents: Iterable<ParentLink>): number {
    const id = this.addNode(input);
    this.linkForward(id, legal);
    this.linkFromParents(id, parents);
    return id;
  }

  private link(parent: number, move: number, child: number, start: number, end: number): void {
    this.touch(parent);
    if (this.pHead) this.addParent(child, parent);
    for (let e = start; e < end; e++) {
      if (this.eMove[e] === move) {
        this.eChild[e] = child;
        return;
      }
    }
    // An unlisted internal edge, kept in USI order.
    const rank = usiOrder();
    let prev = NONE;
    let x = this.extraHead[parent];
    while (x !== NONE && rank[this.xMove[x]] < rank[move]) {
      prev = x;
      x = this.xNext[x];
    }
    if (x !== NONE && this.xMove[x] === move) {
      this.xChild[x] = child;
      return;
    }
    const n = this.extraTotal++;
    if (n === this.xMove.length) {
      const size = Math.ceil(n * 1.5) + 16;
      this.xMove = grown(this.xMove, size);
      this.xChild = grown(this.xChild, size);
      this.xNext = grown(this.xNext, size);
    }
    this.xMove[n] = move;
    this.xChild[n] = child;
    this.xNext[n] = x;
    if (prev === NONE) this.extraHead[parent] = n;
    else this.xNext[prev] = n;
  }

  // --- The sets that steer selection -------------------------------------------

  /**
   * Seeds a position from a game record: leaves into it get the kifu bonus. `parents` are
   * the thought parents with their moves into it (retrograde generation finds them): the
   * graph keeps no child keys, so the edges into a position are found from its side.
   */
  addKifu(keyHi: number, keyLo: number, parents: Iterable<ParentLink>): void {
    this.addKifuMany([{ keyHi, keyLo, parents: () => parents }]);
  }

  /**
   * Seeded positions whose edges are marked already (a snapshot's saved marks) or will be as
   * their parents are added (addNode marks a listed move into a seeded position): the set only.
   */
  knowKifu(keys: Iterable<readonly [number, number]>): void {
    for (const [hi, lo] of keys) this.kifu.set(hi, lo, 1);
    this.generation++;
    this.touchAll();
  }

  /** Seeds many positions at once; each one's parents are asked for only when it is new. */
  addKifuMany(seeds: Iterable<{ keyHi: number; keyLo: number; parents: () => Iterable<ParentLink> }>): number {
    let added = 0;
    for (const s of seeds) {
      if (this.kifu.has(s.keyHi, s.keyLo)) continue;
      this.kifu.set(s.keyHi, s.keyLo, 1);
      this.markInto(s.parents(), EDGE_KIFU, true, false);
      added++;
    }
    if (added === 0) return 0;
    this.generation++;
    this.touchAll();
    return added;
  }

  /**
   * Puts a position in flight or takes it out. `parents` are its thought parents with their
   * moves into it (retrograde generation finds them): the edges they name carry the mark, so
   * the search reads a flag instead of the set.
   */
  setInFlight(keyHi: number, keyLo: number, on: boolean, parents: Iterable<ParentLink>): void {
    if (on) this.inFlight.set(keyHi, keyLo, 1);
    else this.inFlight.delete(keyHi, keyLo);
    this.generation++;
    this.markInto(parents, EDGE_IN_FLIGHT, on, true);
  }

  /** Sets or clears `bit` on the listed edge of each (parent, move) that is in the graph. */
  private markInto(parents: Iterable<ParentLink>, bit: number, on: boolean, selectionOnly: boolean): void {
    for (const p of parents) {
      const n = this.find(p.keyHi, p.keyLo);
      if (n === NONE) continue;
      const start = this.edgeStart[n],
        end = start + this.edgeCount[n];
      for (let e = start; e < end; e++)
        if (this.eMove[e] === p.move) {
          this.eFlags[e] = on ? this.eFlags[e] | bit : this.eFlags[e] & ~bit;
          this.touch(n, selectionOnly);
          break;
        }
    }
  }

  isInFlight(keyHi: number, keyLo: number): boolean {
    return this.inFlight.size !== 0 && this.inFlight.has(keyHi, keyLo);
  }

  ban(node: number, move: number): void {
    this.banned.add(node * 32768 + move);
    this.flags[node] |= NODE_HAS_BAN;
    this.generation++;
    this.touch(node, true);
  }

  /** Lifts one ban (the user's "remove a ban"). */
  unban(node: number, move: number): void {
    if (!this.banned.delete(node * 32768 + move)) return;
    let other = false;
    for (const b of this.banned) if (Math.floor(b / 32768) === node) other = true;
    if (!other) this.flags[node] &= ~NODE_HAS_BAN;
    this.generation++;
    this.touch(node, true);
  }

  isBanned(node: number, move: number): boolean {
    return (this.flags[node] & NODE_HAS_BAN) !== 0 && this.banned.has(node * 32768 + move);
  }

  /** How many (node, move) pairs are banned. */
  get banCount(): number {
    return this.banned.size;
  }

  bans(): Array<{ node: number; move: number }> {
    return [...this.banned].map((b) => ({ node: Math.floor(b / 32768), move: b % 32768 }));
  }

  clearBans(): void {
    for (const b of this.banned) {
      this.flags[Math.floor(b / 32768)] &= ~NODE_HAS_BAN;
      this.touch(Math.floor(b / 32768), true);
    }
    this.banned.clear();
    this.generation++;
  }

  // --- Reading -------------------------------------------------------------------

  /** Calls back for each edge of a node in the fixed search order: listed, then unlisted internal. */
  forEachEdge(node: number, visit: (move: number, child: number, value: number | null, listedIndex: number) => void): void {
    const start = this.edgeStart[node],
      end = start + this.edgeCount[node];
    for (let e = start; e < end; e++) visit(this.eMove[e], this.eChild[e], this.eValue[e], e);
    for (let x = this.extraHead[node]; x !== NONE; x = this.xNext[x]) visit(this.xMove[x], this.xChild[x], null, -1);
  }

  /** Bytes held by the graph's arrays (capacity, not just what is used). */
  get bytes(): number {
    const arrays = [
      this.keyHi,
      this.keyLo,
      this.flags,
      this.edgeStart,
      this.edgeCount,
      this.extraHead,
      this.eMove,
      this.eValue,
      this.eChild,
      this.eFlags,
      this.xMove,
      this.xChild,
      this.xNext,
      this.slots,
    ];
    const parents = this.pHead ? this.pHead.byteLength + this.pNode.byteLength + this.pMoreNode.byteLength + this.pMoreNext.byteLength : 0;
    return arrays.reduce((s, a) => s + a.byteLength, 0) + parents + this.kifu.bytes + this.inFlight.bytes;
  }

  /**
   * The arrays that make up the book's structure, trimmed to what is used, for a
   * snapshot (see electron/book/graph-snapshot.ts). The sets that steer selection (kifu,
   * in flight, bans) are not part of it: they are read from the store at every open. The
   * edges' kifu marks are (found from the seeds' side, they cost a retrograde search a seed).
   */
  structure(): { counts: GraphCounts; arrays: Record<GraphArrayName, ArrayBufferView> } {
    const n = this.nodeCount,
      e = this.edgeTotal,
      x = this.extraTotal;
    return {
      counts: { nodes: n, edges: e, extras: x, slots: this.slots.length },
      arrays: {
        keyHi: this.keyHi.subarray(0, n),
        keyLo: this.keyLo.subarray(0, n),
        flags: this.flags.subarray(0, n),
        edgeStart: this.edgeStart.subarray(0, n),
        edgeCount: this.edgeCount.subarray(0, n),
        extraHead: this.extraHead.subarray(0, n),
        eMove: this.eMove.subarray(0, e),
        eValue: this.eValue.subarray(0, e),
        eChild: this.eChild.subarray(0, e),
        eFlags: this.eFlags.subarray(0, e),
        xMove: this.xMove.subarray(0, x),
        xChild: this.xChild.subarray(0, x),
        xNext: this.xNext.subarray(0, x),
        slots: this.slots,
      },
    };
  }

  /**
   * A graph over arrays filled from a snapshot (`fill` writes each one, exactly sized; the
   * arrays hold `spareNodes` more positions of room).
   * Bans and the in-flight marks are cleared, to be set again from the store; kifu marks too
   * unless `keepKifuMarks`.
   */
  static fromStructure(
    counts: GraphCounts,
    fill: (name: GraphArrayName, into: ArrayBufferView) => void,
    spareNodes = 0,
    /** The saved edges carry their kifu marks (a snapshot of format 3 on): kept, not cleared. */
    keepKifuMarks = false,
  ): BookGraph {
    const g = new BookGraph(16);
    // Room for positions about to be added (a replay): growing 1.5x on the first would hold
    // both copies of the big edge arrays at once.
    g.allocate(counts.nodes + spareNodes, counts.edges + spareNodes * 8, counts.extras + spareNodes * 2);
    g.slots = new Int32Array(counts.slots);
    g.slotMask = counts.slots - 1;
    g.nodeCount = counts.nodes;
    g.edgeTotal = counts.edges;
    g.extraTotal = counts.extras;
    const arrays = g.structure().arrays;
    for (const name of GRAPH_ARRAYS) fill(name, arrays[name]);
    for (let i = 0; i < counts.nodes; i++) g.flags[i] &= ~NODE_HAS_BAN;
    if (keepKifuMarks) for (let e = 0; e < counts.edges; e++) g.eFlags[e] &= EDGE_KIFU;
    else g.eFlags.fill(0);
    return g;
  }

  /**
   * A copy without the nodes marked in `gone` (a prune), the one a rebuild from the
   * remaining positions gives: ids renumbered in order, listed moves into a removed node
   * become leaf moves again, unlisted internal edges into one go, and edges left behind by
   * nodes thought again are dropped. The sets that steer selection are not copied (they
   * are read from the store at open). Costs one pass over the arrays, not a rebuild.
   */
  without(gone: Uint8Array): BookGraph {
    const newId = new Int32Array(this.nodeCount);
    let n = 0,
      e = 0,
      x = 0;
    for (let id = 0; id < this.nodeCount; id++) {
      if (gone[id]) {
        newId[id] = NONE;
        continue;
      }
      newId[id] = n++;
      e += this.edgeCount[id];
    }
    for (let id = 0; id < this.nodeCount; id++) {
      if (gone[id]) continue;
      for (let i = this.extraHead[id]; i !== NONE; i = this.xNext[i]) if (newId[this.xChild[i]] !== NONE) x++;
    }
    const g = new BookGraph(16);
    g.allocate(n, e, x);
    let at = 0,
      xAt = 0;
    for (let id = 0; id < this.nodeCount; id++) {
      const to = newId[id];
      if (to === NONE) continue;
      g.keyHi[to] = this.keyHi[id];
      g.keyLo[to] = this.keyLo[id];
      g.flags[to] = this.flags[id] & ~NODE_HAS_BAN;
      const start = this.edgeStart[id],
        count = this.edgeCount[id];
      g.edgeStart[to] = at;
      g.edgeCount[to] = count;
      for (let k = start; k < start + count; k++, at++) {
        g.eMove[at] = this.eMove[k];
        g.eValue[at] = this.eValue[k];
        g.eFlags[at] = this.eFlags[k] & ~EDGE_IN_FLIGHT; // the in-flight set is not copied
        const child = this.eChild[k];
        g.eChild[at] = child === NONE ? NONE : newId[child];
      }
      let prev = NONE;
      for (let i = this.extraHead[id]; i !== NONE; i = this.xNext[i]) {
        const child = newId[this.xChild[i]];
        if (child === NONE) continue;
        g.xMove[xAt] = this.xMove[i];
        g.xChild[xAt] = child;
        g.xNext[xAt] = NONE;
        if (prev === NONE) g.extraHead[to] = xAt;
        else g.xNext[prev] = xAt;
        prev = xAt++;
      }
    }
    g.nodeCount = n;
    g.edgeTotal = e;
    g.extraTotal = x;
    let cap = 16;
    while (cap < g.keyHi.length * 2) cap *= 2;
    g.rehash(cap);
    g.kifuBonus = this.kifuBonus;
    return g;
  }

  /** Fresh, empty node, edge and unlisted-edge arrays of room for at least 16 of each. */
  private allocate(nodes: number, edges: number, extras: number): void {
    const n = Math.max(16, nodes),
      e = Math.max(16, edges),
      x = Math.max(16, extras);
    this.keyHi = new Uint32Array(n);
    this.keyLo = new Uint32Array(n);
    this.flags = new Uint8Array(n);
    this.edgeStart = new Uint32Array(n);
    this.edgeCount = new Uint16Array(n);
    this.extraHead = new Int32Array(n).fill(NONE);
    this.eMove = new Uint16Array(e);
    this.eValue = new Int16Array(e);
    this.eChild = new Int32Array(e);
    this.eFlags = new Uint8Array(e);
    this.xMove = new Uint16Array(x);
    this.xChild = new Int32Array(x);
    this.xNext = new Int32Array(x);
    this.pHead = null;
  }

  /** Shrinks the arrays to what is used (after a bulk build). */
  trim(): void {
    const n = Math.max(16, this.nodeCount),
      e = Math.max(16, this.edgeTotal),
      x = Math.max(16, this.extraTotal);
    const cut = <T extends Uint8Array | Uint16Array | Int16Array | Uint32Array | Int32Array>(a: T, size: number): T =>
      a.length === size ? a : (a.slice(0, size) as T);
    this.keyHi = cut(this.keyHi, n);
    this.keyLo = cut(this.keyLo, n);
    this.flags = cut(this.flags, n);
    this.edgeStart = cut(this.edgeStart, n);
    this.edgeCount = cut(this.edgeCount, n);
    this.extraHead = cut(this.extraHead, n);
    if (this.pHead) this.pHead = cut(this.pHead, n);
    this.eMove = cut(this.eMove, e);
    this.eValue = cut(this.eValue, e);
    this.eChild = cut(this.eChild, e);
    this.eFlags = cut(this.eFlags, e);
    this.xMove = cut(this.xMove, x);
    this.xChild = cut(this.xChild, x);
    this.xNext = cut(this.xNext, x);
  }

  private indexPlace(id: number): void {
    if ((this.nodeCount + 1) * 2 > this.slots.length) {
      this.rehash(this.slots.length * 2);
      return; // rehash placed every node, this one included
    }
    const mask = this.slotMask,
      hi = this.keyHi[id],
      lo = this.keyLo[id];
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = id + 1;
  }

  private rehash(cap: number): void {
    this.slots = new Int32Array(cap);
    this.slotMask = cap - 1;
    for (let id = 0; id < this.nodeCount; id++) {
      let i = (this.keyLo[id] ^ Math.imul(this.keyHi[id], 0x9e3779b1)) & this.slotMask;
      while (this.slots[i] !== 0) i = (i + 1) & this.slotMask;
      this.slots[i] = id + 1;
    }
  }

  private growNodes(): void {
    const size = Math.ceil(this.keyHi.length * 1.5) + 16;
    this.keyHi = grown(this.keyHi, size);
    this.keyLo = grown(this.keyLo, size);
    this.flags = grown(this.flags, size);
    this.edgeStart = grown(this.edgeStart, size);
    this.edgeCount = grown(this.edgeCount, size);
    this.extraHead = grown(this.extraHead, size, NONE);
    if (this.pHead) this.pHead = grown(this.pHead, size, NONE);
  }

  private growEdges(need: number): void {
    const size = Math.max(need, Math.ceil(this.eMove.length * 1.5) + 16);
    this.eMove = grown(this.eMove, size);
    this.eValue = grown(this.eValue, size);
    this.eChild = grown(this.eChild, size);
    this.eFlags = grown(this.eFlags, size);
  }
}
