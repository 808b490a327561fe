// YaneuraOu `#YANEURAOU-DB2016 1.00` book text (docs/DESIGN.md §5.3): a tolerant reader
// that takes one line at a time (so a Node stream can feed it without holding the file)
// and a writer that produces the canonical form engines binary-search on disk.
// Kept as one file (just over 600 lines): the reader and the writer of one format must agree.

import { checkSfen, scanSfen, type ScannedPosition, type SfenScan } from "../rules/sfen.js";
import { parseUsiMove, parseUsiMoveBytes } from "../rules/usi.js";

export const DB2016_HEADER = "#YANEURAOU-DB2016 1.00";

/** One move line as read. Missing, empty or `none` fields are null. */
export interface Db2016Move {
  move: string;
  ponder: string | null;
  value: number | null;
  depth: number | null;
  count: number | null;
  lineNo: number;
  /** The file's comment on the move: `#` / `//` lines after it and a trailing comment, joined by "\n". */
  comment?: string;
}

/** One position block as read. */
export interface Db2016Block {
  /** As written after "sfen " (board, side, hands and the optional ply), trimmed. */
  sfen: string;
  lineNo: number;
  moves: Db2016Move[];
  /** The file's comment on the position: `#` / `//` lines between its sfen line and its first move. */
  comment?: string;
}

export interface Db2016ParseError {
  line: number;
  message: string;
  /** "position": a sfen line that is no position (its move lines are skipped with it); else one line. */
  kind?: "position";
}

/** Thrown in strict mode at the first malformed line. */
export class Db2016Error extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
    this.name = "Db2016Error";
  }
}

export interface Db2016ReaderOptions {
  /** Throw a Db2016Error at the first malformed line instead of collecting errors. */
  strict?: boolean;
  /** Errors kept in `errors` (all are counted in `errorCount`); default 1000. */
  maxErrors?: number;
}

const MOVE_RE = /^(?:[1-9][a-i][1-9][a-i]\+?|[PLNSBRG]\*[1-9][a-i])$/;
/** Move-field words that are not moves but appear in real books; the exporter ignores them. */
const SPECIAL_MOVES = new Set(["none", "None", "resign", "win", "draw", "null", "0000", "pass"]);
const INT_RE = /^[+-]?\d+$/;

/** Whether `text` is one of the words real books put in the move field that are no move (none, resign, win...). */
export function isSpecialMoveWord(text: string): boolean {
  return SPECIAL_MOVES.has(text);
}

/** Whether `text` is a board-move or drop in USI syntax (legality is not checked). */
export function isUsiMoveText(text: string): boolean {
  return MOVE_RE.test(text);
}

/** Where a trailing `#` or `//` comment starts, or -1. */
function commentStart(line: string): number {
  const hash = line.indexOf("#");
  const slashes = line.indexOf("//");
  let cut = hash;
  if (slashes >= 0 && (cut < 0 || slashes < cut)) cut = slashes;
  return cut;
}

/** A comment's text without its marker (`#` or `//`). */
function commentText(comment: string): string {
  return comment.startsWith("//") ? comment.slice(2) : comment.slice(1);
}

/**
 * What is wrong with a file's first line when it names a YaneuraOu book version horu does
 * not read (e.g. "#YANEURAOU-DB2016 2.00"), or null.
 */
