// The book as a tree around the current position: d3-hierarchy lays out the unfolded book,
// SVG draws only the boxes near the viewport, children are fetched when a node opens
// (book.graph), and while a dig runs the open nodes are refreshed so new positions appear.
//
// Frames: nothing on the render path grows with the book. The unfolded tree is capped
// (MAX_NODES), it is rebuilt and laid out only when a fetch brought something new, move
// labels are formatted once per (position, move), the drawn set is recomputed only when the
// viewport crosses a grid cell, and a pan re-renders the transform, not the boxes.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { act, goTo, hostClient, useStore } from "../store";
import { useT } from "../useT";
import type { Key } from "../i18n";
import type { GraphNodeView } from "../../../shared/api/contract";
import { Position } from "../../../shared/rules/position";
import { parseUsiMove } from "../../../shared/rules/usi";
import { lineNotation, movesNotation } from "../../../shared/formats/notation";
import { scoreText } from "../logic";
import { CopyBox } from "../views/CopyBox";
import { buildTree, inRect, isAbove, layoutTree, visibleRect, COL_W, NODE_H, NODE_W, type Placed, type TNode } from "./model";

const MAX_CHILDREN = 8;
const MAX_NODES = 1500;
const REFRESH_MS = 2000;
const FRESH_MS = 4000;
const BATCH = 64;
/** The culling rectangle snaps outwards to this grid (layout px), so a pan reuses the drawn set. */
const CULL_GRID = 256;
/** Below this zoom the boxes are drawn without text (12 px type would be under 6 px). */
const COMPACT_BELOW = 0.5;

const ICON: Record<TNode["state"], string> = { thought: "●", "in-flight": "⟳", leaf: "○", banned: "✕", kifu: "◆", failed: "⚠", mate: "✓" };
export const STATE_KEY: Record<TNode["state"], Key> = {
  thought: "stThought",
  "in-flight": "stInFlight",
  leaf: "stLeaf",
  banned: "stBanned",
  kifu: "stKifu",
  failed: "stFailed",
  mate: "stMate",
};

// What the host said about each position, kept while the book is open (a few KB a node),
// with its JSON so a refresh that brings nothing new does not rebuild the tree.
const cache = new Map<string, GraphNodeView>();
const cacheJson = new Map<string, string>();
// Move labels by "parent sfen|usi": tsshogi is asked once per move, not once per render.
const labelCache = new Map<string, string>();
let cacheBook: string | null = null;
const pending = new Set<string>();

function clearCaches(): void {
  cache.clear();
  cacheJson.clear();
  labelCache.clear();
}

function sfenAfter(rootSfen: string, line: readonly string[]): string {
  const pos = Position.fromSfen(rootSfen);
  for (const u of line) {
    const m = parseUsiMove(u);
    if (m === null || !pos.isLegal(m)) break;
    pos.doMove(m);
  }
  return pos.sfenKey();
}

const startsWith = (line: readonly string[], prefix: readonly string[]) =>
  prefix.length <= line.length && prefix.every((m, i) => line[i] === m);
const keyOf = (line: readonly string[]) => line.join(" ");

interface BoxProps {
  p: Placed;
  /** Zoomed out past reading: the box alone, its state and the PV in its colours (no text). */
  compact: boolean;
  label: string;
  value: string;
  current: boolean;
  fresh: boolean;
  depthText: string;
  onPick: (n: TNode) => void;
  onToggle: (n: TNode) => void;
  onMore: (n: TNode) => void;
}

