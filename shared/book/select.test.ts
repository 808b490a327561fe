import { describe, expect, it } from "vitest";
import { BOUND_EXACT, BOUND_LOWER, Selector, type Selection } from "./select.js";
import { referenceNegamax } from "../testing/reference.js";
import { handBook } from "../testing/hand-book.js";
import { buildFull, keysOf, randomBook, rng } from "../testing/random-book.js";
import { moveToUsi } from "../rules/usi.js";
import type { BookGraph } from "./graph.js";

const usiLine = (s: Selection) => (s.kind === "leaf" ? s.line.map((st) => moveToUsi(st.move)) : []);

describe("selection scenarios", () => {
  it("hands out the next-best leaves while earlier ones are in flight, then nothing", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 50],
          ["2g2f", 30],
          ["5g5f", -80],
        ],
      },
    });
    const sel = new Selector(b.graph);
    const seen: string[] = [];
    for (;;) {
      const s = sel.select(b.id("R"));
      if (s.kind === "none") break;
      seen.push(moveToUsi(s.leaf.move));
      expect(s.rootValue).toBe(s.leaf.value);
      b.keys.fly(b.graph, ...b.keys.leaf(b.graph, s), true);
    }
    expect(seen).toEqual(["7g7f", "2g2f", "5g5f"]);
  });

  it("searches through internal edges and returns the line from the root", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 40, "A"],
          ["2g2f", 5],
        ],
      },
      A: {
        white: true,
        moves: [
          ["3c3d", -10],
          ["8c8d", -60],
        ],
      },
    });
    const s = new Selector(b.graph).select(b.id("R"));
    expect(s.kind).toBe("leaf");
    expect(usiLine(s)).toEqual(["7g7f", "3c3d"]);
    if (s.kind === "leaf") expect(s.rootValue).toBe(10);
  });

  it("bans a repetition that becomes the PV and hands out the next leaf", () => {
    // R -7g7f-> X -7f7g-> R is a cycle; white at X prefers the draw (0) to its leaf (-20),
    // so black's best line ends in a repetition. Banning (X, 7f7g) exposes X's leaf.
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 0, "X"],
          ["2g2f", -10],
        ],
      },
      X: {
        white: true,
        moves: [
          ["7f7g", 0, "R"],
          ["3c3d", -20],
        ],
      },
    });
    const s = new Selector(b.graph).select(b.id("R"));
    expect(s.kind).toBe("leaf");
    expect(s.bans).toEqual([{ node: b.id("X"), move: s.bans[0].move, path: [s.bans[0].path[0]], reason: "repetition" }]);
    expect(moveToUsi(s.bans[0].path[0])).toBe("7g7f");
    expect(moveToUsi(s.bans[0].move)).toBe("7f7g");
    expect(usiLine(s)).toEqual(["7g7f", "3c3d"]);
    if (s.kind === "leaf") expect(s.rootValue).toBe(20);
    // The ban holds for the rest of the dig.
    expect(b.graph.isBanned(b.id("X"), s.bans[0].move)).toBe(true);
  });

  it("scores perpetual check as a loss for the checking side", () => {
    // Black checks with 7g7f (X is in check); white's 7f7g returns to R without check.
    // Back at R black would repeat by checking every move: perpetual check, black loses,
    // so white at X happily repeats (+32000 for white) and black must play its leaf.
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 100, "X"],
          ["2g2f", 5],
        ],
      },
      X: {
        white: true,
        check: true,
        moves: [
          ["7f7g", 0, "R"],
          ["3c3d", -300],
        ],
      },
    });
    const sel = new Selector(b.graph);
    const s = sel.select(b.id("R"));
    expect(usiLine(s)).toEqual(["2g2f"]);
    // X's cached value is white's win by perpetual check.
    expect(sel.bound(b.id("X"))?.value).toBe(32000);
  });

  it("scores perpetual check as a loss when the side to move is the checker", () => {
    // White at X has only checking moves back into the cycle; black's replies never check.
    // Repeating is a perpetual check by white: a loss for white, so white plays its leaf.
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 0, "X"],
          ["2g2f", -10],
        ],
      },
      X: {
        white: true,
        moves: [
          ["3c3d", 200, "Y"],
          ["8c8d", -40],
        ],
      },
      Y: { check: true, moves: [["7f7g", 0, "Z"]] },
      Z: { white: true, moves: [["3d3c", 0, "W"]] },
      W: { check: true, moves: [["7g7f", 0, "X"]] },
    });
    const sel = new Selector(b.graph);
    const s = sel.select(b.id("R"));
    // From X, white's 3c3d leads round the cycle back to X with every white move checking.
    expect(usiLine(s)).toEqual(["7g7f", "8c8d"]);
    expect(sel.bound(b.id("Y"))?.value).toBe(32000);
  });

  it("scores a repetition closed by the checking side's own check as that side's loss", () => {
    // Black checks into S; white evades to T; black's 7f7g checks back into S, closing a
    // cycle in which every black move gave check: -32000 for black, so black plays 5g5f.
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 0, "S"],
          ["2g2f", -50],
        ],
      },
      S: {
        white: true,
        check: true,
        moves: [
          ["3c3d", 0, "T"],
          ["8c8d", -300],
        ],
      },
      T: {
        moves: [
          ["7f7g", 500, "S"],
          ["5g5f", 20],
        ],
      },
    });
    const sel = new Selector(b.graph);
    expect(usiLine(sel.select(b.id("R")))).toEqual(["7g7f", "3c3d", "5g5f"]);
    expect(sel.bound(b.id("T"))?.value).toBe(20);
  });

  it("treats a cycle where both sides check every move as a draw", () => {
    const b = handBook({
      R: {
        check: true,
        moves: [
          ["7g7f", 100, "X"],
          ["2g2f", -5],
        ],
      },
      X: {
        white: true,
        check: true,
        moves: [
          ["7f7g", 0, "R"],
          ["3c3d", -300],
        ],
      },
    });
    const s = new Selector(b.graph).select(b.id("R"));
    // The draw (0) beats -5, so the line ends in a repetition, gets banned, and X's leaf follows.
    expect(s.bans.map((x) => x.reason)).toEqual(["repetition"]);
    expect(usiLine(s)).toEqual(["7g7f", "3c3d"]);
  });

  it("gives the kifu bonus to leaves only, for both sides, and it cannot rescue a much worse leaf", () => {
    const spec = {
      R: {
        moves: [
          ["7g7f", 50],
          ["2g2f", 0],
          ["5g5f", -300],
        ] as Array<[string, number]>,
      },
    };
    const b = handBook(spec);
    const sel = new Selector(b.graph);
    expect(usiLine(sel.select(b.id("R")))).toEqual(["7g7f"]);
    b.keys.kifu(b.graph, ...b.leafKey("R", "2g2f"));
    const s = sel.select(b.id("R"));
    expect(usiLine(s)).toEqual(["2g2f"]);
    if (s.kind === "leaf") expect(s.rootValue).toBe(100);
    // Stored values are untouched.
    const b2 = handBook(spec);
    b2.keys.kifu(b2.graph, ...b2.leafKey("R", "5g5f"));
    expect(usiLine(new Selector(b2.graph).select(b2.id("R")))).toEqual(["7g7f"]);
    // The opponent is steered toward recorded positions too.
    const b3 = handBook({
      R: { moves: [["7g7f", 0, "W"]] },
      W: {
        white: true,
        moves: [
          ["3c3d", 20],
          ["8c8d", -30],
        ],
      },
    });
    b3.keys.kifu(b3.graph, ...b3.leafKey("W", "8c8d"));
    expect(usiLine(new Selector(b3.graph).select(b3.id("R")))).toEqual(["7g7f", "8c8d"]);
  });

  it("bans a line that ends in mate or a declaration, and one that reaches the ply cap", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 0, "M"],
          ["2g2f", 10, "D"],
          ["5g5f", -50],
        ],
      },
      M: { white: true, noMoves: true },
      D: { white: true, declaration: true },
    });
    const s = new Selector(b.graph).select(b.id("R"));
    expect(s.bans.map((x) => [moveToUsi(x.move), x.reason])).toEqual([["7g7f", "terminal"]]);
    expect(usiLine(s)).toEqual(["5g5f"]);

    const chain = handBook({
      A: {
        moves: [
          ["1g1f", 300, "B"],
          ["9g9f", -10],
        ],
      },
      B: { white: true, moves: [["1c1d", -300, "C"]] },
      C: { moves: [["2g2f", 300, "D"]] },
      D: { white: true, moves: [["2c2d", 5]] },
    });
    const capped = new Selector(chain.graph, { maxPly: 3 }).select(chain.id("A"));
    expect(capped.bans.map((x) => [chain.nameOf(x.node), moveToUsi(x.move), x.reason])).toEqual([["C", "2g2f", "ply-cap"]]);
    expect(usiLine(capped)).toEqual(["9g9f"]);
  });

  it("keeps the listed value of a move into a thought position that came back empty, and bans its line", () => {
    // The engine resigned at E without usable lines: R's 7g7f keeps its +3000 as in export.
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 3000, "E"],
          ["2g2f", 50],
          ["5g5f", 40],
        ],
      },
      E: { white: true },
    });
    const plain = new Selector(b.graph, { plain: true }).bookValue(b.id("R"));
    expect(plain).toBe(3000);
    const s = new Selector(b.graph).select(b.id("R"));
    expect(s.bans.map((x) => [moveToUsi(x.move), x.reason])).toEqual([["7g7f", "terminal"]]);
    expect(usiLine(s)).toEqual(["2g2f"]);
  });

  it("gives no kifu bonus to a move into a thought position that came back empty (an internal edge)", () => {
    const b = handBook({
      R: {
        moves: [
          ["2g2f", 50],
          ["7g7f", 30, "E"],
        ],
      },
      E: { white: true },
    });
    const e = b.id("E");
    b.keys.kifu(b.graph, b.graph.keyHi[e], b.graph.keyLo[e]);
    const s = new Selector(b.graph).select(b.id("R"));
    // With a bonus, 7g7f (130) would lead and end in a ban; without, 2g2f leads at once.
    expect(s.bans).toEqual([]);
    expect(usiLine(s)).toEqual(["2g2f"]);
    if (s.kind === "leaf") expect(s.rootValue).toBe(50);
    expect(referenceNegamax(b.graph, b.id("R"))?.value).toBe(50);
  });

  it("skips dead ends and answers nothing when the root has no move left", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 90, "A"],
          ["2g2f", 10],
        ],
      },
      A: { white: true, moves: [["3c3d", -90]] },
    });
    const g = b.graph;
    b.keys.fly(g, ...b.leafKey("A", "3c3d"), true);
    const sel = new Selector(g);
    const s = sel.select(b.id("R"));
    expect(usiLine(s)).toEqual(["2g2f"]);
    b.keys.fly(g, ...b.leafKey("R", "2g2f"), true);
    expect(sel.select(b.id("R")).kind).toBe("none");
  });

  it("breaks ties by the fixed order: listed by value, then listed order, then unlisted by USI text", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 10, "A"],
          ["2g2f", 30],
          ["5g5f", 30],
        ],
        unlisted: [
          ["9g9f", "B"],
          ["1g1f", "C"],
        ],
      },
      A: { white: true, moves: [["3c3d", -30]] },
      B: { white: true, moves: [["3c3d", -30]] },
      C: { white: true, moves: [["3c3d", -30]] },
    });
    expect(usiLine(new Selector(b.graph).select(b.id("R")))).toEqual(["2g2f"]);
    b.keys.fly(b.graph, ...b.leafKey("R", "2g2f"), true);
    expect(usiLine(new Selector(b.graph).select(b.id("R")))).toEqual(["5g5f"]);
    b.keys.fly(b.graph, ...b.leafKey("R", "5g5f"), true);
    expect(usiLine(new Selector(b.graph).select(b.id("R")))).toEqual(["7g7f", "3c3d"]);
    b.keys.fly(b.graph, ...b.leafKey("A", "3c3d"), true);
    expect(usiLine(new Selector(b.graph).select(b.id("R")))).toEqual(["1g1f", "3c3d"]);
  });

  it("gives the plain book value beside the selection's: in-flight leaves count, no bonus", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 50],
          ["2g2f", 0],
        ],
      },
    });
    b.keys.kifu(b.graph, ...b.leafKey("R", "2g2f"));
    b.keys.fly(b.graph, ...b.leafKey("R", "7g7f"), true);
    const s = new Selector(b.graph).select(b.id("R"));
    expect(s.kind === "leaf" && s.rootValue).toBe(100);
    expect(new Selector(b.graph, { plain: true }).bookValue(b.id("R"))).toBe(50);
  });

  it("leaves exact bounds on the PV for the UI", () => {
    const b = handBook({
      R: {
        moves: [
          ["7g7f", 40, "A"],
          ["2g2f", 5],
        ],
      },
      A: {
        white: true,
        moves: [
          ["3c3d", -10],
          ["8c8d", -60],
        ],
      },
    });
    const sel = new Selector(b.graph);
    sel.select(b.id("R"));
    expect(sel.bound(b.id("R"))).toEqual({ value: 10, bound: BOUND_EXACT, cyclic: false });
    expect(sel.bound(b.id("A"))?.value).toBe(-10);
  });
});

