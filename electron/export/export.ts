// Writing a dug book out for engines and GUIs: YaneuraOu DB2016 text or an Apery .bin,
// with the engine's values as thought (raw) or the Peta-Shock minimax (docs/DESIGN.md §5). The file
// is written beside the target and renamed into place, so a failure (a full disk) never
// leaves a half-written book where the old one was; it never replaces the open book or any
// SQLite file, nor an existing file unless asked to (export-target.ts).

import { closeSync, createWriteStream, existsSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { checkReplaceable, createTemp } from "../fs/safe-file.js";
import { Worker } from "node:worker_threads";
import { once } from "node:events";
import path from "node:path";
import type { OpenBook } from "../book/open-book.js";
import type { BookStore } from "../store/book-store.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { db2016BlockText, db2016HeaderLines } from "../../shared/formats/db2016.js";
import { DropTally, bookFileBytes, dbBlock, thoughtToBlock, type BookBlock } from "../formats/book-files.js";
import { settingsFrom } from "../../shared/dig/settings.js";
import { chosenFirst, type MoveChoice } from "../../shared/book/quality.js";
import { playChoice } from "../../shared/book/settle.js";
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
  /** Draw values for the minimax (centipawns, each side's view); default: the book's own settings. */
  drawBlack?: number;
  drawWhite?: number;
  /** The folder a relative path resolves against (default: the working directory). */
  folder?: string;
  /** What the refusal of an existing file tells the user to do. */
  overwriteHint?: string;
  /**
   * With minimax: the move each position lists first (the one a player plays), with the
   * position's best value. Default: the book's own (a settled book's "robust", else minimax).
   */
  choice?: MoveChoice;
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
function withinLimit(b: BookBlock, limit: number): boolean {
  if (limit <= 0 || b.moves.length === 0) return true;
  let best = -Infinity;
  for (const m of b.moves) best = Math.max(best, m.value ?? 0);
  return Math.abs(best) <= limit;
}

function shrunk(b: BookBlock): BookBlock {
  let best = -Infinity;
  for (const m of b.moves) best = Math.max(best, m.value ?? 0);
  return { ...b, moves: b.moves.filter((m) => (m.value ?? 0) === best) };
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
  const total = store.thoughts.count();
  const inKeep = keep ? keySet(keep) : null;
  const kept = (keyHi: number, keyLo: number) => !inKeep || inKeep(keyHi, keyLo);
  const limit = o.evalLimit ?? 0;

  // The blocks in byte-wise SFEN order, streamed: from the compact minimax exporter, or
  // straight from the store's SFEN index for the engine's values as thought. Either way a
  // position keeps its comment and .sbk state, a move its comment and mark.
  let blocks: () => Iterable<BookBlock>;
  const engines = new Map<string, string>();
  if (o.mode === "minimax") {
    // The book's own draw values (contempt), as the selection uses them, unless the caller gives others.
    const { settings } = settingsFrom(store.settings.all());
    const exporter = new PetaShockExporter({
      shrink: o.shrink,
      drawBlack: o.drawBlack ?? settings.drawBlack,
      drawWhite: o.drawWhite ?? settings.drawWhite,
    });
    // A settled book plays its engine's own best unless the minimax beats it (shared/book/settle.ts).
    const choice = o.choice ?? playChoice(settings);
    const ownMove = choice.kind === "minimax" ? null : new Map<string, string>();
    const moveNotes = new Map<string, Map<string, { comment?: string; mark?: number }>>();
    let done = 0;
    // In byte order, as the steps read a sorted file: where a position and its mirror twin
    // are both in the book, moves into either lead to the later one (docs/DESIGN.md §5.1), so
    // the order the book was dug in must not decide (electron/export/export-order.test.ts).
    for (const t of store.thoughts.iterateBySfen()) {
      if (progress && ++done % 50_000 === 0) progress(done, total * 2);
      if (!kept(t.keyHi, t.keyLo)) continue;
      exporter.add({ sfen: t.sfen, moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })) });
      // An imported position has no engine's own best: the minimax's stays first, as the file's own export listed it.
      if (ownMove && t.candidates[0] && t.provenance.kind === "engine") ownMove.set(t.sfen, t.candidates[0].move);
      if (t.provenance.kind === "engine" && o.format === "sbk") engines.set(t.sfen, t.provenance.engine);
      for (const c of t.candidates) {
        if (c.comment === undefined && c.mark === undefined) continue;
        let m = moveNotes.get(t.sfen);
        if (!m) moveNotes.set(t.sfen, (m = new Map()));
        m.set(c.move, { ...(c.comment !== undefined ? { comment: c.comment } : {}), ...(c.mark !== undefined ? { mark: c.mark } : {}) });
      }
    }
    exporter.run();
    const notes = store.notes.all();
    blocks = function* () {
      for (const b of exporter.blocks("sfen")) {
        const n = notes.get(b.sfen);
        const mn = moveNotes.get(b.sfen);
        const moves = b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth, ...mn?.get(m.move) }));
        const block: BookBlock = {
          sfen: b.sfen,
          moves: ownMove ? chosenFirst(moves, ownMove.get(b.sfen), choice) : moves,
        };
        if (n?.comment !== undefined) block.comment = n.comment;
        if (n?.sbk !== undefined) block.sbk = n.sbk;
        yield block;
      }
    };
  } else {
    blocks = function* () {
      for (const t of store.thoughts.iterateBySfen()) {
        if (!kept(t.keyHi, t.keyLo)) continue;
        if (t.provenance.kind === "engine" && o.format === "sbk") engines.set(t.sfen, t.provenance.engine);
        const b = thoughtToBlock(t);
        yield o.shrink ? shrunk(b) : b;
      }
    };
  }
  // A .db lists no position without moves (engines would read it as a book position with nothing to play).
  let tally: DropTally | null = null; // set for the pass that writes
  const written = function* () {
    for (const b of blocks()) {
      if (!withinLimit(b, limit)) continue;
      tally?.add(b);
      if (o.format !== "db" || b.moves.length > 0) yield b;
    }
  };
  // A .db's line 2 says how many blocks follow, so they are counted first (by SQL when nothing is filtered).
  let count = 0;
  if (o.format === "db") {
    if (!keep && limit === 0 && o.mode === "raw") count = store.thoughts.countWithMoves();
    else for (const _ of written()) count++;
  }

  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  tally = new DropTally();
  let moves = 0,
    done = 0;
  try {
    if (o.format === "db") {
      // Created exclusively, never through a link planted at the temporary name (safe-file.ts).
      const ws = createWriteStream(tmp, { fd: createTemp(tmp) });
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
        await write(db2016BlockText(dbBlock(b)));
      }
      ws.end();
      await Promise.race([once(ws, "finish"), failed]);
    } else {
      // The binary formats need the whole book at hand (sorted keys or packed positions; state ids for links).
      const list: BookBlock[] = [];
      for (const b of written()) {
        try {
          Position.fromSfen(b.sfen);
        } catch {
          continue;
        }
        const usable = b.moves.filter((m) => parseUsiMove(m.move) !== null);
        list.push(usable.length === b.moves.length ? b : { ...b, moves: usable });
        moves += usable.length;
      }
      count = list.length;
      const meta = o.format === "sbk" ? { ...store.notes.sbkBookMeta(), engine: (sfen: string) => engines.get(sfen) } : {};
      const fd = createTemp(tmp);
      try {
        writeFileSync(fd, bookFileBytes(list, o.format, meta));
      } finally {
        closeSync(fd);
      }
    }
    checkTarget();
    checkReplaceable(target);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    if ((e as { code?: unknown }).code === "user") throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`could not write ${target}: ${why}`, { cause: e });
  }
  progress?.(total * 2, total * 2);
  const dropped = tally.lines(o.format, { author: store.notes.sbkBookMeta().author });
  return { path: target, positions: count, moves, bytes: statSync(target).size, ms: performance.now() - t0, dropped };
}
