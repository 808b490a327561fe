// Bringing books made by other tools into a horu book: each position with moves becomes a
// thought position (provenance: imported from FILE), so digging continues from it.
// DB2016 files are streamed line by line, so a multi-gigabyte book never sits in memory.

import { createReadStream, fstatSync, readFileSync, statSync } from "node:fs";
import { openRegular } from "../fs/safe-file.js";
import { createInterface } from "node:readline";
import path from "node:path";
import type { BookStore, KeyedThought } from "../store/book-store.js";
import { Db2016Reader, db2016HeaderProblem, isSpecialMoveWord, type Db2016Block } from "../../shared/formats/db2016.js";
import { importApery } from "../../shared/formats/apery.js";
import { Position, SfenError } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { EMPTY, clampValue, colorOf, dropType, isDrop, moveFrom, moveTo } from "../../shared/rules/types.js";
import type { Candidate } from "../../shared/book/records.js";
import { binRootSfen, db2016EncodingProblem, db2016NotTextProblem, readBookFileFull, type BookBlock } from "../formats/book-files.js";
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
    const first = this.batch === null;
    this.batch ??= this.store.imports.begin(path.basename(this.file));
    let r: ReturnType<BookStore["imports"]["add"]>;
    try {
      r = this.store.imports.add(this.batch, rows);
    } catch (e) {
      // The first chunk failed (a full disk): the import's record holds nothing, and left in place
      // it was an import of the file to undo that never went in.
      if (first) {
        try {
          this.store.imports.undo();
          this.batch = null;
        } catch {
          // the record stays (it holds no position): undo removes it later
        }
      }
      throw e;
    }
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

/** A line of a file and what is wrong with it; `block`: the line is a position's, whose moves go with it. */
type Place = [line: number, message: string, block?: true];

/**
 * What a DB2016 block yields: its position (null when the block is no position) with the moves
 * that are legal there, the moves left out as no damage (a word like `resign`), and the damaged
 * lines (a SFEN that is no position, a move illegal in it).
 */
interface BlockRead {
  thought: KeyedThought | null;
  notes: Place[];
  damage: Place[];
}

/** A DB2016 block as a thought position with its legal moves, and the lines it could not take. */
function blockToThought(b: Db2016Block, file: string, now: number): BlockRead {
  let pos: Position;
  try {
    pos = Position.fromSfen(b.sfen);
  } catch (e) {
    const why = e instanceof SfenError ? e.message : String(e);
    return { thought: null, notes: [], damage: [[b.lineNo, `not a position: ${why}`, true]] };
  }
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  const notes: Place[] = [];
  const damage: Place[] = [];
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
  // Every move of it illegal: nothing is known of the position, so nothing of it is stored.
  if (damage.length && candidates.length === 0) return { thought: null, notes, damage };
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
  return { thought, notes, damage };
}