export function db2016HeaderProblem(header: string | null): string | null {
  // The name and version; what follows them (a comment) is no matter.
  const named = header === null ? null : /^\uFEFF?\s*(#\s*YANEURAOU-DB\S*\s+\S+)/i.exec(header);
  if (!named || named[1] === DB2016_HEADER) return null;
  return `unknown book version '${named[1]}': horu reads '${DB2016_HEADER}' books`;
}

/** Checks "<board> <b|w> <hands> [ply]"; returns what is wrong, or null. */
export const checkSfenText = checkSfen;

function numberField(field: string | undefined): number | null | string {
  if (field === undefined || field === "" || field === "none" || field === "None") return null;
  if (!INT_RE.test(field)) return field;
  return Number(field);
}

/**
 * Incremental reader: push lines (without their line break; a trailing CR is dropped),
 * then end(). Each block is handed to `onBlock` when the next block starts or at end().
 * Move fields are positional, separated by single spaces, so ShogiHome's empty fields
 * ("7i6h none   8": value and depth empty, count 8) read as written.
 */
export class Db2016Reader {
  readonly errors: Db2016ParseError[] = [];
  errorCount = 0;
  /** The first line when it is a comment (normally DB2016_HEADER), else null. */
  header: string | null = null;
  /** The count from a `# NOE:<n>` line, if any. */
  noe: number | null = null;
  blockCount = 0;
  moveCount = 0;
  private current: Db2016Block | null = null;
  /** A block is open: move lines belong to it. */
  protected open = false;
  /** After a malformed sfen line its moves are skipped without one error each. */
  protected skipping = false;
  protected first = true;
  private readonly strict: boolean;
  private readonly maxErrors: number;

  constructor(
    private readonly onBlock: (block: Db2016Block) => void,
    opts: Db2016ReaderOptions = {},
  ) {
    this.strict = opts.strict ?? false;
    this.maxErrors = opts.maxErrors ?? 1000;
  }

  push(line: string, lineNo: number): void {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (this.first) {
      this.first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      const t = line.trim();
      if (t.startsWith("#") || t.startsWith("//")) {
        this.header = t;
        const problem = db2016HeaderProblem(t);
        if (problem) this.error(lineNo, problem);
        return;
      }
    }
    const trimmed = line.trim();
    if (trimmed === "") return;
    if (trimmed.startsWith("#") || trimmed.startsWith("//")) {
      const m = /^#\s*NOE:\s*(\d+)\s*$/.exec(trimmed);
      if (m) this.noe = Number(m[1]);
      else if (this.open) this.comment(commentText(trimmed));
      return;
    }
    const cut = commentStart(trimmed);
    const text = (cut >= 0 ? trimmed.slice(0, cut) : trimmed).trimEnd();
    const trailing = cut >= 0 ? commentText(trimmed.slice(cut)).trim() : null;
    if (text === "") return;
    if (text.startsWith("sfen ") || text.startsWith("sfen\t")) {
      this.flush();
      const sfen = text.slice(5).trim();
      const problem = checkSfenText(sfen);
      if (problem) {
        this.skipping = true;
        this.error(lineNo, problem, "position");
        return;
      }
      this.skipping = false;
      this.open = true;
      this.beginBlock(sfen, lineNo, line);
      if (trailing) this.comment(trailing);
      return;
    }
    if (this.skipping) return;
    if (!this.open) {
      this.error(lineNo, "move line before any 'sfen' line");
      return;
    }
    const fields = text.indexOf("\t") < 0 ? text.split(" ") : text.split(/[ \t]/);
    if (fields.length > 5) {
      this.error(lineNo, `too many fields (${fields.length}); expected 'move ponder value depth count'`);
      return;
    }
    const move = fields[0];
    if (!MOVE_RE.test(move) && !SPECIAL_MOVES.has(move)) {
      this.error(lineNo, `not a USI move: '${move}'`);
      return;
    }
    const p = fields[1];
    const ponder = p === undefined || p === "" || p === "none" || p === "None" ? null : p;
    const value = numberField(fields[2]);
    if (typeof value === "string") return this.error(lineNo, `value is not an integer: '${value}'`);
    const depth = numberField(fields[3]);
    if (typeof depth === "string") return this.error(lineNo, `depth is not an integer: '${depth}'`);
    const count = numberField(fields[4]);
    if (typeof count === "string") return this.error(lineNo, `count is not an integer: '${count}'`);
    this.moveCount++;
    this.addMove({ move, ponder, value, depth, count, lineNo });
    if (trailing) this.comment(trailing);
  }

  end(): void {
    this.flush();
  }

  /** A block starts (its sfen line read well); `line` is the whole line it came from. */
  protected beginBlock(sfen: string, lineNo: number, _line: string): void {
    this.current = { sfen, lineNo, moves: [] };
  }

  protected addMove(move: Db2016Move): void {
    this.current!.moves.push(move);
  }

  /** A comment line of the open block: the last move's when it has one, else the position's. */
  protected comment(text: string): void {
    const b = this.current;
    if (!b) return;
    const last = b.moves[b.moves.length - 1];
    if (last) last.comment = last.comment === undefined ? text : `${last.comment}\n${text}`;
    else b.comment = b.comment === undefined ? text : `${b.comment}\n${text}`;
  }

  /** The open block ends. */
  protected endBlock(): void {
    const block = this.current!;
    this.current = null;
    this.onBlock(block);
  }

  protected flush(): void {
    if (!this.open) return;
    this.open = false;
    this.blockCount++;
    this.endBlock();
  }

  protected error(line: number, message: string, kind?: "position"): void {
    if (this.strict) throw new Db2016Error(line, message);
    this.errorCount++;
    if (this.errors.length < this.maxErrors) this.errors.push(kind ? { line, message, kind } : { line, message });
  }
}

/** What Db2016ByteReader hands out: blocks as byte ranges, moves as codes. */
export interface Db2016ByteSink {
  /**
   * A block starts: its SFEN text (as written after "sfen ", trimmed) is src[start..end),
   * which is at byte `offset` of the whole input. `scanned`: the position the reader read
   * from it (valid during the call only), or null when the line took the text rules.
   */
  block(src: Uint8Array, start: number, end: number, offset: number, lineNo: number, scanned: ScannedPosition | null): void;
  /** A move line of the open block: the move's code (-1 for a word like `none` or `resign`), its value (null when missing). */
  move(code: number, value: number | null): void;
  /** The open block ends. */
  end(): void;
}

const BYTE_MOVE_NONE = -1;
const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

/**
 * Db2016Reader over bytes: push() chunks of a file as they are read, then end(). Lines in
 * the usual shape (single spaces, no comments or tabs, ASCII) are read straight from the
 * bytes without making strings; any other line goes through Db2016Reader's text rules, so
 * both readers accept, reject and report exactly the same lines.
 */
export class Db2016ByteReader extends Db2016Reader {
  private tail = new Uint8Array(0);
  private tailLength = 0;
  /** Byte offset of the current chunk in the whole input. */
  private base = 0;
  private lineNo = 0;
  private readonly scan: SfenScan = { side: 0, ply: 0, end: 0 };
  private readonly board = new Uint8Array(81);
  private readonly hands = new Uint8Array(16);
  private readonly scanned: ScannedPosition = { board: this.board, hands: this.hands, side: 0 };

  constructor(
    private readonly sink: Db2016ByteSink,
    opts: Db2016ReaderOptions = {},
  ) {
    super(() => {}, opts);
  }

  /** Lines read so far. */
  get lines(): number {
    return this.lineNo;
  }

  pushBytes(chunk: Uint8Array): void {
    let i = 0;
    const n = chunk.length;
    if (this.tailLength > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.keep(chunk, 0, n);
        this.base += n;
        return;
      }
      this.keep(chunk, 0, nl + 1);
      const lineBase = this.base - (this.tailLength - nl - 1);
      const t = this.tail;
      const len = this.tailLength;
      this.tailLength = 0;
      this.line(t, 0, len - 1, lineBase);
      i = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(10, i);
      if (nl < 0) break;
      this.line(chunk, i, nl, this.base + i);
      i = nl + 1;
    }
    if (i < n) this.keep(chunk, i, n);
    this.base += n;
  }

  override end(): void {
    if (this.tailLength > 0) {
      const len = this.tailLength;
      this.tailLength = 0;
      this.line(this.tail, 0, len, this.base - len);
    }
    super.end();
  }

  private keep(src: Uint8Array, from: number, to: number): void {
    const need = this.tailLength + to - from;
    if (need > this.tail.length) {
      const next = new Uint8Array(Math.max(need, this.tail.length * 2, 256));
      next.set(this.tail.subarray(0, this.tailLength));
      this.tail = next;
    }
    this.tail.set(src.subarray(from, to), this.tailLength);
    this.tailLength = need;
  }

  /** One line src[start..end) (without its LF) at byte `offset` of the input. */
  private line(src: Uint8Array, start: number, end: number, offset: number): void {
    const lineNo = ++this.lineNo;
    if (end > start && src[end - 1] === 13) end--;
    if (!this.first && end > start && this.fastLine(src, start, end, offset, lineNo)) return;
    if (this.first && end - start >= 3 && src[start] === 0xef && src[start + 1] === 0xbb && src[start + 2] === 0xbf) {
      start += 3; // the BOM (TextDecoder would drop it silently and shift the offsets)
      offset += 3;
    }
    this.slowOffset = offset;
    this.push(textDecoder.decode(src.subarray(start, end)), lineNo);
  }

  private slowOffset = 0;

  /** The usual line shapes; false to leave the line to the text rules. */
  private fastLine(src: Uint8Array, start: number, end: number, offset: number, lineNo: number): boolean {
    for (let k = start; k < end; k++) {
      const c = src[k];
      if (c <= 32 ? c !== 32 : c >= 127 || c === 35 || (c === 47 && src[k + 1] === 47 && k + 1 < end)) return false;
    }
    if (src[start] === 32 || src[end - 1] === 32) return false;
    // "sfen <board> <side> <hands> [ply]"
    if (
      src[start] === 115 &&
      end - start > 5 &&
      src[start + 1] === 102 &&
      src[start + 2] === 101 &&
      src[start + 3] === 110 &&
      src[start + 4] === 32
    ) {
      if (src[start + 5] === 32) return false;
      if (scanSfen(src, start + 5, end, this.board, 0, this.hands, 0, this.scan) !== null || this.scan.end !== end) return false;
      this.flush();
      this.skipping = false;
      this.open = true;
      this.scanned.side = this.scan.side;
      this.sink.block(src, start + 5, end, offset + 5, lineNo, this.scanned);
      return true;
    }
    if (this.skipping) return true;
    if (!this.open) return false;
    // "move ponder value depth count", the last three optional.
    let k = start;
    while (k < end && src[k] !== 32) k++;
    let code = parseUsiMoveBytes(src, start, k);
    if (code < 0) {
      if (!isSpecialMove(src, start, k)) return false;
      code = BYTE_MOVE_NONE;
    }
    let value: number | null = null;
    for (let field = 1; k < end; field++) {
      const f0 = ++k;
      while (k < end && src[k] !== 32) k++;
      if (k === f0 || field > 4) return false; // empty field or too many: the text rules decide
      if (field === 1) continue; // ponder: any text
      const v = readInteger(src, f0, k);
      if (v === null) {
        if (!isNoneWord(src, f0, k)) return false;
      } else if (field === 2) value = v;
    }
    this.moveCount++;
    this.sink.move(code, value);
    return true;
  }

  protected override beginBlock(sfen: string, _lineNo: number, line: string): void {
    // The sfen text's bytes and where they are in the input (a slow line: rare).
    const bytes = textEncoder.encode(sfen);
    const at = line.indexOf(sfen, line.indexOf("sfen") + 4);
    const offset = this.slowOffset + textEncoder.encode(line.slice(0, at)).length;
    this.sink.block(bytes, 0, bytes.length, offset, _lineNo, null);
  }

  protected override addMove(move: Db2016Move): void {
    const code = parseUsiMove(move.move);
    this.sink.move(code === null ? BYTE_MOVE_NONE : code, move.value);
  }

  protected override endBlock(): void {
    this.sink.end();
  }
}

