// Export benchmark for `horu bench` (DESIGN 8: a 1M-position book at least as fast as
// YaneuraOu's peta_shock, whose authors report 3M positions in about 4 minutes). Not a
// timed test: it prints figures.
//
// The synthetic book has a real book's shape: positions reached by play from the start
// position, each listing 4-8 candidate moves with values, most of them leaves. Moves are
// chosen by a fixed preference per move (plus noise), so the same moves recur in other
// orders and the book has transpositions, as dug books do.

import { Position } from "../rules/position.js";
import { moveToUsi } from "../rules/usi.js";
import { Db2016Reader, db2016BlockText, db2016HeaderLines } from "../formats/db2016.js";
import { PetaShockExporter, type ExportCounts } from "./export.js";
import { xorshift32 as rng } from "../util/rng.js";

/** A compact synthetic book: block i has moves moveStart[i] .. moveStart[i+1]. */
export interface SyntheticBook {
  sfens: string[];
  moveStart: Int32Array;
  moves: Uint16Array;
  values: Int16Array;
}

/** Grows a book of `positions` positions by expanding random frontier children. */
export function makeSyntheticBook(positions: number, seed = 1): SyntheticBook {
  const random = rng(seed);
  const preference = new Float64Array(1 << 15).map(() => random());
  const sfens: string[] = [];
  const moveStart = new Int32Array(positions + 1);
  const moves = new Uint16Array(positions * 8);
  const values = new Int16Array(positions * 8);
  let moveCount = 0;
  // Frontier children not yet in the book, as (parent block, move): no strings kept.
  let fParent = new Int32Array(1 << 16);
  let fMove = new Uint16Array(1 << 16);
  let fLen = 0;
  const seen = new Set<number>();
  const keyOf = (hi: number, lo: number) => hi * 2097152 + (lo >>> 11);
  const legal = new Uint16Array(600);
  const order: number[] = [];
  const key = new Uint32Array(2);

  let pos = Position.startpos();
  seen.add(keyOf(pos.keyHi >>> 0, pos.keyLo >>> 0));
  for (let id = 0; id < positions; id++) {
    if (id > 0) {
      if (fLen === 0) break;
      const pick = Math.floor(random() * fLen);
      const parent = fParent[pick];
      const m = fMove[pick];
      fParent[pick] = fParent[--fLen];
      fMove[pick] = fMove[fLen];
      pos = Position.fromSfen(sfens[parent]);
      pos.doMove(m);
    }
    sfens.push(pos.toSfen(true));
    moveStart[id] = moveCount;
    const n = pos.generateLegal(legal);
    order.length = 0;
    for (let k = 0; k < n; k++) order.push(k);
    const noise = new Float64Array(n).map(() => random() * 0.3);
    order.sort((a, b) => preference[legal[b]] + noise[b] - (preference[legal[a]] + noise[a]));
    const want = Math.min(n, 4 + Math.floor(random() * 5));
    const base = Math.round((random() - 0.5) * 600);
    for (let k = 0; k < want; k++) {
      const m = legal[order[k]];
      moves[moveCount] = m;
      values[moveCount] = base - k * 20 + Math.round((random() - 0.5) * 100);
      moveCount++;
      pos.keyAfter(m, key);
      const kk = keyOf(key[0], key[1]);
      if (seen.has(kk)) continue;
      seen.add(kk);
      if (fLen === fParent.length) {
        const p2 = new Int32Array(fLen * 2);
        p2.set(fParent);
        fParent = p2;
        const m2 = new Uint16Array(fLen * 2);
        m2.set(fMove);
        fMove = m2;
      }
      fParent[fLen] = id;
      fMove[fLen] = m;
      fLen++;
    }
  }
  moveStart[sfens.length] = moveCount;
  return { sfens, moveStart: moveStart.slice(0, sfens.length + 1), moves: moves.slice(0, moveCount), values: values.slice(0, moveCount) };
}

/** The book as DB2016 text, one string per block (made before the clock starts). */
function bookText(book: SyntheticBook): string[] {
  const out: string[] = [];
  for (let i = 0; i < book.sfens.length; i++) {
    const moves = [];
    for (let j = book.moveStart[i]; j < book.moveStart[i + 1]; j++) {
      moves.push({ move: moveToUsi(book.moves[j]), value: book.values[j], depth: 20, count: 1 });
    }
    out.push(db2016BlockText({ sfen: book.sfens[i], moves }));
  }
  return out;
}

export interface ExportBenchResult {
  positions: number;
  moves: number;
  readMs: number;
  minimaxMs: number;
  writeMs: number;
  outputBytes: number;
  internalEdges: number;
  settled: number;
  counts: ExportCounts;
}

/** Reads the book's text through the DB2016 reader into the exporter, runs it, writes text. */
export function runExportBench(book: SyntheticBook, clock: () => number = Date.now): ExportBenchResult {
  const texts = bookText(book);
  const t0 = clock();
  const exporter = new PetaShockExporter();
  const reader = new Db2016Reader((b) => exporter.add(b), { strict: true });
  let lineNo = 0;
  for (const text of texts) {
    const lines = text.split("\n");
    for (let k = 0; k < lines.length - 1; k++) reader.push(lines[k], ++lineNo);
  }
  reader.end();
  const t1 = clock();
  const counts = exporter.run();
  const t2 = clock();
  let bytes = db2016HeaderLines(counts.written).join("\n").length + 1;
  for (const b of exporter.blocks("sfen")) bytes += db2016BlockText(b).length;
  const t3 = clock();
  return {
    positions: reader.blockCount,
    moves: reader.moveCount,
    readMs: t1 - t0,
    minimaxMs: t2 - t1,
    writeMs: t3 - t2,
    outputBytes: bytes,
    internalEdges: counts.internalEdges,
    settled: counts.settled,
    counts,
  };
}

const fmt = (n: number) => n.toLocaleString("en-US");
const sec = (ms: number) => (ms / 1000).toFixed(1) + " s";

/**
 * Printable lines: export of synthetic books of the given sizes (default 100k and 1M).
 * `clock` (milliseconds) may be a CPU-time clock on a busy machine; wall time by default.
 */
export function benchExport(sizes: readonly number[] = [100_000, 1_000_000], clock: () => number = Date.now): string[] {
  const out: string[] = [];
  for (const size of sizes) {
    const g0 = Date.now();
    const book = makeSyntheticBook(size);
    const genMs = Date.now() - g0;
    const r = runExportBench(book, clock);
    const total = r.readMs + r.minimaxMs + r.writeMs;
    out.push(
      `export ${fmt(r.positions)} positions, ${fmt(r.moves)} moves (${fmt(r.internalEdges)} internal edges, ` +
        `${fmt(r.settled)} settled; book made in ${sec(genMs)}): read ${sec(r.readMs)}, minimax ${sec(r.minimaxMs)} ` +
        `(edges ${sec(r.counts.ms.edges)}, propagation ${sec(r.counts.ms.propagate)}, ${r.counts.rounds.join("+")} rounds), ` +
        `write ${sec(r.writeMs)} (${fmt(Math.round(r.outputBytes / 1e6))} MB); total ${sec(total)}, ` +
        `${fmt(Math.round((r.positions / Math.max(1, total)) * 1000))} positions/s (peta_shock reported: 3M in ~240 s, 12,500 positions/s)`,
    );
  }
  return out;
}
