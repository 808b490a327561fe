// The selector keeps values per node across changes of the book (docs/DESIGN.md §3.5: values kept
// exactly up to date, never stale bounds). Here a selector that lives through a whole
// random dig is compared, after every insert and every change of the in-flight set, the
// bans and the kifu marks, with a fresh selector on the same graph: they must answer the
// same, always.

import { describe, expect, it } from "vitest";
import { BookGraph, type ParentLink } from "./graph.js";
import { Selector, type SelectOptions, type Selection, type Unfinished } from "./select.js";
import { synthBook, type SynthBook } from "../synth/synth-graph.js";
import type { ChildKeys } from "../testing/child-keys.js";
import { keysOf, legalOf, nodeInput, parentsOf, randomBook, rng, type RandomNode } from "../testing/random-book.js";

function describeSelection(s: Selection | Unfinished): string {
  if (s.kind === "unfinished") return "unfinished";
  const bans = s.bans.map((b) => `${b.node}/${b.move}/${b.reason}/${b.path.join(".")}`).join(",");
  if (s.kind === "none") return `none [${bans}]`;
  return `${s.rootValue} ${s.line.map((st) => `${st.node}:${st.move}`).join(" ")} leaf ${s.leaf.value} [${bans}]`;
}

/**
 * Selects in slices given no time (1,024 nodes each) until an answer or `max` slices;
 * `between(k)` runs after slice k, as a dig's changes come between slices.
 */
function selectInSlices(
  sel: Selector,
  root: number,
  max: number,
  between?: (k: number) => void,
): { s: Selection | Unfinished; slices: number } {
  let slices = 0,
    s: Selection | Unfinished;
  do {
    s = sel.select(root, 0);
    between?.(slices);
    slices++;
  } while (s.kind === "unfinished" && slices < max);
  return { s, slices };
}

/** Selects with `sel`, records the answer, and lifts the bans it made so the next selector starts from the same graph. */
function selectAndUndo(g: BookGraph, sel: Selector, root: number): string {
  const s = sel.select(root);
  for (const b of s.bans) g.unban(b.node, b.move);
  return describeSelection(s);
}

/** Inserts node `i` of the book as a dig would; the root's id, or -1 while the root is not in. */
function insertNode(g: BookGraph, book: RandomNode[], i: number): number {
  const n = book[i];
  g.insert(nodeInput(n), legalOf(n), parentsOf(book, n));
  return g.find(book[0].keyHi, book[0].keyLo);
}

/** The dig handing out the selected leaf: it stays in flight until giveBack. */
function handOut(g: BookGraph, keys: ChildKeys, sel: Selector, root: number, flying: Array<[number, number]>): Selection {
  const s = sel.select(root);
  if (s.kind === "leaf") {
    const [hi, lo] = keys.leaf(g, s);
    keys.fly(g, hi, lo, true);
    flying.push([hi, lo]);
  }
  return s;
}

/** A random leaf in flight comes back unthought. */
function giveBack(g: BookGraph, keys: ChildKeys, flying: Array<[number, number]>, r: () => number): void {
  const [hi, lo] = flying.splice(Math.floor(r() * flying.length), 1)[0];
  keys.fly(g, hi, lo, false);
}

/** A synthetic book's leaf edge as the dig puts it in flight: its child's key and the links into it. */
function synthLeaf(book: SynthBook, node: number, e: number): { hi: number; lo: number; parents: ParentLink[] } {
  const [hi, lo] = book.childKey(e);
  return { hi, lo, parents: book.parentsInto(node, e) };
}

