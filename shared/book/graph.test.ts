import { describe, expect, it } from "vitest";
import { BookGraph, EDGE_IN_FLIGHT, EDGE_KIFU, usiOrder } from "./graph.js";
import { KeyIndex } from "./key-index.js";
import { buildFull, buildIncremental, keysOf, randomBook, rng } from "../testing/random-book.js";
import { moveToUsi } from "../rules/usi.js";

/** The graph as plain data keyed by position key, independent of ids and insertion order. */
function snapshot(g: BookGraph): Record<string, unknown> {
  const k = (hi: number, lo: number) => hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
  const out: Record<string, unknown> = {};
  for (let n = 0; n < g.nodeCount; n++) {
    const edges: string[] = [];
    g.forEachEdge(n, (move, child, value, e) => {
      const to = child >= 0 ? "node:" + k(g.keyHi[child], g.keyLo[child]) : e >= 0 ? "leaf" : "none";
      edges.push(`${moveToUsi(move)} ${value ?? "-"} ${to}`);
    });
    out[k(g.keyHi[n], g.keyLo[n])] = { flags: g.flags[n], edges };
  }
  return out;
}

describe("KeyIndex", () => {
  it("stores, finds, overwrites, deletes and grows", () => {
    const r = rng(7);
    const idx = new KeyIndex(4);
    const keys: Array<[number, number]> = [];
    for (let i = 0; i < 5000; i++) {
      const key: [number, number] = [Math.floor(r() * 2 ** 32), Math.floor(r() * 2 ** 32)];
      keys.push(key);
      idx.set(key[0], key[1], i);
    }
    expect(idx.size).toBe(5000);
    keys.forEach(([hi, lo], i) => expect(idx.get(hi, lo)).toBe(i));
    for (let i = 0; i < 5000; i += 2) expect(idx.delete(keys[i][0], keys[i][1])).toBe(true);
    keys.forEach(([hi, lo], i) => expect(idx.get(hi, lo)).toBe(i % 2 ? i : -1));
    expect(idx.size).toBe(2500);
    idx.set(keys[1][0], keys[1][1], 99);
    expect(idx.get(keys[1][0], keys[1][1])).toBe(99);
    expect(idx.has(1, 2)).toBe(false);
  });
});

