// One node of the tree as an SVG box: its move, value, state and depth, the toggle that opens
// it and the "+n" that shows its other children. Drawn again only when what it shows changed.
import { memo } from "react";
import { NODE_H, NODE_W, type Placed, type TNode } from "./model";
import { ICON } from "./states";

export interface BoxProps {
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

export const NodeBox = memo(function NodeBox({ p, compact, label, value, current, fresh, depthText, onPick, onToggle, onMore }: BoxProps) {
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