const NodeBox = memo(function NodeBox({ p, compact, label, value, current, fresh, depthText, onPick, onToggle, onMore }: BoxProps) {
  const n = p.node;
  const canOpen = n.state === "thought" && !n.repeated;
  const className = `tnode st-${n.state}${n.pv ? " pv" : ""}${current ? " current" : ""}${fresh ? " fresh" : ""}${n.parents > 1 ? " multi" : ""}${compact ? " compact" : ""}`;
  const box = {
    transform: `translate(${p.x},${p.y})`,
    className,
    "data-testid": "tree-node",
    "data-key": n.key,
    "data-usi": n.usi ?? "",
    "data-state": n.state,
    onClick: (e: React.MouseEvent) => {
      e.stopPropagation();
      onPick(n);
    },
    onDoubleClick: (e: React.MouseEvent) => {
      e.stopPropagation();
      if (canOpen) onToggle(n);
    },
  };
  if (compact) {
    // Text a few pixels high cannot be read, and hundreds of boxes' text is most of a frame.
    return (
      <g {...box}>
        <title>{`${label} ${value}`}</title>
        <rect width={NODE_W} height={NODE_H} rx={6} />
        {canOpen && (
          <circle
            className="t-toggle"
            data-testid="tree-toggle"
            data-open={n.expanded}
            cx={NODE_W}
            cy={NODE_H / 2}
            r={12}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(n);
            }}
          />
        )}
      </g>
    );
  }
  return (
    <g {...box}>
      <title>{`${n.usi ?? ""}${n.usi ? "\n" : ""}${n.sfen}`}</title>
      <rect width={NODE_W} height={NODE_H} rx={6} />
      <text x={8} y={16} className="t-move">
        {label}
      </text>
      <text x={NODE_W - 7} y={16} className="t-icon" textAnchor="end">
        {ICON[n.state]}
      </text>
      <text x={8} y={31} className="t-value" data-testid="tree-value">
        {value}
      </text>
      <text x={8} y={44} className="t-meta">
        {depthText}
        {n.parents > 1 ? `  ⇉${n.parents}` : ""}
      </text>
      {canOpen && (
        <g
          className="t-toggle"
          data-testid="tree-toggle"
          data-open={n.expanded}
          transform={`translate(${NODE_W},${NODE_H / 2})`}
          onClick={(e) => {
            e.stopPropagation();
            onToggle(n);
          }}
        >
          <circle r={8} />
          <text textAnchor="middle" y={4}>
            {n.expanded ? "−" : "+"}
          </text>
        </g>
      )}
      {n.more > 0 && (
        <text
          x={NODE_W + 14}
          y={NODE_H + 12}
          className="t-more"
          data-testid="tree-more"
          onClick={(e) => {
            e.stopPropagation();
            onMore(n);
          }}
        >
          +{n.more} ▾
        </text>
      )}
    </g>
  );
}, sameBox);

/** A box is drawn again only when something it shows changed (a refresh makes new objects for the same node). */
function sameBox(a: BoxProps, b: BoxProps): boolean {
  const m = a.p.node,
    n = b.p.node;
  return (
    a.p.x === b.p.x &&
    a.p.y === b.p.y &&
    a.compact === b.compact &&
    m.key === n.key &&
    m.sfen === n.sfen &&
    m.usi === n.usi &&
    m.state === n.state &&
    m.pv === n.pv &&
    m.parents === n.parents &&
    m.more === n.more &&
    m.expanded === n.expanded &&
    m.repeated === n.repeated &&
    a.label === b.label &&
    a.value === b.value &&
    a.current === b.current &&
    a.fresh === b.fresh &&
    a.depthText === b.depthText &&
    a.onPick === b.onPick &&
    a.onToggle === b.onToggle &&
    a.onMore === b.onMore
  );
}

