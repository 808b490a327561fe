import { describe, expect, it } from "vitest";
import { Predecessors, buildGraph, insertEntry, thoughtParents, type BookEntry } from "./link.js";
import { BookGraph, NODE_IN_CHECK, NODE_NO_MOVES, NODE_WHITE } from "./graph.js";
import { Selector } from "./select.js";
import { Position } from "../rules/position.js";
import { moveToUsi } from "../rules/usi.js";
import { rng } from "../testing/random-book.js";

function snapshot(g: BookGraph): string[] {
  const out: string[] = [];
  for (let n = 0; n < g.nodeCount; n++) {
    const edges: string[] = [];
    g.forEachEdge(n, (m, c, v) => edges.push(`${moveToUsi(m)}:${v ?? "-"}:${c >= 0 ? g.keyHi[c] + "." + g.keyLo[c] : "leaf"}`));
    out.push(`${g.keyHi[n]}.${g.keyLo[n]} ${g.flags[n]} ${edges.join(" ")}`);
  }
  return out.sort();
}

/** A real book made by random play over a few opening moves, so move orders transpose. */
function transposingBook(seed: number, games: number): BookEntry[] {
  const r = rng(seed);
  const opening = ["7g7f", "2g2f", "3c3d", "8c8d", "6g6f", "4c4d", "5g5f", "6c6d", "2f2e", "8d8e", "1g1f", "9c9d"];
  const bySfen = new Map<string, BookEntry>();
  for (let g = 0; g < games; g++) {
    const pos = Position.startpos();
    const plies = 2 + Math.floor(r() * 7);
    for (let ply = 0; ply < plies; ply++) {
      const legal = pos.legalMoves();
      const usi = legal.map(moveToUsi);
      const preferred = opening.filter((m) => usi.includes(m));
      const sfen = pos.sfenKey();
      if (!bySfen.has(sfen)) {
        // A few listed candidates: opening moves and random legal ones, with an illegal one thrown in.
        const listed = new Set<string>();
        for (let k = 0; k < 3 && preferred.length; k++) listed.add(preferred[Math.floor(r() * preferred.length)]);
        for (let k = 0; k < 2; k++) listed.add(usi[Math.floor(r() * usi.length)]);
        const candidates = [...listed].map((move) => ({ move, value: Math.floor(r() * 400) - 200 }));
        if (r() < 0.2) candidates.push({ move: "5e5d", value: 10 });
        bySfen.set(sfen, { sfen, candidates });
      }
      const next = preferred.length && r() < 0.8 ? preferred[Math.floor(r() * preferred.length)] : usi[Math.floor(r() * usi.length)];
      pos.doMove(legal[usi.indexOf(next)]);
    }
  }
  return [...bySfen.values()];
}

