import { describe, expect, it } from "vitest";
import type { GraphNodeView } from "../../../shared/api/contract";
import { buildTree, inRect, layoutTree, lineSfen, visibleRect, NODE_W } from "./model";
import { Position } from "../../../shared/rules/position";
import { parseUsiMove } from "../../../shared/rules/usi";
import { normalizeSfen } from "../../../shared/rules/sfen";

const node = (
  sfen: string,
  side: "black" | "white",
  children: Array<[string, string, number | null, GraphNodeView["children"][number]["state"]]>,
  parents: string[] = [],
): GraphNodeView => ({
  sfen,
  side,
  state: "thought",
  bound: null,
  thinkDepth: 10,
  children: children.map(([usi, to, engineValue, state]) => ({
    usi,
    to,
    engineValue,
    state,
    kifu: false,
    childBound: null,
    childParents: 1,
  })),
  parents: parents.map((p) => ({ sfen: p, usi: "x" })),
});

describe("the tree model", () => {
  const cache = new Map<string, GraphNodeView>([
    [
      "R b",
      node("R b", "black", [
        ["a", "A w", 10, "leaf"],
        ["b", "B w", 50, "thought"],
        ["c", "C w", 90, "banned"],
        ["d", "D w", null, "in-flight"],
      ]),
    ],
    [
      "B w",
      node("B w", "white", [
        ["e", "R b", 0, "thought"],
        ["f", "F b", -20, "leaf"],
      ]),
    ],
  ]);

  it("orders children best first from the mover's view, marks the PV and stops at a repetition", () => {
    const t = buildTree({
      anchorLine: [],
      anchorSfen: "R b",
      cache,
      isExpanded: () => true,
      showAll: new Set(),
      maxChildren: 8,
      maxNodes: 100,
    });
    expect(t.children!.map((c) => c.usi)).toEqual(["b", "a", "d", "c"]);
    expect(t.children!.map((c) => c.pv)).toEqual([true, false, false, false]);
    const b = t.children![0];
    // A leaf's value is the engine's value of the move, from the child's side to move.
    expect(t.children![1].value).toBe(-10);
    expect(t.children![1].side).toBe("white");
    expect(b.children!.map((c) => c.usi)).toEqual(["e", "f"]);
    expect(b.children![0].repeated).toBe(true);
    expect(b.children![0].children).toBeUndefined();
    expect(t.children![2].state).toBe("in-flight");
    expect(t.children![3].state).toBe("banned");
  });

  it("draws a few children until more are asked for, and only what is expanded", () => {
    const few = buildTree({
      anchorLine: [],
      anchorSfen: "R b",
      cache,
      isExpanded: (k) => k === "",
      showAll: new Set(),
      maxChildren: 2,
      maxNodes: 100,
    });
    expect(few.children).toHaveLength(2);
    expect(few.more).toBe(2);
    expect(few.children![0].children).toBeUndefined();
    const all = buildTree({
      anchorLine: [],
      anchorSfen: "R b",
      cache,
      isExpanded: (k) => k === "",
      showAll: new Set([""]),
      maxChildren: 2,
      maxNodes: 100,
    });
    expect(all.children).toHaveLength(4);
  });

  it("always draws the current node: past the first few children, under a closed ancestor, before the budget runs out", () => {
    const wide = new Map(cache);
    // R has 4 children; its 4th best ("c", banned) leads on to X.
    wide.set(
      "C w",
      node("C w", "white", [
        ["x", "X b", 5, "leaf"],
        ["y", "Y b", 0, "leaf"],
      ]),
    );
    const base = { anchorLine: [], anchorSfen: "R b", cache: wide, showAll: new Set<string>(), maxChildren: 2 };
    const closedByHand = () => false;
    const t = buildTree({ ...base, isExpanded: closedByHand, maxNodes: 100, currentKey: "c x" });
    expect(t.expanded).toBe(true);
    expect(t.children!.map((c) => c.usi)).toEqual(["b", "a", "c"]);
    expect(t.more).toBe(1);
    const c = t.children![2];
    expect(c.expanded).toBe(true);
    expect(c.children!.map((x) => x.key)).toEqual(["c x", "c y"]);
    // The current node itself stays as the hand left it (closed here).
    expect(c.children![0].expanded).toBe(false);
    // A budget of 3 goes to R's children, then to the line toward the current node first.
    const tight = buildTree({ ...base, isExpanded: () => true, maxNodes: 5, currentKey: "c x" });
    const keys: string[] = [];
    const walk = (n: typeof tight) => (keys.push(n.key), n.children?.forEach(walk));
    walk(tight);
    expect(keys).toContain("c x");
    // Without a current node, the same budget goes to the best child's subtree.
    const plain = buildTree({ ...base, isExpanded: () => true, maxNodes: 5 });
    const plainKeys: string[] = [];
    const walk2 = (n: typeof plain) => (plainKeys.push(n.key), n.children?.forEach(walk2));
    walk2(plain);
    expect(plainKeys).not.toContain("c x");
  });

  it("lays out left to right without overlaps and culls to the viewport", () => {
    const t = buildTree({
      anchorLine: [],
      anchorSfen: "R b",
      cache,
      isExpanded: () => true,
      showAll: new Set(),
      maxChildren: 8,
      maxNodes: 100,
    });
    const placed = layoutTree(t);
    expect(placed).toHaveLength(7);
    for (const p of placed) if (p.parent) expect(p.x).toBeGreaterThan(p.parent.x + NODE_W);
    const col = placed
      .filter((p) => p.x === placed[1].x)
      .map((p) => p.y)
      .sort((a, b) => a - b);
    for (let i = 1; i < col.length; i++) expect(col[i] - col[i - 1]).toBeGreaterThanOrEqual(50);
    const r = visibleRect(200, 100, -10_000, 0, 1, 0);
    expect(placed.filter((p) => inRect(p, r))).toHaveLength(0);
    expect(placed.filter((p) => inRect(p, visibleRect(2000, 2000, 0, 1000, 1)))).toHaveLength(7);
  });
});

describe("lineSfen", () => {
  const played = (line: string[]) => {
    const pos = Position.startpos();
    for (const u of line) pos.doMove(parseUsiMove(u)!);
    return pos.sfenKey();
  };
  const start = normalizeSfen("startpos")!;

  it("reads a line's position off the moves the host listed, then plays the rest", () => {
    const cache = new Map<string, GraphNodeView>([[start, node(start, "black", [["7g7f", played(["7g7f"]), 0, "thought"]])]]);
    expect(lineSfen("startpos", [], cache)).toBe(start);
    expect(lineSfen("startpos", ["7g7f"], cache)).toBe(played(["7g7f"]));
    expect(lineSfen("startpos", ["7g7f", "3c3d", "2g2f"], cache)).toBe(played(["7g7f", "3c3d", "2g2f"]));
    expect(lineSfen("startpos", ["2g2f"], new Map())).toBe(played(["2g2f"]));
    // What the host names the child is what the tree asks for.
    const named = new Map([[start, node(start, "black", [["7g7f", "as the host says", 0, "thought"]])]]);
    expect(lineSfen("startpos", ["7g7f"], named)).toBe("as the host says");
  });

  it("stops playing at a move that cannot be played", () => {
    expect(lineSfen("startpos", ["7g7f", "7g7f", "2g2f"], new Map())).toBe(played(["7g7f"]));
  });
});
