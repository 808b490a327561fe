// Game records -> games with USI moves and the positions they pass through.
//
// KIF, KI2, CSA, JKF and USEN go through tsshogi (MIT, used as a library): it knows the
// Japanese notations, handicaps, branches and special moves. One-game-per-line USI text
// (`startpos moves ...`, `[position] sfen ... moves ...`, bare SFEN) goes through our
// own rules core instead: tsshogi builds a full record tree per line and takes about 3 s
// on the 10,831-line records2016 file, our Position does it in a fraction of that.
//
// Kept as one file over 600 lines: every record format ends in the same game-building steps
// (positions, branches, special moves), which read best beside the readers that feed them.
import { jsonPieces } from "./json-depth.js";
import {
  Record as TsRecord,
  RecordFormatType,
  SpecialMoveType,
  detectRecordFormat,
  importCSA,
  importJKFString,
  importKI2,
  importKIF,
  type ImmutableNode,
} from "tsshogi";
import { Position } from "../rules/position.js";
import { parseUsiMove } from "../rules/usi.js";
import { decodeRecordBytes, type TextEncodingName } from "./encoding.js";
import { formatSfenKey, STARTPOS_SFEN } from "../rules/sfen.js";

export type RecordFormat = "kif" | "ki2" | "csa" | "jkf" | "usi" | "usen";
export type GameResult = "black" | "white" | "draw";

/** A variation: moves that branch off from a position of another line. */
export interface ParsedLine {
  /** sfenKey of the position the variation starts from (before its first move). */
  parentKey: string;
  /** Ply of that position (moves from the game's start). */
  startPly: number;
  moves: string[];
  /** Index in ParsedGame.positions of the position after this line's first move. */
  offset: number;
  result?: GameResult;
  ending?: string;
  /** With ParseOptions.comments: the record's comment after each move ("" none), beside `moves`. */
  comments?: string[];
}

export interface ParsedGame {
  index: number;
  /** 1-based source line where the game starts, when the format has one game per line or several per file. */
  line?: number;
  /** Start position as an SFEN with ply. */
  start: string;
  /** Main line, USI. */
  moves: string[];
  /**
   * Normalized sfenKey of every position: first the main line (start position, then
   * after each move, so positions[i] is the position before moves[i]), then each
   * variation's positions after each of its moves, in `variations` order.
   * Positions beyond `maxPly` (option) are not listed.
   */
  positions: string[];
  /** Ply (moves from the game's start) of each entry of `positions`. */
  plies: number[];
  /** Result of the main line, when the record says. */
  result?: GameResult;
  /** How the main line ended (tsshogi's special move name: resign, mate, timeout, ...). */
  ending?: string;
  /** Number of variations in the record, all levels (one whose first move is illegal counts here but is not listed). */
  branches: number;
  variations: ParsedLine[];
  /** With ParseOptions.comments: the comment before the first move, and after each main-line move ("" none). */
  startComment?: string;
  comments?: string[];
}

export interface ParseError {
  file: string;
  line?: number;
  message: string;
}

export interface ParsedFile {
  file: string;
  format: RecordFormat | "unknown";
  encoding: TextEncodingName;
  games: ParsedGame[];
  errors: ParseError[];
}

export interface ParseOptions {
  /** List positions only up to this ply (moves are always complete). Default: all. */
  maxPly?: number;
  /** Stop after this many games (a guard for huge inputs). Default: unlimited. */
  maxGames?: number;
  /** At most this many errors are listed; the rest are counted in a final entry. Default 100. */
  maxErrors?: number;
  /** Keep the record's comments (the record pane shows them; a seed or import has no use for them). */
  comments?: boolean;
}

/** Reads a game record file from bytes; never throws. */
export function parseRecordFile(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): ParsedFile {
  let decoded: { text: string; encoding: TextEncodingName };
  try {
    decoded = decodeRecordBytes(bytes, fileName);
  } catch (e) {
    return {
      file: fileName,
      format: "unknown",
      encoding: "utf-8",
      games: [],
      errors: [{ file: fileName, message: `cannot decode: ${errorText(e)}` }],
    };
  }
  const parsed = parseRecordText(decoded.text, fileName, options);
  parsed.encoding = decoded.encoding;
  return parsed;
}

