// The tree's model, pure so it is tested without a DOM: the book around the current line
// unfolded into a tree (a transposition shows up once per path, with links to its other
// parents), laid out by d3-hierarchy's tidy tree, and culled to what the viewport shows.
import { hierarchy, tree as tidyTree } from "d3-hierarchy";
import type { GraphEdgeView, GraphNodeState, GraphNodeView } from "../../../shared/api/contract";
import { normalizeSfen } from "../../../shared/rules/sfen";
import { Position } from "../../../shared/rules/position";
import { parseUsiMove } from "../../../shared/rules/usi";
import {
  bookOrder,
  flipBound,
  orderScore,
  pvMoveAt,
  scoreText,
  sideOf,
  type BoundKind,
  type Side,
  type ValuedMove,
  type Viewpoint,
} from "../logic";

export interface TNode {
  /** The line from the book's root to this node, and its key (moves joined by spaces). */
  line: string[];
  key: string;
  sfen: string;
  /** The move into this node (null at the anchor). */
  usi: string | null;
  side: Side;
  state: GraphNodeState;
  /** Value and bound from this node's side to move (a leaf: the engine's value of the move into it). */
  value: number | null;
  bound: BoundKind | null;
  cyclic: boolean;
  /** Thought parents: more than one is a transposition. */
  parents: number;
  /** On the book's best line from the anchor. */
  pv: boolean;
  /** Children not drawn (beyond the first few, until "more" is asked for). */
  more: number;
  expanded: boolean;
  /** The position already occurs earlier on this line (a repetition: not unfolded again). */
  repeated: boolean;
  info: GraphNodeView | undefined;
  children?: TNode[];
}

export interface TreeInput {
  anchorLine: string[];
  anchorSfen: string;
  cache: ReadonlyMap<string, GraphNodeView>;
  isExpanded: (key: string) => boolean;
  showAll: ReadonlySet<string>;
  maxChildren: number;
  /** Nodes never unfolded, whatever is expanded (keeps one view bounded). */
  maxNodes: number;
  /**
   * The current position's key. Its line is always drawn: its ancestors stay open, its
   * node is shown beyond the first few children, and it is unfolded first, so neither
   * the node budget nor a hand-closed ancestor hides the position on the board.
   */
  currentKey?: string;
  /** The book's best line from the root (the status's): on it, the line's move is the book move. */
  bookPv?: readonly string[];
}

const keyOf = (line: readonly string[]) => line.join(" ");

/** Whether the node `key` lies strictly above the node `current` (keys are lines joined by spaces). */
export function isAbove(key: string, current: string): boolean {
  return key !== current && (key === "" || current.startsWith(`${key} `));
}

/**
 * The position a line from the root reaches, as the host names it: read off the moves the host
 * listed (each names its child's SFEN); past what is cached, the rest of the line is played
 * with the rules (shared/rules: the one SFEN reader and writer) up to a move that cannot be played.
 */
export function lineSfen(rootSfen: string, line: readonly string[], nodes: ReadonlyMap<string, GraphNodeView>): string {
  let sfen = normalizeSfen(rootSfen);
  for (let i = 0; i < line.length; i++) {
    const e = sfen === undefined ? undefined : nodes.get(sfen)?.children.find((c) => c.usi === line[i]);
    if (!e) return playedSfen(sfen ?? rootSfen, line.slice(i));
    sfen = e.to;
  }
  return sfen ?? playedSfen(rootSfen, []);
}

function playedSfen(sfen: string, line: readonly string[]): string {
  const pos = Position.fromSfen(sfen);
  for (const u of line) {
    const m = parseUsiMove(u);
    if (m === null || !pos.isLegal(m)) break;
    pos.doMove(m);
  }
  return pos.sfenKey();
}

/** A child's value from its own side to move, with its bound, from what its parent's edge says. */
function childValue(e: GraphEdgeView, info: GraphNodeView | undefined): { value: number | null; bound: BoundKind | null; cyclic: boolean } {
  const b = info?.bound ?? e.childBound;
  if (b) return { value: b.value, bound: b.bound, cyclic: b.cyclic };
  // A leaf: the engine's value for the move is from the parent's side.
  return { value: e.engineValue === null ? null : -e.engineValue, bound: null, cyclic: false };
}

function edgeState(e: GraphEdgeView, info: GraphNodeView | undefined): GraphNodeState {
  if (e.state === "mate") return "mate";
  if (info && info.state !== "leaf") return info.state;
  if (e.state === "thought") return "thought";
  if (e.state === "leaf" && e.kifu) return "kifu";
  return e.state;
}

/** The children of a thought node ordered best first from its side to move (banned moves last), as the Book table orders them. */
export function orderedChildren(
  n: GraphNodeView,
  cache: ReadonlyMap<string, GraphNodeView>,
  pvMove?: string,
): Array<{ e: GraphEdgeView; score: number }> {
  const valued = n.children.map((e): ValuedMove => {
    const c = childValue(e, cache.get(e.to));
    return {
      value: c.value === null ? null : -c.value,
      bound: flipBound(c.bound),
      absent: e.state === "banned",
      away: e.state === "in-flight" || e.state === "failed",
      leaf: e.state !== "thought",
    };
  });
  // The book move first, as in the Book table: a mating move, else the best line's next move.
  const mate = n.children.findIndex((e) => e.state === "mate");
  const first = mate >= 0 ? mate : pvMove === undefined ? -1 : n.children.findIndex((e) => e.usi === pvMove && e.state !== "banned");
  return bookOrder(valued, first).map((i) => ({ e: n.children[i], score: orderScore(valued[i]) }));
}