/** A damaged file: nothing of it was stored. The message names the file and the first damaged places. */
export class ImportRefusedError extends Error {
  constructor(
    readonly file: string,
    /** "FILE:LINE: problem", in line order. */
    readonly problems: string[],
    /** Reading stopped at the last one listed: there may be more. */
    readonly more = false,
    /** What the whole file is instead of a book (binary data, an SQLite database): said alone, not as "a damaged line". */
    whole?: string,
  ) {
    const what = problems.length === 1 && !more ? "a damaged line" : `${more ? "the first " : ""}${problems.length} damaged lines`;
    super(
      whole !== undefined
        ? `${file}: refused, nothing imported: ${whole}`
        : `${file}: refused, nothing imported: ${what}:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
    this.name = "ImportRefusedError";
  }
}

/** What one reading of a DB2016 file found. */
interface Db2016Pass {
  positions: number;
  moves: number;
  /** Damaged lines, the first `listed` of them in reading order (all are counted in `damageCount`). */
  damage: Place[];
  damageCount: number;
  /** Words that are no move (`resign`...), left out without damage. */
  notes: Place[];
  noteCount: number;
  /** The first line names another version of the format: nothing else was read. */
  header: Place | null;
}

/**
 * Reads a DB2016 file once, handing each position (with its legal moves) to `onThought`;
 * stops after `stopAfter` damaged lines. `progress` gets the lines and bytes read.
 */
async function readDb2016File(
  file: string,
  now: number,
  stopAfter: number,
  onThought: (t: KeyedThought) => void,
  progress?: (lines: number, bytes: number) => void,
): Promise<Db2016Pass> {
  const out: Db2016Pass = { positions: 0, moves: 0, damage: [], damageCount: 0, notes: [], noteCount: 0, header: null };
  // A few more than asked for: the first damage found is not always the first line (see below).
  const listed = Math.min(Math.max(stopAfter, 64), MAX_LISTED);
  const damage = (place: Place) => {
    out.damageCount++;
    if (out.damage.length < listed) out.damage.push(place);
  };
  /** The last line the reader found malformed. */
  let lastLineDamaged = 0;
  const reader = new Db2016Reader((b) => {
    const r = blockToThought(b, file, now);
    for (const place of r.damage) damage(place);
    for (const place of r.notes) {
      out.noteCount++;
      if (out.notes.length < MAX_LISTED) out.notes.push(place);
    }
    if (!r.thought || out.damageCount >= stopAfter) return; // refused anyway: nothing more to hand on
    // Every move line of it damaged: nothing is known of the position.
    if (r.thought.candidates.length === 0 && lastLineDamaged > b.lineNo) return;
    // No move listed (a file cut after its sfen line, or only words like 'none'): taken as
    // thought it would be a dead end the dig never thinks; left out, the dig thinks it.
    if (r.thought.candidates.length === 0) {
      out.noteCount++;
      if (out.notes.length < MAX_LISTED) out.notes.push([b.lineNo, "a position without moves; left out (a dig thinks it)"]);
      return;
    }
    onThought(r.thought);
    out.positions++;
    out.moves += r.thought.candidates.length;
  });
  // The reader's own errors (malformed lines) are taken after each line, so none is dropped.
  const takeErrors = () => {
    for (const e of reader.errors) {
      damage(e.kind === "position" ? [e.line, e.message, true] : [e.line, e.message]);
      lastLineDamaged = e.line;
    }
    reader.errors.length = 0;
  };
  const { fd, size } = openRegularFd(file);
  const input = createReadStream("", { fd, encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      reader.push(line, lineNo);
      // A book of another version may mean other things by the same fields: not read further.
      if (lineNo === 1 && db2016HeaderProblem(reader.header)) {
        out.header = [1, db2016HeaderProblem(reader.header)!];
        break;
      }
      takeErrors();
      if (out.damageCount >= stopAfter) {
        // A malformed line is found as it is read, an illegal move when its position's block
        // ends: the block under way is finished, so an earlier line of it is not passed over.
        reader.end();
        takeErrors();
        break;
      }
      if (progress && lineNo % 100_000 === 0) progress(lineNo, Math.min(input.bytesRead, size));
    }
    if (!out.header && out.damageCount < stopAfter) {
      reader.end();
      takeErrors();
    }
  } finally {
    lines.close();
    input.destroy();
  }
  const byLine = (a: Place, b: Place) => a[0] - b[0];
  out.damage.sort(byLine);
  out.notes.sort(byLine);
  return out;
}

/** The file opened for reading only when it is a regular file (a FIFO would block the reader), and its size. */
function openRegularFd(file: string): { fd: number; size: number } {
  const fd = openRegular(file, { followLinks: true });
  return { fd, size: fstatSync(fd).size };
}

const said = (file: string, [line, message]: Place): string => `${file}:${line}: ${message}`;
/** A damaged line as the report lists it: what was left out with it. */
const leftOut = ([line, message, block]: Place): Place => [
  line,
  `${message}; ${block ? "the position and its moves" : "the line"} left out`,
];

/**
 * Imports a YaneuraOu DB2016 text book. By default the lines it cannot take are left out and
 * the rest stored, as YaneuraOu and ShogiHome read such a book: a malformed line, a SFEN that is
 * no position (with its moves), a move illegal in its position. The report lists each left-out
 * line as "FILE:LINE: why" (the first 10,000; `errorCount` counts them all).
 * `strict`: the file is checked whole first and the first damaged line refuses it
 * (ImportRefusedError naming it; nothing stored). A header of another version is refused either way.
 * `onProgress`: lines read and the work done in bytes of the file.
 */
export async function importDb2016(
  store: BookStore,
  file: string,
  opts: { strict?: boolean; onProgress?: (lines: number, bytes?: number) => void } = {},
): Promise<ImportReport> {
  const t0 = performance.now();
  const now = Date.now();
  const onProgress = opts.onProgress;
  const size = statSync(file).size;
  const wide = db2016EncodingProblem(file);
  if (wide) throw new ImportRefusedError(file, [`${file}:1: ${wide}`]);
  // No text at all (a horu book, a picture): one sentence, not a list of "damaged lines".
  const notText = db2016NotTextProblem(file);
  if (notText) throw new ImportRefusedError(file, [`${file}:1: ${notText}`], false, notText);
  if (opts.strict) {
    // Strict: a first reading only checks (each pass counts half of the work).
    const check = await readDb2016File(file, now, 1, () => undefined, onProgress && ((l, b) => onProgress(l, b / 2)));
    const first = check.header ?? check.damage[0];
    if (first) throw new ImportRefusedError(file, [said(file, first)]);
  }
  const half = opts.strict ? 0.5 : 1;
  let batch: KeyedThought[] = [];
  const writer = new ImportWriter(store, file);
  const flush = () => {
    writer.write(batch);
    batch = [];
  };
  const read = await readDb2016File(
    file,
    now,
    opts.strict ? 1 : Infinity,
    (t) => {
      batch.push(t);
      if (batch.length >= BATCH) flush();
    },
    onProgress && ((l, b) => onProgress(l, size * (1 - half) + b * half)),
  );
  // A header of another version is seen on line 1, before anything is stored.
  if (read.header) throw new ImportRefusedError(file, [said(file, read.header)]);
  if (opts.strict && read.damage.length) {
    // The file changed between the check and the import: what was stored of it goes again.
    if (writer.batchStarted) store.imports.undo();
    throw new ImportRefusedError(file, [`${said(file, read.damage[0])} (the file changed while it was imported)`]);
  }
  flush();
  // Left-out lines and no-move words, in line order.
  const listed = [...read.damage.map(leftOut), ...read.notes].sort((a, b) => a[0] - b[0]).slice(0, MAX_LISTED);
  return {
    file,
    format: "db2016",
    positions: read.positions,
    moves: read.moves,
    added: writer.added,
    joined: writer.joined,
    errors: listed.map((p) => said(file, p)),
    errorCount: read.damageCount + read.noteCount,
    leftOut: read.damageCount,
    ms: performance.now() - t0,
  };
}

export function importAperyFile(store: BookStore, file: string, root = "startpos", maxPly = 256): ImportReport {
  const t0 = performance.now();
  const bytes = readFileSync(file);
  const r = importApery(bytes, binRootSfen(file, root), maxPly);
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
