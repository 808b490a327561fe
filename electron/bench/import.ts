// Benchmarks of importing a multi-gigabyte DB2016 book (streamed: time,
// positions/s and peak RSS, which must stay far below the file size) and seeding a book
// from records2016 (10,831 games: parse + seed + store).
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { OpenBook } from "../book/open-book.js";
import { importDb2016 } from "../book/import.js";
import { seedBook } from "../book/seed.js";
import { DB2016_HEADER } from "../../shared/formats/db2016.js";
import { parseRecordFile } from "../../shared/formats/kifu.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { xorshift32 as rng } from "../../shared/util/rng.js";

const MiB = 2 ** 20;

/**
 * Writes a DB2016 book of about `bytes` bytes, streamed: blocks are real positions from
 * random games (from ply 8 on, where random play rarely repeats a position), each with up
 * to 5 of its legal moves, values, depths and counts. Returns the blocks written.
 */
export async function writeSyntheticDb2016(file: string, bytes: number, seed = 1): Promise<{ blocks: number; bytes: number }> {
  const ws = createWriteStream(file);
  const failed = once(ws, "error").then(([e]) => {
    throw e;
  });
  const rand = rng(seed);
  const legal = new Uint16Array(600);
  let written = 0,
    blocks = 0,
    chunk = `${DB2016_HEADER}\n`;
  while (written + chunk.length < bytes) {
    const pos = Position.startpos();
    for (let ply = 0; ply < 120; ply++) {
      const n = pos.generateLegal(legal);
      if (n === 0) break;
      if (ply >= 8) {
        let block = `sfen ${pos.sfenKey()} ${ply + 1}\n`;
        const k = Math.min(n, 1 + Math.floor(rand() * 5));
        const first = Math.floor(rand() * n);
        for (let j = 0; j < k; j++) {
          // Moves ordered by count, as the format wants.
          block += `${moveToUsi(legal[(first + j) % n]!)} none ${Math.floor(rand() * 400) - 200} ${10 + Math.floor(rand() * 20)} ${k - j}\n`;
        }
        chunk += block;
        blocks++;
      }
      pos.doMove(legal[Math.floor(rand() * n)]!);
      if (chunk.length >= 1 << 20) {
        written += chunk.length;
        if (!ws.write(chunk)) await Promise.race([once(ws, "drain"), failed]);
        chunk = "";
        if (written >= bytes) break;
      }
    }
  }
  written += chunk.length;
  ws.end(chunk);
  await Promise.race([once(ws, "finish"), failed]);
  return { blocks, bytes: written };
}

/** Generates a DB2016 file of `megabytes` MiB in a temporary folder and imports it into a new book. */
export async function benchImport(o: {
  megabytes: number;
  print: (line: string) => void;
  dir?: string;
}): Promise<{ ms: number; positions: number; peakRss: number }> {
  const dir = mkdtempSync(path.join(o.dir ?? tmpdir(), "horu-bench-import-"));
  try {
    const db = path.join(dir, "synthetic.db");
    let t0 = performance.now();
    const gen = await writeSyntheticDb2016(db, o.megabytes * MiB);
    o.print(
      `generated ${(gen.bytes / MiB).toFixed(0)} MiB DB2016, ${gen.blocks.toLocaleString("en")} blocks, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const file = path.join(dir, "book.horu");
    OpenBook.create(file).close();
    const store = BookStore.open(file, { writer: "horu bench" });
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sample = () => {
      const r = process.memoryUsage().rss;
      if (r > peak) peak = r;
    };
    const timer = setInterval(sample, 20);
    t0 = performance.now();
    let r;
    try {
      r = await importDb2016(store, db, { onProgress: sample });
    } finally {
      clearInterval(timer);
      sample();
    }
    const ms = performance.now() - t0;
    const stored = store.thoughts.count();
    store.close();
    const bookBytes = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    o.print(
      `imported ${r.positions.toLocaleString("en")} positions (${r.moves.toLocaleString("en")} moves, ${stored.toLocaleString("en")} distinct) in ${(ms / 1000).toFixed(1)} s: ` +
        `${Math.round(r.positions / (ms / 1000)).toLocaleString("en")} positions/s, ${(gen.bytes / MiB / (ms / 1000)).toFixed(1)} MiB/s; ${r.errorCount} problem(s)`,
    );
    o.print(
      `peak RSS ${(peak / MiB).toFixed(0)} MiB during the import (${(rss0 / MiB).toFixed(0)} MiB before it; file ${(gen.bytes / MiB).toFixed(0)} MiB); book ${(bookBytes / MiB).toFixed(0)} MiB`,
    );
    return { ms, positions: r.positions, peakRss: peak };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Seeds a new book from a record file (records2016 by default): parse, seed and store, timed. */
export function benchSeed(o: { file: string; print: (line: string) => void }): void {
  if (!existsSync(o.file)) {
    o.print(`${o.file} is missing; skipped`);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-seed-"));
  try {
    const book = OpenBook.create(path.join(dir, "seed.horu"));
    const cpu0 = process.cpuUsage();
    const r = seedBook(book, [o.file]);
    const cpu = process.cpuUsage(cpu0);
    const records = r.files.reduce((s, f) => s + f.records, 0);
    o.print(
      `seeded ${records.toLocaleString("en")} games (${r.positions.toLocaleString("en")} positions, first 32 plies) in ${(r.ms / 1000).toFixed(2)} s ` +
        `(parse + seed + store; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s)`,
    );
    book.close();
    // The parse alone, for scale.
    const t0 = performance.now();
    const parsed = parseRecordFile(readFileSync(o.file), o.file, { maxPly: 32 });
    o.print(`  of which parsing ${parsed.games.length.toLocaleString("en")} games: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
