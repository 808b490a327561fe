// The MultiPV a dig gives a job (think-spec.ts): the book's setting, except that a settle
// round's deep think finds its best move with one line (deep best) under auto and bounded.
import { describe, expect, it } from "vitest";
import { multipvSpec } from "./think-spec.js";
import { DEFAULT_DEEP_BEST_SHARE, DEFAULT_DYNAMIC } from "../engines/usi/widen.js";

const d = { ...DEFAULT_DYNAMIC.dynamic, withinCp: 120 };

describe("a job's MultiPV", () => {
  it("is the book's setting for an ordinary position", () => {
    expect(multipvSpec("auto", {}, d)).toEqual({ dynamic: d });
    expect(multipvSpec("auto-bounded", {}, d)).toEqual({ dynamic: { ...d, boundWidened: true } });
    expect(multipvSpec("deep-best", {}, d)).toEqual({ deepBest: { others: d, share: DEFAULT_DEEP_BEST_SHARE } });
    expect(multipvSpec(4, {}, d)).toEqual({ fixed: 4 });
  });

  it("is deep best for a settle round's deep think under auto and bounded; a fixed MultiPV stays", () => {
    const deep = { oneLineBest: true };
    expect(multipvSpec("auto", deep, d)).toEqual({ deepBest: { others: d, share: DEFAULT_DEEP_BEST_SHARE } });
    expect(multipvSpec("auto-bounded", deep, d)).toEqual({ deepBest: { others: d, share: DEFAULT_DEEP_BEST_SHARE } });
    expect(multipvSpec("deep-best", deep, d)).toEqual({ deepBest: { others: d, share: DEFAULT_DEEP_BEST_SHARE } });
    expect(multipvSpec(4, deep, d)).toEqual({ fixed: 4 });
  });

  it("starts from the parent's values where auto is told to", () => {
    const fromParent = { ...d, firstFromParent: { narrow: 2, wide: 8 } };
    // One move dominated the parent: the narrow start; six within the window: six lines.
    expect(multipvSpec("auto", { parentValues: [100, -300] }, fromParent)).toEqual({ dynamic: { ...fromParent, start: 2 } });
    expect(multipvSpec("auto", { parentValues: [100, 90, 80, 70, 60, 50, -500] }, fromParent)).toEqual({
      dynamic: { ...fromParent, start: 6 },
    });
  });
});
