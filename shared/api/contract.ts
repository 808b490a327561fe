// The one contract between the UI and the host (Electron main process, `horu web`, or a
// worker thread): every call's name, its argument schema (validated at runtime on the
// host side, whatever the transport) and its result type, plus the events the host
// pushes. Electron IPC, HTTP + WebSocket and worker messages all carry exactly this.
//
// Kept as one file over 600 lines on purpose: it is the one contract, every call and event in one table.

import { z } from "zod";
import { DigSettingsSchema, type DigSettings } from "../dig/settings.js";
import type { UsiOption } from "../usi/option.js";
import type { UsiInfo, UsiScore } from "../usi/info.js";
import type { SeedFileReport } from "../formats/seed.js";
import type { ParseError } from "../formats/kifu.js";
import type { QualityProgress, QualityReport } from "../book/quality.js";

// --- Shapes the host returns -------------------------------------------------------

/**
 * A point of the Dig view's charts, kept in the book. `thought` counts the positions thought by
 * that run of the dig; `gap` marks a pause, a stop or a new run: the charts break their lines there.
 */
export interface ChartSample {
  /** ms since the epoch */
  t: number;
  thought: number;
  /** The selection's root value, from the root's side to move (null when there was none). */
  rootValue: number | null;
  gap: boolean;
}

/** An engine the book knows: any program, e.g. "ssh" with args ["host", "/path/engine"]. */
export interface EngineConfigView {
  id: number;
  name: string;
  command: string;
  args: string[];
  cwd: string | null;
  /** USI options to set (setoption name <k> value <v>). */
  options: Record<string, string | number | boolean>;
  enabled: boolean;
}

export interface EngineTestResult {
  ok: boolean;
  idName?: string;
  idAuthor?: string;
  options?: UsiOption[];
  /** What went wrong, as the engine (or the OS) said it. */
  error?: string;
  /** A message key the UI translates, when the host knows what went wrong (e.g. "engineMissing"). */
  key?: string;
  params?: Record<string, string | number>;
  stderr?: string[];
}

/**
 * An engine the open book names (its own engines table, from before the engine library) that
 * is not in this machine's library: a book can come from anyone, so it is shown, with its
 * command line, and never added, enabled or run until the user adds it.
 */
export interface BookEngineView {
  name: string;
  /** The command line as `engines.add` takes it. */
  commandLine: string;
  cwd: string | null;
  options: Record<string, string | number | boolean>;
  /** The same as a `horu engines add ...` command. */
  addCommand: string;
}

/** An engine horu can offer without the user typing anything: found on this machine, or built in. */
export interface EngineCandidateView {
  source: "library" | "detected" | "builtin";
  name: string;
  /** The command line that adds it to the library ("builtin:<id>" for a built-in engine). */
  commandLine: string;
  cwd: string | null;
  options: Record<string, string | number | boolean>;
  /** Where it was found ("on PATH", "in /usr/games", "built in"). */
  where: string;
  /** Searches by time only (needs a movetime limit). */
  timeOnly: boolean;
}

/** Which engines a dig uses: the library's, the best found on this machine, or a built-in one; `why` says it in English. */
export interface EngineChoiceView {
  source: "library" | "detected" | "builtin";
  names: string[];
  why: string;
  warnings: string[];
}

export interface EnginesFoundView {
  /** The engine library file (in the user's config folder). */
  libraryFile: string;
  /** Why the library cannot be used (damaged, or from a newer horu), or null. */
  libraryProblem: string | null;
  detected: EngineCandidateView[];
  builtin: EngineCandidateView[];
  /** What a dig would use now and why. */
  choice: EngineChoiceView;
  /** Where a first book would go (the documents folder, named by date). */
  newBookPath: string;
}

export interface BookInfo {
  path: string;
  positions: number;
  settings: DigSettings;
  rootSfen: string;
  /** Graph build time when the book was opened. */
  openMs: number;
  kifuSeeds: number;
  bans: number;
  failed: number;
  /** Opened read-only (another process holds the writer lock): this window follows it and cannot write. */
  readonly: boolean;
  /** Who holds the writer lock (this process when the window can write). */
  writer: { pid: number; host: string; since: number; self: boolean } | null;
  /** Positions waiting in the think queue (think now, added moves, game records). */
  queued: number;
  /** Pruned subtrees that can be put back, newest first. */
  prunes: Array<{ batch: number; rootSfen: string; positions: number; at: number }>;
  /** Imports that can be undone, newest first: the file's name and the positions it added or joined. */
  imports: Array<{ batch: number; file: string; positions: number; at: number }>;
  /** Scheduled backups, when set. */
  backup: BackupSchedule | null;
}

