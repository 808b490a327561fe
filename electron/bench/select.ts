// Benchmarks of the book graph and the selection search on synthetic books (docs/DESIGN.md §8).
// They print figures; nothing here asserts a time.

import { Selector } from "../../shared/book/select.js";
import { synthBook } from "../../shared/synth/synth-graph.js";
import { makeSyntheticBook } from "./export.js";
import { buildGraph, insertEntry } from "../../shared/book/link.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { percentile } from "../dig/stats.js";

export interface SelectionBenchOptions {
  positions: number;
  inFlight?: number[];
  selections?: number;
  print?: (line: string) => void;
}

/**
 * Builds a synthetic book, then runs a dig without engines: K leaves stay in flight; each
 * round the oldest is "thought" (a new node joins the book), and the next selection is timed.
 */
export function benchSelection(o: SelectionBenchOptions): void {
  const print = o.print ?? console.log;
  const t0 = performance.now();
  const book = synthBook({ positions: o.positions, seed: 7 });
  const g = book.graph;
  const buildMs = performance.now() - t0;
  g.trim();
  print(
    `book: ${g.nodeCount.toLocaleString("en")} positions, ${g.edgeTotal.toLocaleString("en")} listed edges, ${g.extraTotal.toLocaleString("en")} unlisted internal edges`,
  );
  print(
    `synthetic book grown (walks + inserts with linking): ${(buildMs / 1000).toFixed(1)} s (${Math.round(g.nodeCount / (buildMs / 1000)).toLocaleString("en")} inserts/s, with linking)`,
  );
  print(
    `graph memory: ${(g.bytes / g.nodeCount).toFixed(1)} bytes/position (${(g.bytes / 2 ** 20).toFixed(0)} MiB), plus ${Selector.BYTES_PER_NODE} bytes/position of selection state`,
  );

  for (const k of o.inFlight ?? [2, 8]) {
    const sel = new Selector(g);
    const flying: Array<{ node: number; edge: number; hi: number; lo: number }> = [];
    const take = () => {
      const s = sel.select(book.root);
      if (s.kind === "none") throw new Error("synthetic book ran out of leaves");
      const last = s.line[s.line.length - 1];
      const [hi, lo] = book.childKey(last.edge);
      g.setInFlight(hi, lo, true, book.parentsInto(last.node, last.edge));
      flying.push({ node: last.node, edge: last.edge, hi, lo });
      return s;
    };
    while (flying.length < k) take();
    const times: number[] = [];
    let nodes = 0,
      bans = 0,
      trusted = 0,
      lineLength = 0;
    for (let i = 0; i < (o.selections ?? 300); i++) {
      const done = flying.shift()!;
      book.expand(done.node, done.edge);
      // Its parents asked for again: a node grown meanwhile may list it too.
      g.setInFlight(done.hi, done.lo, false, book.parentsInto(done.node, done.edge));
      const s = take();
      times.push(s.stats.ms);
      nodes += s.stats.nodes;
      bans += s.bans.length;
      trusted += s.stats.cyclicTrusted;
      if (s.kind === "leaf") lineLength += s.line.length;
    }
    for (const f of flying) g.setInFlight(f.hi, f.lo, false, book.parentsInto(f.node, f.edge));
    sel.close();
    times.sort((a, b) => a - b);
    const n = times.length;
    print(
      `selection with ${k} in flight: p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms, max ${times[n - 1].toFixed(1)} ms; ` +
        `${Math.round(nodes / n).toLocaleString("en")} nodes/selection, PV ${(lineLength / n).toFixed(1)} plies, ${bans} bans, ${trusted} cyclic values trusted (${n} selections)`,
    );
  }
}

/**
 * Opening a real book: positions from play (transpositions included) built into the graph
 * by the full pass (every legal move linked), then more inserted one by one with
 * retrograde parent links, as a dig does.
 */
export function benchGraphBuild(o: { positions: number; print?: (line: string) => void }): void {
  const print = o.print ?? console.log;
  const t0 = performance.now();
  const book = makeSyntheticBook(o.positions + 10_000, 3);
  const entries = book.sfens.map((sfen, i) => {
    const candidates: Array<{ move: string; value: number }> = [];
    for (let k = book.moveStart[i]; k < book.moveStart[i + 1]; k++)
      candidates.push({ move: moveToUsi(book.moves[k]), value: book.values[k] });
    return { sfen, candidates };
  });
  print(`real-position book made: ${entries.length.toLocaleString("en")} positions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const head = entries.slice(0, o.positions),
    tail = entries.slice(o.positions);
  const t1 = performance.now();
  const { graph } = buildGraph(() => head, head.length);
  const buildMs = performance.now() - t1;
  graph.trim();
  print(
    `graph build (full pass, all legal moves linked): ${(buildMs / 1000).toFixed(1)} s for ${graph.nodeCount.toLocaleString("en")} positions (${Math.round(graph.nodeCount / (buildMs / 1000)).toLocaleString("en")} positions/s), ${graph.edgeTotal.toLocaleString("en")} listed + ${graph.extraTotal.toLocaleString("en")} unlisted internal edges`,
  );
  print(`graph memory: ${(graph.bytes / graph.nodeCount).toFixed(1)} bytes/position (${(graph.bytes / 2 ** 20).toFixed(0)} MiB)`);
  const t2 = performance.now();
  for (const e of tail) insertEntry(graph, e);
  const insertMs = performance.now() - t2;
  print(
    `incremental insert with retrograde parent links: ${((insertMs / tail.length) * 1000).toFixed(0)} µs/position over ${tail.length.toLocaleString("en")} inserts`,
  );
}
