// Export benchmark for `horu bench` (docs/DESIGN.md §8: a 1M-position book at least as fast as
// YaneuraOu's peta_shock, whose authors report 3M positions in about 4 minutes). Not a
// timed test: it prints figures.
// The synthetic book: shared/synth/synth-book.ts.

import { moveToUsi } from "../../shared/rules/usi.js";
import { Db2016Reader, db2016BlockText, db2016HeaderLines } from "../../shared/formats/db2016.js";
import { PetaShockExporter, type ExportCounts } from "../../shared/export/export.js";
import { makeSyntheticBook, type SyntheticBook } from "../../shared/synth/synth-book.js";

export { makeSyntheticBook, type SyntheticBook };

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