/** Reads a game record file from text; never throws. */
export function parseRecordText(text: string, fileName: string, options: ParseOptions = {}): ParsedFile {
  const out: ParsedFile = { file: fileName, format: "unknown", encoding: "utf-8", games: [], errors: [] };
  const sink = new ErrorSink(out, options.maxErrors ?? 100);
  try {
    const body = text.replace(/^\uFEFF/, "");
    const blank = !body.trim();
    // Binary data is no record whatever marks it holds by chance: its format is not looked for.
    const binary = blank ? "" : binaryData(body);
    const format = blank || binary ? undefined : detectFormat(body, fileName);
    out.format = format ?? "unknown";
    if (blank) {
      sink.add(undefined, "empty file");
    } else if (binary) {
      sink.add(undefined, `not a game record: ${binary}`);
    } else if (format === undefined) {
      sink.add(undefined, "not a game record (no KIF, KI2, CSA, JKF, USEN or USI content found)");
    } else if (notARecord(body, format)) {
      out.format = "unknown";
      sink.add(undefined, `not a game record: ${notARecord(body, format)}`);
    } else if (format === "usi") {
      parseUsiLines(body, out, sink, options);
    } else if (format === "usen") {
      parseUsenLines(body, out, sink, options);
    } else if (format === "csa") {
      for (const chunk of splitCsa(body)) {
        if (reachedMaxGames(out, options)) break;
        if (chunk.text.length > MAX_CSA_GAME_BYTES) {
          sink.add(
            chunk.line,
            `not a game record: a CSA game of ${(chunk.text.length / 1048576).toFixed(1)} MiB (at most ${MAX_CSA_GAME_BYTES / 1048576} MiB per game)`,
          );
          continue;
        }
        if (!CSA_MARKS.test(chunk.text)) {
          sink.add(chunk.line, "not a game record: no CSA version, player, position or move line found");
          continue;
        }
        addReadable((text) => importSafe(() => importCSA(text)), chunk.line, out, sink, options, { text: chunk.text, format: "csa" });
      }
    } else if (format === "jkf") {
      parseJkf(body, out, sink, options);
    } else {
      const read = (f: "kif" | "ki2"): TsRecord | Error => importSafe(() => (f === "kif" ? importKIF(body) : importKI2(body)));
      let fmt: "kif" | "ki2" = format;
      let r = read(fmt);
      // Sites label KI2 files ".kif" (and the reverse): when the extension's reading finds
      // no moves, try what the content looks like.
      if (r instanceof Error || r.moves.length <= 1) {
        const sniffed = detectRecordFormat(body.trim());
        const other = sniffed === RecordFormatType.KI2 ? "ki2" : sniffed === RecordFormatType.KIF ? "kif" : undefined;
        if (other && other !== fmt) {
          const r2 = read(other);
          if (!(r2 instanceof Error) && r2.moves.length > 1) {
            r = r2;
            fmt = other;
            out.format = other;
          }
        }
      }
      const f = fmt;
      addReadable(
        (text) => (text === body ? r : importSafe(() => (f === "kif" ? importKIF(text) : importKI2(text)))),
        undefined,
        out,
        sink,
        options,
        {
          text: body,
          format: fmt,
        },
      );
    }
  } catch (e) {
    sink.add(undefined, `internal error while parsing: ${errorText(e)}`);
  }
  sink.finish();
  return out;
}

// ---------------------------------------------------------------------------

/** One KIF/KI2/JKF game is a few kilobytes; a file this big is not one (and would hold tsshogi for seconds). */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;
/** One game of a multi-game CSA file. */
const MAX_CSA_GAME_BYTES = 1024 * 1024;

// What every record of a format has somewhere: a header, a move, a board line. tsshogi reads
// leniently (any text becomes an empty game), so text with none of these is junk.
const KIF_MARKS =
  /手合割|開始日時|終了日時|棋戦|[先後][手]番?[：:]|[上下]手[：:]|手数[-－ー]+指手|[▲△☗☖]|^\s*\d+\s+(?:[１-９1-9][一二三四五六七八九1-9]|同)|変化[：:]|[先後]手の持駒|^\s*\|\s*(?:[ \u3000・]|v?[歩香桂銀金角飛玉王と杏圭全馬龍竜])/m;
const CSA_MARKS =
  /^(?:V2|N[+-]\S|P[I1-9+-]|[+-]\d{4}[A-Z]{2}|\$[A-Z_]+:|%(?:TORYO|CHUDAN|SENNICHITE|TSUMI|KACHI|JISHOGI|HIKIWAKE|TIME_UP|ILLEGAL_MOVE))/m;

