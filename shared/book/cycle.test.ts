import { describe, expect, it } from "vitest";
import { cycleOf } from "./cycle.js";
import { VALUE_MATE } from "../rules/types.js";

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

describe("cycleOf", () => {
  it("names no cycle for a move to a new position", () => {
    expect(cycleOf(START, ["7g7f"], "3c3d", [0, 0])).toBeNull();
  });
  it("rooks going back and forth repeat the position four plies before, valued as a draw for the mover", () => {
    // 2h3h 8b7b 3h2h 7b8b: back to the start position (ply 0).
    expect(cycleOf(START, ["2h3h", "8b7b", "3h2h"], "7b8b", [10, -20])).toEqual({ ply: 0, rule: "draw", value: -20 });
    // One more pair: 2h3h goes back to ply 1.
    expect(cycleOf(START, ["2h3h", "8b7b", "3h2h", "7b8b"], "2h3h", [10, -20])).toEqual({ ply: 1, rule: "draw", value: 10 });
  });
  it("perpetual check loses for the side that checked with every move", () => {
    // Black's rook checks on every move (9a, 9b, 9a), White's king steps between 5a and 5b.
    const root = "4k4/9/9/9/9/9/9/9/R3K4 b - 1";
    const line = ["9i9a", "5a5b", "9a9b", "5b5a"];
    expect(cycleOf(root, line, "9b9a", [0, 0])).toEqual({ ply: 1, rule: "perpetual", checker: "black", value: -VALUE_MATE });
    // The same cycle closed by the checked side: a win for it.
    expect(cycleOf(root, [...line, "9b9a"], "5a5b", [0, 0])).toEqual({ ply: 2, rule: "perpetual", checker: "black", value: VALUE_MATE });
  });
});
