// What the tree shows and where: its anchor (two plies above the current position), which
// nodes are open, the unfolded book laid out (model.ts), the move labels and the nodes new in
// the book. Nothing here grows with the book on a render: the unfolded tree is capped
// (MAX_NODES), it is rebuilt and laid out only when a fetch brought something new, and move
// labels are formatted once per (position, move).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { goTo, useStore } from "../store";
import { lineNotation, movesNotation } from "../../../shared/formats/notation";
import { buildTree, isAbove, layoutTree, lineSfen, type Placed, type TNode } from "./model";
import type { NodeCache } from "./data";

const MAX_CHILDREN = 8;
const MAX_NODES = 1500;
/** How long a node new in the book is marked fresh (ms). */
export const FRESH_MS = 4000;

const startsWith = (line: readonly string[], prefix: readonly string[]) =>
  prefix.length <= line.length && prefix.every((m, i) => line[i] === m);
export const keyOf = (line: readonly string[]) => line.join(" ");
const twoAbove = (line: readonly string[]) => line.slice(0, Math.max(0, line.length - 2));

/** The line the tree starts from: kept while the current position stays in view, else two plies above it. */
export function useAnchor(line: string[]): { anchorLine: string[]; setAnchorLine: (l: string[]) => void; anchorHere: () => void } {
  const [anchorLine, setAnchorLine] = useState<string[]>(() => twoAbove(line));
  // Keep the current position in the tree: re-anchor two plies above it when it leaves.
  useEffect(() => {
    if (!startsWith(line, anchorLine) || line.length - anchorLine.length > 12) setAnchorLine(twoAbove(line));
  }, [line, anchorLine]);
  const anchorHere = useCallback(() => setAnchorLine(twoAbove(useStore.getState().line)), []);
  return { anchorLine, setAnchorLine, anchorHere };
}

/** Which nodes are open: the current one unless closed by hand, those opened by hand, those showing all their children. */
export function useUnfolding(lineKey: string) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [showAll, setShowAll] = useState<ReadonlySet<string>>(new Set());
  // The current node is open unless closed by hand (the line above it is always open: buildTree).
  const isExpanded = useCallback(
    (key: string) => !collapsed.has(key) && (expanded.has(key) || key === lineKey),
    [expanded, collapsed, lineKey],
  );
  const more = useCallback((n: TNode) => setShowAll((s) => new Set(s).add(n.key)), []);
  const toggle = useCallback((n: TNode) => {
    if (n.expanded) {
      // The line to the current node is always open: closing a node above it moves there.
      if (isAbove(n.key, keyOf(useStore.getState().line))) goTo(n.line);
      setCollapsed((s) => new Set(s).add(n.key));
      setExpanded((s) => without(s, n.key));
    } else {
      setExpanded((s) => new Set(s).add(n.key));
      setCollapsed((s) => without(s, n.key));
    }
  }, []);
  return { isExpanded, showAll, toggle, more };
}

function without(s: ReadonlySet<string>, key: string): Set<string> {
  const x = new Set(s);
  x.delete(key);
  return x;
}

export interface LayoutInput {
  cache: NodeCache;
  /** Moves on when a read changed the cache. */
  version: number;
  rootSfen: string;
  anchorLine: string[];
  isExpanded: (key: string) => boolean;
  showAll: ReadonlySet<string>;
  lineKey: string;
  bookPv: readonly string[];
}

/** The book unfolded from the anchor and laid out, indexed by key and by position. */
export function useTreeLayout(x: LayoutInput) {
  const { cache, version, rootSfen, anchorLine, isExpanded, showAll, lineKey, bookPv } = x;
  const anchorSfen = useMemo(() => lineSfen(rootSfen, anchorLine, cache.nodes), [rootSfen, anchorLine, cache, version]);
  const tree = useMemo(
    () =>
      buildTree({
        anchorLine,
        anchorSfen,
        cache: cache.nodes,
        isExpanded,
        showAll,
        maxChildren: MAX_CHILDREN,
        maxNodes: MAX_NODES,
        currentKey: lineKey,
        bookPv,
      }),
    [anchorLine, anchorSfen, cache, isExpanded, showAll, version, lineKey, bookPv],
  );
  const placed = useMemo(() => layoutTree(tree), [tree]);
  const byKey = useMemo(() => new Map(placed.map((p) => [p.node.key, p])), [placed]);
  const bySfen = useMemo(() => {
    const m = new Map<string, Placed[]>();
    for (const p of placed) {
      const list = m.get(p.node.sfen);
      if (list) list.push(p);
      else m.set(p.node.sfen, [p]);
    }
    return m;
  }, [placed]);
  return { tree, placed, byKey, bySfen };
}

/** Each placed node's move label; tsshogi is asked once per (parent position, move), not once per render. */
export function useLabels(placed: readonly Placed[], rootSfen: string, anchorLine: string[]) {
  // Move labels by "parent sfen|usi".
  const known = useRef(new Map<string, string>());
  const labels = useMemo(() => {
    // One tsshogi position per parent for all its children's labels not formatted before.
    const out = new Map<string, string>();
    const groups = new Map<string, Placed[]>();
    for (const p of placed) {
      if (!p.parent) continue;
      const label = known.current.get(`${p.parent.node.sfen}|${p.node.usi}`);
      if (label !== undefined) {
        out.set(p.node.key, label);
        continue;
      }
      const g = groups.get(p.parent.node.sfen);
      if (g) g.push(p);
      else groups.set(p.parent.node.sfen, [p]);
    }
    for (const [sfen, g] of groups) {
      const texts = movesNotation(
        sfen,
        g.map((p) => p.node.usi!),
      );
      g.forEach((p, i) => {
        known.current.set(`${sfen}|${p.node.usi}`, texts[i]);
        out.set(p.node.key, texts[i]);
      });
    }
    return out;
  }, [placed]);
  /** The anchor's move, null at the root. */
  const anchorNotation = useMemo(
    () => (anchorLine.length === 0 ? null : (lineNotation(rootSfen, anchorLine).at(-1) ?? "")),
    [rootSfen, anchorLine],
  );
  return { labels, anchorNotation };
}

/**
 * New in the book, not just newly opened: a node that appears under a node that was already
 * open, or a leaf that became thought, is marked fresh for FRESH_MS. Worked out once per
 * layout, not on every render (a pan re-renders).
 */
export function useFresh(placed: readonly Placed[]): { now: number; seen: ReadonlyMap<string, number> } {
  const seen = useRef(new Map<string, number>());
  const wasOpen = useRef(new Set<string>());
  const lastState = useRef(new Map<string, TNode["state"]>());
  const loaded = useRef(false);
  return useMemo(() => {
    const now = Date.now();
    const prevOpen = wasOpen.current;
    const prevState = lastState.current;
    const open = new Set<string>();
    const states = new Map<string, TNode["state"]>();
    for (const p of placed) {
      const k = p.node.key;
      const before = prevState.get(k);
      const appeared = before === undefined && p.parent !== null && prevOpen.has(p.parent.node.key) && loaded.current;
      const grew = before !== undefined && before !== "thought" && p.node.state === "thought";
      if (appeared || grew) seen.current.set(k, now);
      if (p.node.expanded && p.node.info) open.add(k);
      states.set(k, p.node.state);
    }
    for (const [k, at] of seen.current) if (now - at >= FRESH_MS) seen.current.delete(k);
    wasOpen.current = open;
    lastState.current = states;
    if (placed.length > 1) loaded.current = true;
    return { now, seen: new Map(seen.current) };
  }, [placed]);
}
