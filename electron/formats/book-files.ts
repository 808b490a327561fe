// Book files of other tools as plain position blocks, for matches and conversions: a horu
// book (SQLite; its Peta-Shock minimax values), YaneuraOu DB2016 text (.db), Apery/dlshogi
// (.bin, walked from the start position since it holds only keys), YaneuraOu binary
// (.ybb) and ShogiGUI/BookConv (.sbk). The kind is told by the file's first bytes where
// it has a signature, else by its extension.
import { openSync, readSync, closeSync, readFileSync, existsSync, writeFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { parseDb2016 } from "../../shared/formats/db2016.js";
import { importApery, exportApery } from "../../shared/formats/apery.js";
import { readYbb, writeYbb } from "../../shared/formats/ybb.js";
import { readSbk, writeSbk, type SbkBlock } from "../../shared/formats/sbk.js";
import { db2016BlockText, db2016HeaderLines, sortedBlockOrder, type Db2016OutBlock } from "../../shared/formats/db2016.js";
import { formatSfenKey, parseSfen } from "../../shared/rules/sfen.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { BookStore, type StoredThought } from "../store/book-store.js";
import { settingsFrom } from "../../shared/dig/settings.js";
import { parseRoot } from "../../shared/dig/root.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import type { Candidate, SbkStateRecord } from "../../shared/book/records.js";
import type { BookEntryMove } from "../../shared/match/book-choice.js";

export type BookFileKind = "horu" | "db" | "bin" | "ybb" | "sbk";

/** One listed move as a book file holds it; what a format has no place for is absent. */
export interface BookFileMove {
  move: string;
  /** From the side to move; null when the file gives none (DB2016 `none`, a .sbk move without an evaluation). */
  value: number | null;
  depth: number | null;
  count?: number;
  /** The expected reply (DB2016's second field), USI. */
  ponder?: string | null;
  comment?: string;
  /** ShogiGUI's mark: 1 forced, 2 good, 3 bad, 4 blunder. */
  mark?: number;
}

export interface BookBlock {
  /** Normalized SFEN without ply. */
  sfen: string;
  /** In the file's order. */
  moves: BookFileMove[];
  /** The move number the file gives the position (DB2016 sfen lines, .ybb records). */
  ply?: number;
  comment?: string;
  /** A .sbk state's games, wins and evaluations. */
  sbk?: SbkStateRecord;
}

/** A whole book file as read. */
export interface BookFile {
  kind: BookFileKind;
  blocks: BookBlock[];
  /** A .sbk book's author and description. */
  author?: string;
  description?: string;
  /** What the reader left out and why (damage is refused, not listed here). */
  problems: string[];
}

const SQLITE = "SQLite format 3\0";
const YBB = "YANE-BINBOOK-V1\0";

/**
 * A DB2016 book is UTF-8 text; one saved as UTF-16 (a byte-order mark, or NULs between ASCII
 * characters) read as lines of nothing but "move line before any 'sfen' line".
 */
export function db2016EncodingProblem(file: string): string | null {
  const b = head(file, 64);
  const bom = b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
  // ASCII in UTF-16 without a mark: every other byte NUL ("#\0Y\0" or "\0#\0Y").
  const bare =
    b.length >= 4 && ((b[1] === 0 && b[3] === 0 && b[0] !== 0 && b[2] !== 0) || (b[0] === 0 && b[2] === 0 && b[1] !== 0 && b[3] !== 0));
  if (!bom && !bare) return null;
  return `UTF-16 text${bom ? " (a byte-order mark)" : ""}, not UTF-8 as a DB2016 book is: save it as UTF-8 and try again`;
}

/**
 * A file read as DB2016 text that is no text at all: an SQLite database (a horu book named
 * .db, or given to import) or binary data (a picture, an archive). Read line by line they gave
 * dozens of "move line before any 'sfen' line", which names no cause.
 */
export function db2016NotTextProblem(file: string): string | null {
  const b = head(file, 4096);
  // A file cut to nothing (a download that failed) converted to an empty book with exit 0.
  if (b.length === 0) return "an empty file (0 bytes), no book";
  if (b.subarray(0, 16).toString("latin1") === SQLITE)
    return (
      "an SQLite database (a horu book, or another program's), not a YaneuraOu DB2016 text book: " +
      `a horu book is read as itself, not imported into another; to take its positions, \`horu export --book ${file} --out FILE.db --raw\` and import FILE.db`
    );
  if (db2016EncodingProblem(file)) return null; // UTF-16: said on its own
  // A NUL in a book that has positions is damage in a line (left out as such, the rest read):
  // binary data is a file with a NUL in its first 4 KiB and no "sfen " line there.
  const nul = b.indexOf(0);
  if (nul < 0 || /(^|\n)sfen /.test(b.toString("latin1"))) return null;
  const ext = path.extname(file).toLowerCase();
  return (
    `binary data (a NUL byte at offset ${nul}), not a YaneuraOu DB2016 text book` +
    (ext === ".db" ? "" : ` (read as one: its name ends in none of .bin, .ybb, .sbk and it has no horu or .ybb signature)`)
  );
}

function head(file: string, n: number): Buffer {
  const fd = openSync(file, "r");
  try {
    const b = Buffer.alloc(n);
    const got = readSync(fd, b, 0, n, 0);
    return b.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** What kind of book `file` is: by signature (SQLite, YANE-BINBOOK), else by extension. */
export function bookFileKind(file: string): BookFileKind {
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  const h = head(file, 16).toString("latin1");
  if (h === SQLITE) return "horu";
  if (h === YBB) return "ybb";
  const ext = path.extname(file).toLowerCase();
  if (ext === ".bin") return "bin";
  if (ext === ".sbk") return "sbk";
  if (ext === ".ybb") throw new Error(`${file}: not a YaneuraOu binary book (no "YANE-BINBOOK-V1" signature)`);
  if (ext === ".horu" || ext === ".sqlite") throw new Error(`${file}: not a horu book (not an SQLite file)`);
  return "db";
}

/** Every position of a book file, as blocks. Malformed files throw an error naming the file and the place. */
export function readBookFile(file: string, kind: BookFileKind = bookFileKind(file)): BookBlock[] {
  return readBookFileFull(file, kind).blocks;
}

/** A book file with everything it carries; a damaged file throws an error naming the file and the place. */
export function readBookFileFull(file: string, kind: BookFileKind = bookFileKind(file), root = "startpos"): BookFile {
  switch (kind) {
    case "horu":
      return readHoru(file);
    case "db":
      return { kind, blocks: readDb(file), problems: [] };
    case "bin":
      return readBin(file, root);
    case "ybb":
      return { kind, blocks: readYbbFile(file), problems: [] };
    case "sbk":
      return readSbkFile(file);
  }
}

/** A horu book: its Peta-Shock minimax values (with the book's own draw values), and what the book keeps of imported files. */
function readHoru(file: string): BookFile {
  let store: BookStore | undefined;
  try {
    store = BookStore.open(file, { readonly: true });
    return readHoruStore(store);
  } catch (e) {
    // SQLite's own words ("database disk image is malformed") name no file: this one.
    if (e instanceof Error && /^SQLITE_/.test(String((e as { code?: unknown }).code ?? "")) && !e.message.includes(file))
      throw new Error(`${file}: ${e.message}`, { cause: e });
    throw e;
  } finally {
    store?.close();
  }
}

function readHoruStore(store: BookStore): BookFile {
  const { settings } = settingsFrom(store.settings.all());
  const ex = new PetaShockExporter({ drawBlack: settings.drawBlack, drawWhite: settings.drawWhite });
  const kept = new Map<string, StoredThought>();
  for (const t of store.thoughts.iterateBySfen()) {
    ex.add({ sfen: t.sfen, moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })) });
    if (t.comment !== undefined || t.sbk !== undefined || t.candidates.some((c) => hasFileNotes(c))) kept.set(t.sfen, t);
  }
  ex.run();
  const out: BookBlock[] = [];
  for (const b of ex.blocks("sfen")) {
    const t = kept.get(b.sfen);
    const byMove = new Map(t?.candidates.map((c) => [c.move, c]));
    const block: BookBlock = {
      sfen: b.sfen,
      moves: b.moves.map((m) => {
        const c = byMove.get(m.move);
        return { move: m.move, value: m.value, depth: m.depth, ...(c ? fileNotes(c) : {}) };
      }),
    };
    if (t?.comment !== undefined) block.comment = t.comment;
    if (t?.sbk !== undefined) block.sbk = t.sbk;
    out.push(block);
  }
  return { kind: "horu", blocks: out, problems: [], ...store.notes.sbkBookMeta() };
}

