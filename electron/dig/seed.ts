// Seeding a book from game records: positions of their first plies get the kifu bonus in
// selection (DESIGN 3.2). Files or folders; every file gets a report line.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { seedFromFiles, type SeedFileReport, type SeedOptions } from "../../shared/formats/seed.js";
import { Position } from "../../shared/rules/position.js";
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
  ms: number;
}

/** Parses the files, stores their positions as kifu seeds and marks them in the graph. */
export function seedBook(book: OpenBook, inputs: readonly string[], options: SeedOptions = {}): SeedReport {
  const t0 = performance.now();
  const files = recordFiles(inputs).map((name) => ({ name, bytes: readFileSync(name) }));
  const result = seedFromFiles(files, options);
  const rows: Array<{ sfen: string; keyHi: number; keyLo: number; source: string; ply: number }> = [];
  for (const [sfen, ply] of result.seeds) {
    const pos = Position.fromSfen(sfen);
    rows.push({ sfen, keyHi: pos.keyHi, keyLo: pos.keyLo, source: files.length === 1 ? files[0].name : `${files.length} files`, ply });
  }
  const added = book.store.addKifuSeeds(rows);
  book.graph.addKifuMany(rows.map((r) => [r.keyHi, r.keyLo] as const));
  return { files: result.reports, positions: rows.length, added, ms: performance.now() - t0 };
}

/** Report lines for the command line. */
export function seedFiles(book: OpenBook, inputs: readonly string[], options: SeedOptions = {}): string[] {
  const r = seedBook(book, inputs, options);
  const lines = r.files.map((f) => {
    const errors = f.errors.length ? `, ${f.errors.length} error(s): ${f.errors.slice(0, 3).map((e) => (e.line ? `line ${e.line}: ` : "") + e.message).join("; ")}` : "";
    return `${f.file}: ${f.format} (${f.encoding}), ${f.records} record(s), ${f.positions} position(s) seeded${errors}`;
  });
  lines.push(`seeded ${r.positions.toLocaleString("en")} positions (${r.added.toLocaleString("en")} new) in ${(r.ms / 1000).toFixed(2)} s`);
  return lines;
}
