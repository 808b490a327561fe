// Writing a dug book out for engines and GUIs: YaneuraOu DB2016 text or an Apery .bin,
// with the engine's values as thought (raw) or the Peta-Shock minimax (DESIGN 5). The file
// is written beside the target and renamed into place, so a failure (a full disk) never
// leaves a half-written book where the old one was; it never replaces the open book or any
// SQLite file, nor an existing file unless asked to (export-target.ts).

import { createWriteStream, existsSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { once } from "node:events";
import path from "node:path";
import type { OpenBook } from "../book/open-book.js";
import type { BookStore } from "../store/book-store.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { db2016BlockText, db2016HeaderLines, sortMovesByCountValue, type Db2016OutBlock } from "../../shared/formats/db2016.js";
import { exportApery } from "../../shared/formats/apery.js";
import { bookFileBytes } from "../formats/book-files.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import type { ExportResult } from "../../shared/api/contract.js";
import { assertExportTarget, planExportTarget } from "./export-target.js";
import { bundledFile } from "../paths/bundled.js";

export interface ExportOptions {
  path: string;
  format: "db" | "bin" | "ybb" | "sbk";
  mode: "raw" | "minimax";
  shrink?: boolean;
  /** Only positions within this many plies of the root through the book (0: all). */
  maxPly?: number;
  /** Leave out moves valued beyond +-evalLimit (0: keep all). */
  evalLimit?: number;
  /** Replace an existing (non-book) file at path; without it an existing file is refused. */
  overwrite?: boolean;
  /** The folder a relative path resolves against (default: the working directory). */
  folder?: string;
  /** What the refusal of an existing file tells the user to do. */
  overwriteHint?: string;
}

/** Keys (hi, lo pairs) of the thought positions within maxPly plies of the root, from the open graph (breadth-first over internal edges). */
export function keysWithinPlies(book: OpenBook, maxPly: number): Uint32Array {
  const g = book.graph;
  const keep = new Set<number>();
  const root = book.rootNode;
  if (root >= 0) {
    let frontier = [root];
    keep.add(root);
    for (let ply = 0; ply < maxPly && frontier.length; ply++) {
      const next: number[] = [];
      for (const n of frontier) {
        g.forEachEdge(n, (_m, child) => {
          if (child >= 0 && !keep.has(child)) {
            keep.add(child);
            next.push(child);
          }
        });
      }
      frontier = next;
    }
  }
  const out = new Uint32Array(keep.size * 2);
  let i = 0;
  for (const n of keep) {
    out[i++] = g.keyHi[n]!;
    out[i++] = g.keyLo[n]!;
  }
  return out;
}

/** A membership test over key pairs. */
function keySet(keys: Uint32Array): (hi: number, lo: number) => boolean {
  const set = new Set<bigint>();
  for (let i = 0; i < keys.length; i += 2) set.add((BigInt(keys[i]!) << 32n) | BigInt(keys[i + 1]!));
  return (hi, lo) => set.has((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}

/**
 * Exports an open book beside its dig: the positions to keep are read from the open graph
 * here (only with maxPly), and the export itself (reading the store, the minimax, writing
 * the file) runs on its own worker thread with its own read-only connection to the book,
 * so the thread that stores engine results and selects never waits for it.
 */
export function exportBook(book: OpenBook, o: ExportOptions, progress?: (done: number, total: number) => void): Promise<ExportResult> {
  // Refused here, in this thread, so the refusal keeps its "user" code (the worker checks again).
  try {
    const t = planExportTarget(o.path, o.folder ?? process.cwd(), book.store.path);
    assertExportTarget(t, o.overwrite ?? false, o.overwriteHint ?? "confirm replacing it");
  } catch (e) {
    return Promise.reject(e);
  }
  const keep = o.maxPly ? keysWithinPlies(book, o.maxPly) : null;
  const file = defaultExportWorker();
  if (!existsSync(file)) throw new Error(`${file} is missing; run \`npm run build:node\` first`);
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: { book: book.store.path, options: o, keep } satisfies ExportWorkerData });
    let settled = false;
    worker.on("message", (m: ExportWorkerMessage) => {
      if (m.kind === "progress") progress?.(m.done, m.total);
      else if (m.kind === "done") {
        settled = true;
        resolve(m.result);
      } else {
        settled = true;
        reject(new Error(m.message));
      }
    });
    worker.on("error", (e) => {
      settled = true;
      reject(e);
    });
    worker.on("exit", (code) => {
      if (!settled) reject(new Error(`the export thread stopped (exit code ${code}) before it finished`));
    });
  });
}

export interface ExportWorkerData {
  book: string;
  options: ExportOptions;
  keep: Uint32Array | null;
}

export type ExportWorkerMessage =
  { kind: "progress"; done: number; total: number } | { kind: "done"; result: ExportResult } | { kind: "error"; message: string };

/** The bundled export worker (dist/export-worker.cjs), beside this bundle or in the checkout's dist. */
export function defaultExportWorker(): string {
  return bundledFile("export-worker.cjs");
}