const hasFileNotes = (c: Candidate): boolean => c.count !== undefined || c.comment !== undefined || c.mark !== undefined;

/** What a book keeps of a move from an imported file besides its value and depth. */
function fileNotes(c: Candidate): Partial<BookFileMove> {
  const out: Partial<BookFileMove> = {};
  if (c.count !== undefined) out.count = c.count;
  if (c.comment !== undefined) out.comment = c.comment;
  if (c.mark !== undefined) out.mark = c.mark;
  return out;
}

/** A thought position's moves as a book file's: "none" where the file gave none, the ponder move, comments and marks. */
export function thoughtToBlock(t: { sfen: string; candidates: readonly Candidate[]; comment?: string; sbk?: SbkStateRecord }): BookBlock {
  const block: BookBlock = {
    sfen: t.sfen,
    moves: t.candidates.map((c) => ({
      move: c.move,
      value: c.noValue ? null : c.value,
      depth: c.noDepth ? null : c.depth,
      ponder: c.pv[1] ?? null,
      ...fileNotes(c),
    })),
  };
  if (t.comment !== undefined) block.comment = t.comment;
  if (t.sbk !== undefined) block.sbk = t.sbk;
  return block;
}

const USI_MOVE = /^(?:[1-9][a-i][1-9][a-i]\+?|[PLNSBRG]\*[1-9][a-i])$/;

