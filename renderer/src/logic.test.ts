import { describe, expect, it } from "vitest";
import { addSample, formatValue, moveSquares, parseBoard, pickMove, treePath } from "./logic";
import { backoffMs } from "./host/web";

describe("renderer logic", () => {
  it("reads the start position: 40 pieces, white on top, empty hands", () => {
    const b = parseBoard("startpos")!;
    expect(b.squares.flat().filter(Boolean)).toHaveLength(40);
    expect(b.squares[0][0]).toEqual({ type: "L", black: false, promoted: false });
    expect(b.squares[8][4]).toEqual({ type: "K", black: true, promoted: false });
    expect(b.hands.black).toEqual([]);
  });

  it("reads hands with counts and promoted pieces", () => {
    const b = parseBoard("sfen 8k/9/9/9/9/9/9/9/+P7K w 2Pr 50")!;
    expect(b.hands.black).toEqual([["P", 2]]);
    expect(b.hands.white).toEqual([["R", 1]]);
    expect(b.squares[8][0]).toEqual({ type: "P", black: true, promoted: true });
    expect(b.side).toBe("white");
    expect(parseBoard("bad")).toBeNull();
  });

  it("maps gestures to moves, promotion first", () => {
    const legal = ["8h2b", "8h2b+", "P*5e"];
    expect(pickMove(legal, { file: 8, rank: 8 }, { file: 2, rank: 2 })).toBe("8h2b+");
    expect(pickMove(legal, { drop: "P" }, { file: 5, rank: 5 })).toBe("P*5e");
    expect(pickMove(legal, { file: 7, rank: 7 }, { file: 7, rank: 6 })).toBeNull();
    expect(moveSquares("P*5e")).toMatchObject({ from: null, drop: "P", to: { file: 5, rank: 5 } });
  });

  it("formats values and mates", () => {
    expect(formatValue(120)).toBe("+120");
    expect(formatValue(31990)).toBe("mate 10");
    expect(formatValue(-31995)).toBe("mated 5");
    expect(formatValue(null)).toBe("–");
  });

  it("finds paths through a tree view", () => {
    const tree = { nodes: [], edges: [{ from: "a", to: "b", usi: "7g7f", value: 1, leaf: false }, { from: "b", to: "c", usi: "3c3d", value: 1, leaf: true }] };
    expect(treePath(tree, "a", "c")).toEqual(["7g7f", "3c3d"]);
    expect(treePath(tree, "c", "a")).toBeNull();
  });

  it("keeps a bounded sample history and backs off reconnects", () => {
    let s = addSample([], { t: 0, thought: 0, rootValue: 0, perHour: 0 }, 100);
    for (let i = 1; i < 500; i++) s = addSample(s, { t: i * 1000, thought: i, rootValue: i, perHour: 0 }, 100);
    expect(s.length).toBeLessThanOrEqual(100);
    expect(s[s.length - 1].thought).toBe(499);
    expect(backoffMs(0)).toBe(250);
    expect(backoffMs(20)).toBe(5000);
  });
});