// Text records hold no NUL and hardly any other control character (tab, line ends, form feed
// and a DOS end-of-file mark aside). Binary or random bytes decoded as Shift_JIS hold many, and
// can hold ▲ or △ (a KIF mark) by chance: 1 of 20 random 5 KB files once seeded as a KIF record.
/** A C0 control character that text records do not hold (not tab, line ends, form feed or 0x1a). */
const isControl = (c: number): boolean => c < 0x20 && !(c >= 0x09 && c <= 0x0d) && c !== 0x1a;

/** Why the text is binary data rather than a record, or "" when it is text. */
function binaryData(body: string): string {
  let count = 0,
    first = -1,
    nul = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (!isControl(c)) continue;
    count++;
    if (first < 0) first = i;
    if (c === 0 && nul < 0) nul = i;
  }
  if (nul < 0 && count <= Math.max(8, body.length / 1000)) return "";
  const at = nul >= 0 ? nul : first;
  return `binary data, not text (${count} control character(s), the first 0x${body.charCodeAt(at).toString(16).padStart(2, "0")} at character ${at + 1})`;
}

/** Why text of the detected format is not a game record, or "" when it may be one. */
function notARecord(body: string, format: RecordFormat): string {
  switch (format) {
    case "kif":
    case "ki2":
      if (body.length > MAX_RECORD_BYTES)
        return `${(body.length / 1048576).toFixed(1)} MiB is far more than a ${format.toUpperCase()} record holds (at most ${MAX_RECORD_BYTES / 1048576} MiB)`;
      return KIF_MARKS.test(body) ? "" : `no ${format.toUpperCase()} header, move or board line found`;
    case "csa":
      return CSA_MARKS.test(body) ? "" : "no CSA version, player, position or move line found";
    case "jkf":
      if (body.length > MAX_RECORD_BYTES)
        return `${(body.length / 1048576).toFixed(1)} MiB is far more than a JKF record holds (at most ${MAX_RECORD_BYTES / 1048576} MiB)`;
      return /"(?:header|moves|initial)"\s*:/.test(body) ? "" : "no JKF header, initial position or moves found";
    case "usi":
    case "usen":
      return "";
  }
}