/** An integer field of at most 15 digits, else null. */
function readInteger(src: Uint8Array, start: number, end: number): number | null {
  let k = start;
  let sign = 1;
  if (src[k] === 45 || src[k] === 43) {
    if (src[k] === 45) sign = -1;
    k++;
  }
  if (k === end || end - k > 15) return null;
  let v = 0;
  for (; k < end; k++) {
    const d = src[k] - 48;
    if (d < 0 || d > 9) return null;
    v = v * 10 + d;
  }
  return sign * v;
}

function isNoneWord(src: Uint8Array, start: number, end: number): boolean {
  return (
    end - start === 4 &&
    (src[start] === 110 || src[start] === 78) &&
    src[start + 1] === 111 &&
    src[start + 2] === 110 &&
    src[start + 3] === 101
  );
}

function isSpecialMove(src: Uint8Array, start: number, end: number): boolean {
  if (end - start > 6) return false;
  return SPECIAL_MOVES.has(textDecoder.decode(src.subarray(start, end)));
}

/** Splits text into lines and reads them (line numbers from 1). */
export function parseDb2016(
  text: string,
  opts: Db2016ReaderOptions = {},
): { blocks: Db2016Block[]; errors: Db2016ParseError[]; reader: Db2016Reader } {
  const blocks: Db2016Block[] = [];
  const reader = new Db2016Reader((b) => blocks.push(b), opts);
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let nl = text.indexOf("\n", start);
    if (nl < 0) nl = text.length;
    const line = text.slice(start, nl);
    lineNo++;
    // A final line break does not start another (empty) line.
    if (!(nl === text.length && line === "" && lineNo > 1)) reader.push(line, lineNo);
    start = nl + 1;
  }
  reader.end();
  return { blocks, errors: reader.errors, reader };
}