export interface BackupSchedule {
  everyMinutes: number;
  keep: number;
  /** Where the backups go (default: beside the book). */
  dir: string | null;
}

export interface BackupView {
  path: string;
  bytes: number;
  at: number;
}

/** What importing one book file did (electron/book/import.ts ImportReport adds to it). */
export interface ImportReportView {
  /** The file's name (the host's report has its full path). */
  file: string;
  format: "db2016" | "apery" | "ybb" | "sbk";
  positions: number;
  moves: number;
  /**
   * Positions new to the book, and thought positions the import joined: their own moves and
   * values kept, the imported moves they did not list added (an import never overwrites).
   */
  added: number;
  joined: number;
  /**
   * What was left out with file, line and reason (a move-field word like `resign`, a malformed
   * line, a move illegal in its position; the first 10,000, `errorCount` counts them all). A
   * strict import refuses a damaged file instead: nothing imported.
   */
  errors: string[];
  errorCount: number;
  /** Of `errorCount`, the lines left out as damaged (malformed, no position, an illegal move): .db only. */
  leftOut?: number;
  ms: number;
}

export type EngineState = "idle" | "starting" | "thinking" | "restarting" | "failed" | "stopped";

export interface EngineView {
  index: number;
  name: string;
  state: EngineState;
  /** The position being thought (null when not thinking). */
  sfen: string | null;
  /** The current think's serial number: a dig.info of another think is not this row's. */
  think: number;
  /** The current think's live view (best line's score and PV, latest counters), of `sfen`. */
  info: UsiInfo | null;
  restarts: number;
  lastError: string | null;
}

export type DigState = "idle" | "starting" | "digging" | "pausing" | "paused" | "stopping" | "stopped";

export interface DigStatus {
  state: DigState;
  thought: number;
  bookSize: number;
  elapsedMs: number;
  perHour: number;
  /** The last selection's root value: in-flight leaves removed, kifu bonus added. */
  rootValue: number | null;
  /** The plain book value at the root (refreshed every few seconds while digging). */
  bookValue: number | null;
  /** The plain book's best line from the root, with bookValue (finished lines, e.g. to a mate, included). */
  bookPv: string[];
  pv: string[];
  inFlight: Array<{ sfen: string; line: string[] }>;
  engines: EngineView[];
  lastSelection: { ms: number; nodes: number; bans: number } | null;
  bans: number;
  /** Share of this dig's selections that trusted a cached cyclic value (docs/DESIGN.md §3.6); 0 when idle. */
  cyclicShare: number;
  /**
   * Of the engines' time since their first think (pauses left out, a think under way counted
   * to now), the share they spent searching, and the share they sat idle with no position to
   * take (what horu's feed costs them; DigSummary in electron/dig/dig.ts says how each is
   * counted); null until an engine finished a think.
   */
  busyShare: number | null;
  waitingShare: number | null;
  failed: number;
  /** The last error that paused the dig, if any. */
  error: string | null;
  /** Which engines this dig uses and why (library, found on this machine, or built in). */
  choice?: EngineChoiceView | null;
}

/** "mate": the move mates (its line is finished: left out of selection by design, not a bad move). */
export type MoveState = "thought" | "in-flight" | "leaf" | "banned" | "failed" | "mate";
export type BoundName = "EXACT" | "LOWER" | "UPPER";

/** ShogiGUI's marks on a book move (.sbk SBookMoveEvaluation 1-4). */
export type SbkMark = "forced" | "good" | "bad" | "blunder";
export const SBK_MARKS: readonly SbkMark[] = ["forced", "good", "bad", "blunder"];

export interface MoveView {
  usi: string;
  /** Japanese notation from the node's position, e.g. "７六歩(77)". */
  kif: string;
  /** The engine's value for the move (null for unlisted moves to thought positions, and when `valueNone`). */
  engineValue: number | null;
  /** The book file it was imported from gave no value (DB2016 `none`, a .sbk move without evaluation): unknown, not 0. */
  valueNone: boolean;
  /** The same for the depth (also every move of an Apery .bin, which has none). */
  depthNone: boolean;
  /** ShogiGUI's mark on the move, kept from a .sbk. */
  mark: SbkMark | null;
  /**
   * An unlisted move to a thought position (added from the board): the child's own think,
   * its best listed value negated, so from this node's side; null otherwise.
   */
  childValue: number | null;
  engineDepth: number | null;
  /** The child's value from the last selection, from this node's side (null when not searched). */
  searchValue: number | null;
  /** The bound searchValue is, from this node's side (a child's lower bound is an upper bound here). */
  searchBound: BoundName | null;
  state: MoveState;
  /** Whether the child position is thought (an internal edge). */
  thought: boolean;
  kifu: boolean;
  /** Games in the collection statistics that played this move, and the mover's wins. */
  games: number | null;
  wins: number | null;
}

