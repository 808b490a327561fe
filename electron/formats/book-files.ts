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
import { readSbk, writeSbk } from "../../shared/formats/sbk.js";
import { db2016BlockText, db2016HeaderLines, sortedBlockOrder, sortMovesByCountValue } from "../../shared/formats/db2016.js";
import { normalizeSfen } from "../../shared/rules/sfen.js";
import { PetaShockExporter } from "../../shared/export/export.js";
import { BookStore } from "../store/book-store.js";
import type { BookEntryMove } from "../../shared/match/book-choice.js";

export type BookFileKind = "horu" | "db" | "bin" | "ybb" | "sbk";

export interface BookBlock {
  /** Normalized SFEN without ply. */
  sfen: string;
  /** Values from the side to move in `sfen`, best first where the file says so. */
  moves: BookEntryMove[];
}

const SQLITE = "SQLite format 3\0";
const YBB = "YANE-BINBOOK-V1\0";

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
  switch (kind) {
    case "horu":
      return readHoru(file);
    case "db":
      return readDb(file);
    case "bin":
      return readBin(file);
    case "ybb":
      return readYbbFile(file);
    case "sbk":
      return readSbkFile(file);
  }
}

function readHoru(file: string): BookBlock[] {
  const store = BookStore.open(file, { readonly: true });
  try {
    const ex = new PetaShockExporter();
    for (const t of store.iterateThought())
      ex.add({ sfen: t.sfen, moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })) });
    ex.run();
    const out: BookBlock[] = [];
    for (const b of ex.blocks("sfen"))
      out.push({ sfen: b.sfen, moves: b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth })) });
    return out;
  } finally {
    store.close();
  }
}

function readDb(file: string): BookBlock[] {
  const { blocks, reader } = parseDb2016(readFileSync(file, "utf8"));
  if (reader.errorCount > 0) {
    const e = reader.errors[0]!;
    throw new Error(`${file}: line ${e.line}: ${e.message}${reader.errorCount > 1 ? ` (and ${reader.errorCount - 1} more)` : ""}`);
  }
  const out: BookBlock[] = [];
  for (const b of blocks) {
    const sfen = normalizeSfen(b.sfen);
    if (!sfen) throw new Error(`${file}: line ${b.lineNo}: not a position: '${b.sfen}'`);
    const moves = b.moves
      .filter((m) => /^(?:[1-9][a-i][1-9][a-i]\+?|[PLNSBRG]\*[1-9][a-i])$/.test(m.move))
      .map((m) => ({ move: m.move, value: m.value ?? 0, depth: m.depth ?? 0, count: m.count ?? undefined }));
    out.push({ sfen, moves });
  }
  return out;
}

function readBin(file: string): BookBlock[] {
  const bytes = readFileSync(file);
  const r = importApery(bytes, "startpos", 256);
  if (r.truncatedBytes) throw new Error(`${file}: truncated: ${r.truncatedBytes} trailing bytes do not form a whole 16-byte record`);
  if (r.records > 0 && r.positions === 0)
    throw new Error(`${file}: no record matches a position reachable from the start position (not an Apery book?)`);
  return r.blocks.map((b) => ({
    sfen: b.sfen,
    moves: b.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth, count: c.count })),
  }));
}

function readYbbFile(file: string): BookBlock[] {
  try {
    return readYbb(readFileSync(file)).map((b) => ({
      sfen: b.sfen,
      moves: b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth })),
    }));
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

function readSbkFile(file: string): BookBlock[] {
  try {
    const r = readSbk(readFileSync(file));
    return r.blocks.map((b) => ({
      sfen: b.sfen,
      moves: b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth, count: m.count })),
    }));
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** The kind a file name asks for when written: by extension. */
export function bookKindOfName(file: string): Exclude<BookFileKind, "horu"> | undefined {
  const ext = path.extname(file).toLowerCase();
  return ext === ".db" ? "db" : ext === ".bin" ? "bin" : ext === ".ybb" ? "ybb" : ext === ".sbk" ? "sbk" : undefined;
}

/** The file's bytes for `blocks` in `kind` (moves best first; Apery counts default to 1). */
export function bookFileBytes(blocks: readonly BookBlock[], kind: Exclude<BookFileKind, "horu">): Uint8Array {
  switch (kind) {
    case "db": {
      const order = sortedBlockOrder(blocks);
      const parts = [db2016HeaderLines(blocks.length).join("\n") + "\n"];
      for (const i of order) {
        const b = blocks[i]!;
        parts.push(
          db2016BlockText({
            sfen: b.sfen,
            moves: sortMovesByCountValue(
              b.moves.map((m) => ({ move: m.move, ponder: null, value: m.value, depth: m.depth ?? 0, count: m.count ?? null })),
            ),
          }),
        );
      }
      return Buffer.from(parts.join(""), "utf8");
    }
    case "bin":
      return exportApery(
        blocks.map((b) => ({ sfen: b.sfen, candidates: b.moves.map((m) => ({ move: m.move, value: m.value, count: m.count ?? 1 })) })),
      ).bytes;
    case "ybb":
      return writeYbb(
        blocks.map((b) => ({ sfen: b.sfen, ply: 1, moves: b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth ?? 0 })) })),
      );
    case "sbk":
      return writeSbk(
        blocks.map((b) => ({
          sfen: b.sfen,
          moves: b.moves.map((m) => ({ move: m.move, value: m.value, depth: m.depth ?? 0, count: m.count ?? 1 })),
        })),
      );
  }
}

/** Writes a book file beside the target and renames it into place (a failure leaves the old file). */
export function writeBookFile(file: string, blocks: readonly BookBlock[], kind = bookKindOfName(file)): number {
  if (!kind) throw new Error(`${file}: the name must end in .db, .bin, .ybb or .sbk`);
  const bytes = bookFileBytes(blocks, kind);
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
  for (const b of readBookFile(file, kind)) if (!map.has(b.sfen)) map.set(b.sfen, b.moves);
  return { file, kind, positions: map.size, lookup: (k) => map.get(k) };
}