class ErrorSink {
  private dropped = 0;
  constructor(
    private readonly out: ParsedFile,
    private readonly max: number,
  ) {}
  add(line: number | undefined, message: string): void {
    if (this.out.errors.length >= this.max) {
      this.dropped++;
      return;
    }
    this.out.errors.push(line === undefined ? { file: this.out.file, message } : { file: this.out.file, line, message });
  }
  finish(): void {
    if (this.dropped) this.out.errors.push({ file: this.out.file, message: `${this.dropped} more errors not listed` });
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function reachedMaxGames(out: ParsedFile, options: ParseOptions): boolean {
  return options.maxGames !== undefined && out.games.length >= options.maxGames;
}

const USI_HEAD = /^(?:position\s+)?(?:startpos\b|sfen\s|moves\s)/;
const BARE_SFEN = /^[1-9+plnsgbrkPLNSGBRK]+(?:\/[1-9+plnsgbrkPLNSGBRK]+){8}\s+[bw]\s+\S+/;

/** The first line that is neither blank nor a comment. */
function firstContentLine(text: string): string {
  let start = 0;
  for (let guard = 0; guard < 10000 && start < text.length; guard++) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    if (line && !line.startsWith("#") && !line.startsWith("//")) return line;
    start = end + 1;
  }
  return "";
}

function detectFormat(text: string, fileName: string): RecordFormat | undefined {
  const first = firstContentLine(text);
  if (USI_HEAD.test(first) || first === "startpos" || first === "position startpos" || BARE_SFEN.test(first)) return "usi";
  const ext = (/\.([A-Za-z0-9]+)$/.exec(fileName)?.[1] ?? "").toLowerCase();
  if (ext === "kif" || ext === "kifu") return "kif";
  if (ext === "ki2" || ext === "ki2u") return "ki2";
  if (ext === "csa") return "csa";
  if (ext === "jkf") return "jkf";
  if (!first) return undefined;
  switch (detectRecordFormat(text.trim())) {
    case RecordFormatType.USI:
    case RecordFormatType.SFEN:
      return "usi";
    case RecordFormatType.KIF:
      return /[0-9０-９]/.test(text) || /手数/.test(text) ? "kif" : undefined;
    case RecordFormatType.KI2:
      return "ki2";
    case RecordFormatType.CSA:
      return "csa";
    case RecordFormatType.JKF:
      return "jkf";
    case RecordFormatType.USEN:
      return "usen";
  }
  return undefined;
}

function importSafe(f: () => TsRecord | Error): TsRecord | Error {
  try {
    return f();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** CSA files may hold several games separated by a line "/". */
function splitCsa(text: string): { text: string; line: number }[] {
  const lines = text.split(/\r\n|\r|\n/);
  const chunks: { text: string; line: number }[] = [];
  let cur: string[] = [];
  let startLine = 1;
  lines.forEach((l, i) => {
    if (l.trim() === "/") {
      if (cur.some((x) => x.trim())) chunks.push({ text: cur.join("\n"), line: startLine });
      cur = [];
      startLine = i + 2;
    } else cur.push(l);
  });
  if (cur.some((x) => x.trim())) chunks.push({ text: cur.join("\n"), line: startLine });
  return chunks;
}

/** Deeper JSON than any game record needs (a fork is three levels): refused before it can overflow the stack. */
export const MAX_JKF_DEPTH = 1000;

function parseJkf(body: string, out: ParsedFile, sink: ErrorSink, options: ParseOptions): void {
  const shape = jsonPieces(body);
  if (shape.depth > MAX_JKF_DEPTH) return parseDeepJkf(body, shape, out, sink, options);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    sink.add(undefined, `JKF: not valid JSON: ${errorText(e)}`);
    return;
  }
  const items = Array.isArray(json) ? json : [json];
  for (const item of items) {
    if (reachedMaxGames(out, options)) break;
    addRecord(
      importSafe(() => importJKFString(JSON.stringify(item))),
      undefined,
      out,
      sink,
      options,
    );
  }
}

/** A JKF nested too deep somewhere: each game of a list that nests within the limit is read, the others named. */
function parseDeepJkf(body: string, shape: ReturnType<typeof jsonPieces>, out: ParsedFile, sink: ErrorSink, options: ParseOptions): void {
  const tooDeep = (what: string, depth: number) =>
    sink.add(undefined, `JKF: nested deeper than ${MAX_JKF_DEPTH} levels (${what}: ${depth}); not read`);
  if (!shape.array) return tooDeep("the record", shape.depth);
  shape.pieces.forEach((piece, i) => {
    if (reachedMaxGames(out, options)) return;
    if (piece.depth > MAX_JKF_DEPTH) return tooDeep(`game ${i + 1}`, piece.depth);
    const text = body.slice(piece.start, piece.end);
    addRecord(
      importSafe(() => importJKFString(text)),
      undefined,
      out,
      sink,
      options,
    );
  });
}

function parseUsenLines(body: string, out: ParsedFile, sink: ErrorSink, options: ParseOptions): void {
  const lines = body.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length && !reachedMaxGames(out, options); i++) {
    const l = lines[i].trim();
    if (!l || l.startsWith("#")) continue;
    addRecord(
      importSafe(() => TsRecord.newByUSEN(l)),
      i + 1,
      out,
      sink,
      options,
    );
  }
}

// ---------------------------------------------------------------------------
// tsshogi record -> ParsedGame.

/** Result and ending name of a special move, given the colour to move when it was made. */
function resultOf(type: string, toMove: "black" | "white"): GameResult | undefined {
  const other = toMove === "black" ? "white" : "black";
  switch (type) {
    case SpecialMoveType.RESIGN:
    case SpecialMoveType.MATE:
    case SpecialMoveType.TIMEOUT:
    case SpecialMoveType.FOUL_LOSE:
    case SpecialMoveType.LOSE_BY_DEFAULT:
      return other;
    case SpecialMoveType.FOUL_WIN:
    case SpecialMoveType.ENTERING_OF_KING:
    case SpecialMoveType.WIN_BY_DEFAULT:
    case SpecialMoveType.TRY:
      return toMove;
    case SpecialMoveType.DRAW:
    case SpecialMoveType.IMPASS:
    case SpecialMoveType.REPETITION_DRAW:
    case SpecialMoveType.MAX_MOVES:
      return "draw";
    default:
      return undefined;
  }
}

/** The notation text a record came from, to put line numbers on errors tsshogi reports without them. */
interface Source {
  text: string;
  format: "kif" | "ki2" | "csa";
}

/** 1-based line (within the source text) of each main-line move, best effort. */
function mainLineMoveLines(src: Source): number[] {
  const lines = src.text.split(/\r\n|\r|\n/);
  const at: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (src.format !== "csa" && /^\s*変化/.test(l)) break;
    if (src.format === "kif") {
      const m = /^\s*(\d{1,6})\s+\S/.exec(l);
      if (m) at[Number(m[1]) - 1] = i + 1;
    } else if (src.format === "ki2") {
      if (/^\s*\*/.test(l)) continue; // comment lines quote moves too
      const n = (l.match(/[▲△☗☖▼▽]/g) ?? []).length;
      for (let k = 0; k < n; k++) at.push(i + 1);
    } else {
      for (const stmt of l.split(",")) if (/^[+-]\d{4}[A-Z]{2}/.test(stmt.trim())) at.push(i + 1);
    }
  }
  return at;
}