export interface NodeView {
  sfen: string;
  /** Moves from the root, when the node was reached that way. */
  line: string[];
  side: "black" | "white";
  thought: boolean;
  inFlight: boolean;
  /** The value and bound the last selection left here, from the side to move. */
  bound: { value: number; bound: BoundName; cyclic: boolean } | null;
  moves: MoveView[];
  /** Thought positions that lead here in the book (more than one: a transposition). */
  parents: number;
  provenance: string | null;
  /** The same, as fields the UI words in its language. */
  origin: { kind: "engine"; engine: string; nodes: number; depth: number; timeMs: number } | { kind: "import"; file: string } | null;
  thoughtAt: number | null;
  kifu: boolean;
  /** The user's comment on this position (stored in the book). */
  comment: string | null;
  /** The engines gave up on this position. */
  failed: boolean;
  /** Waiting in the think queue. */
  queued: boolean;
  /**
   * Reached by a line: whether the move into this position is one its parent's think listed
   * (then selection reaches it anyway; adding it means nothing). Null at the root, without a
   * line, or when the parent is not thought.
   */
  listedInParent: boolean | null;
  /** A finished position: the side to move is mated, or wins by declaration (nothing to think). */
  terminal: "mated" | "declaration" | null;
}

/** A node's state as the tree draws it. "kifu" is a position seeded from a game record, not yet thought. */
export type GraphNodeState = "thought" | "in-flight" | "leaf" | "banned" | "kifu" | "failed" | "mate";

/** A move from a node in the graph neighbourhood, with what the tree needs to draw its child. */
export interface GraphEdgeView {
  usi: string;
  /** The child position (normalized SFEN, no ply). */
  to: string;
  /** The engine's value for the move, from the parent's side to move (null for unlisted moves, and when the imported file gave none). */
  engineValue: number | null;
  state: MoveState;
  kifu: boolean;
  /** The child's bound from the last selection, from the child's side to move (thought children only). */
  childBound: { value: number; bound: BoundName; cyclic: boolean } | null;
  /** Thought parents of the child: more than one is a transposition. */
  childParents: number;
}

/** One position of the book and its links both ways: what the tree expands lazily. */
export interface GraphNodeView {
  sfen: string;
  side: "black" | "white";
  state: GraphNodeState;
  /** From the side to move. */
  bound: { value: number; bound: BoundName; cyclic: boolean } | null;
  /** The engine's search depth when the position was thought. */
  thinkDepth: number | null;
  /** Every legal move whose child is thought, and every listed move (empty when not thought). */
  children: GraphEdgeView[];
  /** Every thought position with a legal move to this one. */
  parents: Array<{ sfen: string; usi: string }>;
}

/** A ban (a move the selection may not take from a position), as stored (electron/store Ban adds its key). */
export interface BanView {
  sfen: string;
  move: string;
  reason: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The line from the root to the banned position, as the selection that banned it went (null for bans stored before lines were). */
  line: string[] | null;
}

/** A page of the bans, oldest first, and how many there are in all. */
export interface BanPage {
  total: number;
  offset: number;
  bans: BanView[];
}

/** What seeding did with one file (shared/formats/seed.ts SeedFileReport, less the filter counts and the file on each error). */
export interface SeedFileView extends Omit<SeedFileReport, "filtered" | "errors"> {
  /** Positions new to the book's kifu set that this file's records brought (the sum of their `added`). */
  added: number;
  errors: Array<Omit<ParseError, "file">>;
  /** Per record: what it seeded, what was new, what the bonus reaches now, where the dig stops following it. */
  perRecord: SeedRecordView[];
}