/** Unfolds the book from the anchor into a tree of TNodes. */
export function buildTree(input: TreeInput): TNode {
  const { cache, isExpanded, showAll, maxChildren, maxNodes } = input;
  let budget = maxNodes;
  const anchorInfo = cache.get(input.anchorSfen);
  const root: TNode = {
    line: input.anchorLine,
    key: keyOf(input.anchorLine),
    sfen: input.anchorSfen,
    usi: null,
    side: anchorInfo?.side ?? sideOf(input.anchorSfen),
    state: anchorInfo?.state ?? "thought",
    value: anchorInfo?.bound?.value ?? null,
    bound: anchorInfo?.bound?.bound ?? null,
    cyclic: anchorInfo?.bound?.cyclic ?? false,
    parents: anchorInfo?.parents.length ?? 0,
    pv: true,
    more: 0,
    expanded: false,
    repeated: false,
    info: anchorInfo,
  };
  const current = input.currentKey;
  const currentLine = current === undefined || current === "" ? [] : current.split(" ");
  const onPath = new Set<string>();
  const unfold = (n: TNode) => {
    // Above the current node: always open, and the move toward it is known.
    const above = current !== undefined && isAbove(n.key, current);
    const towardUsi = above ? currentLine[n.line.length] : undefined;
    n.expanded = (above || isExpanded(n.key)) && !n.repeated;
    if (!n.expanded || !n.info || budget <= 0) return;
    onPath.add(n.sfen);
    const ordered = orderedChildren(n.info, cache, pvMoveAt(input.bookPv, n.line));
    const bestUsi = ordered.find((c) => c.score > -Infinity)?.e.usi;
    let shown = showAll.has(n.key) ? ordered : ordered.slice(0, maxChildren);
    const pathChild = towardUsi === undefined ? -1 : ordered.findIndex((c) => c.e.usi === towardUsi);
    if (pathChild >= shown.length) shown = [...shown, ordered[pathChild]];
    n.more = ordered.length - shown.length;
    n.children = [];
    for (const { e } of shown) {
      if (budget-- <= 0) break;
      const info = cache.get(e.to);
      const v = childValue(e, info);
      const line = [...n.line, e.usi];
      const child: TNode = {
        line,
        key: keyOf(line),
        sfen: e.to,
        usi: e.usi,
        side: n.side === "black" ? "white" : "black",
        state: edgeState(e, info),
        value: v.value,
        bound: v.bound,
        cyclic: v.cyclic,
        parents: info ? info.parents.length : e.childParents,
        pv: n.pv && e.usi === bestUsi,
        more: 0,
        expanded: false,
        repeated: onPath.has(e.to),
        info,
      };
      n.children.push(child);
    }
    // The child toward the current node takes its share of the budget first.
    const first = towardUsi === undefined ? undefined : n.children.find((c) => c.usi === towardUsi);
    if (first) unfold(first);
    for (const c of n.children) if (c !== first) unfold(c);
    onPath.delete(n.sfen);
  };
  unfold(root);
  return root;
}

/** A child's value seen from its parent (for the move table's way of reading a move). */
export function fromParent(n: TNode): { value: number | null; bound: BoundKind | null } {
  return { value: n.value === null ? null : -n.value, bound: flipBound(n.bound) };
}

/**
 * The value a box shows, and whose side it is from. A box with a move is read as the move,
 * as the Book table's row of it is: from the side that plays it (in "side to move" values the
 * two showed opposite signs for one move). The anchor, with no move, is its position's value
 * for the side to move there. In Black's view both read the same.
 */
export function shownValue(n: TNode): { value: number | null; bound: BoundKind | null; side: Side } {
  if (n.usi === null) return { value: n.value, bound: n.bound, side: n.side };
  return { ...fromParent(n), side: n.side === "black" ? "white" : "black" };
}

/** A box's value as text in the chosen viewpoint (see shownValue). */
export function boxValue(n: TNode, view: Viewpoint): string {
  const v = shownValue(n);
  return scoreText(v.value, v.side, view, v.bound);
}

export const NODE_W = 132;
export const NODE_H = 50;
export const COL_W = 176;
export const ROW_H = 60;

export interface Placed {
  node: TNode;
  /** Top-left corner of the node's box, in layout pixels. */
  x: number;
  y: number;
  parent: Placed | null;
}

/** Lays the tree out left to right with d3-hierarchy's tidy tree (Reingold-Tilford). */
export function layoutTree(root: TNode): Placed[] {
  const h = hierarchy(root, (n) => n.children);
  const laid = tidyTree<TNode>()
    .nodeSize([ROW_H, COL_W])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.25))(h);
  const placed = new Map<object, Placed>();
  const out: Placed[] = [];
  laid.each((p) => {
    const item: Placed = { node: p.data, x: p.y, y: p.x - NODE_H / 2, parent: p.parent ? placed.get(p.parent)! : null };
    placed.set(p, item);
    out.push(item);
  });
  return out;
}

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The layout rectangle a viewport of w x h pixels shows at pan (tx, ty) and zoom k, with a margin. */
export function visibleRect(w: number, h: number, tx: number, ty: number, k: number, margin = 80): Rect {
  return { x0: (-tx - margin) / k, y0: (-ty - margin) / k, x1: (w - tx + margin) / k, y1: (h - ty + margin) / k };
}

export function inRect(p: { x: number; y: number }, r: Rect): boolean {
  return p.x + NODE_W >= r.x0 && p.x <= r.x1 && p.y + NODE_H >= r.y0 && p.y <= r.y1;
}
