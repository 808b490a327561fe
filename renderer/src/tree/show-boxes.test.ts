import { describe, expect, it } from "vitest";
import { NODE_H, NODE_W } from "./model";
import { panToShow } from "./show-boxes";

const inside = (v: { tx: number; ty: number; k: number }, b: { x: number; y: number }, w: number, h: number) =>
  b.x * v.k + v.tx >= 0 && (b.x + NODE_W) * v.k + v.tx <= w && b.y * v.k + v.ty >= 0 && (b.y + NODE_H) * v.k + v.ty <= h;

describe("panToShow", () => {
  const v = { tx: 24, ty: 450, k: 1 };
  it("leaves a view that shows the boxes as it is", () => {
    expect(panToShow(v, [{ x: 0, y: 0 }], 800, 900)).toBe(v);
  });
  it("moves down to show a box above the top, the other still in view", () => {
    const boxes = [
      { x: 0, y: 0 },
      { x: 220, y: -600 },
    ];
    const got = panToShow(v, boxes, 1000, 900);
    expect(got.k).toBe(1);
    for (const b of boxes) expect(inside(got, b, 1000, 900)).toBe(true);
  });
  it("zooms out when the boxes do not fit at this zoom", () => {
    const boxes = [
      { x: 0, y: 0 },
      { x: 220, y: -1500 },
    ];
    const got = panToShow(v, boxes, 1000, 900);
    expect(got.k).toBeLessThan(1);
    for (const b of boxes) expect(inside(got, b, 1000, 900)).toBe(true);
  });
});
