// Bringing books made by other tools into a horu book: each position with moves becomes a
// thought position (provenance: imported from FILE), so digging continues from it.
// DB2016 files are streamed line by line, so a multi-gigabyte book never sits in memory.

import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import type { BookStore, KeyedThought } from "../store/book-store.js";
import { Db2016Reader, db2016HeaderProblem, type Db2016Block } from "../../shared/formats/db2016.js";
import { importApery } from "../../shared/formats/apery.js";
import { Position, SfenError } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { EMPTY, clampValue, colorOf, dropType, isDrop, moveFrom, moveTo } from "../../shared/rules/types.js";
import type { Candidate } from "../../shared/book/records.js";
import { readBookFileFull, type BookBlock } from "../formats/book-files.js";
import type { ImportReportView } from "../../shared/api/contract.js";

/** What an import did: the UI's view (shared/api/contract.ts) with the file's full path, and more. */
export interface ImportReport extends ImportReportView {
  format: "db2016" | "apery" | "ybb" | "sbk";
  /** Apery: records no legal walk from the root reached. */
  unreachable?: number;
}

const BATCH = 10_000;

/**
 * Stores imported positions in the book as one recorded import (undoImport takes it back):
 * a thought position keeps its engine's results, the imported moves join them.
 */
class ImportWriter {
  private batch: number | null = null;
  added = 0;
  joined = 0;
  constructor(
    private readonly store: BookStore,
    private readonly file: string,
  ) {}
  write(rows: KeyedThought[]): void {
    if (rows.length === 0) return;
    this.batch ??= this.store.beginImport(path.basename(this.file));
    const r = this.store.importThoughts(this.batch, rows);
    this.added += r.added;
    this.joined += r.joined;
  }
}
/** Problems listed one by one (all of them but in a pathological file); the rest are counted. */
const MAX_LISTED = 10_000;

/** A count as SQLite keeps it exactly: a whole number in 0..2^53-1 (a 400-digit count reads as Infinity). */
const clampCount = (n: number): number => (n > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : n > 0 ? Math.trunc(n) : 0);

/** Why a listed move is not a legal move of the position, in the user's words. */
export function whyIllegal(pos: Position, usi: string): string | null {
  const m = parseUsiMove(usi);
  if (m === null) return "not a USI move";
  if (pos.isLegal(m)) return null;
  const side = pos.side === 0 ? "black" : "white";
  if (isDrop(m)) {
    if (pos.hands[pos.side * 8 + dropType(m)] === 0) return `${side} has no ${usi[0]} in hand`;
    if (pos.board[moveTo(m)] !== EMPTY) return `${usi.slice(2)} is not empty`;
  } else {
    const piece = pos.board[moveFrom(m)];
    if (piece === EMPTY) return `no piece on ${usi.slice(0, 2)}`;
    if (colorOf(piece) !== pos.side) return `the piece on ${usi.slice(0, 2)} is not ${side}'s`;
    const target = pos.board[moveTo(m)];
    if (target !== EMPTY && colorOf(target) === pos.side) return `${usi.slice(2, 4)} holds ${side}'s own piece`;
  }
  return pos.inCheck()
    ? `${side} is in check and this move does not answer it`
    : "that piece cannot move so (or the move would leave the king in check, or is an illegal pawn drop)";
}

/** A DB2016 block as a thought position; null (with a reason) when its SFEN is not a position. */
function blockToThought(
  b: Db2016Block,
  file: string,
  now: number,
  note: (line: number, message: string) => void = () => undefined,
): KeyedThought | string {
  let pos: Position;
  try {
    pos = Position.fromSfen(b.sfen);
  } catch (e) {
    return e instanceof SfenError ? e.message : String(e);
  }
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const m of b.moves) {
    if (seen.has(m.move)) continue;
    // An illegal listed move is reported and left out; the rest of the position is kept.
    const why = whyIllegal(pos, m.move);
    if (why !== null) {
      note(m.lineNo, `move ${m.move} is illegal in ${pos.sfenKey()}: ${why}; left out`);
      continue;
    }
    seen.add(m.move);
    const c: Candidate = {
      move: m.move,
      value: clampValue(m.value ?? 0),
      depth: m.depth ?? 0,
      pv: m.ponder && parseUsiMove(m.ponder) !== null ? [m.move, m.ponder] : [m.move],
    };
    if (m.count !== null) c.count = clampCount(m.count);
    if (m.value === null) c.noValue = true;
    if (m.depth === null) c.noDepth = true;
    if (m.comment !== undefined) c.comment = m.comment;
    candidates.push(c);
  }
  // The file's order is kept (its author's; the graph orders moves by value itself).
  return {
    sfen: pos.sfenKey(),
    keyHi: pos.keyHi,
    keyLo: pos.keyLo,
    candidates,
    provenance: { kind: "import", file: path.basename(file) },
    thoughtAt: now,
    ...(b.comment !== undefined ? { comment: b.comment } : {}),
  };
}