function compare(g: BookGraph, s: Selection, maxPly: number) {
  const ref = referenceNegamax(g, 0, maxPly);
  // A root that is itself terminal has nothing to select either.
  if (s.kind === "none") return { same: ref === null || ref.moves.length === 0, ref };
  const same = ref !== null && ref.value === s.rootValue && ref.moves.join() === s.line.map((x) => x.move).join() && ref.end === "leaf";
  return { same, ref };
}

describe("selection against brute-force negamax", () => {
  it("agrees exactly on 1,500 random acyclic books, selection after selection", () => {
    let selections = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const book = randomBook(seed, { nodes: 4 + (seed % 28), cycles: false });
      const g = buildFull(book);
      const keys = keysOf(book);
      const r = rng(seed);
      if (r() < 0.5) keys.kifu(g, book[0].listed[0]?.childHi ?? 0, book[0].listed[0]?.childLo ?? 0);
      const sel = new Selector(g, { maxPly: 64 });
      for (let k = 0; k < 4; k++) {
        const s = sel.select(0);
        const { same, ref } = compare(g, s, 64);
        if (!same)
          throw new Error(
            `seed ${seed} selection ${k}: ${JSON.stringify(s.kind === "leaf" ? [s.rootValue, usiLine(s)] : "none")} vs ${JSON.stringify(ref && [ref.value, ref.moves.map(moveToUsi), ref.end])}`,
          );
        selections++;
        if (s.kind === "none") break;
        keys.fly(g, ...keys.leaf(g, s), true);
      }
    }
    expect(selections).toBeGreaterThan(3000);
  });

  it("hands out distinct leaves, one per free engine", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const book = randomBook(seed, { nodes: 30, cycles: seed % 2 === 0 });
      const g = buildFull(book);
      const keys = keysOf(book);
      const sel = new Selector(g);
      const leaves = new Set<string>();
      for (let k = 0; k < 8; k++) {
        const s = sel.select(0);
        if (s.kind === "none") break;
        const [hi, lo] = keys.leaf(g, s);
        const key = `${hi}:${lo}`;
        expect(leaves.has(key)).toBe(false);
        leaves.add(key);
        keys.fly(g, ...keys.leaf(g, s), true);
      }
    }
  });

  it("differs from the reference on only a small share of cyclic books", () => {
    let total = 0,
      differ = 0,
      trusted = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const book = randomBook(seed, { nodes: 4 + (seed % 12), cycles: true, maxListed: 3 });
      const g = buildFull(book);
      const keys = keysOf(book);
      const sel = new Selector(g, { maxPly: 16 });
      for (let k = 0; k < 3; k++) {
        const s = sel.select(0);
        trusted += s.stats.cyclicTrusted;
        total++;
        if (!compare(g, s, 16).same) differ++;
        if (s.kind === "none") break;
        keys.fly(g, ...keys.leaf(g, s), true);
      }
    }
    const share = differ / total;
    console.log(
      `cyclic books: ${differ}/${total} selections differ from brute force (${(share * 100).toFixed(2)}%), ${trusted} cyclic values trusted`,
    );
    expect(total).toBeGreaterThan(2000);
    expect(share).toBeLessThan(0.05);
  });
});