/** What seeding did for one record: the truth about whether the dig will follow it. */
export interface SeedRecordView {
  /** 1-based record number in its file, and its line when the format has one. */
  record: number;
  line?: number;
  /** Distinct positions this record put in the kifu set. */
  seeded: number;
  /** New to the book's kifu set (a position is counted for the first record that brought it). */
  added: number;
  /**
   * Seeded positions the bonus reaches now: the root, a thought position, or the child of a
   * move the book already has (listed by an engine, or to a thought position).
   */
  onBook: number;
  /**
   * Where the record starts: the book's root, a position the book has thought, or outside the
   * book (a handicap or another start position that no line from the root reaches). An outside
   * record that meets the book later says at which ply (`joinsAt`).
   */
  start: "root" | "book" | "outside";
  joinsAt?: number;
  /** Moves of the record's main line, and the plies limit when it cut the line shorter (only its first `cutAt` plies seeded). */
  plies: number;
  cutAt?: number;
  /**
   * Where the dig stops following the record's main line (within the seeded plies), the first
   * of: a move the engine did not list ("not-listed": selection cannot reach it until it is
   * thought; think the first plies); a move whose value by minimax over the book is more than
   * the kifu bonus below the book's best there ("below-best": selection goes the book's way);
   * a move into a position not thought yet ("book-ends": within the bonus, the dig goes on
   * there). `gapCp` is the book's best minus the move's value, both by minimax (the selection's
   * bounds, the engine's value for a move not thought); null when not listed. Null when the
   * whole seeded line is thought and within the bonus, or never met.
   */
  stopsAt: { ply: number; move: string; before: string; gapCp: number | null; reason: "not-listed" | "below-best" | "book-ends" } | null;
}

/** What seeding did (electron/book/seed.ts SeedReport, the host's, keeps more per file). */
export interface SeedReportView {
  files: SeedFileView[];
  /** Distinct positions seeded, and how many were new to the kifu set: added = kifuAfter - kifuBefore = the records' sum. */
  positions: number;
  added: number;
  kifuBefore: number;
  kifuAfter: number;
  /** The selection's bonus for a move into a seeded position (cp). */
  bonusCp: number;
  /** Positions queued to be thought first (thinkPlies), and how many were not queued before. */
  queued: number;
  queuedNew: number;
  /** Game statistics stored: (position, move) pairs over this many games (the 対局数 column). */
  statsMoves: number;
  statsGames: number;
  ms: number;
}

/** The most game-record data one upload may carry (decoded); bigger collections go through `horu import`. */
export const SEED_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Book files (.db, .bin) of any size go up from a browser in pieces of at most this many bytes
 * (upload.begin, upload.chunk in order, book.importUpload), so the page shows progress and no
 * request body or string holds the whole file.
 */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;
/** The largest book file one upload may announce (the server's free disk is checked too). */
export const UPLOAD_MAX_BYTES = 64 * 1024 * 1024 * 1024;

export interface ExportResult {
  path: string;
  positions: number;
  moves: number;
  bytes: number;
  ms: number;
  /** What the format had no place for (left out, or written as 0 / count 1), one line each. */
  dropped?: string[];
}

/** Where an export would write, before it runs: the dialog shows it and asks before replacing a file. */
export interface ExportPlan {
  /** The absolute path a relative one resolves to. */
  path: string;
  /** The folder relative paths are resolved against (the open book's folder). */
  folder: string;
  exists: boolean;
  /** Why writing there is refused (the open book, a SQLite file, a folder), or null; with its message key for the UI's language. */
  refused: string | null;
  refusedKey?: string;
  refusedParams?: Record<string, string>;
}

/** A finished match game as the Match view lists it. */
export interface MatchGameView {
  game: number;
  opening: number;
  black: string;
  white: string;
  /** "1-0" (black won), "0-1", "1/2". */
  result: string;
  /** How it ended: mate, resign, repetition, perpetual-check, declaration, false-declaration, max-moves, adjudication, illegal-move, crash, timeout. */
  reason: string;
  plies: number;
  /** Book moves played by player 1 and player 2. */
  bookPlies: [number, number];
  record: string;
}

/** A game being played. */
export interface MatchLiveView {
  game: number;
  black: string;
  white: string;
  /** The current position (SFEN with ply). */
  sfen: string;
  moves: string[];
  bookMoves: number;
  lastScore: number | null;
}

/** A `horu book quality` run on the open book (the Quality view). */
export interface QualityStatusView {
  /** idle: none this session; running; done; stopped (the figures of what was searched); failed (error says why). */
  state: "idle" | "running" | "done" | "stopped" | "failed";
  book: string | null;
  /** Where it is (null before its first step). */
  progress: QualityProgress | null;
  report: QualityReport | null;
  error: string | null;
}

