// Bringing books made by other tools into a horu book: each position with moves becomes a
// thought position (provenance: imported from FILE), so digging continues from it.
// DB2016 files are streamed line by line, so a multi-gigabyte book never sits in memory.

import { createReadStream, readFileSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import type { BookStore, KeyedThought } from "../store/book-store.js";
import { Db2016Reader, db2016HeaderProblem, isSpecialMoveWord, type Db2016Block } from "../../shared/formats/db2016.js";
import { importApery } from "../../shared/formats/apery.js";
import { Position, SfenError } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { EMPTY, clampValue, colorOf, dropType, isDrop, moveFrom, moveTo } from "../../shared/rules/types.js";
import type { Candidate } from "../../shared/book/records.js";
import { readBookFileFull, type BookBlock } from "../formats/book-files.js";
import type { ImportReportView } from "../../shared/api/contract.js";

/** What an import did: the UI's view (shared/api/contract.ts) with the file's full path, and more. */
export interface ImportReport extends ImportReportView {
  /** Apery: records no legal walk from the root reached. */
  unreachable?: number;
}

const BATCH = 10_000;

/**
 * Stores imported positions in the book as one recorded import (store.imports.undo takes it back):
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
  get batchStarted(): boolean {
    return this.batch !== null;
  }
  write(rows: KeyedThought[]): void {
    if (rows.length === 0) return;
    this.batch ??= this.store.imports.begin(path.basename(this.file));
    const r = this.store.imports.add(this.batch, rows);
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

/** What a DB2016 block yields: a thought position and the moves left out as not damage (a word like `resign`), or why it is damaged. */
type BlockRead =
  { thought: KeyedThought; notes: Array<[line: number, message: string]> } | { damage: Array<[line: number, message: string]> };

/** A DB2016 block as a thought position, or the lines that make it damaged (a SFEN that is no position, an illegal move). */
function blockToThought(b: Db2016Block, file: string, now: number): BlockRead {
  let pos: Position;
  try {
    pos = Position.fromSfen(b.sfen);
  } catch (e) {
    return { damage: [[b.lineNo, `not a position: ${e instanceof SfenError ? e.message : String(e)}`]] };
  }
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  const notes: Array<[number, string]> = [];
  const damage: Array<[number, string]> = [];
  for (const m of b.moves) {
    if (seen.has(m.move)) continue;
    // A word real books put in the move field (none, resign, win...) is no move: left out and said so.
    if (isSpecialMoveWord(m.move)) {
      notes.push([m.lineNo, `'${m.move}' is not a move; left out`]);
      continue;
    }
    const why = whyIllegal(pos, m.move);
    if (why !== null) {
      damage.push([m.lineNo, `move ${m.move} is illegal in ${pos.sfenKey()}: ${why}`]);
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
  if (damage.length) return { damage };
  // The file's order is kept (its author's; the graph orders moves by value itself).
  const thought: KeyedThought = {
    sfen: pos.sfenKey(),
    keyHi: pos.keyHi,
    keyLo: pos.keyLo,
    candidates,
    provenance: { kind: "import", file: path.basename(file) },
    thoughtAt: now,
    ...(b.comment !== undefined ? { comment: b.comment } : {}),
  };
  return { thought, notes };
}

/** A damaged file: nothing of it was stored. The message names the file and the first damaged places. */
export class ImportRefusedError extends Error {
  constructor(
    readonly file: string,
    /** "FILE:LINE: problem", in line order. */
    readonly problems: string[],
    /** Reading stopped at the last one listed: there may be more. */
    readonly more = false,
  ) {
    const what = problems.length === 1 && !more ? "a damaged line" : `${more ? "the first " : ""}${problems.length} damaged lines`;
    super(`${file}: refused, nothing imported: ${what}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ImportRefusedError";
  }
}

/** Damaged places listed before a refused .db import stops reading. */
const REFUSAL_LISTED = 10;

interface Db2016Pass {
  positions: number;
  moves: number;
  /** Damaged places ("FILE:LINE: problem"), at most `stopAfter`. */
  damage: string[];
  notes: string[];
  noteCount: number;
}

/**
 * Reads a DB2016 file once, handing each position to `onThought`; stops after `stopAfter`
 * damaged places. `progress` gets the lines and bytes read.
 */
async function readDb2016File(
  file: string,
  now: number,
  stopAfter: number,
  onThought: (t: KeyedThought) => void,
  progress?: (lines: number, bytes: number) => void,
): Promise<Db2016Pass> {
  const out: Db2016Pass = { positions: 0, moves: 0, damage: [], notes: [], noteCount: 0 };
  const damage = (line: number, message: string) => {
    if (out.damage.length < stopAfter) out.damage.push(`${file}:${line}: ${message}`);
  };
  const reader = new Db2016Reader(
    (b) => {
      const r = blockToThought(b, file, now);
      if ("damage" in r) {
        for (const [line, message] of r.damage) damage(line, message);
        return;
      }
      for (const [line, message] of r.notes) {
        out.noteCount++;
        if (out.notes.length < MAX_LISTED) out.notes.push(`${file}:${line}: ${message}`);
      }
      if (out.damage.length) return; // refused anyway: nothing more to hand on
      onThought(r.thought);
      out.positions++;
      out.moves += r.thought.candidates.length;
    },
    { maxErrors: stopAfter },
  );
  const input = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let seen = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      reader.push(line, lineNo);
      for (; seen < reader.errors.length; seen++) damage(reader.errors[seen].line, reader.errors[seen].message);
      // A book of another version may mean other things by the same fields.
      if (lineNo === 1 && db2016HeaderProblem(reader.header)) break;
      if (out.damage.length >= stopAfter) break;
      if (progress && lineNo % 100_000 === 0) progress(lineNo, input.bytesRead);
    }
    if (out.damage.length < stopAfter) reader.end();
  } finally {
    lines.close();
    input.destroy();
  }
  out.damage.sort((a, b) => lineOf(a) - lineOf(b));
  return out;
}

const lineOf = (place: string): number => Number(/:(\d+): /.exec(place)?.[1] ?? 0);

/**
 * Imports a YaneuraOu DB2016 text book. The file is read twice: first every line is checked
 * (nothing stored), and a damaged file (a malformed line, a SFEN that is no position, an
 * illegal listed move, a header of another version) is refused with ImportRefusedError naming
 * the file and the first damaged lines; then it is read again and stored in batches.
 * `strict`: stop at the first damaged line instead of listing several.
 * `onProgress`: lines read and the work done in bytes of the file (each pass counts half).
 */
export async function importDb2016(
  store: BookStore,
  file: string,
  opts: { strict?: boolean; onProgress?: (lines: number, bytes?: number) => void } = {},
): Promise<ImportReport> {
  const t0 = performance.now();
  const now = Date.now();
  const stopAfter = opts.strict ? 1 : REFUSAL_LISTED;
  const onProgress = opts.onProgress;
  const check = await readDb2016File(file, now, stopAfter, () => undefined, onProgress && ((l, b) => onProgress(l, b / 2)));
  if (check.damage.length) throw new ImportRefusedError(file, check.damage, !opts.strict && check.damage.length >= stopAfter);

  const size = statSync(file).size;
  let batch: KeyedThought[] = [];
  const writer = new ImportWriter(store, file);
  const flush = () => {
    writer.write(batch);
    batch = [];
  };
  const read = await readDb2016File(
    file,
    now,
    1,
    (t) => {
      batch.push(t);
      if (batch.length >= BATCH) flush();
    },
    onProgress && ((l, b) => onProgress(l, size / 2 + b / 2)),
  );
  if (read.damage.length) {
    // The file changed between the check and the import: what was stored of it goes again.
    if (writer.batchStarted) store.imports.undo();
    throw new ImportRefusedError(file, [`${read.damage[0]} (the file changed while it was imported)`]);
  }
  flush();
  return {
    file,
    format: "db2016",
    positions: read.positions,
    moves: read.moves,
    added: writer.added,
    joined: writer.joined,
    errors: read.notes,
    errorCount: read.noteCount,
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
  if (read.author !== undefined) store.notes.setSbkBookMeta({ author: read.author, description: read.description ?? "" });
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