/** The root first, then the other nodes in a random order. */
function insertOrder(count: number, r: () => number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = order.length - 1; i > 1; i--) {
    const j = 1 + Math.floor(r() * i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

describe("a selector kept across changes answers as a fresh one does", () => {
  it("on 2,000 random digs (cycles, bans, kifu bonus, in-flight sets), after every change", { timeout: 600_000 }, () => {
    let compared = 0,
      withBans = 0,
      cyclicBooks = 0,
      differ = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed * 7919);
      const cycles = seed % 3 !== 0;
      const maxPly = seed % 5 === 0 ? 6 : 64; // a small cap sometimes: the whole-book search answers there
      const book = randomBook(seed, { nodes: 5 + (seed % 30), cycles, maxListed: 1 + (seed % 5) });
      const keys = keysOf(book);
      if (cycles) cyclicBooks++;
      const g = new BookGraph(4);
      g.kifuBonus = [0, 100, 250][seed % 3];
      const opts = { maxPly, drawValue: [(seed % 7) - 3, -((seed % 5) - 2)] as const };
      const kept = new Selector(g, opts);
      const keptPlain = new Selector(g, { ...opts, plain: true });
      const order = insertOrder(book.length, r);
      const flying: Array<[number, number]> = [];
      const compare = (what: string) => {
        const root = g.find(book[0].keyHi, book[0].keyLo);
        if (root < 0) return;
        const once = <T>(f: (s: Selector) => T, o: SelectOptions = opts): T => {
          const s = new Selector(g, o);
          try {
            return f(s);
          } finally {
            s.close();
          }
        };
        const fresh = once((s) => selectAndUndo(g, s, root));
        const mine = selectAndUndo(g, kept, root);
        const freshPlain = once((s) => s.bookValue(root), { ...opts, plain: true });
        const pv = (s: Selector) => JSON.stringify(s.preview(root));
        const same = fresh === mine && keptPlain.bookValue(root) === freshPlain && pv(kept) === once(pv);
        if (!same) {
          if (!cycles) throw new Error(`seed ${seed} after ${what}: kept ${mine} but fresh ${fresh}`);
          differ++;
        }
        if (mine.includes("/")) withBans++;
        compared++;
      };
      for (const i of order) {
        const root = insertNode(g, book, i);
        compare(`insert ${i}`);
        if (root < 0) continue;
        // The dig's own changes: a leaf handed out, an old one back, a ban kept, a seeded position.
        const roll = r();
        if (roll < 0.45) {
          handOut(g, keys, kept, root, flying);
          compare("a selection and its leaf in flight");
        } else if (roll < 0.6 && flying.length) {
          giveBack(g, keys, flying, r);
          compare("a leaf back");
        } else if (roll < 0.7 && g.banCount) {
          const b = g.bans()[Math.floor(r() * g.banCount)];
          g.unban(b.node, b.move);
          compare("a ban lifted");
        } else if (roll < 0.75) {
          const leaf = book[Math.floor(r() * book.length)].listed[0];
          if (leaf) keys.kifu(g, leaf.childHi, leaf.childLo);
          compare("a kifu mark");
        }
      }
    }
    console.log(
      `kept vs fresh selector: ${compared} comparisons (${withBans} with bans), ${cyclicBooks} books with cycles, ${differ} differ`,
    );
    expect(compared).toBeGreaterThan(30_000);
    expect(withBans).toBeGreaterThan(100);
    // Where the book has cycles the two trust values made on different lines (docs/DESIGN.md
    // §3.6): 16 of 68,069 differ today. Keeping more than that one ply deep must not let the
    // kept selector drift further (searching changed nodes again from themselves: 146).
    expect(differ).toBeLessThanOrEqual(Math.ceil(compared / 2000));
  });
});

/** Random acyclic book `seed` + `offset`, with many transpositions (the chance of a link goes with `seed`). */
function transposedBook(seed: number, offset: number, nodes: number, maxListed: number): RandomNode[] {
  return randomBook(seed + offset, { nodes, cycles: false, maxListed, linkChance: 0.3 + (seed % 4) * 0.15 });
}

/**
 * A random acyclic dig: the book's nodes inserted in a random order, after each insert
 * `changes` tries at a leaf handed out (its bans lifted) or one given back, with a selector
 * kept through it all. After every change `check` gets the kept selector's answer and a fresh
 * one's on the same graph.
 */