export interface MatchStatusView {
  dir: string;
  /** running: this host plays it; watching: another process does and this host follows its folder. */
  state: "running" | "stopping" | "done" | "stopped" | "watching" | "failed";
  players: [string, string];
  planned: number;
  played: number;
  limits:
    | { kind: "nodes"; nodes: number }
    | { kind: "movetime"; ms: number }
    | { kind: "clock"; timeMs: number; byoyomiMs: number; incMs: number };
  openings: { count: number; source: string };
  /** Each move's node limit within +-nodesPct% (seeded), or null. */
  jitter: { nodesPct: number; seed: number } | null;
  /** From player 1's view. */
  table: {
    wdl: { wins: number; draws: number; losses: number };
    points: number;
    score: number;
    pentanomial: [number, number, number, number, number];
    /** Copies of a game add nothing: the interval rests on the distinct pairs. */
    distinctGames: number;
    pairs: number;
    distinctPairs: number;
    distinctPentanomial: [number, number, number, number, number];
    /** low/high null: no interval (why says: too few distinct pairs, or all scored the same). */
    elo: { elo: number; low: number | null; high: number | null; samples: number; why: string | null } | null;
    /** Most games repeat: say so beside the figures. */
    warning: string | null;
    sprt: { llr: number; lower: number; upper: number; verdict: string } | null;
    perOpening: Array<{ opening: number; games: number; points: number; line: string }>;
  };
  /** Newest first (the last 500). */
  games: MatchGameView[];
  live: MatchLiveView[];
  error: string | null;
}

// --- Argument schemas ---------------------------------------------------------------

/** A NUL or another control character in a path: refused before any file operation (the OS and SQLite would cut the name at a NUL). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const path = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !CONTROL.test(s), { message: "the path holds a control character (such as NUL): not a usable file name" });
const fileName = z
  .string()
  .min(1)
  .max(1024)
  .refine((s) => !CONTROL.test(s), { message: "the file name holds a control character (such as NUL)" });
const sfen = z.string().min(1).max(1024);
const uploadId = z.string().regex(/^[0-9a-f]{32}$/);
const usiLine = z.array(z.string().min(2).max(6)).max(1024);

export const EngineInputSchema = z
  .object({
    name: z.string().max(200).optional(),
    /** A user-written command line ("ssh host /path/engine" works), split without a shell. */
    commandLine: z.string().min(1).max(4096),
    cwd: z
      .string()
      .max(4096)
      .refine((s) => !CONTROL.test(s), { message: "the folder holds a control character (such as NUL)" })
      .nullable()
      .optional(),
    options: z.record(z.string().max(200), z.union([z.string().max(4096), z.number(), z.boolean()])).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type EngineInput = z.infer<typeof EngineInputSchema>;

const NodeRefSchema = z.union([z.object({ sfen }).strict(), z.object({ line: usiLine }).strict()]);

export const ExportInputSchema = z
  .object({
    path,
    format: z.enum(["db", "bin", "ybb", "sbk"]),
    mode: z.enum(["raw", "minimax"]),
    shrink: z.boolean().default(false),
    maxPly: z.number().int().min(0).max(1024).default(0),
    evalLimit: z.number().int().min(0).max(32000).default(0),
    /** Replace an existing file (the UI asks first); a horu book or the open book is refused whatever this says. */
    overwrite: z.boolean().default(false),
  })
  .strict();

/** The shortest backup interval a schedule may have, in minutes. */
export const BACKUP_MIN_MINUTES = 5;

const BackupScheduleSchema = z
  .object({
    // Every 5 minutes at most often: a backup copies the whole book (a 1e-300 interval wrote 85 in 3 s).
    everyMinutes: z
      .number()
      .min(BACKUP_MIN_MINUTES, { message: `back up at most every ${BACKUP_MIN_MINUTES} minutes` })
      .max(7 * 24 * 60),
    keep: z.number().int().min(1).max(1000),
    dir: path.nullable(),
  })
  .strict();

const engineLine = z.string().min(1).max(4096);
const engineOptions = z.record(z.string().max(200), z.union([z.string().max(4096), z.number(), z.boolean()]));

export const MatchStartSchema = z
  .object({
    dir: path,
    players: z
      .array(
        z
          .object({
            engine: engineLine,
            options: engineOptions.default({}),
            name: z.string().max(200).optional(),
            book: path.optional(),
            bookMode: z.enum(["best", "weighted"]).default("best"),
            bookWindow: z.number().int().min(0).max(32000).default(30),
            bookMaxPly: z.number().int().min(0).max(1024).default(256),
          })
          .strict(),
      )
      .length(2),
    openings: path.optional(),
    openingPlies: z.number().int().min(0).max(1024).optional(),
    games: z.number().int().min(2).max(1_000_000).optional(),
    nodes: z.number().int().min(1).optional(),
    /** Each move's node limit within +-jitterPct% of nodes (seeded): different games from a deterministic engine. */
    jitterPct: z.number().min(0).max(50).optional(),
    movetimeMs: z.number().int().min(1).optional(),
    concurrency: z.number().int().min(1).max(64).default(1),
    maxMoves: z.number().int().min(0).max(100_000).default(320),
  })
  .strict();