/** A block passes the eval limit when its best move is within it (a position decided beyond it is left out whole). */
function withinLimit(b: Db2016OutBlock, limit: number): boolean {
  if (limit <= 0 || b.moves.length === 0) return true;
  let best = -Infinity;
  for (const m of b.moves) best = Math.max(best, m.value ?? 0);
  return Math.abs(best) <= limit;
}

function shrunk(b: Db2016OutBlock): Db2016OutBlock {
  let best = -Infinity;
  for (const m of b.moves) best = Math.max(best, m.value ?? 0);
  return { sfen: b.sfen, moves: b.moves.filter((m) => (m.value ?? 0) === best) };
}

/**
 * Writes the book file from the store (the export worker's connection, or the CLI's):
 * `keep`, when given, holds the key pairs of the positions to write.
 */
export async function exportFromStore(
  store: BookStore,
  o: ExportOptions,
  keep: Uint32Array | null,
  progress?: (done: number, total: number) => void,
): Promise<ExportResult> {
  const t0 = performance.now();
  // Decided before a byte is written, and again just before the rename (the file may have appeared meanwhile).
  const checkTarget = () => {
    const t = planExportTarget(o.path, o.folder ?? process.cwd(), store.path);
    assertExportTarget(t, o.overwrite ?? false, o.overwriteHint ?? "confirm replacing it");
    return t.path;
  };
  const target = checkTarget();
  const total = store.countThought();
  const inKeep = keep ? keySet(keep) : null;
  const kept = (keyHi: number, keyLo: number) => !inKeep || inKeep(keyHi, keyLo);
  const limit = o.evalLimit ?? 0;

  // The blocks in byte-wise SFEN order, streamed: from the compact minimax exporter, or
  // straight from the store's SFEN index for the engine's values as thought.
  let blocks: () => Iterable<Db2016OutBlock>;
  if (o.mode === "minimax") {
    const exporter = new PetaShockExporter({ shrink: o.shrink });
    let done = 0;
    for (const t of store.iterateThought()) {
      if (progress && ++done % 50_000 === 0) progress(done, total * 2);
      if (kept(t.keyHi, t.keyLo))
        exporter.add({ sfen: t.sfen, moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })) });
    }
    exporter.run();
    blocks = () => exporter.blocks("sfen");
  } else {
    blocks = function* () {
      for (const t of store.iterateThoughtBySfen()) {
        if (!kept(t.keyHi, t.keyLo)) continue;
        const b = {
          sfen: t.sfen,
          moves: sortMovesByCountValue(
            t.candidates.map((c) => ({ move: c.move, ponder: c.pv[1] ?? null, value: c.value, depth: c.depth, count: c.count ?? null })),
          ),
        };
        yield o.shrink ? shrunk(b) : b;
      }
    };
  }
  const written = function* () {
    for (const b of blocks()) if (withinLimit(b, limit)) yield b;
  };
  // Line 2 says how many blocks follow, so a filtered export counts them first.
  let count = 0;
  if (keep || limit > 0 || o.mode === "minimax") for (const _ of written()) count++;
  else count = total;

  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  let moves = 0,
    done = 0;
  try {
    if (o.format === "db") {
      const ws = createWriteStream(tmp);
      const failed = once(ws, "error").then(([e]) => {
        throw e;
      });
      const write = async (chunk: string) => {
        if (!ws.write(chunk)) await Promise.race([once(ws, "drain"), failed]);
      };
      await write(db2016HeaderLines(count).join("\n") + "\n");
      for (const b of written()) {
        moves += b.moves.length;
        if (progress && ++done % 50_000 === 0) progress(total + (done * total) / Math.max(1, count), total * 2);
        await write(db2016BlockText(b));
      }
      ws.end();
      await Promise.race([once(ws, "finish"), failed]);
    } else if (o.format === "ybb" || o.format === "sbk") {
      // Both need the whole book at hand (sorted packed positions; state ids for links).
      const list = [];
      for (const b of written()) {
        list.push({
          sfen: b.sfen,
          moves: b.moves
            .filter((m) => parseUsiMove(m.move) !== null)
            .map((m) => ({ move: m.move, value: m.value ?? 0, depth: m.depth ?? 0, count: m.count ?? 1 })),
        });
        moves += list[list.length - 1]!.moves.length;
      }
      writeFileSync(tmp, bookFileBytes(list, o.format));
    } else {
      // Apery books are sorted by their own key, so the records are gathered (16 bytes each) first.
      const list: Array<{ sfen: string; candidates: Array<{ move: string; value: number; count: number }> }> = [];
      for (const b of written()) {
        try {
          Position.fromSfen(b.sfen);
        } catch {
          continue;
        }
        list.push({
          sfen: b.sfen,
          candidates: b.moves
            .filter((m) => parseUsiMove(m.move) !== null)
            .map((m) => ({ move: m.move, value: m.value ?? 0, count: m.count ?? 1 })),
        });
      }
      const r = exportApery(list);
      moves = r.bytes.length / 16;
      writeFileSync(tmp, r.bytes);
    }
    checkTarget();
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    if ((e as { code?: unknown }).code === "user") throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`could not write ${target}: ${why}`, { cause: e });
  }
  progress?.(total * 2, total * 2);
  return { path: target, positions: count, moves, bytes: statSync(target).size, ms: performance.now() - t0 };
}
