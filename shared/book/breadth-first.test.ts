import { describe, expect, it } from "vitest";
import { BookGraph } from "./graph.js";
import { insertEntry, thoughtParents } from "./link.js";
import { BreadthFirstQueue, breadthFirstLevel, type BreadthFirstOptions } from "./breadth-first.js";
import { Position } from "../rules/position.js";
import { moveToUsi } from "../rules/usi.js";
import { rng } from "../util/rng.js";

/**
 * A stand-in engine: the first four legal moves in the rules core's order, valued 0, -100,
 * -250 and -400 (the last outside a 300 cp window), so the tree within the window is known.
 */
function think(sfen: string) {
  const pos = Position.fromSfen(sfen);
  return pos
    .legalMoves()
    .slice(0, 4)
    .map((m, i) => ({ move: moveToUsi(m), value: [0, -100, -250, -400][i]!, depth: 1, pv: [moveToUsi(m)] }));
}

/** Plies of every position within the window, by an independent walk over positions (not the graph). */
function windowPlies(root: Position, window: number, maxPly: number): Map<string, number> {
  const ply = new Map([[root.sfenKey(), 0]]);
  let level = [root];
  for (let d = 1; d <= maxPly; d++) {
    const next: Position[] = [];
    for (const p of level)
      for (const c of think(p.sfenKey())) {
        if (c.value < -window) continue;
        const child = Position.fromSfen(p.sfenKey());
        child.doMove(child.legalMoves().find((m) => moveToUsi(m) === c.move)!);
        if (ply.has(child.sfenKey())) continue;
        ply.set(child.sfenKey(), d);
        next.push(child);
      }
    level = next;
  }
  return ply;
}

/** Puts the position at the end of `line` in flight (or takes it out), through its thought parents, as the dig does. */
function fly(g: BookGraph, line: readonly number[], on: boolean): void {
  const pos = Position.startpos();
  for (const m of line) pos.doMove(m);
  g.setInFlight(pos.keyHi, pos.keyLo, on, thoughtParents(g, pos));
}

describe("breadth-first dig policy", () => {
  const opts: BreadthFirstOptions = { windowCp: 300, maxPly: 3, evalLimit: 0 };

  it("thinks every position within the window at ply n before any at ply n+1, with two engines finishing out of order", () => {
    const root = Position.startpos();
    const expected = windowPlies(root, 300, 3);
    // 1 + 3 + 9 + 27 positions, fewer by transpositions.
    expect(expected.size).toBeGreaterThan(20);
    const g = new BookGraph();
    insertEntry(g, { sfen: root.sfenKey(), candidates: think(root.sfenKey()) });
    const q = new BreadthFirstQueue(g);
    const flying = new Map<string, { sfen: string; hi: number; lo: number; line: number[] }>();
    const order: string[] = [];
    const random = rng(5);
    for (let step = 0; step < 10_000; step++) {
      // Two engines: hand out until both are busy (with one prefetched), then one finishes, at random.
      while (flying.size < 3) {
        const leaf = q.next(0, root, opts, (hi, lo) => flying.has(`${hi}:${lo}`));
        if (!leaf) break;
        const pos = Position.startpos();
        for (const m of leaf.line) pos.doMove(m);
        expect(pos.keyHi).toBe(leaf.childHi);
        expect(leaf.line).toHaveLength(leaf.ply);
        flying.set(`${leaf.childHi}:${leaf.childLo}`, { sfen: pos.sfenKey(), hi: leaf.childHi, lo: leaf.childLo, line: leaf.line });
        fly(g, leaf.line, true);
      }
      if (flying.size === 0) break;
      const keys = [...flying.keys()];
      const done = flying.get(keys[Math.floor(random() * keys.length)]!)!;
      flying.delete(`${done.hi}:${done.lo}`);
      fly(g, done.line, false);
      insertEntry(g, { sfen: done.sfen, candidates: think(done.sfen) });
      order.push(done.sfen);
    }
    // Every position within the window to ply 3 was thought, each once, and nothing else.
    expect(new Set(order).size).toBe(order.length);
    expect(order.length).toBe(expected.size - 1);
    for (const s of order) expect(expected.has(s), s).toBe(true);
    // In order of finishing: plies never go down (ply n+1 only once all of ply n is back).
    const plies = order.map((s) => expected.get(s)!);
    for (let i = 1; i < plies.length; i++) expect(plies[i]!).toBeGreaterThanOrEqual(plies[i - 1]!);
    expect(plies[0]).toBe(1);
    expect(plies.at(-1)).toBe(3);
    expect(breadthFirstLevel(g, 0, root, opts, () => false)).toBeNull();
    // Done: not walked again for the same options; another ply cap walks again.
    expect(q.next(0, root, opts, () => false)).toBeNull();
    expect(q.done).toBe(true);
    const deeper = q.next(0, root, { ...opts, maxPly: 4 }, () => false);
    expect(q.done).toBe(false);
    expect(deeper?.ply).toBe(4);
  });

  it("a narrower window, banned moves and failed positions are left out; a level being thought holds the next back", () => {
    const root = Position.startpos();
    const g = new BookGraph();
    insertEntry(g, { sfen: root.sfenKey(), candidates: think(root.sfenKey()) });
    // Window 100: two moves of each position.
    const l1 = breadthFirstLevel(g, 0, root, { windowCp: 100, maxPly: 0, evalLimit: 0 }, () => false)!;
    expect(l1.ply).toBe(1);
    expect(l1.leaves.map((l) => l.line.map(moveToUsi).join(" "))).toEqual(
      think(root.sfenKey())
        .slice(0, 2)
        .map((c) => c.move),
    );
    // A failed position (in flight for good, not being thought) is passed over; one being thought holds the level.
    const [a, b] = l1.leaves;
    fly(g, a!.line, true);
    const failed = breadthFirstLevel(g, 0, root, { windowCp: 100, maxPly: 0, evalLimit: 0 }, () => false)!;
    expect(failed.leaves.map((l) => l.childLo)).toEqual([b!.childLo]);
    expect(failed.thinking).toBe(0);
    fly(g, b!.line, true);
    const busy = breadthFirstLevel(
      g,
      0,
      root,
      { windowCp: 100, maxPly: 0, evalLimit: 0 },
      (hi, lo) => lo === b!.childLo && hi === b!.childHi,
    )!;
    expect(busy).toEqual({ ply: 1, leaves: [], thinking: 1 });
    // Both failed: the level is done, and with a ply cap of 1 nothing is left.
    expect(breadthFirstLevel(g, 0, root, { windowCp: 100, maxPly: 1, evalLimit: 0 }, () => false)).toBeNull();
    // A banned move is not followed; an eval limit drops moves valued beyond it.
    fly(g, a!.line, false);
    fly(g, b!.line, false);
    g.ban(0, a!.line[0]!);
    expect(breadthFirstLevel(g, 0, root, { windowCp: 100, maxPly: 0, evalLimit: 0 }, () => false)!.leaves.map((l) => l.childLo)).toEqual([
      b!.childLo,
    ]);
    expect(breadthFirstLevel(g, 0, root, { windowCp: 300, maxPly: 0, evalLimit: 200 }, () => false)!.leaves).toHaveLength(1);
  });
});