/**
 * The main line's move lines tsshogi passed over without a word: a move it cannot read
 * ("   2 xyzzy") and a move number that does not follow the one before. Such a record came
 * back as a branch or a line cut later at a move that is not the culprit ("variation move 2
 * '2g2f' is illegal"), so the culprit's line is named first. [line, problem] pairs.
 */
function kifMoveLineProblems(src: Source): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const lines = src.text.split(/\r\n|\r|\n/);
  let last = 0;
  for (let i = 0; i < lines.length && out.length < 5; i++) {
    const l = lines[i]!;
    if (/^\s*変化/.test(l)) break;
    const m = /^\s*(\d{1,6})\s+(\S+)/.exec(l);
    if (!m) continue;
    const n = Number(m[1]),
      text = m[2]!;
    // A move: a square (full-width or ASCII digit and a kanji rank) or 同; or an ending (投了, 千日手 ...),
    // which starts with neither a digit nor a side's mark nor bytes the decoding could not read
    // ("８%%歩(84)", "\ufffd\ufffd五歩(84)" passed as endings).
    const readable =
      /^(?:[▲△☗☖]?(?:[１-９1-9][一二三四五六七八九]|同))/.test(text) || /^[^\u0020-\u007e１-９▲△☗☖\ufffd\ue000-\uf8ff]/.test(text);
    if (!readable) out.push([i + 1, `move ${n} "${text}" is not a move; the record is read without it`]);
    else if (last !== 0 && n !== last + 1) out.push([i + 1, `move number ${n} follows ${last}: a move line is missing or unreadable`]);
    last = n;
  }
  return out;
}

/** The first line of the source containing a text quoted in an error message. */
function lineOfQuoted(src: Source | undefined, message: string): number | undefined {
  const quoted = quotedIn(message);
  if (!src || !quoted) return undefined;
  const i = src.text.indexOf(quoted);
  return i < 0 ? undefined : src.text.slice(0, i).split(/\r\n|\r|\n/).length;
}

/** The source text a tsshogi error quotes at its end ("Invalid move: +9999XX"). */
function quotedIn(message: string): string | undefined {
  return /:\s*(\S.{1,40})$/.exec(message.trim())?.[1];
}

/**
 * Reads one record, and where tsshogi gives up on it whole at a line it cannot read (a move
 * from a square where no such piece stands), reads the text before that line again: its
 * moves are seeded, and our replay names the move that made the later one unreadable (tsshogi
 * lets an illegal move through, and the record was dropped at the innocent line after it).
 */
function addReadable(
  read: (text: string) => TsRecord | Error,
  line: number | undefined,
  out: ParsedFile,
  sink: ErrorSink,
  options: ParseOptions,
  src: Source,
): void {
  const r = read(src.text);
  if (r instanceof Error) {
    // The line it gave up at: named in the message, else a line holding the text it quotes, the
    // last whose text before it reads (the same move may stand earlier, played legally).
    const named = lineFromMessage(r.message);
    const lines = src.text.split(/\r\n|\r|\n/);
    const quoted = quotedIn(r.message);
    const candidates = named !== undefined ? [named] : quoted ? lines.flatMap((l, i) => (l.includes(quoted) ? [i + 1] : [])).reverse() : [];
    for (const at of candidates) {
      if (at <= 1) continue;
      const before = lines.slice(0, at - 1).join("\n");
      const prefix = read(before);
      if (prefix instanceof Error || prefix.moves.length <= 1) continue;
      addRecord(prefix, line, out, sink, options, { text: before, format: src.format });
      sink.add(at + (line ?? 1) - 1, `${r.message}; the record is read up to the line before`);
      return;
    }
  }
  addRecord(r, line, out, sink, options, src);
}

