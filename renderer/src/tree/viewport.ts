// The tree's viewport: pan and zoom (drag the background, wheel around the pointer, buttons),
// its size, bringing the current node into view, and culling: only what is near the viewport
// is drawn, and the drawn set is recomputed only when the viewport crosses a grid cell, so a
// pan re-renders the transform, not the boxes.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { inRect, visibleRect, NODE_H, NODE_W, type Placed } from "./model";
import { panToShow } from "./show-boxes";

/** The culling rectangle snaps outwards to this grid (layout px), so a pan reuses the drawn set. */
const CULL_GRID = 256;
/** Below this zoom the boxes are drawn without text (12 px type would be under 6 px). */
const COMPACT_BELOW = 0.5;
/** How far beyond the viewport a refresh reads open nodes (screen px). */
const NEAR_MARGIN = 400;

export interface Pan {
  tx: number;
  ty: number;
  k: number;
}

export function useViewport(placed: readonly Placed[], current: Placed | undefined) {
  const [pan, setPan] = useState<Pan>({ tx: 24, ty: 200, k: 1 });
  const [size, setSize] = useState({ w: 800, h: 500 });
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    setSize({ w: el.clientWidth, h: el.clientHeight });
    return () => ro.disconnect();
  }, []);

  /** Brings a node into view: only when it is out of view, unless forced (then it is centred). */
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
  // Bring the current node into view when it changes (and when it first gets placed), only
  // then: a refresh while digging must not undo a pan.
  const centredKey = useRef<string | null>(null);
  useEffect(() => {
    if (!current || centredKey.current === current.node.key) return;
    centredKey.current = current.node.key;
    centre(current, false);
  }, [current, centre]);

  // The first view of a position shows its best move whole beside it: once per current
  // position, when that move's box is first placed (the children come after the position).
  const bestShown = useRef<string | null>(null);
  useEffect(() => {
    if (!current || bestShown.current === current.node.key) return;
    const best = placed.find((p) => p.node.pv && p.parent?.node.key === current.node.key);
    if (!best) return;
    bestShown.current = current.node.key;
    setPan((v) => panToShow(v, [current, best], size.w, size.h));
  }, [placed, current, size]);

  const zoomAt = (factor: number, cx = size.w / 2, cy = size.h / 2) =>
    setPan((v) => {
      const k = Math.min(2.5, Math.max(0.15, v.k * factor));
      return { k, tx: cx - ((cx - v.tx) * k) / v.k, ty: cy - ((cy - v.ty) * k) / v.k };
    });
  /** Zoom 100 %, the current node centred. */
  const zoomReset = () => {
    setPan((v) => ({ ...v, k: 1 }));
    centre(current, true);
  };
  /** The whole layout in view. */
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

  // Panning by dragging the background; zooming with the wheel around the pointer.
  const drag = useRef<{ x: number; y: number; tx: number; ty: number } | null>(null);
  const handlers = {
    onWheel: (e: React.WheelEvent) => {
      const r = box.current!.getBoundingClientRect();
      zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    },
    onPointerDown: (e: React.PointerEvent) => {
      drag.current = { x: e.clientX, y: e.clientY, tx: pan.tx, ty: pan.ty };
      (e.currentTarget as HTMLElement).focus();
    },
    onPointerMove: (e: React.PointerEvent) => {
      const d = drag.current;
      if (!d || e.buttons === 0) return;
      setPan((v) => ({ ...v, tx: d.tx + e.clientX - d.x, ty: d.ty + e.clientY - d.y }));
    },
    onPointerUp: () => {
      drag.current = null;
    },
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

  return {
    box,
    pan,
    /** The layout rectangle a refresh reads open nodes in. */
    near: visibleRect(size.w, size.h, pan.tx, pan.ty, pan.k, NEAR_MARGIN),
    visible,
    compact: pan.k < COMPACT_BELOW,
    centre,
    zoomAt,
    zoomReset,
    fit,
    handlers,
  };
}
