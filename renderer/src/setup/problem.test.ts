import { describe, expect, it } from "vitest";
import { parseSfen } from "../../../shared/rules/sfen";
import { setupProblem } from "./problem";

const problemOf = (sfen: string) => {
  const p = parseSfen(sfen);
  if (typeof p === "string") throw new Error(p);
  return setupProblem(p.board, sfen);
};

describe("setupProblem", () => {
  it("takes the start position and a bare-kings one", () => {
    expect(problemOf("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")).toBeNull();
    expect(problemOf("4k4/9/9/9/9/9/9/9/4K4 b - 1")).toBeNull();
  });
  it("names a missing king and two kings of a side", () => {
    expect(problemOf("9/9/9/9/9/9/9/9/4K4 b - 1")).toEqual({ key: "setupNoKing", params: { side: "white" } });
    expect(problemOf("4k4/9/9/9/9/9/9/9/9 b - 1")).toEqual({ key: "setupNoKing", params: { side: "black" } });
    expect(problemOf("4k4/9/9/9/9/9/9/9/3KK4 b - 1")).toEqual({ key: "setupTwoKings", params: { side: "black" } });
  });
  it("names the rules' refusals by kind", () => {
    expect(problemOf("P3k4/9/9/9/9/9/9/9/4K4 b - 1")).toEqual({
      key: "setupDeadPiece",
      params: { side: "black", square: "9a", kanji: "９一" },
    });
    expect(problemOf("4k4/9/9/9/P8/P8/9/9/4K4 b - 1")?.key).toBe("setupTwoPawns");
    expect(problemOf("4k4/4R4/9/9/9/9/9/9/4K4 b - 1")?.key).toBe("setupInCheck");
    // The file in full width for a Japanese reader: ４筋, as the squares are written.
    expect(problemOf("4k4/9/9/9/5P3/5P3/9/9/4K4 b - 1")?.params).toMatchObject({ file: "4", fileWide: "４" });
  });
  it("refuses a position whose side to move has no legal move (mated)", () => {
    expect(problemOf("8k/9/9/9/9/9/p8/gg7/K8 b - 1")).toEqual({ key: "setupNoMoves", params: { side: "black" } });
    expect(problemOf("k8/GG7/P8/9/9/9/9/9/8K w - 1")).toEqual({ key: "setupNoMoves", params: { side: "white" } });
  });
});