describe("linking real positions", () => {
  it("gives the same graph for any insert order as the full build (unmoves find every parent)", () => {
    const r = rng(5);
    for (let seed = 1; seed <= 12; seed++) {
      const book = transposingBook(seed, 60);
      const full = snapshot(buildGraph(() => book, book.length).graph);
      const order = [...book];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      const g = new BookGraph(8);
      for (const entry of order) insertEntry(g, entry);
      expect(snapshot(g)).toEqual(full);
    }
  });

  it("finds a position's thought parents from predecessors generated once as thoughtParents does, as the graph grows", () => {
    // A dig finds a job's parents when it goes in flight and again when its result goes in,
    // positions having been added between: each time as a fresh search, in the same order.
    const r = rng(13);
    let compared = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const book = transposingBook(seed, 60);
      const held = book.map((e) => {
        const pos = Position.fromSfen(e.sfen);
        return { pos, preds: new Predecessors(pos) };
      });
      const g = new BookGraph(8);
      for (const entry of book) {
        insertEntry(g, entry);
        for (const h of held)
          if (r() < 0.3) {
            const want = thoughtParents(g, h.pos);
            expect(h.preds.thoughtParents(g)).toEqual(want);
            compared += want.length;
          }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("keeps each position's parents: the built blocks, then the links added after the build", () => {
    const r = rng(9);
    for (let seed = 1; seed <= 12; seed++) {
      const book = transposingBook(seed, 60);
      const g = new BookGraph(8);
      // The chains are built partway through (as a dig's first change does), then kept by links.
      const buildAt = Math.floor(r() * book.length);
      book.forEach((entry, i) => {
        if (i === buildAt) g.ensureParents();
        insertEntry(g, entry);
      });
      const expected = new Map<number, Set<number>>();
      for (let n = 0; n < g.nodeCount; n++)
        g.forEachEdge(n, (_m, c) => {
          if (c >= 0) (expected.get(c) ?? expected.set(c, new Set()).get(c)!).add(n);
        });
      let fromBlocks = 0;
      for (let c = 0; c < g.nodeCount; c++) {
        const got = g.parentsOf(c);
        // A superset of the parents now (a replaced link may stay), each once; here nothing was replaced.
        expect(new Set(got).size).toBe(got.length);
        expect([...got].sort((a, b) => a - b)).toEqual([...(expected.get(c) ?? [])].sort((a, b) => a - b));
        if (g.pHead![c] >= 0) fromBlocks++;
      }
      if (buildAt > 2) expect(fromBlocks).toBeGreaterThan(0);
    }
  });

  it("links unlisted moves that transpose, and skips listed moves that are not legal", () => {
    const a = Position.fromUsi("startpos moves 7g7f 3c3d");
    const b = Position.fromUsi("startpos moves 7g7f 3c3d 2g2f");
    const g = new BookGraph();
    const root = insertEntry(g, {
      sfen: a.sfenKey(),
      candidates: [
        { move: "8h2b+", value: 50 },
        { move: "5e5d", value: 999 },
        { move: "resign", value: 0 },
      ],
    });
    expect(root.skipped).toEqual(["5e5d", "resign"]);
    insertEntry(g, { sfen: b.sfenKey(), candidates: [{ move: "8c8d", value: 0 }] });
    const edges: string[] = [];
    g.forEachEdge(root.id, (m, c, v) => edges.push(`${moveToUsi(m)} ${v} ${c}`));
    // 2g2f was never listed but reaches a thought node: an unlisted internal edge.
    expect(edges).toEqual(["8h2b+ 50 -1", "2g2f null 1"]);
  });

  it("links a non-promotion and a promotion to different children", () => {
    const before = Position.fromUsi("startpos moves 7g7f 3c3d").sfenKey();
    const pos = Position.fromSfen(before);
    pos.doMove(pos.legalMoves().find((m) => moveToUsi(m) === "8h2b+")!);
    const promoted = pos.sfenKey();
    pos.undoMove();
    pos.doMove(pos.legalMoves().find((m) => moveToUsi(m) === "8h2b")!);
    const plain = pos.sfenKey();
    const g = new BookGraph();
    insertEntry(g, { sfen: promoted, candidates: [{ move: "3a2b", value: -80 }] });
    insertEntry(g, { sfen: plain, candidates: [{ move: "3a2b", value: -90 }] });
    const root = insertEntry(g, { sfen: before, candidates: [{ move: "8h2b+", value: 80 }] });
    const edges: string[] = [];
    g.forEachEdge(root.id, (m, c) => edges.push(`${moveToUsi(m)} ${c >= 0}`));
    expect(edges).toEqual(["8h2b+ true", "8h2b true"]);
  });

  it("flags check, mate and the side to move", () => {
    const g = new BookGraph();
    // White is mated: a gold on 5b, protected by the pawn on 5c.
    const mated = insertEntry(g, { sfen: "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", candidates: [] });
    expect(g.flags[mated.id] & (NODE_NO_MOVES | NODE_IN_CHECK | NODE_WHITE)).toBe(NODE_NO_MOVES | NODE_IN_CHECK | NODE_WHITE);
  });

  it("selects on a real book", () => {
    const book = transposingBook(99, 200);
    const { graph } = buildGraph(() => book, book.length);
    const root = graph.find(Position.startpos().keyHi, Position.startpos().keyLo);
    const sel = new Selector(graph);
    const s = sel.select(root);
    expect(s.kind).toBe("leaf");
    if (s.kind !== "leaf") return;
    // Replaying the line from the start position reaches an unthought position by the leaf's move.
    const pos = Position.startpos();
    for (const st of s.line) {
      expect(pos.isLegal(st.move)).toBe(true);
      pos.doMove(st.move);
    }
    expect(s.line.at(-1)!.move).toBe(s.leaf.move);
    expect(graph.find(pos.keyHi, pos.keyLo)).toBe(-1);
  });
});