function addRecord(
  r: TsRecord | Error,
  line: number | undefined,
  out: ParsedFile,
  sink: ErrorSink,
  options: ParseOptions,
  src?: Source,
): void {
  const base = (line ?? 1) - 1;
  if (r instanceof Error) {
    const inSource = lineFromMessage(r.message) ?? lineOfQuoted(src, r.message);
    sink.add(inSource !== undefined ? inSource + base : line, r.message);
    return;
  }
  const maxPly = options.maxPly ?? Number.POSITIVE_INFINITY;
  const where = line !== undefined ? `game at line ${line}` : `game ${out.games.length + 1}`;
  // tsshogi reads the notation; our rules core replays it, so every listed position is
  // one the book can hold and a move tsshogi let through but we call illegal ends its line.
  let start: Position;
  try {
    start = Position.fromSfen(r.initialPosition.sfen);
  } catch (e) {
    sink.add(line, `${where}: start position rejected: ${errorText(e)}`);
    return;
  }
  if (src?.format === "kif") for (const [at, problem] of kifMoveLineProblems(src)) sink.add(at + base, `${where}: ${problem}`);
  const startKey = formatSfenKey(start.board, start.hands, start.side);
  const game: ParsedGame = {
    index: out.games.length,
    start: start.toSfen(),
    moves: [],
    positions: [startKey],
    plies: [0],
    branches: 0,
    variations: [],
  };
  if (line !== undefined) game.line = line;
  // Depth-first over lines; each pending entry is the first node of a variation.
  const pending: { node: ImmutableNode; pos: Position; ply: number }[] = [];
  const walkLine = (first: ImmutableNode | null, pos: Position, startPly: number, main: boolean): void => {
    const parentKey = formatSfenKey(pos.board, pos.hands, pos.side);
    const lineRec: ParsedLine = { parentKey, startPly, moves: [], offset: game.positions.length };
    if (options.comments) lineRec.comments = [];
    let ply = startPly;
    for (let node = first, guard = 0; node && guard < 100000; node = node.next, guard++) {
      if (node.branch) pending.push({ node: node.branch, pos: pos.clone(), ply });
      const mv = node.move;
      if ("type" in mv) {
        lineRec.ending = mv.type === "any" ? mv.name : mv.type;
        const result = mv.type === "any" ? undefined : resultOf(mv.type, pos.side === 0 ? "black" : "white");
        if (result) lineRec.result = result;
        break;
      }
      const usi = mv.usi;
      const m = parseUsiMove(usi);
      if (m === null || !pos.isLegal(m)) {
        const at = main && src ? mainLineMoveLines(src)[ply] : undefined;
        sink.add(
          at !== undefined ? at + base : line,
          `${where}: ${main ? "main line" : "variation"} move ${ply + 1} "${usi}" is illegal in ${pos.toSfen()}; the line is cut there`,
        );
        break;
      }
      pos.doMove(m);
      ply++;
      lineRec.moves.push(usi);
      lineRec.comments?.push(node.comment);
      if (ply <= maxPly) {
        game.positions.push(formatSfenKey(pos.board, pos.hands, pos.side));
        game.plies.push(ply);
      }
    }
    if (main) {
      game.moves = lineRec.moves;
      if (lineRec.comments) game.comments = lineRec.comments;
      if (lineRec.result) game.result = lineRec.result;
      if (lineRec.ending) game.ending = lineRec.ending;
    } else if (lineRec.moves.length || lineRec.ending) {
      game.variations.push(lineRec);
    }
  };
  if (options.comments) game.startComment = r.first.comment;
  walkLine(r.first.next, start, 0, true);
  while (pending.length) {
    const v = pending.pop()!;
    game.branches++;
    walkLine(v.node, v.pos, v.ply, false);
  }
  out.games.push(game);
}

function lineFromMessage(message: string): number | undefined {
  const m = /(?:line|行)\s*[:：]?\s*(\d+)/i.exec(message) ?? /(\d+)\s*行目/.exec(message);
  return m ? Number(m[1]) : undefined;
}

