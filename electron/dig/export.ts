// Writing a dug book out for engines and GUIs: YaneuraOu DB2016 text or an Apery .bin,
// with the engine's values as thought (raw) or the Peta-Shock minimax (DESIGN 5). The file
// is written beside the target and renamed into place, so a failure (a full disk) never
// leaves a half-written book where the old one was.

import { createWriteStream, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import type { OpenBook } from "./book.js";
import { PetaShockExporter } from "../../shared/book/export.js";
import { compareSfenBytes, db2016BlockText, db2016HeaderLines, sortMovesByCountValue, type Db2016OutBlock } from "../../shared/formats/db2016.js";
import { exportApery } from "../../shared/formats/apery.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import type { ExportResult } from "../../shared/api/contract.js";

export interface ExportOptions {
  path: string;
  format: "db" | "bin";
  mode: "raw" | "minimax";
  shrink?: boolean;
  /** Only positions within this many plies of the root through the book (0: all). */
  maxPly?: number;
  /** Leave out moves valued beyond +-evalLimit (0: keep all). */
  evalLimit?: number;
}

/** Sfen keys of the thought positions within maxPly plies of the root (breadth-first over internal edges). */
function withinPlies(book: OpenBook, maxPly: number): Set<number> {
  const g = book.graph;
  const keep = new Set<number>();
  const root = book.rootNode;
  if (root < 0) return keep;
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
  return keep;
}

export async function exportBook(book: OpenBook, o: ExportOptions, progress?: (done: number, total: number) => void): Promise<ExportResult> {
  const t0 = performance.now();
  const total = book.store.countThought();
  const keep = o.maxPly ? withinPlies(book, o.maxPly) : null;
  const limit = o.evalLimit ?? 0;
  let done = 0;

  // Thought positions in store order, filtered by ply; moves without usable text are dropped later by the writers.
  const blocks: Db2016OutBlock[] = [];
  const exporter = o.mode === "minimax" ? new PetaShockExporter({ shrink: o.shrink }) : null;
  for (const t of book.store.iterateThought()) {
    if (progress && ++done % 50_000 === 0) progress(done, total);
    if (keep && !keep.has(book.graph.find(t.keyHi, t.keyLo))) continue;
    if (exporter) exporter.add({ sfen: t.sfen, moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })) });
    else blocks.push({ sfen: t.sfen, moves: sortMovesByCountValue(t.candidates.map((c) => ({ move: c.move, ponder: c.pv[1] ?? null, value: c.value, depth: c.depth, count: c.count ?? null }))) });
  }
  let out: Db2016OutBlock[] = blocks;
  if (exporter) {
    exporter.run();
    out = [...exporter.blocks("sfen")];
  } else out.sort((a, b) => compareSfenBytes(a.sfen, b.sfen));
  if (limit > 0) out = out.map((b) => ({ sfen: b.sfen, moves: b.moves.filter((m) => Math.abs(m.value ?? 0) <= limit) }));
  if (o.shrink && !exporter) {
    out = out.map((b) => {
      const best = Math.max(...b.moves.map((m) => m.value ?? 0));
      return { sfen: b.sfen, moves: b.moves.filter((m) => (m.value ?? 0) === best) };
    });
  }
  progress?.(total, total);

  const tmp = path.join(path.dirname(o.path), `.${path.basename(o.path)}.${process.pid}.tmp`);
  let moves = 0;
  try {
    if (o.format === "db") {
      const ws = createWriteStream(tmp);
      const failed = once(ws, "error").then(([e]) => {
        throw e;
      });
      const write = async (chunk: string) => {
        if (!ws.write(chunk)) await Promise.race([once(ws, "drain"), failed]);
      };
      await write(db2016HeaderLines(out.length).join("\n") + "\n");
      for (const b of out) {
        moves += b.moves.length;
        await write(db2016BlockText(b));
      }
      ws.end();
      await Promise.race([once(ws, "finish"), failed]);
    } else {
      const r = exportApery(
        out.filter((b) => {
          try {
            Position.fromSfen(b.sfen);
            return true;
          } catch {
            return false;
          }
        }).map((b) => ({ sfen: b.sfen, candidates: b.moves.filter((m) => parseUsiMove(m.move) !== null).map((m) => ({ move: m.move, value: m.value ?? 0, count: m.count ?? 1 })) })),
      );
      moves = r.bytes.length / 16;
      writeFileSync(tmp, r.bytes);
    }
    renameSync(tmp, o.path);
  } catch (e) {
    rmSync(tmp, { force: true });
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`could not write ${o.path}: ${why}`, { cause: e });
  }
  return { path: o.path, positions: out.length, moves, bytes: statSync(o.path).size, ms: performance.now() - t0 };
}
