// The views read a node's moves, children and values from the in-memory graph: on a randomly
// dug book they must show what the store of record says, read the old way (the position's
// stored candidates, each child's position looked up in SQLite, each move's KIF from its own
// reading of the position).
import { afterEach, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { tempDir } from "../testing/paths.js";
import { graphNodeView, nodeView } from "./book-views.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../shared/rules/usi.js";
import { clampValue } from "../../shared/rules/types.js";
import { kifMoves } from "../../shared/formats/notation.js";
import { rng } from "../../shared/util/rng.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Digs `count` positions with random candidates: a few legal moves, sometimes a repeated one and one not legal there. */
function digRandom(book: OpenBook, count: number, seed: number): string[] {
  const random = rng(seed);
  const dug: string[] = [];
  for (let i = 0; i < count; i++) {
    const job = book.jobs.next();
    if (!job) break;
    const legal = Position.fromSfen(job.sfen).legalMoves();
    for (let k = legal.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [legal[k], legal[j]] = [legal[j]!, legal[k]!];
    }
    const picked = legal.slice(0, 1 + Math.floor(random() * 5)).map(moveToUsi);
    if (random() < 0.2) picked.push(picked[0]!);
    if (random() < 0.2) picked.push("5e5a");
    const candidates = picked.map((move) => ({
      move,
      value: Math.round((random() - 0.5) * 600),
      depth: 1 + Math.floor(random() * 30),
      pv: [move],
    }));
    book.jobs.addResult(job, candidates, { kind: "engine", engine: "test", nodes: 1, depth: 10, timeMs: 1 });
    dug.push(job.sfen);
  }
  return dug;
}

interface OldMove {
  usi: string;
  kif: string;
  engineValue: number | null;
  engineDepth: number | null;
  thought: boolean;
  to: string;
}

/** A position's moves as SQLite gives them: listed (legal, first of repeats, best value first), then unlisted moves to thought positions in USI order. */
function storedMoves(book: OpenBook, sfen: string): OldMove[] {
  const pos = Position.fromSfen(sfen);
  const stored = book.store.thoughts.get(sfen)!;
  // A repeated move: the graph keeps the first's value, the view the last's depth (as it always has).
  const last = new Map(stored.candidates.map((c) => [c.move, c]));
  const seen = new Set<string>();
  const listed = stored.candidates.filter((c) => {
    const m = parseUsiMove(c.move);
    if (m === null || !pos.isLegal(m) || seen.has(c.move)) return false;
    seen.add(c.move);
    return true;
  });
  listed.sort((a, b) => clampValue(b.value) - clampValue(a.value));
  const child = (usi: string) => {
    const p = pos.clone();
    p.doMove(parseUsiMove(usi)!);
    return p.sfenKey();
  };
  const out: OldMove[] = listed.map((c) => ({
    usi: c.move,
    kif: kifMoves(sfen, [c.move])[0]!,
    engineValue: last.get(c.move)!.noValue ? null : clampValue(c.value),
    engineDepth: last.get(c.move)!.noDepth ? null : last.get(c.move)!.depth,
    thought: book.store.thoughts.has(child(c.move)),
    to: child(c.move),
  }));
  const unlisted = pos
    .legalMoves()
    .map(moveToUsi)
    .filter((u) => !seen.has(u) && book.store.thoughts.has(child(u)))
    .sort();
  for (const u of unlisted)
    out.push({ usi: u, kif: kifMoves(sfen, [u])[0]!, engineValue: null, engineDepth: null, thought: true, to: child(u) });
  return out;
}

describe("book views read the graph", () => {
  it("a node's moves, values and children are what the store holds, on a random dug book", () => {
    const dir = tempDir();
    dirs.push(dir);
    const book = OpenBook.create(path.join(dir, "random.horu"));
    try {
      const dug = digRandom(book, 150, 7);
      expect(dug.length).toBe(150);
      for (const sfen of dug) {
        const want = storedMoves(book, sfen);
        const node = nodeView(book, { sfen });
        expect(node.thought).toBe(true);
        expect(
          node.moves.map((m) => ({ usi: m.usi, kif: m.kif, engineValue: m.engineValue, engineDepth: m.engineDepth, thought: m.thought })),
          sfen,
        ).toEqual(want.map(({ to: _to, ...m }) => m));
        const graph = graphNodeView(book, sfen);
        expect(
          graph.children.map((c) => ({ usi: c.usi, to: c.to, engineValue: c.engineValue })),
          sfen,
        ).toEqual(want.map((m) => ({ usi: m.usi, to: m.to, engineValue: m.engineValue })));
        const deepest = Math.max(10, ...book.store.thoughts.get(sfen)!.candidates.map((c) => c.depth));
        expect(graph.thinkDepth).toBe(deepest);
      }
    } finally {
      book.close();
    }
  });
});
