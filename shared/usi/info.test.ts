import { describe, expect, it } from "vitest";
import { MATE_UNKNOWN_PLIES, isUsiMove, parseInfoLine, scoreValue } from "./info.js";

describe("parseInfoLine", () => {
  it("reads a fairy-stockfish multipv line", () => {
    const i = parseInfoLine(
      "info depth 8 seldepth 13 multipv 2 score cp 197 nodes 15695 nps 307745 tbhits 0 time 51 pv 3g3f 4a5b 7g7f 5a4b",
    );
    expect(i).toEqual({
      depth: 8,
      seldepth: 13,
      multipv: 2,
      score: { kind: "cp", cp: 197 },
      value: 197,
      nodes: 15695,
      nps: 307745,
      timeMs: 51,
      pv: ["3g3f", "4a5b", "7g7f", "5a4b"],
    });
  });

  it("reads a fairy-stockfish upperbound line (bound after the score)", () => {
    const i = parseInfoLine(
      "info depth 5 seldepth 5 multipv 4 score cp 165 upperbound nodes 1162 nps 387333 tbhits 0 time 3 pv 3g3f 5a4b 7g7f 4b3b 2i3g",
    );
    expect(i?.bound).toBe("upper");
    expect(i?.value).toBe(165);
    expect(i?.nodes).toBe(1162);
    expect(i?.pv?.length).toBe(5);
  });

  it("reads lowerbound", () => {
    expect(parseInfoLine("info depth 3 score cp -20 lowerbound pv 7g7f")?.bound).toBe("lower");
  });

  it("reads gpsusi lines (score after time, huge cp for mates, pv resign)", () => {
    const a = parseInfoLine("info depth 6 seldepth 11 time 538 score cp 66 nodes 307111 nps 570670 pv 2g2f 3c3d 7g7f 2b8h+ 7i8h");
    expect(a).toMatchObject({
      depth: 6,
      seldepth: 11,
      timeMs: 538,
      value: 66,
      nodes: 307111,
      pv: ["2g2f", "3c3d", "7g7f", "2b8h+", "7i8h"],
    });
    const b = parseInfoLine("info depth 2 seldepth 1 time 1 score cp 1148897 nodes 4 nps 2882 pv G*5b");
    expect(b?.value).toBe(32000);
    expect(b?.pv).toEqual(["G*5b"]);
    const c = parseInfoLine("info depth 10 seldepth 1 time 3 score cp -1148897 nodes 39 nps 9778 pv resign");
    expect(c?.value).toBe(-32000);
    expect(c?.pv).toEqual([]);
    expect(parseInfoLine("info depth 7")).toEqual({ depth: 7 });
    expect(parseInfoLine("info currmove 2g2f")).toEqual({ currmove: "2g2f" });
    expect(parseInfoLine("info hashfull 6")).toEqual({ hashfull: 6 });
    expect(parseInfoLine("info time 1091 nodes 620814 nps 568822")).toEqual({ timeMs: 1091, nodes: 620814, nps: 568822 });
    expect(parseInfoLine("info string loss by checkmate")).toEqual({ string: "loss by checkmate" });
  });

  it("maps mate scores to plies from the side to move", () => {
    expect(parseInfoLine("info depth 4 seldepth 2 multipv 1 score mate 1 nodes 1484 pv G*5b")?.value).toBe(31999);
    expect(parseInfoLine("info depth 1 seldepth 1 multipv 1 score mate -2 nodes 6 pv 5a4a G*4b")?.value).toBe(-31998);
    expect(parseInfoLine("info depth 0 score mate 0")?.value).toBe(-32000);
    expect(parseInfoLine("info depth 9 score mate + pv 7g7f")?.value).toBe(32000 - MATE_UNKNOWN_PLIES);
    expect(parseInfoLine("info depth 9 score mate - pv 7g7f")?.value).toBe(-(32000 - MATE_UNKNOWN_PLIES));
    expect(parseInfoLine("info score mate +7 pv 7g7f")?.value).toBe(31993);
    expect(parseInfoLine("info score mate + lowerbound pv 7g7f")).toMatchObject({
      bound: "lower",
      score: { kind: "mate", plies: null, sign: 1 },
    });
    expect(scoreValue({ kind: "mate", plies: 99999, sign: 1 })).toBe(0);
  });

  it("clamps cp", () => {
    expect(parseInfoLine("info score cp 99999")?.value).toBe(32000);
    expect(parseInfoLine("info score cp -99999")?.value).toBe(-32000);
  });

  it("keeps the rest of the line after string, including keywords", () => {
    expect(parseInfoLine("info depth 3 string hello  depth 5 pv x")).toEqual({ depth: 3, string: "hello  depth 5 pv x" });
    expect(parseInfoLine("info string")).toEqual({ string: "" });
  });

  it("never throws and returns null or a partial record on garbage", () => {
    const garbage = [
      "",
      "   ",
      "inf",
      "information",
      "bestmove 7g7f",
      "info",
      "info depth",
      "info depth x nodes 5",
      "info score",
      "info score cp",
      "info score cp abc pv 7g7f",
      "info score mate",
      "info score mate x",
      "info multipv 0 pv 7g7f",
      "info multipv -3",
      "info nodes 1e9 time -5",
      "info pv",
      "info pv 7g7f zz 8c8d",
      "info depth 99999999999999999999999",
      "\u0000\uffff info",
      "info \ud800 depth 3",
      "info\tdepth\t4",
      "info currmove",
      "info score cp 5 upperbound lowerbound",
    ];
    for (const line of garbage) expect(() => parseInfoLine(line)).not.toThrow();
    expect(parseInfoLine("bestmove 7g7f")).toBeNull();
    expect(parseInfoLine("information")).toBeNull();
    expect(parseInfoLine("info")).toEqual({});
    expect(parseInfoLine("info depth x nodes 5")).toEqual({ nodes: 5 });
    expect(parseInfoLine("info multipv 0 pv 7g7f")).toEqual({ pv: ["7g7f"] });
    expect(parseInfoLine("info pv 7g7f zz 8c8d")?.pv).toEqual(["7g7f"]);
    expect(parseInfoLine("info depth 99999999999999999999999")).toEqual({});
    expect(parseInfoLine("info\tdepth\t4")).toEqual({ depth: 4 });
    expect(parseInfoLine("info score cp abc pv 7g7f")).toEqual({ pv: ["7g7f"] });
    for (let n = 0; n < 2000; n++) {
      const s =
        "info " +
        Array.from(
          { length: 12 },
          () =>
            ["depth", "score", "cp", "mate", "-", "+", "pv", "7g7f", "1", "-1", "string", "multipv", "", "P*5e"][
              Math.floor(Math.random() * 14)
            ],
        ).join(" ");
      expect(() => parseInfoLine(s)).not.toThrow();
    }
    expect(parseInfoLine(undefined as unknown as string)).toBeNull();
  });

  it("recognizes USI moves", () => {
    for (const m of ["7g7f", "8h2b+", "P*5e", "R*1a", "1i9a"]) expect(isUsiMove(m)).toBe(true);
    for (const m of ["resign", "win", "0a1b", "7g7f+x", "K*5e", "7j7f", "p*5e", ""]) expect(isUsiMove(m)).toBe(false);
  });
});