// ---------------------------------------------------------------------------
// One game per line: `[position] startpos|sfen <sfen> [moves ...]`, bare SFEN, `moves ...`.

function parseUsiLines(body: string, out: ParsedFile, sink: ErrorSink, options: ParseOptions): void {
  const maxPly = options.maxPly ?? Number.POSITIVE_INFINITY;
  const intern = new Interner();
  const startCache = new StartCache();
  let lineNo = 0;
  let start = 0;
  while (start <= body.length && !reachedMaxGames(out, options)) {
    let end = body.indexOf("\n", start);
    if (end < 0) end = body.length;
    lineNo++;
    const raw = body.slice(start, end);
    start = end + 1;
    const text = raw.trim();
    if (!text || text.startsWith("#") || text.startsWith("//")) continue;
    const game = parseUsiLine(text, lineNo, maxPly, sink, out.games.length, intern, startCache);
    if (game) out.games.push(game);
  }
}

/**
 * One string per distinct position: opening collections repeat the same early positions
 * thousands of times (records2016: 260k positions, 104k distinct), so both the text and
 * the work of making it are shared.
 */
class Interner {
  // By the rules core's 64-bit Zobrist key (the book's own notion of identity): a repeated
  // position is neither formatted nor hashed as text again. Chained on the low half.
  private readonly byLo = new Map<number, { hi: number; key: string; next?: unknown }>();
  keyOf(pos: Position): string {
    let e = this.byLo.get(pos.keyLo);
    const head = e;
    while (e) {
      if (e.hi === pos.keyHi) return e.key;
      e = e.next as typeof e | undefined;
    }
    const key = formatSfenKey(pos.board, pos.hands, pos.side);
    this.byLo.set(pos.keyLo, { hi: pos.keyHi, key, next: head });
    return key;
  }
}

/** Collections start almost every line from the same position: parse it once, clone it per line. */
class StartCache {
  private sfen = "";
  private pos: Position | undefined;
  get(sfen: string): Position {
    if (sfen !== this.sfen || !this.pos) {
      this.pos = Position.fromSfen(sfen);
      this.sfen = sfen;
    }
    return this.pos.clone();
  }
}

function parseUsiLine(
  text: string,
  lineNo: number,
  maxPly: number,
  sink: ErrorSink,
  index: number,
  intern: Interner,
  startCache: StartCache,
): ParsedGame | undefined {
  const tokens = text.split(/\s+/);
  let i = 0;
  if (tokens[i] === "position") i++;
  let sfen: string;
  if (tokens[i] === "startpos") {
    sfen = STARTPOS_SFEN;
    i++;
  } else if (tokens[i] === "moves") {
    sfen = STARTPOS_SFEN;
  } else {
    if (tokens[i] === "sfen") i++;
    const head = tokens.slice(i, i + 3);
    i += 3;
    if (i < tokens.length && /^\d+$/.test(tokens[i])) head.push(tokens[i++]);
    sfen = head.join(" ");
  }
  let pos: Position;
  try {
    pos = startCache.get(sfen);
  } catch (e) {
    sink.add(lineNo, `bad position: ${errorText(e)}`);
    return undefined;
  }
  const game: ParsedGame = {
    index,
    line: lineNo,
    start: pos.toSfen(),
    moves: [],
    positions: [intern.keyOf(pos)],
    plies: [0],
    branches: 0,
    variations: [],
  };
  if (i < tokens.length) {
    if (tokens[i] !== "moves") {
      sink.add(lineNo, `expected "moves" after the position, found "${tokens[i].slice(0, 40)}"`);
      return game;
    }
    i++;
  }
  for (let ply = 1; i < tokens.length; i++, ply++) {
    const t = tokens[i];
    const m = parseUsiMove(t);
    if (m === null || !pos.isLegal(m)) {
      // Engines and servers end lines with these words; they are not moves.
      if (/^(resign|win|draw|none|0000|rep_draw|rep_sup|rep_inf)$/.test(t)) break;
      sink.add(
        lineNo,
        `move ${ply} "${t.slice(0, 20)}" is ${m === null ? "not a USI move" : `illegal in ${pos.toSfen()}`}; the game is kept up to move ${ply - 1}`,
      );
      break;
    }
    pos.doMove(m);
    game.moves.push(t);
    if (ply <= maxPly) {
      game.positions.push(intern.keyOf(pos));
      game.plies.push(ply);
    }
  }
  return game;
}
