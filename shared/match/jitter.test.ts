import { describe, expect, it } from "vitest";
import { jitteredNodes } from "./jitter.js";

describe("node jitter", () => {
  it("stays within +-pct, depends only on (seed, game, ply), and spreads over the range", () => {
    const seen = new Set<number>();
    for (let game = 0; game < 50; game++)
      for (let ply = 0; ply < 40; ply++) {
        const n = jitteredNodes(4000, 5, 3, game, ply);
        expect(n).toBeGreaterThanOrEqual(3800);
        expect(n).toBeLessThanOrEqual(4200);
        expect(jitteredNodes(4000, 5, 3, game, ply)).toBe(n);
        seen.add(n);
      }
    expect(seen.size).toBeGreaterThan(300);
    expect(Math.min(...seen)).toBeLessThan(3820);
    expect(Math.max(...seen)).toBeGreaterThan(4180);
    // Another seed, other limits; no jitter, the match's limit.
    let differ = 0;
    for (let ply = 0; ply < 40; ply++) if (jitteredNodes(4000, 5, 4, 0, ply) !== jitteredNodes(4000, 5, 3, 0, ply)) differ++;
    expect(differ).toBeGreaterThan(30);
    expect(jitteredNodes(4000, 0, 3, 1, 1)).toBe(4000);
  });
});