export async function importDb2016(
  store: BookStore,
  file: string,
  opts: { strict?: boolean; onProgress?: (lines: number, bytes?: number) => void } = {},
): Promise<ImportReport> {
  const t0 = performance.now();
  const now = Date.now();
  const errors: string[] = [];
  let errorCount = 0,
    positions = 0,
    moves = 0;
  const note = (line: number, message: string) => {
    errorCount++;
    if (errors.length < MAX_LISTED) errors.push(`${file}:${line}: ${message}`);
  };
  let batch: KeyedThought[] = [];
  const writer = new ImportWriter(store, file);
  const flush = () => {
    writer.write(batch);
    batch = [];
  };
  const reader = new Db2016Reader(
    (b) => {
      const t = blockToThought(b, file, now, note);
      if (typeof t === "string") {
        note(b.lineNo, `not a position: ${t}`);
        return;
      }
      batch.push(t);
      positions++;
      moves += t.candidates.length;
      if (batch.length >= BATCH) flush();
    },
    { strict: opts.strict, maxErrors: 100 },
  );

  const input = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      try {
        reader.push(line, lineNo);
      } catch (e) {
        throw new Error(`${file}:${lineNo}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      // A book of another version may mean other things by the same fields: nothing is stored from it.
      const versionProblem = lineNo === 1 ? db2016HeaderProblem(reader.header) : null;
      if (versionProblem) throw new Error(`${file}:1: ${versionProblem}; nothing imported`);
      if (opts.onProgress && lineNo % 100_000 === 0) opts.onProgress(lineNo, input.bytesRead);
    }
    reader.end();
    flush();
  } finally {
    lines.close();
  }
  const all = [...reader.errors.map((e) => `${file}:${e.line}: ${e.message}`), ...errors].slice(0, MAX_LISTED);
  return {
    file,
    format: "db2016",
    positions,
    moves,
    added: writer.added,
    joined: writer.joined,
    errors: all,
    errorCount: errorCount + reader.errorCount,
    ms: performance.now() - t0,
  };
}

export function importAperyFile(store: BookStore, file: string, root = "startpos", maxPly = 256): ImportReport {
  const t0 = performance.now();
  const bytes = readFileSync(file);
  const r = importApery(bytes, root, maxPly);
  // A damaged file stores nothing: a cut-off record, or a move that is not legal where its key leads.
  if (r.truncatedBytes)
    throw new Error(
      `${file}: truncated at offset ${bytes.length - r.truncatedBytes}: ${r.truncatedBytes} trailing bytes do not form a whole 16-byte record; nothing imported`,
    );
  if (r.illegal > 0) {
    const first = r.errors.find((e) => /not a legal move/.test(e.message));
    throw new Error(
      `${file}: ${first?.message ?? "a record's move is not legal"}${r.illegal > 1 ? ` (and ${r.illegal - 1} more)` : ""}; nothing imported`,
    );
  }
  const now = Date.now();
  const rows: KeyedThought[] = r.blocks.map((b) => {
    const pos = Position.fromSfen(b.sfen);
    return {
      sfen: pos.sfenKey(),
      keyHi: pos.keyHi,
      keyLo: pos.keyLo,
      thoughtAt: now,
      provenance: { kind: "import", file: path.basename(file) },
      // In the file's order; the count goes along so exporting .bin writes the same records back. No depth in .bin.
      candidates: b.candidates.map((c) => ({
        move: c.move,
        value: clampValue(c.value),
        depth: 0,
        noDepth: true,
        pv: [c.move],
        count: c.count,
      })),
    };
  });
  const writer = new ImportWriter(store, file);
  writer.write(rows);
  const errors = r.errors.map((e) => `${file}: ${e.message}`);
  return {
    file,
    format: "apery",
    positions: rows.length,
    moves: rows.reduce((s, t) => s + t.candidates.length, 0),
    added: writer.added,
    joined: writer.joined,
    errors,
    errorCount: errors.length,
    unreachable: r.unreachable,
    ms: performance.now() - t0,
  };
}

/**
 * A YaneuraOu binary (.ybb) or ShogiGUI (.sbk) book: the whole file is read and checked
 * first, so a damaged file stores nothing and says where it is damaged.
 */
export function importBookFile(store: BookStore, file: string, kind: "ybb" | "sbk"): ImportReport {
  const t0 = performance.now();
  const read = readBookFileFull(file, kind);
  const now = Date.now();
  const rows: KeyedThought[] = read.blocks.map((b) => fileBlockToThought(b, file, now));
  const writer = new ImportWriter(store, file);
  writer.write(rows);
  if (read.author !== undefined) store.setSbkBookMeta({ author: read.author, description: read.description ?? "" });
  return {
    file,
    format: kind,
    positions: rows.length,
    moves: rows.reduce((s, t) => s + t.candidates.length, 0),
    added: writer.added,
    joined: writer.joined,
    errors: read.problems,
    errorCount: read.problems.length,
    ms: performance.now() - t0,
  };
}

/** A block of a book file as a thought position, keeping what the file says (moves in its order). */
export function fileBlockToThought(b: BookBlock, file: string, now: number): KeyedThought {
  const pos = Position.fromSfen(b.sfen);
  const t: KeyedThought = {
    sfen: pos.sfenKey(),
    keyHi: pos.keyHi,
    keyLo: pos.keyLo,
    thoughtAt: now,
    provenance: { kind: "import", file: path.basename(file) },
    candidates: b.moves.map((m) => {
      const c: Candidate = {
        move: m.move,
        value: clampValue(m.value ?? 0),
        depth: m.depth ?? 0,
        pv: m.ponder ? [m.move, m.ponder] : [m.move],
      };
      if (m.count !== undefined) c.count = clampCount(m.count);
      if (m.value === null) c.noValue = true;
      if (m.depth === null) c.noDepth = true;
      if (m.comment !== undefined) c.comment = m.comment;
      if (m.mark !== undefined) c.mark = m.mark;
      return c;
    }),
  };
  if (b.comment !== undefined) t.comment = b.comment;
  if (b.sbk !== undefined) t.sbk = b.sbk;
  return t;
}
