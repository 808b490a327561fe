// The dig's tallies: a stretch (the second half) counts only what happened in it.
import { describe, expect, it } from "vitest";
import { StretchTally } from "./stats.js";

describe("StretchTally", () => {
  it("counts an engine's wait for a position from the stretch's start, not from the wait's, as a share of the engines' time", () => {
    // Two engines, a stretch from t = 1000 ms (given, not read from the clock).
    const half = new StretchTally(2, 1000);
    // A wait that began 500 ms before the stretch and ended 200 ms into it counts 200 ms.
    half.waitedFrom(500, 1200);
    // One that began and ended within it counts whole: 50 ms.
    half.waitedFrom(1300, 1350);
    // 250 ms of the engines' 2 x 1000 ms.
    expect(half.figures(2000).waitingShare).toBe(0.125);
    expect(half.figures(2000).wallMs).toBe(1000);
  });
});