describe("BookGraph", () => {
  it("orders unlisted moves by USI text", () => {
    const rank = usiOrder();
    // "1a1b" < "7g7f" < "P*5e" in byte order.
    const a = 0 | (1 << 7); // 1b1a
    const b = 59 | (60 << 7); // 7g7f
    const c = 40 | (81 << 7); // P*5e
    expect(moveToUsi(c)).toBe("P*5e");
    expect(rank[a]).toBeLessThan(rank[b]);
    expect(rank[b]).toBeLessThan(rank[c]);
  });

  it("links the same graph whatever the order of inserts, and equals the full build", () => {
    const r = rng(11);
    for (let seed = 0; seed < 300; seed++) {
      const book = randomBook(seed, { nodes: 3 + (seed % 40), cycles: seed % 2 === 1 });
      const full = snapshot(buildFull(book));
      const order = book.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      expect(snapshot(buildIncremental(book, order))).toEqual(full);
    }
  });

  it("keeps listed moves best first, ties in listed order, and internal edges on their child", () => {
    const g = new BookGraph();
    const root = g.addNode({
      keyHi: 1,
      keyLo: 1,
      flags: 0,
      listed: [
        { move: 59 | (60 << 7), value: 10, childHi: 2, childLo: 2 },
        { move: 50 | (51 << 7), value: 40, childHi: 3, childLo: 3 },
        { move: 41 | (42 << 7), value: 10, childHi: 4, childLo: 4 },
      ],
    });
    const child = g.addNode({ keyHi: 3, keyLo: 3, flags: 1, listed: [] });
    g.linkFromParents(child, [{ keyHi: 1, keyLo: 1, move: 50 | (51 << 7) }]);
    const seen: Array<[string, number | null, number]> = [];
    g.forEachEdge(root, (m, c, v) => seen.push([moveToUsi(m), v, c]));
    expect(seen).toEqual([
      ["6g6f", 40, child],
      ["7g7f", 10, -1],
      ["5g5f", 10, -1],
    ]);
  });

  it("moves to a new generation on every change that selection depends on", () => {
    const book = randomBook(9, { nodes: 20, cycles: true });
    const g = buildFull(book);
    const changes: Array<[string, () => void]> = [
      ["ban", () => g.ban(0, book[0].listed[0]?.move ?? 1)],
      ["in flight", () => g.setInFlight(1, 2, true, [])],
      ["landed", () => g.setInFlight(1, 2, false, [])],
      ["kifu", () => g.addKifu(3, 4, [])],
      ["kifu batch", () => g.addKifuMany([{ keyHi: 5, keyLo: 6, parents: () => [] }])],
      ["insert", () => g.addNode({ keyHi: 7, keyLo: 8, flags: 0, listed: [] })],
      ["clear bans", () => g.clearBans()],
    ];
    for (const [what, change] of changes) {
      const before = g.generation;
      change();
      expect(g.generation, what).toBeGreaterThan(before);
    }
  });

  it("marks edges into seeded positions and counts its memory", () => {
    const book = randomBook(3, { nodes: 50, cycles: false });
    const g = buildFull(book);
    const keys = keysOf(book);
    const leaf = book[0].listed[0];
    keys.kifu(g, leaf.childHi, leaf.childLo);
    const into = (e: number, node: number) => {
      const [hi, lo] = keys.child(g, node, g.eMove[e]);
      return hi === leaf.childHi >>> 0 && lo === leaf.childLo >>> 0;
    };
    let marked = 0;
    for (let n = 0; n < g.nodeCount; n++)
      for (let e = g.edgeStart[n]; e < g.edgeStart[n] + g.edgeCount[n]; e++) {
        expect(!!(g.eFlags[e] & EDGE_KIFU), `edge ${e}`).toBe(into(e, n));
        if (g.eFlags[e] & EDGE_KIFU) marked++;
      }
    expect(marked).toBeGreaterThanOrEqual(1);
    expect(g.bytes).toBeGreaterThan(0);
  });

  it("marks the edges a position's parents name, from every parent, and only those", () => {
    // Two parents list the same leaf (a transposition); a third node lists another.
    const g = new BookGraph();
    const leaf = { childHi: 77, childLo: 78 };
    const a = g.addNode({
      keyHi: 1,
      keyLo: 1,
      flags: 0,
      listed: [
        { move: 10, value: 0, ...leaf },
        { move: 11, value: -5, childHi: 5, childLo: 5 },
      ],
    });
    const b = g.addNode({
      keyHi: 2,
      keyLo: 2,
      flags: 0,
      listed: [
        { move: 12, value: 3, childHi: 6, childLo: 6 },
        { move: 13, value: 0, ...leaf },
      ],
    });
    const c = g.addNode({ keyHi: 3, keyLo: 3, flags: 0, listed: [{ move: 10, value: 0, childHi: 9, childLo: 9 }] });
    const flagged = (bit: number) =>
      [a, b, c].flatMap((n) =>
        Array.from({ length: g.edgeCount[n] }, (_, i) => g.edgeStart[n] + i)
          .filter((e) => g.eFlags[e] & bit)
          .map((e) => `${n}:${g.eMove[e]}`),
      );
    const parents = [
      { keyHi: 1, keyLo: 1, move: 10 },
      { keyHi: 2, keyLo: 2, move: 13 },
      { keyHi: 4, keyLo: 4, move: 10 }, // not thought: nothing to mark
      { keyHi: 3, keyLo: 3, move: 99 }, // not listed there: nothing to mark
    ];
    g.setInFlight(77, 78, true, parents);
    expect(flagged(EDGE_IN_FLIGHT).sort()).toEqual([`${a}:10`, `${b}:13`]);
    expect(g.isInFlight(77, 78)).toBe(true);
    // A parent thought later marks its own move from the set.
    const d = g.addNode({ keyHi: 8, keyLo: 8, flags: 0, listed: [{ move: 14, value: 0, ...leaf }] });
    expect(g.eFlags[g.edgeStart[d]] & EDGE_IN_FLIGHT).toBe(EDGE_IN_FLIGHT);
    g.setInFlight(77, 78, false, [...parents, { keyHi: 8, keyLo: 8, move: 14 }]);
    expect(flagged(EDGE_IN_FLIGHT)).toEqual([]);
    expect(g.eFlags[g.edgeStart[d]] & EDGE_IN_FLIGHT).toBe(0);
    g.addKifu(77, 78, parents);
    expect(flagged(EDGE_KIFU).sort()).toEqual([`${a}:10`, `${b}:13`]);
  });
});
