// The dig's tallies: a stretch (the second half) counts only what happened in it.
import { describe, expect, it } from "vitest";
import { StretchTally } from "./stats.js";

describe("StretchTally", () => {
  it("counts an engine's wait for a position from the stretch's start, not from the wait's", () => {
    const at = performance.now();
    const half = new StretchTally();
    // A wait that began 500 ms before the stretch and ended 200 ms into it counts 200 ms at most.
    half.waitedFrom(at - 500, at + 200);
    // One that began and ended within it counts whole.
    half.waitedFrom(at + 300, at + 350);
    const { waitedMs } = half.figures(at + 1000);
    expect(waitedMs).toBeGreaterThan(240);
    expect(waitedMs).toBeLessThanOrEqual(250);
  });
});
