// The book as a tree around the current position: d3-hierarchy lays out the unfolded book,
// SVG draws only the boxes near the viewport, children are fetched when a node opens
// (book.graph), and while a dig runs the open nodes are read again when the host says the
// book changed, so new positions appear. The parts, one job each: data.ts (what the host
// said, per book), layout.ts (what is unfolded and where), viewport.ts (pan, zoom, culling),
// keys.ts, NodeBox / TreeEdges / NodeDetails (drawing); this file puts them together.
import { useCallback, useMemo, useRef } from "react";
import { goTo, useStore } from "../store";
import { useT } from "../useT";
import { boxValue, type TNode } from "./model";
import { useFetchMissing, useNodeCache, useRefreshOnChange, type Drawn } from "./data";
import { FRESH_MS, keyOf, useAnchor, useFresh, useLabels, useTreeLayout, useUnfolding } from "./layout";
import { useViewport } from "./viewport";
import { onTreeKey } from "./keys";
import { NodeBox } from "./NodeBox";
import { TreeEdges } from "./TreeEdges";
import { NodeDetails } from "./NodeDetails";
import { ICON, STATE_KEY } from "./states";

export function TreeView() {
  const t = useT();
  const bookPath = useStore((s) => s.book?.path ?? null);
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const line = useStore((s) => s.line);
  const view = useStore((s) => s.viewpoint);
  // As one string: a status with the same line must not rebuild the tree.
  const pvText = useStore((s) => s.status?.pv.join(" ") ?? "");
  const bookPv = useMemo(() => (pvText ? pvText.split(" ") : []), [pvText]);
  const lineKey = keyOf(line);

  const { cache, version, fetchNodes } = useNodeCache(bookPath);
  const { anchorLine, setAnchorLine, anchorHere } = useAnchor(line);
  const { isExpanded, showAll, toggle, more } = useUnfolding(lineKey);
  const { tree, placed, byKey, bySfen } = useTreeLayout({ cache, version, rootSfen, anchorLine, isExpanded, showAll, lineKey, bookPv });
  const current = byKey.get(lineKey);
  const vp = useViewport(placed, current);

  useFetchMissing(tree, placed, current, fetchNodes);
  // A refresh reads the latest layout and viewport through a ref, so neither a pan nor a new layout restarts it.
  const drawn = useRef<Drawn>({ placed, near: vp.near });
  drawn.current = { placed, near: vp.near };
  useRefreshOnChange(cache, fetchNodes, drawn);

  const freshAt = useFresh(placed);
  const { labels, anchorNotation } = useLabels(placed, rootSfen, anchorLine);
  const anchorLabel = anchorNotation ?? t("startPosition");
  const pick = useCallback((n: TNode) => goTo(n.line), []);

  const { visible, compact } = vp;
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
            value={boxValue(n, view) + (n.cyclic ? " ↻" : "")}
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
  const { pan } = vp;

  return (
    <div className="view tree-view" data-testid="tree">
      <div className="row tree-bar">
        <button onClick={() => setAnchorLine([])} data-testid="tree-anchor-root" title={t("treeFromRoot")}>
          ⇤ {t("root")}
        </button>
        <button onClick={() => (anchorHere(), vp.centre(current, true))} data-testid="tree-centre">
          ◎ {t("treeCentre")}
        </button>
        <button onClick={() => vp.zoomAt(0.8)} title={t("zoomOut")} data-testid="tree-zoom-out">
          −
        </button>
        <span className="dim small" data-testid="tree-zoom">
          {Math.round(pan.k * 100)}%
        </span>
        <button onClick={() => vp.zoomAt(1.25)} title={t("zoomIn")} data-testid="tree-zoom-in">
          +
        </button>
        <button onClick={vp.fit} data-testid="tree-fit">
          {t("fit")}
        </button>
        <span className="dim small" data-testid="tree-count">
          {visible.length} / {placed.length} {t("treeDrawn")}
        </span>
      </div>
      <div className="tree-body">
        <div
          className="tree-canvas"
          ref={vp.box}
          tabIndex={0}
          data-own-keys
          data-testid="tree-canvas"
          onKeyDown={(e) => onTreeKey(e, { current, line, toggle, zoomAt: vp.zoomAt, zoomReset: vp.zoomReset })}
          {...vp.handlers}
        >
          <svg width="100%" height="100%">
            <g transform={`translate(${pan.tx},${pan.ty}) scale(${pan.k})`}>
              <TreeEdges visible={visible} bySfen={bySfen} />
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
        {/* Under the tree, where it wraps: at the end of the bar a 1280 px window cut it off. */}
        <span data-testid="tree-keys">{t("treeKeys")}</span>
      </div>
    </div>
  );
}