function readDb(file: string): BookBlock[] {
  const wide = db2016EncodingProblem(file) ?? db2016NotTextProblem(file);
  if (wide) throw new Error(`${file}: ${wide}`);
  const { blocks, reader } = parseDb2016(readFileSync(file, "utf8"));
  if (reader.errorCount > 0) {
    const e = reader.errors[0]!;
    throw new Error(`${file}: line ${e.line}: ${e.message}${reader.errorCount > 1 ? ` (and ${reader.errorCount - 1} more)` : ""}`);
  }
  const out: BookBlock[] = [];
  for (const b of blocks) {
    const read = parseSfen(b.sfen);
    if (typeof read === "string") throw new Error(`${file}: line ${b.lineNo}: not a position: '${b.sfen}'`);
    const sfen = formatSfenKey(read.board, read.hands, read.side);
    // A move that cannot be played where it stands is damage, refused with its line as the
    // other readers refuse theirs: written on, it made a .ybb horu itself refuses and a .sbk
    // that silently dropped it.
    const pos = Position.fromParts(read.board, read.hands, read.side);
    for (const m of b.moves) {
      if (!USI_MOVE.test(m.move)) continue;
      const move = parseUsiMove(m.move);
      if (move === null || !pos.isLegal(move)) throw new Error(`${file}: line ${m.lineNo}: ${m.move} is not a legal move in ${sfen}`);
    }
    const moves = b.moves
      .filter((m) => USI_MOVE.test(m.move))
      .map((m) => {
        const out: BookFileMove = { move: m.move, value: m.value, depth: m.depth };
        if (m.count !== null) out.count = m.count;
        if (m.ponder !== null && USI_MOVE.test(m.ponder)) out.ponder = m.ponder;
        if (m.comment !== undefined) out.comment = m.comment;
        return out;
      });
    const block: BookBlock = { sfen, moves };
    if (read.ply !== undefined) block.ply = read.ply;
    if (b.comment !== undefined) block.comment = b.comment;
    out.push(block);
  }
  return out;
}

/** An Apery book walked from `root`; a truncated file, or a record whose move is not legal, is refused with its place. */
/**
 * The position an Apery .bin is walked from, given in any form a book's root takes
 * ("startpos moves 7g7f", "sfen ... moves ...", a bare SFEN), as the SFEN the walk reads.
 */
export function binRootSfen(file: string, root: string): string {
  try {
    return parseRoot(root).toSfen();
  } catch (e) {
    throw new Error(`${file}: the root to walk it from is not a position: ${root} (${e instanceof Error ? e.message : String(e)})`, {
      cause: e,
    });
  }
}

function readBin(file: string, root: string): BookFile {
  const bytes = readFileSync(file);
  const r = importApery(bytes, binRootSfen(file, root), 256);
  if (r.truncatedBytes)
    throw new Error(
      `${file}: truncated at offset ${bytes.length - r.truncatedBytes}: ${r.truncatedBytes} trailing bytes do not form a whole 16-byte record`,
    );
  if (r.records > 0 && r.positions === 0)
    throw new Error(`${file}: no record matches a position reachable from the root (not an Apery book, or another root?)`);
  if (r.illegal > 0) {
    const first = r.errors.find((e) => /not a legal move/.test(e.message));
    throw new Error(`${file}: ${first?.message ?? "a record's move is not legal"}${r.illegal > 1 ? ` (and ${r.illegal - 1} more)` : ""}`);
  }
  return {
    kind: "bin",
    blocks: r.blocks.map((b) => ({
      sfen: b.sfen,
      moves: b.candidates.map((c) => ({ move: c.move, value: c.value, depth: null, count: c.count })),
    })),
    problems: r.errors.map((e) => e.message),
  };
}

