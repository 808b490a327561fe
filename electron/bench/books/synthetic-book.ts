// A real-position book written straight into a book file, for benchmarks that need a
// big book on disk (opening it, digging it with the UI watching).
import path from "node:path";
import { OpenBook } from "../../book/open-book.js";
import { BookStore, type KeyedThought } from "../../store/book-store.js";
import { makeSyntheticBook } from "../../../shared/synth/synth-book.js";
import { Position } from "../../../shared/rules/position.js";
import { moveToUsi } from "../../../shared/rules/usi.js";

export function writeSyntheticBook(file: string, positions: number, seed = 5): { ms: number; positions: number } {
  const t0 = performance.now();
  OpenBook.create(file, { settleFactor: 0 }).close(); // made-up values: nothing to settle
  const synthetic = makeSyntheticBook(positions, seed);
  const store = BookStore.open(file);
  const now = Date.now();
  let batch: KeyedThought[] = [];
  for (let i = 0; i < synthetic.sfens.length; i++) {
    const pos = Position.fromSfen(synthetic.sfens[i]);
    const candidates = [];
    for (let k = synthetic.moveStart[i]; k < synthetic.moveStart[i + 1]; k++) {
      const move = moveToUsi(synthetic.moves[k]);
      candidates.push({ move, value: synthetic.values[k], depth: 20, pv: [move] });
    }
    batch.push({
      sfen: pos.sfenKey(),
      keyHi: pos.keyHi,
      keyLo: pos.keyLo,
      candidates,
      provenance: { kind: "import", file: path.basename(file) },
      thoughtAt: now,
    });
    if (batch.length === 10_000) {
      store.thoughts.addBatch(batch);
      batch = [];
    }
  }
  if (batch.length) store.thoughts.addBatch(batch);
  store.close();
  return { ms: performance.now() - t0, positions: synthetic.sfens.length };
}