export const SeedUploadSchema = z
  .object({
    files: z
      .array(z.object({ name: fileName, base64: z.string().max(Math.ceil(SEED_UPLOAD_MAX_BYTES / 3) * 4) }).strict())
      .min(1)
      .max(10_000),
    plies: z.number().int().min(1).max(512).optional(),
    /** Also queue the first N plies of each record to be thought before selection, so the seeded lines enter the book. */
    thinkPlies: z.number().int().min(1).max(512).optional(),
  })
  .strict();

/** A phantom value carrying a call's result type. */
const returns = <T>(): T => undefined as unknown as T;

/**
 * Every call: its argument schema, (as a phantom) its result type, and `once` on an action that
 * must not run twice by mistake: while one call is under way, an identical call (same method,
 * same arguments) from the same UI gets the first one's answer instead of running again (a
 * double click on Start, Export, New book, Back up: the second run's refusal, "already
 * digging", "already exists", stood in red beside the first one's success). `once` is on a call
 * whose second run would be refused, would start or write something a second time (an import,
 * an engine, a seed), or would answer differently for nothing; a call that only reads, or writes
 * the same thing again (settings, a comment, pause, stop), goes as it comes. upload.begin must
 * not have it: two files of the same name and size uploaded at once need two uploads.
 */
export const contract = {
  "book.create": {
    once: true,
    args: z.object({ path, settings: DigSettingsSchema.partial().optional() }).strict(),
    result: returns<BookInfo>(),
  },
  "book.open": { once: true, args: z.object({ path }).strict(), result: returns<BookInfo>() },
  "book.close": { args: z.object({}).strict(), result: returns<null>() },
  "book.info": { args: z.object({}).strict(), result: returns<BookInfo | null>() },
  "book.recent": { args: z.object({}).strict(), result: returns<string[]>() },
  /** The first run's one action: a new book in the documents folder, named by date, digging with the best engine found. */
  "book.quickStart": {
    once: true,
    args: z.object({ path: path.optional(), processes: z.number().int().min(1).max(64).optional() }).strict(),
    result: returns<{ info: BookInfo; status: DigStatus }>(),
  },
  "book.updateSettings": { args: z.object({ settings: DigSettingsSchema.partial() }).strict(), result: returns<BookInfo>() },
  "book.node": { args: NodeRefSchema, result: returns<NodeView>() },
  /** Positions with their children and parents, read from the open graph (a few per call). */
  "book.graph": { args: z.object({ sfens: z.array(sfen).min(1).max(64) }).strict(), result: returns<GraphNodeView[]>() },
  /** The shortest line from the root to a position through thought positions (null when none is found). */
  "book.lineTo": { args: z.object({ sfen }).strict(), result: returns<string[] | null>() },
  "book.bans": {
    args: z.object({ offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(5000).default(500) }).strict(),
    result: returns<BanPage>(),
  },

  "book.thinkNow": {
    once: true,
    args: z.object({ sfen, deeper: z.boolean().default(false) }).strict(),
    result: returns<{ sfen: string; limit: unknown }>(),
  },
  "book.addMove": {
    once: true,
    args: z.object({ sfen, move: z.string().min(2).max(6) }).strict(),
    result: returns<{ sfen: string; limit: unknown }>(),
  },
  "book.retry": { args: z.object({ sfen: sfen.optional() }).strict(), result: returns<number>() },
  "book.unban": { args: z.object({ sfen, move: z.string().min(2).max(6) }).strict(), result: returns<boolean>() },
  "book.prune": { once: true, args: z.object({ sfen }).strict(), result: returns<{ batch: number; positions: number }>() },
  /** Takes the newest import back: positions it added go, positions it joined get their moves as they were. */
  "book.undoImport": {
    once: true,
    args: z.object({}).strict(),
    result: returns<{ batch: number; file: string; removed: number; restored: number; kept: number } | null>(),
  },
  "book.undoPrune": {
    once: true,
    args: z.object({}).strict(),
    result: returns<{ batch: number; positions: number; kept: number } | null>(),
  },
  "book.comment": { args: z.object({ sfen, text: z.string().max(20_000) }).strict(), result: returns<null>() },
  /** `strict`: a .db with a damaged line is refused whole (naming the first) instead of imported without it. */
  "book.import": {
    once: true,
    args: z.object({ paths: z.array(path).min(1).max(1000), strict: z.boolean().optional() }).strict(),
    result: returns<ImportReportView[]>(),
  },
  /** An upload that book.importUpload then imports: its file name and size in bytes. */
  "upload.begin": {
    args: z.object({ name: fileName, size: z.number().int().min(0).max(UPLOAD_MAX_BYTES) }).strict(),
    result: returns<{ id: string }>(),
  },
  /** The next piece (base64) at its byte offset: pieces come in order, each at most UPLOAD_CHUNK_BYTES. */
  "upload.chunk": {
    args: z
      .object({
        id: uploadId,
        offset: z.number().int().min(0).max(UPLOAD_MAX_BYTES),
        base64: z.string().max(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4),
      })
      .strict(),
    result: returns<{ received: number }>(),
  },
  "upload.abort": { args: z.object({ id: uploadId }).strict(), result: returns<null>() },
  /** Imports a finished upload as a book (.db or .bin by its name) and deletes it. */
  "book.importUpload": {
    once: true,
    args: z.object({ id: uploadId, strict: z.boolean().optional() }).strict(),
    result: returns<ImportReportView[]>(),
  },

  "backup.now": { once: true, args: z.object({ dir: path.optional() }).strict(), result: returns<BackupView>() },
  "backup.list": { args: z.object({}).strict(), result: returns<BackupView[]>() },
  "backup.schedule": { args: z.object({ schedule: BackupScheduleSchema.nullable() }).strict(), result: returns<BookInfo>() },
  "backup.restore": { once: true, args: z.object({ path }).strict(), result: returns<BookInfo>() },

  "engines.list": { args: z.object({}).strict(), result: returns<EngineConfigView[]>() },
  "engines.add": { once: true, args: EngineInputSchema, result: returns<EngineConfigView>() },
  "engines.update": { args: EngineInputSchema.extend({ id: z.number().int().positive() }).strict(), result: returns<EngineConfigView>() },
  "engines.remove": { once: true, args: z.object({ id: z.number().int().positive() }).strict(), result: returns<null>() },
  "engines.test": { once: true, args: EngineInputSchema, result: returns<EngineTestResult>() },
  "engines.found": { args: z.object({}).strict(), result: returns<EnginesFoundView>() },
  /** The open book's engines that are not in the library (none without a book): the UI asks before adding any. */
  "engines.ofBook": { args: z.object({}).strict(), result: returns<BookEngineView[]>() },

  "dig.start": {
    once: true,
    args: z
      .object({
        processes: z.number().int().min(1).max(64).default(1),
        positions: z.number().int().positive().optional(),
        seconds: z.number().positive().optional(),
      })
      .strict(),
    result: returns<DigStatus>(),
  },
  "dig.pause": { args: z.object({}).strict(), result: returns<DigStatus>() },
  "dig.resume": { args: z.object({}).strict(), result: returns<DigStatus>() },
  "dig.stop": { args: z.object({}).strict(), result: returns<DigStatus>() },
  "dig.status": { args: z.object({}).strict(), result: returns<DigStatus>() },
  /** The open book's chart history, oldest first (live points then come as dig.sample events). */
  "dig.history": { args: z.object({}).strict(), result: returns<ChartSample[]>() },

  /**
   * Live analysis (検討): library engine `engineId` searches `sfen` without end in its own
   * process (never a dig's), its lines coming as analysis.update events; a new start replaces
   * the search (the board moved on). Ends with analysis.stop, the book's close or the host's end.
   */
  "analysis.start": {
    once: true,
    args: z.object({ engineId: z.number().int().positive(), sfen, multipv: z.number().int().min(1).max(10).default(3) }).strict(),
    result: returns<{ id: number; engine: string }>(),
  },
  "analysis.stop": { args: z.object({}).strict(), result: returns<null>() },

  /**
   * How good the open book is (`horu book quality`): with `search`, library engine `engineId`
   * (`processes` of it) searches what the figures need, in the background (quality.status
   * events); without, the figures come at once from the searches the book keeps.
   */
  "quality.start": {
    args: z
      .object({
        engineId: z.number().int().positive().optional(),
        processes: z.number().int().min(1).max(8).default(1),
        oracleFactor: z.number().int().min(2).max(1000).default(30),
        perBand: z.number().int().min(1).max(500).default(20),
        coverageRuns: z.number().int().min(0).max(64).default(8),
      })
      .strict(),
    result: returns<QualityStatusView>(),
  },
  "quality.stop": { args: z.object({}).strict(), result: returns<QualityStatusView>() },
  "quality.status": { args: z.object({}).strict(), result: returns<QualityStatusView>() },

  "match.start": { once: true, args: MatchStartSchema, result: returns<MatchStatusView>() },
  /** Resume the match stored in dir here, or follow it when another process plays it. */
  "match.open": { once: true, args: z.object({ dir: path }).strict(), result: returns<MatchStatusView>() },
  "match.stop": { args: z.object({}).strict(), result: returns<MatchStatusView | null>() },
  "match.status": { args: z.object({}).strict(), result: returns<MatchStatusView | null>() },

  "seed.paths": {
    once: true,
    args: z
      .object({
        paths: z.array(path).min(1).max(10_000),
        plies: z.number().int().min(1).max(512).optional(),
        thinkPlies: z.number().int().min(1).max(512).optional(),
      })
      .strict(),
    result: returns<SeedReportView>(),
  },
  "seed.upload": { once: true, args: SeedUploadSchema, result: returns<SeedReportView>() },

  "export.plan": { args: z.object({ path }).strict(), result: returns<ExportPlan>() },
  "export.run": { once: true, args: ExportInputSchema, result: returns<ExportResult>() },
} as const;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type Args<M extends Method> = z.input<Contract[M]["args"]>;
export type ParsedArgs<M extends Method> = z.output<Contract[M]["args"]>;
export type Result<M extends Method> = Contract[M]["result"];

