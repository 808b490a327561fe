// The lines between the drawn boxes: each node's edge from its parent (coloured by state, bold
// on the best line), and a transposition's links from its other parents where they are drawn.
import { memo } from "react";
import { COL_W, NODE_H, NODE_W, type Placed } from "./model";

export const TreeEdges = memo(function TreeEdges({
  visible,
  bySfen,
}: {
  visible: readonly Placed[];
  bySfen: ReadonlyMap<string, Placed[]>;
}) {
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
  return (
    <>
      {edges}
      {links}
    </>
  );
});
