// Seeding a book from game records: positions of their first plies get the kifu bonus in
// selection (DESIGN 3.2). Files or folders; every file gets a report line.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { seedFromParsed, type SeedFileReport, type SeedOptions } from "../../shared/formats/seed.js";
import { parseRecordFile } from "../../shared/formats/kifu.js";
import { CollectionStats } from "../../shared/formats/stats.js";
import { Position } from "../../shared/rules/position.js";
import type { MoveStatsRow, QueuedPosition } from "../store/book-store.js";
import type { OpenBook } from "./book.js";

const RECORD_EXTENSIONS = new Set([".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".sfen", ".usi", ".txt", ".jkf", ".json", ".usen"]);

/** The record files named: files as given, folders walked for known record extensions. */
export function recordFiles(inputs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string, top: boolean) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(path.join(p, name), false);
    } else if (top || RECORD_EXTENSIONS.has(path.extname(p).toLowerCase())) out.push(p);
  };
  for (const p of inputs) walk(p, true);
  return out;
}

export interface SeedReport {
  files: SeedFileReport[];
  /** Distinct positions seeded over all files, and how many were new to the book. */
  positions: number;
  added: number;
  /** Positions queued to be thought (`thinkPlies`), and how many were not queued before. */
  queued: number;
  queuedNew: number;
  /** (position, move) pairs of collection statistics stored (`stats`). */
  statsMoves: number;
  ms: number;
}

export interface SeedBookOptions extends SeedOptions {
  /**
   * Also queue the positions of the first N plies of each record to be thought ahead of
   * selection (the old `makebook think`), under the same filters as the seeds.
   */
  thinkPlies?: number;
  /** Store per position and move the games played and won (collection statistics, up to `plies`). */
  storeStats?: boolean;
}

/** Parses the files, stores their positions as kifu seeds and marks them in the graph. */
export function seedBook(book: OpenBook, inputs: readonly string[], options: SeedBookOptions = {}): SeedReport {
  const t0 = performance.now();
  const names = recordFiles(inputs);
  const plies = options.plies ?? 32;
  const thinkPlies = options.thinkPlies ?? 0;
  const files = names.map((name) => parseRecordFile(readFileSync(name), name, { maxPly: Math.max(plies, thinkPlies) }));
  // One collection over all files, shared by the filters and the stored statistics.
  let stats = options.stats;
  if (!stats && (options.storeStats || (options.minCount ?? 0) > 1)) {
    stats = new CollectionStats({ maxPly: plies });
    for (const f of files) stats.addGames(f.games);
  }
  const source = names.length === 1 ? names[0]! : `${names.length} files`;
  const keyed = (seeds: Map<string, number>): QueuedPosition[] => {
    const rows: QueuedPosition[] = [];
    for (const [sfen, ply] of seeds) {
      const pos = Position.fromSfen(sfen);
      rows.push({ sfen, keyHi: pos.keyHi, keyLo: pos.keyLo, source, ply });
    }
    return rows;
  };

  const result = seedFromParsed(files, { ...options, plies, stats });
  const rows = keyed(result.seeds);
  const added = book.store.addKifuSeeds(rows);
  book.graph.addKifuMany(rows.map((r) => [r.keyHi, r.keyLo] as const));

  let queued = 0, queuedNew = 0;
  if (thinkPlies > 0) {
    // Shallow plies first, so the queue thinks the records breadth-first.
    const q = keyed(seedFromParsed(files, { ...options, plies: thinkPlies, stats }).seeds).sort((a, b) => a.ply - b.ply);
    queued = q.length;
    queuedNew = book.store.addToThinkQueue(q);
  }

  let statsMoves = 0;
  if (options.storeStats && stats) {
    const statRows: MoveStatsRow[] = [];
    const seen = new Set<string>();
    for (const f of files) {
      for (const g of f.games) {
        for (const sfen of g.positions) {
          if (seen.has(sfen)) continue;
          seen.add(sfen);
          const moves = stats.movesOf(sfen);
          if (!moves.length) continue;
          const pos = Position.fromSfen(sfen);
          for (const { move, stat } of moves) statRows.push({ sfen, keyHi: pos.keyHi, keyLo: pos.keyLo, move, games: stat.played, wins: stat.wins, draws: stat.draws });
        }
      }
    }
    book.store.addMoveStats(statRows);
    statsMoves = statRows.length;
  }
  return { files: result.reports, positions: rows.length, added, queued, queuedNew, statsMoves, ms: performance.now() - t0 };
}

/** Report lines for the command line. */
export function seedFiles(book: OpenBook, inputs: readonly string[], options: SeedBookOptions = {}): string[] {
  const r = seedBook(book, inputs, options);
  const lines = r.files.map((f) => {
    const errors = f.errors.length ? `, ${f.errors.length} error(s): ${f.errors.slice(0, 3).map((e) => (e.line ? `line ${e.line}: ` : "") + e.message).join("; ")}` : "";
    return `${f.file}: ${f.format} (${f.encoding}), ${f.records} record(s), ${f.positions} position(s) seeded${errors}`;
  });
  lines.push(`seeded ${r.positions.toLocaleString("en")} positions (${r.added.toLocaleString("en")} new) in ${(r.ms / 1000).toFixed(2)} s`);
  return lines;
}