describe("cached bounds", () => {
  it("are true bounds of each node's own value (checked against brute force on 500 acyclic books)", () => {
    let checked = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const book = randomBook(seed, { nodes: 6 + (seed % 20), cycles: false });
      const g = buildFull(book);
      const keys = keysOf(book);
      const sel = new Selector(g, { maxPly: 64 });
      for (let k = 0; k < 3; k++) {
        const s = sel.select(0);
        for (let n = 0; n < g.nodeCount; n++) {
          const b = sel.bound(n);
          if (!b) continue;
          const ref = referenceNegamax(g, n, 64);
          if (!ref || ref.moves.length === 0) continue;
          const ok =
            b.bound === BOUND_EXACT ? ref.value === b.value : b.bound === BOUND_LOWER ? ref.value >= b.value : ref.value <= b.value;
          if (!ok) throw new Error(`seed ${seed}: node ${n} bound ${b.bound} ${b.value} but its value is ${ref.value}`);
          checked++;
        }
        if (s.kind === "none") break;
        keys.fly(g, ...keys.leaf(g, s), true);
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });
});

describe("dig limits", () => {
  it("does not hand out leaves beyond the eval limit or the leaf ply limit", () => {
    const b = handBook({
      R: {
        moves: [
          ["2g2f", 2500],
          ["7g7f", 900, "A"],
        ],
      },
      A: { white: true, moves: [["8c8d", -600]] },
    });
    const s = new Selector(b.graph, { evalLimit: 2000 }).select(b.id("R"));
    expect(s.bans.map((x) => x.reason)).toEqual(["limit"]);
    expect(usiLine(s)).toEqual(["7g7f", "8c8d"]);
    const b2 = handBook({
      R: {
        moves: [
          ["7g7f", 900, "A"],
          ["2g2f", 30],
        ],
      },
      A: { white: true, moves: [["8c8d", -600]] },
    });
    expect(usiLine(new Selector(b2.graph, { maxLeafPly: 1 }).select(b2.id("R")))).toEqual(["2g2f"]);
  });
});
