// Store benchmark for `horu bench`: write rate (imports in batches and single durable
// addThought calls), streaming read rate (iterateThought, what opening a book costs), and
// file size per position, on synthetic positions with 6 moves each.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BookStore } from "./book-store.js";
import { fakeThought } from "./testing/fake.js";

export interface BenchStoreOptions {
  /** Book sizes to measure (default [100_000]); `large` adds 1M. */
  positions?: number[];
  large?: boolean;
  /** Positions per addThoughtBatch transaction (default 10_000). */
  batch?: number;
  /** How many single durable addThought calls to time (default 200). */
  singles?: number;
}

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // no WAL after a clean close
    }
  }
  return total;
}

export async function benchStore(dir: string, opts: BenchStoreOptions = {}): Promise<string[]> {
  const sizes = opts.positions ?? (opts.large ? [100_000, 1_000_000] : [100_000]);
  const batch = opts.batch ?? 10_000;
  const singles = opts.singles ?? 200;
  const lines: string[] = [];
  const work = mkdtempSync(join(dir, "horu-bench-store-"));
  try {
    for (const n of sizes) {
      const path = join(work, `bench-${n}.horu`);
      const store = BookStore.create(path, { writer: "horu bench" });
      let writeMs = 0;
      for (let start = 0; start < n; start += batch) {
        const list = [];
        for (let i = start; i < Math.min(n, start + batch); i++) list.push(fakeThought(i));
        const t0 = performance.now();
        store.addThoughtBatch(list);
        writeMs += performance.now() - t0;
      }
      const t1 = performance.now();
      for (let i = 0; i < singles; i++) store.addThought(fakeThought(n + i));
      const singleMs = performance.now() - t1;
      store.close();
      const bytes = fileBytes(path);
      const total = n + singles;

      const reader = BookStore.open(path, { readonly: true });
      const t2 = performance.now();
      let rows = 0;
      let moves = 0;
      for (const p of reader.iterateThought()) {
        rows++;
        moves += p.candidates.length;
      }
      const readMs = performance.now() - t2;
      const t3 = performance.now();
      const lookups = Math.min(n, 20_000);
      for (let i = 0; i < lookups; i++) reader.getPosition(fakeThought((i * 7919) % n).sfen);
      const lookupMs = performance.now() - t3;
      reader.close();
      if (rows !== total) throw new Error(`bench: read ${rows} positions, wrote ${total}`);

      lines.push(
        `store ${fmt(n)} positions x 6 moves:`,
        `  batch write (${fmt(batch)}/transaction): ${fmt((n / writeMs) * 1000)} positions/s (${(writeMs / 1000).toFixed(2)} s)`,
        `  durable addThought (1 transaction + fsync each): ${fmt((singles / singleMs) * 1000)} /s (${(singleMs / singles).toFixed(2)} ms each)`,
        `  iterateThought: ${fmt((rows / readMs) * 1000)} positions/s, ${fmt((moves / readMs) * 1000)} moves/s (${(readMs / 1000).toFixed(2)} s)`,
        `  getPosition: ${fmt((lookups / lookupMs) * 1000)} lookups/s`,
        `  file: ${(bytes / 1e6).toFixed(1)} MB, ${fmt(bytes / total)} bytes/position`,
      );
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return lines;
}