function readYbbFile(file: string): BookBlock[] {
  try {
    return readYbb(readFileSync(file)).map((b) => ({
      sfen: b.sfen,
      ply: b.ply,
      moves: b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth })),
    }));
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

function readSbkFile(file: string): BookFile {
  let r: ReturnType<typeof readSbk>;
  try {
    r = readSbk(readFileSync(file));
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return {
    kind: "sbk",
    author: r.author,
    description: r.description,
    problems: r.problems.map((p) => `${file}: ${p}`),
    blocks: r.blocks.map((b) => {
      const block: BookBlock = {
        sfen: b.sfen,
        moves: b.moves.map((m) => {
          const out: BookFileMove = { move: m.move, value: m.value, depth: m.depth, count: m.count };
          if (m.mark !== undefined) out.mark = m.mark;
          if (m.ponder) out.ponder = m.ponder;
          return out;
        }),
      };
      if (b.comment !== undefined) block.comment = b.comment;
      if (b.state !== undefined) block.sbk = b.state;
      return block;
    }),
  };
}

/** The kind a file name asks for when written: by extension. */
export function bookKindOfName(file: string): Exclude<BookFileKind, "horu"> | undefined {
  const ext = path.extname(file).toLowerCase();
  return ext === ".db" ? "db" : ext === ".bin" ? "bin" : ext === ".ybb" ? "ybb" : ext === ".sbk" ? "sbk" : undefined;
}

/** A book's author and description, for .sbk. */
export interface BookFileMeta {
  author?: string;
  description?: string;
  /** .sbk: the engine named on the evaluations written for a position's moves. */
  engine?: (sfen: string) => string | undefined;
}

/**
 * The file's bytes for `blocks` in `kind`, moves in the order given. What the format has
 * no place for is dropped (dropped() says what); a value the file lacks is written as
 * "none" where the format has it (DB2016; .sbk: no evaluation) and as 0 elsewhere; Apery
 * and .sbk counts default to 1. A DB2016 file lists no position without moves.
 */
export function bookFileBytes(blocks: readonly BookBlock[], kind: Exclude<BookFileKind, "horu">, meta: BookFileMeta = {}): Uint8Array {
  switch (kind) {
    case "db": {
      const listed = blocks.filter((b) => b.moves.length > 0);
      const order = sortedBlockOrder(listed);
      const parts = [db2016HeaderLines(listed.length).join("\n") + "\n"];
      for (const i of order) parts.push(db2016BlockText(dbBlock(listed[i]!)));
      return Buffer.from(parts.join(""), "utf8");
    }
    case "bin":
      return exportApery(
        blocks.map((b) => ({
          sfen: b.sfen,
          candidates: b.moves.map((m) => ({ move: m.move, value: m.value ?? 0, count: m.count ?? 1 })),
        })),
      ).bytes;
    case "ybb":
      return writeYbb(
        blocks.map((b) => ({
          sfen: b.sfen,
          ply: b.ply ?? 1,
          moves: b.moves.map((m) => ({ move: m.move, value: m.value ?? 0, depth: m.depth ?? 0 })),
        })),
      );
    case "sbk":
      return writeSbk(
        blocks.map((b) => {
          const out: SbkBlock = {
            sfen: b.sfen,
            moves: b.moves.map((m) => ({
              move: m.move,
              value: m.value,
              depth: m.depth,
              count: m.count ?? 1,
              ...(m.mark !== undefined ? { mark: m.mark } : {}),
              ...(m.ponder ? { ponder: m.ponder } : {}),
            })),
          };
          if (b.comment !== undefined) out.comment = b.comment;
          if (b.sbk !== undefined) out.state = b.sbk;
          return out;
        }),
        meta,
      );
  }
}

/** A block as DB2016 writes it: the file's ply when known, "none" for missing values. */
export function dbBlock(b: BookBlock): Db2016OutBlock {
  return {
    sfen: b.ply !== undefined ? `${b.sfen} ${b.ply}` : b.sfen,
    comment: b.comment ?? null,
    moves: b.moves.map((m) => ({
      move: m.move,
      ponder: m.ponder ?? null,
      value: m.value,
      depth: m.depth,
      count: m.count ?? null,
      comment: m.comment ?? null,
    })),
  };
}

/** What writing `blocks` as `kind` leaves out or fills in, one line each (empty: nothing). */
export function droppedBy(blocks: readonly BookBlock[], kind: Exclude<BookFileKind, "horu">, meta: BookFileMeta = {}): string[] {
  const tally = new DropTally();
  for (const b of blocks) tally.add(b);
  return tally.lines(kind, meta);
}

/** Counts, block by block (an export streams them), what a format may have no place for. */
export class DropTally {
  private none = 0;
  private depths = 0;
  private counts = 0;
  private ponders = 0;
  private moveComments = 0;
  private comments = 0;
  private marks = 0;
  private states = 0;
  private empty = 0;
  private noCount = 0;

  add(b: BookBlock): void {
    if (b.comment !== undefined) this.comments++;
    if (b.sbk !== undefined && (b.sbk.games || b.sbk.wonBlack || b.sbk.wonWhite || b.sbk.evals.length)) this.states++;
    if (b.moves.length === 0) this.empty++;
    for (const m of b.moves) {
      if (m.value === null || m.depth === null) this.none++;
      if (m.depth !== null && m.depth !== 0) this.depths++;
      if (m.count !== undefined) this.counts++;
      else this.noCount++;
      if (m.ponder) this.ponders++;
      if (m.comment !== undefined) this.moveComments++;
      if (m.mark !== undefined) this.marks++;
    }
  }

  lines(kind: Exclude<BookFileKind, "horu">, meta: BookFileMeta = {}): string[] {
    const { none, depths, counts, ponders, moveComments, comments, marks, states, empty, noCount } = this;
    const out: string[] = [];
    const say = (n: number, what: string) => {
      if (n > 0) out.push(`${n.toLocaleString("en")} ${what}`);
    };
    const binary = kind === "bin" || kind === "ybb";
    if (binary) say(ponders, "ponder move(s) (.db and .sbk evaluations keep them)");
    if (kind !== "db") say(moveComments, "move comment(s) (only .db keeps them)");
    if (binary) say(comments, "position comment(s) (.db and .sbk keep them)");
    if (kind !== "sbk") {
      say(marks, "ShogiGUI mark(s) (only .sbk keeps them)");
      say(states, ".sbk state(s)' games, wins and evaluations (only .sbk keeps them)");
      if (meta.author) out.push(`the author '${meta.author}' (only .sbk keeps it)`);
    }
    if (binary) say(none, "missing value(s) or depth(s) written as 0 (.db and .sbk keep 'none')");
    if (kind === "db") say(empty, "position(s) without moves (a .db lists none)");
    if (kind === "bin") say(depths, "depth(s) (.bin has none)");
    if (kind === "ybb") say(counts, "count(s) (.ybb has none)");
    if (kind === "bin" || kind === "sbk") say(noCount, "move(s) without a count written with count 1");
    return out;
  }
}

/** Writes a book file beside the target and renames it into place (a failure leaves the old file). */
export function writeBookFile(file: string, blocks: readonly BookBlock[], kind = bookKindOfName(file), meta: BookFileMeta = {}): number {
  if (!kind) throw new Error(`${file}: the name must end in .db, .bin, .ybb or .sbk`);
  const bytes = bookFileBytes(blocks, kind, meta);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new Error(`could not write ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return bytes.length;
}

/** A book a match player consults: position -> its moves. */
export interface MatchBook {
  file: string;
  kind: BookFileKind;
  positions: number;
  lookup(sfenKey: string): BookEntryMove[] | undefined;
}

export function openMatchBook(file: string): MatchBook {
  const kind = bookFileKind(file);
  const map = new Map<string, BookEntryMove[]>();
  // A move the file gives no value is valued 0 by the player, as engines read "none".
  for (const b of readBookFile(file, kind))
    if (!map.has(b.sfen))
      map.set(
        b.sfen,
        b.moves.map((m) => ({
          move: m.move,
          value: m.value ?? 0,
          ...(m.depth !== null ? { depth: m.depth } : {}),
          ...(m.count !== undefined ? { count: m.count } : {}),
        })),
      );
  return { file, kind, positions: map.size, lookup: (k) => map.get(k) };
}