// ---- writer ----

export interface Db2016OutMove {
  move: string;
  /** Written as `#` lines after the move (one per line of the text). */
  comment?: string | null;
  ponder?: string | null;
  value?: number | null;
  depth?: number | null;
  /** Omitted from the line when null or absent. */
  count?: number | null;
}

export interface Db2016OutBlock {
  /** Written after "sfen ": board, side, hands and optionally the ply. */
  sfen: string;
  moves: readonly Db2016OutMove[];
  /** Written as `#` lines after the sfen line. */
  comment?: string | null;
}

/**
 * Byte-wise (UTF-8) order, which is what engines binary-search with; not localeCompare.
 * UTF-16 code-unit order equals UTF-8 byte order except that surrogates (U+10000 and up)
 * must sort after U+E000..U+FFFF.
 */
export function compareSfenBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Lift surrogates above the rest of the BMP.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** The first two lines of a written book: the header and `# NOE:<blocks>`. */
export function db2016HeaderLines(blockCount: number): string[] {
  return [DB2016_HEADER, `# NOE:${blockCount}`];
}

function field(v: number | null | undefined): string {
  return v === null || v === undefined ? "none" : String(Math.trunc(v));
}

/** One move line: `move ponder value depth [count]`. */
export function db2016MoveLine(m: Db2016OutMove): string {
  const base = `${m.move} ${m.ponder ?? "none"} ${field(m.value)} ${field(m.depth)}`;
  return m.count === null || m.count === undefined ? base : `${base} ${Math.trunc(m.count)}`;
}