export const METHODS = Object.keys(contract) as Method[];

/** Whether an identical call while one is under way gets the first one's answer (the method's `once`). */
export function onceAtATime(method: Method): boolean {
  return (contract[method] as { once?: boolean }).once === true;
}

/** One line of a live analysis: its moves (USI) from the analysed position. */
export interface AnalysisLine {
  multipv: number;
  moves: string[];
  /** From the viewpoint of the side to move in the analysed position (as the engine gives it). */
  score: UsiScore;
  depth: number;
  seldepth?: number;
  nodes: number;
}

/** The state of live analysis run `id` of `sfen`, sent every ANALYSIS_EVERY_MS while it searches and when it ends. */
export interface AnalysisUpdate {
  id: number;
  sfen: string;
  engine: string;
  /** "stopped": replaced or stopped by the user; "done": the engine ended its search itself. */
  state: "running" | "done" | "stopped" | "failed";
  error: string | null;
  nodes: number;
  lines: AnalysisLine[];
}

/** Events the host pushes to every connected UI. */
export type HostEvent =
  | { type: "dig.status"; status: DigStatus }
  /** An engine's live view of one think: `info` is of position `sfen` (its side to move), think number `think`. */
  | { type: "dig.info"; engine: number; info: UsiInfo; sfen: string; think: number }
  | { type: "dig.failure"; engine: string; sfen: string | null; message: string }
  | { type: "dig.sample"; sample: ChartSample }
  | { type: "export.progress"; done: number; total: number }
  | { type: "import.progress"; file: string; lines: number; bytes: number; total: number }
  | { type: "backup.done"; backup: BackupView | null; error: string | null }
  | { type: "book.opening"; path: string; phase: "snapshot" | "replay" | "positions" | "links"; done: number; total: number }
  | { type: "book.changed"; info: BookInfo | null }
  /**
   * The open book's positions changed while digging (results stored, positions handed out or
   * given up, a selection's values): views of positions (book.graph) may read differently.
   * Coalesced by the host (at most one per BOOK_UPDATE_MS); edits send book.changed instead.
   */
  | { type: "book.updated" }
  | { type: "match.status"; status: MatchStatusView }
  | { type: "quality.status"; status: QualityStatusView }
  | { type: "analysis.update"; update: AnalysisUpdate }
  /** horu web, on connect: whether the page may name files on the server by path (--allow-server-paths). */
  | { type: "web.options"; serverPaths: boolean };