function keptDig(
  book: RandomNode[],
  r: () => number,
  opts: SelectOptions,
  kifuBonus: number,
  changes: number,
  check: (mine: string, fresh: string, what: string) => void,
): void {
  const g = new BookGraph(4);
  const keys = keysOf(book);
  g.kifuBonus = kifuBonus;
  const kept = new Selector(g, opts);
  const flying: Array<[number, number]> = [];
  const compare = (what: string) => {
    const root = g.find(book[0].keyHi, book[0].keyLo);
    if (root < 0) return;
    const fresh = new Selector(g, opts);
    const expected = selectAndUndo(g, fresh, root);
    fresh.close();
    check(selectAndUndo(g, kept, root), expected, what);
  };
  for (const i of insertOrder(book.length, r)) {
    const root = insertNode(g, book, i);
    compare(`insert ${i}`);
    if (root < 0) continue;
    for (let k = 0; k < changes; k++) {
      if (r() < 0.5) {
        for (const b of handOut(g, keys, kept, root, flying).bans) g.unban(b.node, b.move);
        compare("a leaf in flight");
      } else if (flying.length) {
        giveBack(g, keys, flying, r);
        compare("a leaf back");
      }
    }
  }
  kept.close();
}

describe("a selector kept across many changes on books with many transpositions", () => {
  // Bounds are kept where a change leaves them true (checked one ply deep), so a bound a
  // later search replaced by a weaker one must not be trusted for what it no longer says.
  // Larger acyclic books with more transpositions and several changes between inserts find
  // such cases; a selector that forgot the difference failed here (seed 1343 of 3,000).
  it("on 1,500 random acyclic digs, after every change", { timeout: 600_000 }, () => {
    let compared = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const book = transposedBook(seed, 99999, 15 + (seed % 50), 2 + (seed % 5));
      keptDig(book, rng(seed * 31337), { maxPly: 64 }, [0, 100][seed % 2], 4, (mine, fresh, what) => {
        expect(mine, `seed ${seed} after ${what}`).toBe(fresh);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(100_000);
  });

  // A value at the ply cap depends on the ply a position is reached at, so with the cap inside
  // the book the two selectors differ now and then, as on books with cycles (docs/DESIGN.md
  // §3.6: 700-761 of 179,949 here, as the move ordering changes which bounds are made where).
  // A lower bound shown by a move into the cap rests on the line, not on what is below, and is
  // kept whatever changes there; one shown by a searched child whose own best line reaches the
  // cap rests on the child. A selector that took the child's line end for its own kept such
  // bounds stale: 849 differed.
  it("on 1,500 random acyclic digs that reach the ply cap, after every change", { timeout: 600_000 }, () => {
    let compared = 0,
      capped = 0,
      differ = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const book = transposedBook(seed, 55555, 15 + (seed % 40), 2 + (seed % 4));
      keptDig(book, rng(seed * 4099), { maxPly: 3 + (seed % 4) }, 0, 3, (mine, fresh) => {
        if (fresh.includes("ply-cap")) capped++;
        if (mine !== fresh) differ++;
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(50_000);
    console.log(`ply cap: ${compared} comparisons, ${capped} with a ply-cap ban, ${differ} differ`);
    expect(capped, "selections that banned a move into the ply cap").toBeGreaterThan(1000);
    expect(differ).toBeLessThanOrEqual(Math.ceil(compared * 0.0045));
  });
});

describe("a selection given little time", () => {
  it("answers unfinished, keeps what it found, and ends with the answer a search without a limit gives", () => {
    for (const seed of [3, 11, 29]) {
      const book = synthBook({ positions: 30_000, seed });
      const g = book.graph;
      const sliced = new Selector(g);
      const { s, slices } = selectInSlices(sliced, book.root, 10_000);
      if (s.kind === "unfinished") throw new Error(`seed ${seed}: no answer after 10,000 slices`);
      expect(slices, "a 30k book takes more than one 1,024-node slice").toBeGreaterThan(1);
      const whole = new Selector(g);
      try {
        expect(describeSelection(s)).toBe(describeSelection(whole.select(book.root)));
      } finally {
        whole.close();
      }
      // A preview given no time answers undefined until it has searched it all, then the same line.
      let p: ReturnType<Selector["preview"]>;
      const viewer = new Selector(g);
      do p = viewer.preview(book.root, 0);
      while (p === undefined);
      expect(JSON.stringify(p)).toBe(JSON.stringify(sliced.preview(book.root)));
      viewer.close();
      sliced.close();
    }
  });
});

describe("a selection in slices", () => {
  it("searches afresh when the book changed between slices, and answers as a fresh selector", () => {
    for (const seed of [4, 12]) {
      const book = synthBook({ positions: 30_000, seed });
      const g = book.graph;
      const sliced = new Selector(g);
      // Leaves go in flight between slices: the kept line may have lost a move.
      const leaves: Array<ReturnType<typeof synthLeaf>> = [];
      for (let n = 0; n < g.nodeCount && leaves.length < 40; n += 97)
        for (let e = g.edgeStart[n]; e < g.edgeStart[n] + g.edgeCount[n]; e++) if (g.eChild[e] < 0) leaves.push(synthLeaf(book, n, e));
      const run = selectInSlices(sliced, book.root, 10_000, (k) => {
        if (k < leaves.length) g.setInFlight(leaves[k].hi, leaves[k].lo, true, leaves[k].parents);
      });
      const slices = run.slices;
      // The last change came after the answer: take it too before comparing.
      const s = slices <= leaves.length ? sliced.select(book.root) : run.s;
      expect(slices).toBeGreaterThan(1);
      const fresh = new Selector(g);
      expect(describeSelection(s), `seed ${seed}`).toBe(describeSelection(fresh.select(book.root)));
      fresh.close();
      sliced.close();
    }
  });
});

describe("a kept selector digging in slices", () => {
  // After its first selection most nodes hold bounds, and a change drops some: a NonPV node
  // whose lower bound went tries the move that showed it first, without gathering the others.
  // Slices of 1,024 nodes run out inside such tries too; each answer must still be a fresh
  // selector's.
  it("answers as a fresh selector after every change, each selection in 1,024-node slices", () => {
    let slicedSelections = 0;
    for (const seed of [6, 13]) {
      const book = synthBook({ positions: 30_000, seed });
      const g = book.graph;
      const leaves: Array<ReturnType<typeof synthLeaf>> = [];
      for (let n = 0; n < g.nodeCount; n += 11)
        for (let e = g.edgeStart[n]; e < g.edgeStart[n] + g.edgeCount[n]; e++) if (g.eChild[e] < 0) leaves.push(synthLeaf(book, n, e));
      const sliced = new Selector(g);
      const r = rng(seed);
      for (let i = 0; i < 30; i++) {
        const { s, slices } = selectInSlices(sliced, book.root, 10_000);
        if (slices > 1) slicedSelections++;
        const fresh = new Selector(g);
        expect(describeSelection(s), `seed ${seed}, selection ${i}`).toBe(describeSelection(fresh.select(book.root)));
        fresh.close();
        if (s.kind !== "leaf") break;
        // The dig's changes: the leaf handed out goes into flight, and leaves elsewhere in the
        // book go in or out of flight. Every other time the graph then says "everything
        // changed", as a bulk change does: every bound goes, but the lower bounds' moves stay
        // known, so the next search tries them first all over the book, in many slices.
        const picked = synthLeaf(book, s.leaf.node, s.line[s.line.length - 1].edge);
        g.setInFlight(picked.hi, picked.lo, true, picked.parents);
        for (let k = 0; k < 20; k++) {
          const { hi, lo, parents } = leaves[Math.floor(r() * leaves.length)];
          g.setInFlight(hi, lo, r() < 0.5, parents);
        }
        if (i % 2 === 0) g.touchAll();
      }
      sliced.close();
    }
    expect(slicedSelections, "selections that ran out of time at least once").toBeGreaterThanOrEqual(30);
  });
});

describe("bounds saved and restored", () => {
  it("a selector given a kept selector's saved bounds answers as a fresh one on acyclic books", () => {
    let compared = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const book = randomBook(seed, { nodes: 6 + (seed % 25), cycles: false, maxListed: 1 + (seed % 4) });
      const g = new BookGraph(4);
      for (const n of book) g.insert(nodeInput(n), legalOf(n), parentsOf(book, n));
      const keys = keysOf(book);
      const root = g.find(book[0].keyHi, book[0].keyLo);
      const kept = new Selector(g, { maxPly: 64 });
      const s = kept.select(root);
      if (s.kind === "leaf") keys.fly(g, ...keys.leaf(g, s), true);
      kept.select(root);
      const restored = new Selector(g, { maxPly: 64 });
      restored.restoreBounds(kept.savedBounds());
      const fresh = new Selector(g, { maxPly: 64 });
      expect(selectAndUndo(g, restored, root), `seed ${seed}`).toBe(selectAndUndo(g, fresh, root));
      for (const x of [kept, restored, fresh]) x.close();
      compared++;
    }
    expect(compared).toBe(400);
  });

  it("keep the moves lower bounds rest on: a restored selector walks a change as the kept one does", () => {
    let walked = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const book = randomBook(seed, { nodes: 8 + (seed % 30), cycles: seed % 3 === 0, maxListed: 2 + (seed % 4) });
      const g = new BookGraph(4);
      for (const n of book) g.insert(nodeInput(n), legalOf(n), parentsOf(book, n));
      const keys = keysOf(book);
      const root = g.find(book[0].keyHi, book[0].keyLo);
      const kept = new Selector(g, { maxPly: 64 });
      const first = kept.select(root);
      if (first.kind !== "leaf") {
        kept.close();
        continue;
      }
      const restored = new Selector(g, { maxPly: 64 });
      restored.restoreBounds(kept.savedBounds());
      // A change under the book: the selected leaf goes into flight. Both selectors walk it up
      // from the same bounds; a lower bound resting on another move stays in both, so the
      // bounds (and the moves they rest on) that each keeps afterwards are the same.
      keys.fly(g, ...keys.leaf(g, first), true);
      const a = kept.savedBounds(),
        b = restored.savedBounds();
      expect([...b.bound], `seed ${seed}`).toEqual([...a.bound]);
      expect([...b.value], `seed ${seed}`).toEqual([...a.value]);
      expect([...b.proof], `seed ${seed}`).toEqual([...a.proof]);
      for (const x of [kept, restored]) x.close();
      walked++;
    }
    expect(walked).toBeGreaterThan(300);
  });
});

describe("the walk up from a change", () => {
  it("goes on in the next slice when time runs out, and no search runs before it ends", () => {
    const book = synthBook({ positions: 60_000, seed: 5 });
    const g = book.graph;
    const sel = new Selector(g);
    const first = sel.select(book.root);
    if (first.kind !== "leaf") throw new Error("no leaf");
    // Many changes at once: every node's leaves in flight and back, each stales its ancestors.
    for (let n = 0; n < g.nodeCount; n += 7) g.ban(n, g.eMove[g.edgeStart[n]]);
    const { s, slices } = selectInSlices(sel, book.root, 100_000);
    expect(slices).toBeGreaterThan(1);
    for (const b of g.bans()) g.unban(b.node, b.move);
    const fresh = new Selector(g);
    for (let n = 0; n < g.nodeCount; n += 7) g.ban(n, g.eMove[g.edgeStart[n]]);
    expect(describeSelection(s)).toBe(describeSelection(fresh.select(book.root)));
    fresh.close();
    sel.close();
  });
});