export function TreeView() {
  const t = useT();
  const bookPath = useStore((s) => s.book?.path ?? null);
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const bookInfo = useStore((s) => s.book);
  const line = useStore((s) => s.line);
  const view = useStore((s) => s.viewpoint);
  const digState = useStore((s) => s.status?.state ?? null);
  // As one string: a status with the same line must not rebuild the tree.
  const pvText = useStore((s) => s.status?.pv.join(" ") ?? "");
  const bookPv = useMemo(() => (pvText ? pvText.split(" ") : []), [pvText]);
  const digging = digState === "digging" || digState === "pausing" || digState === "stopping";
  if (cacheBook !== bookPath) {
    clearCaches();
    cacheBook = bookPath;
  }
  const [anchorLine, setAnchorLine] = useState<string[]>(() => line.slice(0, Math.max(0, line.length - 2)));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [showAll, setShowAll] = useState<ReadonlySet<string>>(new Set());
  const [version, setVersion] = useState(0);
  const [pan, setPan] = useState({ tx: 24, ty: 200, k: 1 });
  const [size, setSize] = useState({ w: 800, h: 500 });
  const box = useRef<HTMLDivElement>(null);
  const seen = useRef(new Map<string, number>());
  const wasOpen = useRef(new Set<string>());
  const lastState = useRef(new Map<string, TNode["state"]>());
  const loaded = useRef(false);

  // Keep the current position in the tree: re-anchor two plies above it when it leaves.
  useEffect(() => {
    if (!startsWith(line, anchorLine) || line.length - anchorLine.length > 12) setAnchorLine(line.slice(0, Math.max(0, line.length - 2)));
  }, [line, anchorLine]);

  const anchorSfen = useMemo(() => sfenAfter(rootSfen, anchorLine), [rootSfen, anchorLine]);
  const lineKey = keyOf(line);
  // The current node is open unless closed by hand (the line above it is always open: buildTree).
  const isExpanded = useCallback(
    (key: string) => !collapsed.has(key) && (expanded.has(key) || key === lineKey),
    [expanded, collapsed, lineKey],
  );
  const tree = useMemo(
    () =>
      buildTree({
        anchorLine,
        anchorSfen,
        cache,
        isExpanded,
        showAll,
        maxChildren: MAX_CHILDREN,
        maxNodes: MAX_NODES,
        currentKey: lineKey,
        bookPv,
      }),
    [anchorLine, anchorSfen, isExpanded, showAll, version, lineKey, bookPv],
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

  const fetchNodes = useCallback(async (sfens: string[], force: boolean) => {
    const want = [...new Set(sfens)].filter((s) => force || (!cache.has(s) && !pending.has(s)));
    if (want.length === 0) return;
    const book = cacheBook;
    let changed = false;
    for (let i = 0; i < want.length; i += BATCH) {
      const part = want.slice(i, i + BATCH);
      part.forEach((s) => pending.add(s));
      try {
        const nodes = await hostClient().call("book.graph", { sfens: part });
        if (cacheBook !== book) return; // another book opened meanwhile
        for (const n of nodes) {
          const json = JSON.stringify(n);
          if (cacheJson.get(n.sfen) === json) continue;
          cache.set(n.sfen, n);
          cacheJson.set(n.sfen, json);
          changed = true;
        }
      } catch (e) {
        useStore.setState({ error: e instanceof Error ? e.message : String(e) });
      } finally {
        part.forEach((s) => pending.delete(s));
      }
    }
    // Only what changed rebuilds and lays out the tree (a dig's refresh mostly brings nothing new).
    if (changed) setVersion((v) => v + 1);
  }, []);

  // Open nodes the host has not described yet are fetched (lazy expansion).
  useEffect(() => {
    const missing = [tree.sfen, ...placed.filter((p) => p.node.expanded && !p.node.info).map((p) => p.node.sfen)];
    if (tree.expanded || !tree.info) void fetchNodes(missing, false);
    // A node is also fetched when it is current, so its parents are known.
    const cur = byKey.get(lineKey);
    if (cur && !cur.node.info) void fetchNodes([cur.node.sfen], false);
  }, [tree, placed, byKey, lineKey, fetchNodes]);

  // The refresh timer reads the latest layout and viewport through refs, so neither a pan
  // nor a new layout restarts it.
  const latest = useRef({ placed, pan, size });
  latest.current = { placed, pan, size };
  /** Reads the drawn nodes again: those near the viewport (while digging), or every drawn one. */
  const refresh = useCallback(
    (scope: "near" | "all") => {
      const { placed: ps, pan: v, size: sz } = latest.current;
      if (scope === "near") {
        const r = visibleRect(sz.w, sz.h, v.tx, v.ty, v.k, 400);
        const open = ps.filter((p) => p.node.expanded && inRect(p, r)).map((p) => p.node.sfen);
        void fetchNodes(open.slice(0, BATCH * 2), true);
        return;
      }
      // Everything drawn; what is cached but not drawn is dropped, to be read again when drawn.
      const drawn = new Set(ps.map((p) => p.node.sfen));
      for (const s of [...cache.keys()]) {
        if (!drawn.has(s)) {
          cache.delete(s);
          cacheJson.delete(s);
        }
      }
      void fetchNodes(
        ps.filter((p) => cache.has(p.node.sfen)).map((p) => p.node.sfen),
        true,
      );
    },
    [fetchNodes],
  );

  // While digging, the open nodes near the viewport are read again so new positions and live thinks show.
  useEffect(() => {
    if (!digging) return;
    const timer = setInterval(() => refresh("near"), REFRESH_MS);
    return () => clearInterval(timer);
  }, [digging, refresh]);

  // When the dig changes state (paused, stopped, finished), and when the tab opens again (the
  // cache outlives it), every drawn node is read again: no think stays marked live after Stop.
  // An edit or a followed dig's progress (book.changed) reads the nearby ones again.
  const mounted = useRef(false);
  useEffect(() => {
    refresh("all");
  }, [digState, refresh]);
  useEffect(() => {
    if (mounted.current) refresh("near");
    mounted.current = true;
  }, [bookInfo, refresh]);

  // New in the book, not just newly opened: a node that appears under a node that was
  // already open, or a leaf that became thought, is marked fresh for a few seconds. Worked
  // out once per layout, not on every render (a pan re-renders).
  const freshAt = useMemo(() => {
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

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    setSize({ w: el.clientWidth, h: el.clientHeight });
    return () => ro.disconnect();
  }, []);

  // Bring the current node into view when it changes (and when it first gets placed).
  const current = byKey.get(lineKey);
  const centre = useCallback(
    (p: Placed | undefined, force: boolean) => {
      if (!p) return;
      setPan((v) => {
        const sx = p.x * v.k + v.tx,
          sy = p.y * v.k + v.ty;
        if (!force && sx > 10 && sx + NODE_W * v.k < size.w - 10 && sy > 10 && sy + NODE_H * v.k < size.h - 10) return v;
        return { k: v.k, tx: Math.min(40, size.w * 0.3 - p.x * v.k), ty: size.h / 2 - (p.y + NODE_H / 2) * v.k };
      });
    },
    [size],
  );
  // Only when the current position changes: a refresh while digging must not undo a pan.
  const centredKey = useRef<string | null>(null);
  useEffect(() => {
    if (!current || centredKey.current === current.node.key) return;
    centredKey.current = current.node.key;
    centre(current, false);
  }, [current, centre]);

  const zoomAt = (factor: number, cx = size.w / 2, cy = size.h / 2) =>
    setPan((v) => {
      const k = Math.min(2.5, Math.max(0.15, v.k * factor));
      return { k, tx: cx - ((cx - v.tx) * k) / v.k, ty: cy - ((cy - v.ty) * k) / v.k };
    });
  const fit = () => {
    if (placed.length === 0) return;
    let x1 = 0,
      y0 = Infinity,
      y1 = -Infinity;
    for (const p of placed) {
      x1 = Math.max(x1, p.x + NODE_W);
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y + NODE_H);
    }
    const k = Math.min(1.5, Math.max(0.15, Math.min((size.w - 40) / (x1 + 20), (size.h - 40) / (y1 - y0 + 20))));
    setPan({ k, tx: 20, ty: 20 - y0 * k });
  };

  const pick = useCallback((n: TNode) => goTo(n.line), []);
  const more = useCallback((n: TNode) => setShowAll((s) => new Set(s).add(n.key)), []);
  const toggle = useCallback((n: TNode) => {
    if (n.expanded) {
      // The line to the current node is always open: closing a node above it moves there.
      if (isAbove(n.key, keyOf(useStore.getState().line))) goTo(n.line);
      setCollapsed((s) => new Set(s).add(n.key));
      setExpanded((s) => {
        const x = new Set(s);
        x.delete(n.key);
        return x;
      });
    } else {
      setExpanded((s) => new Set(s).add(n.key));
      setCollapsed((s) => {
        const x = new Set(s);
        x.delete(n.key);
        return x;
      });
    }
  }, []);

  const onKey = (e: React.KeyboardEvent) => {
    const cur = byKey.get(lineKey);
    const siblings = cur?.parent?.node.children ?? [];
    const i = cur ? siblings.indexOf(cur.node) : -1;
    switch (e.key) {
      case "ArrowRight":
        if (cur?.node.children?.length) goTo(cur.node.children[0].line);
        else if (cur && cur.node.state === "thought") toggle(cur.node);
        break;
      case "ArrowLeft":
        if (line.length > 0) goTo(line.slice(0, -1));
        break;
      case "ArrowUp":
        if (i > 0) goTo(siblings[i - 1].line);
        break;
      case "ArrowDown":
        if (i >= 0 && i + 1 < siblings.length) goTo(siblings[i + 1].line);
        break;
      case "Enter":
      case " ":
        if (cur) toggle(cur.node);
        break;
      case "+":
      case "=":
        zoomAt(1.25);
        break;
      case "-":
        zoomAt(0.8);
        break;
      case "0":
        setPan((v) => ({ ...v, k: 1 }));
        centre(current, true);
        break;
      case "Home":
        goTo([]);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  // Panning by dragging the background; zooming with the wheel around the pointer.
  const drag = useRef<{ x: number; y: number; tx: number; ty: number } | null>(null);
  const onWheel = (e: React.WheelEvent) => {
    const r = box.current!.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
  };

  // Draw only what is near the viewport. The rectangle snaps outwards to a grid, so while a
  // pan stays inside one cell the drawn set (and every element below) is reused as it is.
  const rect = visibleRect(size.w, size.h, pan.tx, pan.ty, pan.k);
  const cx0 = Math.floor(rect.x0 / CULL_GRID) * CULL_GRID,
    cy0 = Math.floor(rect.y0 / CULL_GRID) * CULL_GRID;
  const cx1 = Math.ceil(rect.x1 / CULL_GRID) * CULL_GRID,
    cy1 = Math.ceil(rect.y1 / CULL_GRID) * CULL_GRID;
  const visible = useMemo(() => {
    const r = { x0: cx0, y0: cy0, x1: cx1, y1: cy1 };
    return placed.filter((p) => inRect(p, r) || (p.parent !== null && inRect(p.parent, r)));
  }, [placed, cx0, cy0, cx1, cy1]);
  const labels = useMemo(() => {
    // One tsshogi position per parent for all its children's labels not formatted before.
    const out = new Map<string, string>();
    const groups = new Map<string, Placed[]>();
    for (const p of placed) {
      if (!p.parent) continue;
      const known = labelCache.get(`${p.parent.node.sfen}|${p.node.usi}`);
      if (known !== undefined) {
        out.set(p.node.key, known);
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
        labelCache.set(`${sfen}|${p.node.usi}`, texts[i]);
        out.set(p.node.key, texts[i]);
      });
    }
    return out;
  }, [placed]);
  const anchorNotation = useMemo(
    () => (anchorLine.length === 0 ? null : (lineNotation(rootSfen, anchorLine).at(-1) ?? "")),
    [rootSfen, anchorLine],
  );
  const anchorLabel = anchorNotation ?? t("startPosition");

  const { edges, links } = useMemo(() => {
    const edges: React.ReactNode[] = [];
    const links: React.ReactNode[] = [];
    for (const p of visible) {
      if (p.parent) {
        const x0 = p.parent.x + NODE_W,
          y0 = p.parent.y + NODE_H / 2,
          x1 = p.x,
          y1 = p.y + NODE_H / 2,
          mx = (x0 + x1) / 2;
        edges.push(
          <path
            key={p.node.key}
            className={`t-edge st-${p.node.state}${p.node.pv ? " pv" : ""}`}
            d={`M${x0},${y0} C${mx},${y0} ${mx},${y1} ${x1},${y1}`}
          />,
        );
      }
      // A transposition: its other parents drawn where they are in the tree too.
      const parents = p.node.info?.parents ?? [];
      if (parents.length > 1) {
        for (const ref of parents) {
          if (p.parent && ref.sfen === p.parent.node.sfen) continue;
          for (const q of bySfen.get(ref.sfen) ?? []) {
            const x0 = q.x + NODE_W,
              y0 = q.y + NODE_H / 2,
              x1 = p.x,
              y1 = p.y + NODE_H / 2;
            links.push(
              <path
                key={`${q.node.key}>${p.node.key}`}
                className="t-link"
                data-testid="tree-link"
                d={`M${x0},${y0} C${x0 + COL_W / 2},${y0} ${x1 - COL_W / 2},${y1} ${x1},${y1}`}
              />,
            );
          }
        }
      }
    }
    return { edges, links };
  }, [visible, bySfen]);

  const compact = pan.k < COMPACT_BELOW;
  const boxes = useMemo(
    () =>
      visible.map((p) => {
        const n = p.node;
        const seenAt = freshAt.seen.get(n.key) ?? 0;
        return (
          <NodeBox
            key={n.key}
            p={p}
            compact={compact}
            label={p.parent ? (labels.get(n.key) ?? n.usi ?? "") : anchorLabel}
            value={scoreText(n.value, n.side, view, n.bound) + (n.cyclic ? " ↻" : "")}
            current={n.key === lineKey}
            fresh={seenAt > 0 && freshAt.now - seenAt < FRESH_MS}
            depthText={`${n.line.length}${t("plySuffix")}${n.info?.thinkDepth ? ` · ${t("depthShort")}${n.info.thinkDepth}` : ""}`}
            onPick={pick}
            onToggle={toggle}
            onMore={more}
          />
        );
      }),
    [visible, compact, freshAt, labels, anchorLabel, view, lineKey, t, pick, toggle, more],
  );

  return (
    <div className="view tree-view" data-testid="tree">
      <div className="row tree-bar">
        <button onClick={() => setAnchorLine([])} data-testid="tree-anchor-root" title={t("treeFromRoot")}>
          ⇤ {t("root")}
        </button>
        <button
          onClick={() => (setAnchorLine(line.slice(0, Math.max(0, line.length - 2))), centre(current, true))}
          data-testid="tree-centre"
        >
          ◎ {t("treeCentre")}
        </button>
        <button onClick={() => zoomAt(0.8)} title={t("zoomOut")} data-testid="tree-zoom-out">
          −
        </button>
        <span className="dim small" data-testid="tree-zoom">
          {Math.round(pan.k * 100)}%
        </span>
        <button onClick={() => zoomAt(1.25)} title={t("zoomIn")} data-testid="tree-zoom-in">
          +
        </button>
        <button onClick={fit} data-testid="tree-fit">
          {t("fit")}
        </button>
        <span className="dim small" data-testid="tree-count">
          {visible.length} / {placed.length} {t("treeDrawn")}
        </span>
        <span className="spacer" />
        <span className="dim small">{t("treeKeys")}</span>
      </div>
      <div className="tree-body">
        <div
          className="tree-canvas"
          ref={box}
          tabIndex={0}
          data-own-keys
          data-testid="tree-canvas"
          onKeyDown={onKey}
          onWheel={onWheel}
          onPointerDown={(e) => {
            drag.current = { x: e.clientX, y: e.clientY, tx: pan.tx, ty: pan.ty };
            (e.currentTarget as HTMLElement).focus();
          }}
          onPointerMove={(e) => {
            const d = drag.current;
            if (!d || e.buttons === 0) return;
            setPan((v) => ({ ...v, tx: d.tx + e.clientX - d.x, ty: d.ty + e.clientY - d.y }));
          }}
          onPointerUp={() => (drag.current = null)}
        >
          <svg width="100%" height="100%">
            <g transform={`translate(${pan.tx},${pan.ty}) scale(${pan.k})`}>
              {edges}
              {links}
              {boxes}
            </g>
          </svg>
        </div>
        <NodeDetails node={current?.node ?? null} parentSfen={current?.parent?.node.sfen ?? null} />
      </div>
      <div className="tree-legend small dim">
        {(Object.keys(ICON) as Array<TNode["state"]>).map((s) => (
          <span key={s} className={`st-${s}`}>
            {ICON[s]} {t(STATE_KEY[s])}
          </span>
        ))}
        <span className="pv-mark">━ {t("pv")}</span>
        <span className="link-mark">┅ {t("transposition")}</span>
        <span>≥ ≤ = {t("boundLegend")}</span>
      </div>
    </div>
  );
}

const NO_PARENTS: NonNullable<TNode["info"]>["parents"] = [];

/** The current node: its numbers, every thought parent (each reachable), and copies. Memoised: a pan does not redraw it. */
const NodeDetails = memo(function NodeDetails({ node, parentSfen }: { node: TNode | null; parentSfen: string | null }) {
  const t = useT();
  const view = useStore((s) => s.viewpoint);
  const line = useStore((s) => s.line);
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const parents = node?.info?.parents ?? NO_PARENTS;
  const parentLabels = useMemo(() => parents.map((p) => movesNotation(p.sfen, [p.usi])[0]), [parents]);
  const lastMove = useMemo(() => (line.length ? (lineNotation(rootSfen, line).at(-1) ?? "") : null), [rootSfen, line]);
  const label = lastMove ?? t("startPosition");
  const toParent = async (sfen: string) => {
    const to = await act("book.lineTo", { sfen });
    if (to) goTo(to);
    else useStore.setState({ error: t("noLineTo") });
  };
  return (
    <aside className="tree-details" data-testid="tree-details">
      <div className="row">
        <strong data-testid="tree-details-move">{label}</strong>
        <span className="dim">
          {line.length}
          {t("plySuffix")}
        </span>
      </div>
      {node && (
        <>
          <div data-testid="tree-details-value">
            {t("valueLabel")}: {scoreText(node.value, node.side, view, node.bound)}
            {node.cyclic ? ` (${t("cyclic")})` : ""}
          </div>
          <div>
            {t("state")}: {t(STATE_KEY[node.state])}
            {node.info?.thinkDepth ? ` · ${t("depth")} ${node.info.thinkDepth}` : ""}
          </div>
          <div className="tree-parents" data-testid="tree-parents">
            <div>
              {t("parentsLabel")}: {parents.length}
              {parents.length > 1 ? ` (${t("transposition")})` : ""}
            </div>
            {parents.map((p, i) => (
              <button
                key={`${p.sfen} ${p.usi}`}
                className={`link${p.sfen === parentSfen ? " here" : ""}`}
                title={`${p.usi}\n${p.sfen}`}
                onClick={() => void toParent(p.sfen)}
                data-testid="tree-parent"
              >
                {parentLabels[i]}
                {p.sfen === parentSfen ? ` ← ${t("viaThisLine")}` : ""}
              </button>
            ))}
          </div>
        </>
      )}
      <CopyBox line={line} testId="tree-copy" />
    </aside>
  );
});