/** A comment as `#` lines. */
function commentLines(text: string | null | undefined): string {
  if (text === null || text === undefined || text === "") return "";
  let s = "";
  for (const line of text.split(/\r?\n/)) s += `#${line}\n`;
  return s;
}

/** A block's lines, each ending in "\n", as one string (moves in the order given, comments as `#` lines). */
export function db2016BlockText(block: Db2016OutBlock): string {
  let s = `sfen ${block.sfen}\n` + commentLines(block.comment);
  for (const m of block.moves) s += db2016MoveLine(m) + "\n" + commentLines(m.comment);
  return s;
}

export interface Db2016WriteOptions {
  /** The blocks are already in byte-wise SFEN order (skips the sort). */
  presorted?: boolean;
}

/** Block indices in byte-wise SFEN order; a stable sort keeps duplicates in input order. */
export function sortedBlockOrder(blocks: readonly { sfen: string }[]): Uint32Array {
  const order = Array.from({ length: blocks.length }, (_, i) => i);
  sortIdsBySfen(order, (i) => blocks[i].sfen);
  return Uint32Array.from(order);
}

/** Outside printable ASCII (rare in SFEN): the careful comparison is used. */
const NON_ASCII = /[^ -~]/;

/**
 * Sorts ids by their SFEN text in byte-wise order, stable. SFENs are ASCII, where the
 * engine's native string order is byte order and much faster than compareSfenBytes.
 */
export function sortIdsBySfen(ids: number[], sfenOf: (id: number) => string): void {
  if (ids.some((i) => NON_ASCII.test(sfenOf(i)))) {
    ids.sort((a, b) => compareSfenBytes(sfenOf(a), sfenOf(b)) || a - b);
    return;
  }
  ids.sort((a, b) => {
    const x = sfenOf(a);
    const y = sfenOf(b);
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}

/**
 * Incremental writer: yields text chunks (the header lines, then one chunk per block) so a
 * caller can stream a large book with back-pressure.
 */
export function* db2016Chunks(blocks: readonly Db2016OutBlock[], opts: Db2016WriteOptions = {}): Generator<string> {
  yield db2016HeaderLines(blocks.length).join("\n") + "\n";
  if (opts.presorted) {
    for (const b of blocks) yield db2016BlockText(b);
  } else {
    for (const i of sortedBlockOrder(blocks)) yield db2016BlockText(blocks[i]);
  }
}

/** The whole book as one string. */
export function writeDb2016(blocks: readonly Db2016OutBlock[], opts: Db2016WriteOptions = {}): string {
  let s = "";
  for (const chunk of db2016Chunks(blocks, opts)) s += chunk;
  return s;
}
