// The smallest change of pan and zoom that shows given boxes whole: the tree's first view
// brings the current position's best move into view beside it (laid out best first, at the
// top of a column of 30 moves, it was drawn above the viewport's top edge).
import { NODE_H, NODE_W } from "./model";

export interface PanZoom {
  tx: number;
  ty: number;
  k: number;
}

/** Lowest zoom the tree allows. */
const MIN_K = 0.15;

/** `v` moved (and zoomed out if they do not fit) so every box at `boxes` (layout px) is inside a w×h view, `margin` px clear. */
export function panToShow(v: PanZoom, boxes: ReadonlyArray<{ x: number; y: number }>, w: number, h: number, margin = 12): PanZoom {
  if (boxes.length === 0) return v;
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + NODE_W);
    y1 = Math.max(y1, b.y + NODE_H);
  }
  const k = Math.max(MIN_K, Math.min(v.k, (w - 2 * margin) / (x1 - x0), (h - 2 * margin) / (y1 - y0)));
  // Zoomed about the view's centre, then shifted only as far as the boxes need.
  let tx = w / 2 - ((w / 2 - v.tx) * k) / v.k,
    ty = h / 2 - ((h / 2 - v.ty) * k) / v.k;
  tx += shift(x0 * k + tx, x1 * k + tx, w, margin);
  ty += shift(y0 * k + ty, y1 * k + ty, h, margin);
  return k === v.k && tx === v.tx && ty === v.ty ? v : { tx, ty, k };
}

/** How far to move a span [a, b] (screen px) so it lies inside [margin, size - margin], its start first. */
function shift(a: number, b: number, size: number, margin: number): number {
  if (a < margin) return margin - a;
  if (b > size - margin) return Math.max(margin - a, size - margin - b);
  return 0;
}