/** A call that failed: the message is for the user (names the file, line, problem). */
export interface CallError {
  error: string;
  /**
   * "invalid-args" when validation failed, "unknown-method", "user" for a mistake the user
   * can correct (a missing file, a bad SFEN, a refused path: HTTP 4xx in web mode), or
   * "failed" for a fault (HTTP 500).
   */
  code: "invalid-args" | "unknown-method" | "user" | "failed";
  /** A message key the UI translates (e.g. "readOnly"), with its parameters; `error` is the English text. */
  key?: string;
  params?: Record<string, string | number>;
}

export { userError, asUserError, type UserError } from "./user-error.js";

/** Validates a call from the UI; throws a CallError-shaped Error on bad input. */
export function parseCall(method: unknown, args: unknown): { method: Method; args: unknown } {
  if (typeof method !== "string" || !Object.hasOwn(contract, method))
    throw Object.assign(new Error(`unknown method ${String(method)}`), { code: "unknown-method" });
  const m = method as Method;
  const parsed = contract[m].args.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    throw Object.assign(new Error(`${m}: invalid arguments${where}: ${issue?.message ?? "invalid"}`), { code: "invalid-args" });
  }
  return { method: m, args: parsed.data };
}

/** The UI's view of the host, whatever carries the calls. */
export interface HostClient {
  call<M extends Method>(method: M, args: Args<M>): Promise<Result<M>>;
  onEvent(listener: (e: HostEvent) => void): () => void;
}
