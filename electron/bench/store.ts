// Store benchmark for `horu bench`: write rate (imports in batches and single durable
// thoughts.add calls), streaming read rate (thoughts.iterate, what opening a book costs), and
// file size per position, on synthetic positions with 6 moves each.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BookStore, type KeyedThought } from "../store/book-store.js";
import { fakeThought } from "./books/fake-thought.js";

export interface BenchStoreOptions {
  /** Book sizes to measure (default [100_000]); `large` adds 1M. */
  positions?: number[];
  large?: boolean;
  /** Positions per thoughts.addBatch transaction (default 10_000). */
  batch?: number;
  /** How many single durable thoughts.add calls to time (default 200). */
  singles?: number;
}

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

/** Wall time and this process's CPU time (user + system) of fn, in ms: on a shared machine the CPU figure is the steadier one. */
function timed(fn: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const rate = (count: number, t: { wall: number; cpu: number }, what: string): string =>
  `${fmt((count / t.wall) * 1000)} ${what}/s (${(t.wall / 1000).toFixed(2)} s wall, ${(t.cpu / 1000).toFixed(2)} s cpu)`;

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
      const write = { wall: 0, cpu: 0 };
      for (let start = 0; start < n; start += batch) {
        const list: KeyedThought[] = [];
        for (let i = start; i < Math.min(n, start + batch); i++) list.push(fakeThought(i));
        const t = timed(() => store.thoughts.addBatch(list));
        write.wall += t.wall;
        write.cpu += t.cpu;
      }
      const single = timed(() => {
        for (let i = 0; i < singles; i++) store.thoughts.add(fakeThought(n + i));
      });
      store.close();
      const bytes = fileBytes(path);
      const total = n + singles;

      const reader = BookStore.open(path, { readonly: true });
      let rows = 0;
      let moves = 0;
      const read = timed(() => {
        for (const p of reader.thoughts.iterate()) {
          rows++;
          moves += p.candidates.length;
        }
      });
      const lookups = Math.min(n, 20_000);
      const lookup = timed(() => {
        for (let i = 0; i < lookups; i++) reader.thoughts.get(fakeThought((i * 7919) % n).sfen);
      });
      reader.close();
      if (rows !== total) throw new Error(`bench: read ${rows} positions, wrote ${total}`);

      lines.push(
        `store ${fmt(n)} positions x 6 moves:`,
        `  batch write (${fmt(batch)}/transaction): ${rate(n, write, "positions")}`,
        `  durable thoughts.add (1 transaction + fsync each): ${rate(singles, single, "results")}, ${(single.wall / singles).toFixed(2)} ms each`,
        `  thoughts.iterate: ${rate(rows, read, "positions")}, ${fmt((moves / read.wall) * 1000)} moves/s`,
        `  thoughts.get: ${rate(lookups, lookup, "lookups")}`,
        `  file: ${(bytes / 1e6).toFixed(1)} MB, ${fmt(bytes / total)} bytes/position`,
      );
      for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return lines;
}
