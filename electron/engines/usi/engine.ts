// One USI engine process (docs/DESIGN.md §4): handshake, options, think with fixed or
// dynamic MultiPV, stop/quit, and typed failures. No shell is involved: the
// command line is split by parseCommandLine and spawned as an argv array, so
// `ssh host /path/engine` works and nothing gets expanded.
//
// Each engine runs in its own process group (its own session on POSIX), so a Ctrl-C typed
// at the terminal reaches horu alone, which then finishes or re-queues the running thinks
// (the engines used to die of the same SIGINT and be restarted). horu kills the group
// whenever the engine ends and every group still alive when horu exits; an engine whose
// standard input closes (horu killed outright) quits on its own.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import type { Candidate } from "../../../shared/book/records.js";
import { parseInfoLine, type UsiInfo } from "../../../shared/usi/info.js";
import {
  MultiPvCollector,
  applyWindow,
  sortCandidates,
  widenedMoves,
  DEFAULT_WINDOW_CP,
  type FirstFromParent,
} from "../../../shared/usi/multipv.js";
import { Position } from "../../../shared/rules/position.js";
import { moveToUsi } from "../../../shared/rules/usi.js";
import { withMoveNumber } from "../../../shared/rules/sfen.js";
import { parseIdLine, parseOptionLine, setOptionCommand, type UsiOption } from "../../../shared/usi/option.js";
import {
  EngineCrashError,
  EngineError,
  EngineProtocolError,
  EngineStartError,
  EngineTimeoutError,
  EngineUnsupportedError,
} from "./errors.js";
import { LineSplitter } from "./lines.js";
import { killGroup, liveEngines } from "./live.js";

export * from "./errors.js";
export { killAllEngines, liveEnginePids } from "./live.js";

export interface EngineTimeouts {
  /** From spawn to `usiok`. */
  usiokMs?: number;
  /** From `isready` to `readyok` (engines load evaluation files here). */
  readyokMs?: number;
  /** Whole-search limit for node/depth searches (they have no clock of their own). */
  thinkMs?: number;
  /** Added to a movetime search, and allowed for `bestmove` after `stop`. */
  graceMs?: number;
  /** From `quit` to the kill. */
  quitMs?: number;
}

export interface EngineLogEntry {
  engine: string;
  stream: "stderr" | "stdin" | "stdout" | "note";
  line: string;
}

export interface UsiEngineOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** Extra environment variables (over horu's own), e.g. ELECTRON_RUN_AS_NODE for a built-in engine. */
  env?: Record<string, string>;
  /** Display name (defaults to the command's base name); `id name` is kept separately. */
  name?: string;
  /** User options, sent with setoption after the handshake. */
  options?: Record<string, string | number | boolean>;
  timeouts?: EngineTimeouts;
  log?: (entry: EngineLogEntry) => void;
  /** Also log every line sent and received (noisy). */
  logTraffic?: boolean;
  /**
   * Run the engine this much nicer than horu (0 or absent: as horu). A dig's engines do, so
   * that horu's own work (selection, the window, the host's calls) does not wait behind
   * them for a core; they take all the CPU it leaves (see runNicer).
   */
  nice?: number;
}

/**
 * Makes every thread of process `pid` `by` nicer than horu. On Linux a nice value belongs to a
 * thread, and a thread starts with its creator's: the engine may have made its search threads
 * before the first call, so this is called again after the handshake; threads made after it
 * (for the options, Threads) start niced. And
 * where the kernel groups each session's threads (autogroup), nice values weigh only inside a
 * group, the groups sharing the CPU evenly: an engine has a session of its own (it is started
 * detached), so its group is made nicer too, or horu would still get a third of the CPU
 * beside two engines, not the core it asks for. Elsewhere it sets the process's priority.
 * Not allowed or not there (an engine gone): left as is.
 */
function runNicer(pid: number | undefined, by: number): void {
  if (!pid || by <= 0) return;
  let target: number;
  try {
    target = Math.min(19, getPriority() + by);
  } catch {
    return;
  }
  let ids = [pid];
  if (process.platform === "linux")
    try {
      ids = readdirSync(`/proc/${pid}/task`).map(Number);
    } catch {
      // Gone already: nothing to do.
    }
  for (const id of ids)
    try {
      if (getPriority(id) < target) setPriority(id, target);
    } catch {
      // Not allowed, or the thread ended meanwhile.
    }
  if (process.platform === "linux")
    try {
      // "/autogroup-123 nice 0"; only another group than horu's own (never nice horu itself).
      const group = (file: string) => /^(\S+)\s+nice\s+(-?\d+)/.exec(readFileSync(file, "utf8"));
      const theirs = group(`/proc/${pid}/autogroup`),
        ours = group("/proc/self/autogroup");
      if (theirs && ours && theirs[1] !== ours[1] && Number(theirs[2]) < Number(ours[2]) + by)
        writeFileSync(`/proc/${pid}/autogroup`, String(Math.min(19, Number(ours[2]) + by)));
    } catch {
      // No autogroups here (or not allowed): the threads' nice values are all there is.
    }
}

export interface ThinkLimits {
  nodes?: number;
  depth?: number;
  movetimeMs?: number;
  /** A game clock (match play): remaining times, byoyomi and Fischer increments in ms. */
  clock?: { btime: number; wtime: number; byoyomi: number; binc?: number; winc?: number };
}

export interface DynamicMultiPv {
  /** MultiPV of the first search, at the full limit. */
  start: number;
  /** Lines asked for by each widening search; 0: every legal move not yet valued, in one search. */
  widenBy: number;
  /** Widen while the last line found is within this many cp of the best. */
  withinCp: number;
  /** A widening search's limit as a share of the first search's (docs/DESIGN.md §4: fewer nodes). */
  widenShare?: number;
  /** A widening search keeps its moves within the window plus this margin (widenedMoves says why). */
  wideMarginCp?: number;
  /** The dig chooses each position's `start` from its parent's candidates (firstMultiPv); absent: always `start`. */
  firstFromParent?: FirstFromParent;
}

export type MultiPvSpec = { fixed: number } | { dynamic: DynamicMultiPv };

/** Share of the limit a widening search gets (docs/DESIGN.md §4: fewer nodes; see think()). */
export const DEFAULT_WIDEN_SHARE = 0.1;
/** Margin of a widening search's window (see DynamicMultiPv.wideMarginCp); measured with `horu bench dig`. */
export const DEFAULT_WIDE_MARGIN_CP = 300;

/**
 * The dig's dynamic MultiPV: 4 lines at the full limit, then, while the last line is still
 * inside the window (the dig passes its window as withinCp), one search of every legal
 * move at a tenth of the limit. Measured with `horu bench dig`.
 */
export const DEFAULT_DYNAMIC: { dynamic: DynamicMultiPv } = {
  dynamic: { start: 4, widenBy: 0, withinCp: DEFAULT_WINDOW_CP, widenShare: DEFAULT_WIDEN_SHARE, wideMarginCp: DEFAULT_WIDE_MARGIN_CP },
};

/** ok: candidates found; resign/win: the engine said so; nomoves: no legal move; noinfo: a bestmove without usable info lines. */
export type ThinkStatus = "ok" | "resign" | "win" | "nomoves" | "noinfo";

export interface ThinkResult {
  candidates: Candidate[];
  nodes: number;
  depth: number;
  timeMs: number;
  /** `id name` (or the display name when the engine sent none). */
  engine: string;
  status: ThinkStatus;
  bestmove: string;
  ponder?: string;
  /** MultiPV of the last pass, and how many passes dynamic MultiPV took. */
  multipv: number;
  passes: number;
}

export interface Handshake {
  idName: string;
  idAuthor: string;
  options: UsiOption[];
}

const MAX_LINE_BYTES = 64 * 1024;
/** Consecutive lines that are not USI before we call it a protocol error. */
const MAX_GARBAGE_LINES = 2000;
/** Output bytes without a single useful line before we call it a protocol error. */
const MAX_GARBAGE_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL = 20;
/** More than any shogi position's legal moves (593). */
const MAX_MULTIPV = 600;

/**
 * Splits a user-written command line into argv: whitespace separates words,
 * '...' is literal, "..." allows \" and \\, a backslash outside quotes escapes
 * the next character. No variables, globs or other shell expansion.
 */
export function parseCommandLine(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else cur += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) cur += text[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in command line`);
  if (inWord) out.push(cur);
  return out;
}

/** The command line parseCommandLine reads back as `argv`: words with spaces, quotes or backslashes are quoted. */
export function formatCommandLine(argv: string[]): string {
  return argv.map((w) => (w === "" || /[\s"'\\]/.test(w) ? `"${w.replace(/(["\\])/g, "\\$1")}"` : w)).join(" ");
}

/** `command [args...]` from a user-written command line (see parseCommandLine). */
export function commandLineSpec(text: string): { command: string; args: string[] } {
  const [command, ...args] = parseCommandLine(text);
  if (command === undefined || command === "") throw new Error("empty engine command line");
  return { command, args };
}

/**
 * The text after `position `: "startpos [moves ...]", "sfen ..." as given, or a bare
 * SFEN (a book's key, given its move number: withMoveNumber).
 */
export function positionArgument(sfen: string): string {
  const text = sfen.trim();
  if (text === "startpos" || text.startsWith("startpos ") || text.startsWith("sfen ")) return text;
  const fields = text.split(/\s+/);
  const movesAt = fields.indexOf("moves");
  const head = movesAt < 0 ? fields : fields.slice(0, movesAt);
  return ["sfen", withMoveNumber(head.join(" ")), ...(movesAt < 0 ? [] : fields.slice(movesAt))].join(" ");
}

/** The legal moves (USI) of a `position` argument; null when our rules cannot read it (the engine may still). */
export function legalMovesOf(position: string): string[] | null {
  try {
    return Position.fromUsi(position).legalMoves().map(moveToUsi);
  } catch {
    return null;
  }
}

/** A widening search's limits: a share of the nodes or time, two plies less depth. */
export function scaleLimits(l: ThinkLimits, share: number): ThinkLimits {
  const s = Math.min(1, Math.max(0.01, share));
  return {
    nodes: l.nodes !== undefined ? Math.max(1, Math.round(l.nodes * s)) : undefined,
    depth: l.depth !== undefined ? Math.max(1, l.depth - 2) : undefined,
    movetimeMs: l.movetimeMs !== undefined ? Math.max(1, Math.round(l.movetimeMs * s)) : undefined,
  };
}

/** Our options first, then the engine's own spellings of the same thing. */
const ALIASES: Record<string, string[]> = {
  USI_Hash: ["Hash"],
  Hash: ["USI_Hash"],
  Threads: ["Thread", "USI_Threads"],
  USI_Ponder: ["Ponder"],
};

type Waiter = {
  onLine: (line: string) => void;
  fail: (e: Error) => void;
};

export class UsiEngine {
  readonly name: string;
  /** Available after start(): what the engine said about itself. */
  handshake: Handshake = { idName: "", idAuthor: "", options: [] };
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private child: ChildProcess | null = null;
  private resolveExited!: (v: { code: number | null; signal: NodeJS.Signals | null }) => void;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private waiter: Waiter | null = null;
  private readonly stderrTail: string[] = [];
  private readonly sent = new Map<string, string>();
  private garbageLines = 0;
  private garbageBytes = 0;
  private thinking = false;
  private started = false;
  private readonly t: Required<EngineTimeouts>;

  constructor(private readonly opts: UsiEngineOptions) {
    this.name = opts.name ?? (opts.command.split(/[\\/]/).pop() || opts.command);
    this.t = {
      usiokMs: 30_000,
      readyokMs: 30_000,
      thinkMs: 300_000,
      graceMs: 10_000,
      quitMs: 2_000,
      ...opts.timeouts,
    };
    this.exited = new Promise((r) => (this.resolveExited = r));
  }

  get running(): boolean {
    return this.child !== null && this.exitInfo === null;
  }

  /** The engine's process id while it runs (benchmarks read its CPU time). */
  get pid(): number | undefined {
    return this.running ? this.child!.pid : undefined;
  }

  get isThinking(): boolean {
    return this.thinking;
  }

  /** The engine's option by name (exact, then case-insensitive). */
  option(name: string): UsiOption | undefined {
    const o = this.handshake.options;
    const lower = name.toLowerCase();
    // Fairy-Stockfish in USI mode (the WebAssembly build) spells its options USI_MultiPV, USI_Hash...
    return (
      o.find((x) => x.name === name) ??
      o.find((x) => x.name.toLowerCase() === lower) ??
      o.find((x) => x.name.toLowerCase() === `usi_${lower}`)
    );
  }

  /** Spawns, handshakes, sets options, turns the own book off, waits readyok, sends usinewgame. */
  async start(): Promise<Handshake> {
    if (this.started) throw new EngineStartError(`${this.name}: already started`, this.name);
    this.started = true;
    const child = spawn(this.opts.command, this.opts.args ?? [], {
      cwd: this.opts.cwd,
      env: this.opts.env ? { ...process.env, ...this.opts.env } : undefined,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      windowsHide: true,
      // Its own process group: the terminal's SIGINT is horu's to handle, not the engine's.
      detached: true,
    });
    this.child = child;
    liveEngines.add(child);
    const nicer = () => runNicer(child.pid, this.opts.nice ?? 0);
    nicer();
    const spawnError = new Promise<never>((_, reject) => {
      child.once("error", (e: NodeJS.ErrnoException) => {
        liveEngines.delete(child);
        const what =
          e.code === "ENOENT"
            ? `engine not found: ${this.opts.command}${this.opts.cwd ? ` (cwd ${this.opts.cwd})` : ""}`
            : `cannot start engine ${this.opts.command}: ${e.message}`;
        const err = new EngineStartError(what, this.name);
        if (!this.exitInfo) {
          // No 'exit' follows a failed spawn: settle `exited` here.
          this.exitInfo = { code: null, signal: null };
          this.resolveExited(this.exitInfo);
        }
        this.failWaiter(err);
        reject(err);
      });
    });
    spawnError.catch(() => {});
    let closed = false;
    const closedNow = new Promise<void>((r) =>
      child.once("close", () => {
        closed = true;
        r();
      }),
    );
    child.on("exit", (code, signal) => {
      this.exitInfo = { code, signal };
      // Whatever the engine started (a wrapper's child) goes with it.
      killGroup(child);
      liveEngines.delete(child);
      // Let stdout/stderr drain so the last lines (the crash message) are seen; a
      // grandchild holding the pipes open must not delay us long, nor keep horu alive.
      if (closed) this.onExit(code, signal);
      else
        void Promise.race([closedNow, delay(200)]).then(() => {
          if (!closed) for (const s of [child.stdin, child.stdout, child.stderr]) s?.destroy();
          this.onExit(code, signal);
        });
    });
    child.on("error", () => {}); // also fired for failed kills; reported through exit/waiters
    child.stdin!.on("error", () => {}); // EPIPE when the engine died; exit reports it
    const out = new LineSplitter(
      MAX_LINE_BYTES,
      (l) => this.onStdout(l),
      (n) => this.onOverlong(n),
    );
    const err = new LineSplitter(
      MAX_LINE_BYTES,
      (l) => this.onStderr(l),
      () => this.onStderr("[overlong stderr line dropped]"),
    );
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stdout!.on("end", () => out.flush());
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    child.stderr!.on("end", () => err.flush());

    try {
      await Promise.race([spawnError, this.handshakeUsi()]);
      nicer(); // threads made at its start, after the first call (later ones start with their maker's value)
      this.applyOptions();
      await this.ready();
      this.send("usinewgame");
      return this.handshake;
    } catch (e) {
      this.kill();
      if (e instanceof EngineStartError) throw e;
      throw new EngineStartError(`${this.name}: ${e instanceof Error ? e.message : String(e)}`, this.name);
    }
  }

  private handshakeUsi(): Promise<void> {
    const options: UsiOption[] = [];
    return this.expect(
      "usi",
      this.t.usiokMs,
      (line, done) => {
        const id = parseIdLine(line);
        if (id) {
          if (id.kind === "name") this.handshake.idName = id.value;
          else this.handshake.idAuthor = id.value;
          return;
        }
        const opt = parseOptionLine(line);
        if (opt) {
          if (options.length < 2000) options.push(opt);
          return;
        }
        if (line.trim() === "usiok") {
          this.handshake.options = options;
          done();
        }
      },
      (ms) => new EngineStartError(`${this.name}: no usiok within ${ms} ms`, this.name),
    );
  }

  /** isready/readyok; also used to sync after setoption. */
  private ready(): Promise<void> {
    return this.expect(
      "isready",
      this.t.readyokMs,
      (line, done) => {
        if (line.trim() === "readyok") done();
      },
      (ms) => new EngineStartError(`${this.name}: no readyok within ${ms} ms`, this.name),
    );
  }

  private applyOptions(): void {
    const user = this.opts.options ?? {};
    const userTargets = new Set<string>();
    for (const [key, value] of Object.entries(user)) {
      const target = [key, ...(ALIASES[key] ?? [])].map((n) => this.option(n)).find((o) => o !== undefined);
      if (!target) {
        // Unknown options are skipped: some engines abort on them.
        this.note(`option ${key} not offered by the engine; skipped`);
        continue;
      }
      userTargets.add(target.name);
      this.setOption(target.name, target.type === "button" ? undefined : value);
    }
    // Turn the engine's own book off (the book is what we are building), unless the user set it.
    for (const [name, value] of this.bookOffSettings()) if (!userTargets.has(name)) this.setOption(name, value);
  }

  /** Book-off settings, detected by option name (USI_OwnBook, YaneuraOu BookFile, GPS BookDepth, ...). */
  bookOffSettings(): [string, string | number | boolean][] {
    const out: [string, string | number | boolean][] = [];
    for (const o of this.handshake.options) {
      const n = o.name.toLowerCase();
      if (o.type === "check" && ["usi_ownbook", "ownbook", "usebook", "book", "usi_book"].includes(n)) out.push([o.name, false]);
      else if (o.type === "combo" && n === "bookfile" && o.vars.includes("no_book")) out.push([o.name, "no_book"]);
      else if (o.type === "spin" && (n === "bookdepth" || n === "bookmoves" || n === "book_depth"))
        out.push([o.name, Math.max(0, o.min ?? 0)]);
    }
    return out;
  }

  private setOption(name: string, value?: string | number | boolean): void {
    const text = value === undefined ? "" : String(value);
    if (value !== undefined && this.sent.get(name) === text) return;
    this.sent.set(name, text);
    this.send(setOptionCommand(name, value));
  }

  /**
   * Searches one position. MultiPV fixed K, or dynamic: start at K0 and, while the
   * last line is within withinCp of the best, widen (docs/DESIGN.md §4): search again with more
   * lines (by widenBy, or straight to every legal move) at a share of the limit, so
   * widening costs a fraction of the first search; widening ends at the position's
   * legal-move count.
   */
  async think(
    sfen: string,
    limits: ThinkLimits,
    multipv: MultiPvSpec = { fixed: 1 },
    windowCp: number = DEFAULT_WINDOW_CP,
    onInfo?: (info: UsiInfo) => void,
    /** The position's legal-move count when the caller knows it (a dig's job does): no parse here. */
    legalCount?: number,
  ): Promise<ThinkResult> {
    if (!this.running)
      throw new EngineCrashError(
        `${this.name}: not running`,
        this.name,
        this.exitInfo?.code ?? null,
        this.exitInfo?.signal ?? null,
        this.stderrTail.slice(),
      );
    if (this.thinking) throw new EngineError(`${this.name}: already thinking`, this.name);
    if (/[\r\n]/.test(sfen)) throw new EngineUnsupportedError(`${this.name}: newline in sfen`, this.name);
    const go = this.goCommand(limits);
    this.thinking = true;
    try {
      const position = positionArgument(sfen);
      const dyn = "dynamic" in multipv ? multipv.dynamic : null;
      // Only a real MultiPV option can widen (GPS's MultiPVWidth already shows the whole window).
      const legal = dyn && this.option("MultiPV") ? (legalCount ?? legalMovesOf(position)?.length ?? null) : null;
      // The engine's own MultiPV maximum too: fairy-stockfish ignores a value above its 500.
      const mpvOption = this.option("MultiPV");
      const optionMax = mpvOption?.type === "spin" ? mpvOption.max : undefined;
      const cap = Math.min(MAX_MULTIPV, legal ?? MAX_MULTIPV, optionMax !== undefined && optionMax >= 1 ? optionMax : MAX_MULTIPV);
      let k = Math.max(1, Math.min(cap, dyn ? dyn.start : (multipv as { fixed: number }).fixed));
      const keep = dyn ? MAX_MULTIPV : k;
      let totalNodes = 0;
      let totalTime = 0;
      let passes = 0;
      let retried = false;
      passes++;
      let pass = await this.search(position, go, k, windowCp, onInfo);
      totalNodes += pass.nodes;
      totalTime += pass.timeMs;
      if (pass.status === "noinfo" && !this.stopRequested && this.option("MultiPV")) {
        // A bare bestmove (an instant answer from a book or a root shortcut) gives no
        // values; asking again at MultiPV >= 2 makes engines search and report.
        retried = true;
        passes++;
        k = Math.max(2, k);
        pass = await this.search(position, go, k, windowCp, onInfo);
        totalNodes += pass.nodes;
        totalTime += pass.timeMs;
      }
      const all = pass.all;
      let extra: Candidate[] = [];
      if (dyn && legal !== null && pass.status === "ok" && !retried) {
        // Widen while the last line of the latest search is within withinCp of its best and
        // moves are left. A widening search runs at a share of the limit: its lines only
        // have to say which further moves are within the window, and a wide search at a
        // tenth of the nodes agrees with one at the full limit about as well as two full
        // ones agree with each other. The first search's values are kept for its moves.
        const widenGo = this.goCommand(scaleLimits(limits, dyn.widenShare ?? DEFAULT_WIDEN_SHARE));
        let last = all;
        let asked = k;
        while (last.length >= asked && asked < cap && !this.stopRequested && last[0]!.value - last[asked - 1]!.value <= dyn.withinCp) {
          asked = dyn.widenBy > 0 ? Math.min(cap, asked + dyn.widenBy) : cap;
          passes++;
          const wide = await this.search(position, widenGo, asked, windowCp, onInfo);
          totalNodes += wide.nodes;
          totalTime += wide.timeMs;
          if (wide.status !== "ok" || wide.all.length === 0) break;
          const known = new Set([...all, ...extra].map((c) => c.move));
          extra = [...extra, ...widenedMoves(wide.all, known, windowCp, dyn.wideMarginCp ?? 0)];
          last = wide.lines >= asked ? wide.all : [];
        }
        k = Math.max(k, asked);
      }
      // Each search's moves are kept within the window of that search's own best (a widening
      // search's with its margin).
      const candidates = sortCandidates([...applyWindow(all, windowCp), ...extra]).slice(0, keep);
      return {
        candidates,
        nodes: totalNodes,
        // The think's depth is its deepest line's: the best candidate may come from a shallow widening pass.
        depth: candidates.reduce((d, c) => Math.max(d, c.depth), pass.depth),
        timeMs: totalTime,
        engine: this.handshake.idName || this.name,
        status: pass.status,
        bestmove: pass.bestmove,
        ponder: pass.ponder,
        multipv: k,
        passes,
      };
    } finally {
      this.thinking = false;
      this.stopRequested = false;
    }
  }

  private stopRequested = false;

  /** GPS Shogi aborts on `go nodes`/`go depth` and offers only clock limits. */
  private get clockOnly(): boolean {
    return /^gpsshogi/i.test(this.handshake.idName);
  }

  private goCommand(l: ThinkLimits): string {
    const parts: string[] = [];
    const pos = (n: number | undefined) => n !== undefined && Number.isFinite(n) && n > 0;
    if (this.clockOnly && (pos(l.nodes) || pos(l.depth))) {
      throw new EngineUnsupportedError(`${this.name}: this engine supports only a time limit (movetimeMs)`, this.name);
    }
    if (pos(l.nodes)) parts.push(`nodes ${Math.floor(l.nodes!)}`);
    if (pos(l.depth)) parts.push(`depth ${Math.floor(l.depth!)}`);
    // byoyomi with zero clocks is plain USI; `movetime` is a UCI-ism not every USI engine knows.
    if (pos(l.movetimeMs)) parts.push(`btime 0 wtime 0 byoyomi ${Math.floor(l.movetimeMs!)}`);
    if (l.clock) {
      const c = l.clock;
      const f = (n: number) => Math.max(0, Math.floor(n));
      parts.push(`btime ${f(c.btime)} wtime ${f(c.wtime)}`);
      if (c.binc || c.winc) parts.push(`binc ${f(c.binc ?? 0)} winc ${f(c.winc ?? 0)}`);
      else parts.push(`byoyomi ${f(c.byoyomi)}`);
    }
    if (parts.length === 0) throw new EngineUnsupportedError(`${this.name}: think needs nodes, depth or movetimeMs`, this.name);
    return `go ${parts.join(" ")}`;
  }

  private setMultiPv(k: number, windowCp: number): { keyByMove: boolean } {
    if (this.option("MultiPV")) {
      this.setOption(this.option("MultiPV")!.name, k);
      return { keyByMove: false };
    }
    // GPS Shogi: no MultiPV, but MultiPVWidth (cp from the best) prints more root moves without an index.
    const width = this.option("MultiPVWidth");
    if (width) {
      this.setOption(width.name, k > 1 ? Math.max(0, Math.round(windowCp)) : 0);
      return { keyByMove: k > 1 };
    }
    return { keyByMove: false };
  }

  private async search(position: string, go: string, k: number, windowCp: number, onInfo?: (info: UsiInfo) => void) {
    const { keyByMove } = this.setMultiPv(k, windowCp);
    const collector = new MultiPvCollector(k, { keyByMove });
    let nodes = 0;
    let depth = 0;
    let timeMs = 0;
    const t0 = Date.now();
    this.send(`position ${position}`);
    // A clock search may use the larger remaining time plus its byoyomi/increment; the host judges the clock itself.
    const clockMs = [/btime (\d+)/, /wtime (\d+)/].map((re) => Number(re.exec(go)?.[1] ?? 0)).reduce((a, b) => Math.max(a, b), 0);
    const extraMs =
      Number(/byoyomi (\d+)/.exec(go)?.[1] ?? 0) + Number(/binc (\d+)/.exec(go)?.[1] ?? 0) + Number(/winc (\d+)/.exec(go)?.[1] ?? 0);
    const limitMs = /byoyomi|binc/.test(go) ? clockMs + extraMs + this.t.graceMs : this.t.thinkMs;
    let bestLine = "";
    await this.expect(
      go,
      limitMs,
      (line, done) => {
        const trimmed = line.trim();
        if (trimmed.startsWith("info")) {
          const info = parseInfoLine(trimmed);
          if (!info) return;
          if (info.nodes !== undefined) nodes = info.nodes;
          if (info.timeMs !== undefined) timeMs = info.timeMs;
          if (info.depth !== undefined && info.depth > depth) depth = info.depth;
          collector.add(info);
          if (onInfo) {
            try {
              onInfo(info);
            } catch {
              // The UI's trouble, not the search's.
            }
          }
        } else if (trimmed === "bestmove" || trimmed.startsWith("bestmove ")) {
          bestLine = trimmed;
          done();
        }
      },
      (ms) => new EngineTimeoutError(`${this.name}: no bestmove within ${ms} ms`, this.name),
      true,
    );
    const [, bestmove = "", , ponder] = bestLine.split(/\s+/);
    let status: ThinkStatus = "ok";
    if (bestmove === "resign") status = "resign";
    else if (bestmove === "win") status = "win";
    else if (bestmove === "" || bestmove === "(none)" || bestmove === "0000" || bestmove === "none") status = "nomoves";
    // A resigning (or declaring) engine still valued its moves: keep them, they are the book's.
    const all = status === "nomoves" ? [] : collector.result(Number.POSITIVE_INFINITY);
    if (status === "ok" && all.length === 0) status = "noinfo";
    return {
      all,
      status,
      bestmove,
      ponder,
      nodes,
      depth,
      lines: collector.distinctLines,
      timeMs: timeMs || Date.now() - t0,
    };
  }

  /**
   * Between games: `gameover`, then isready/readyok and `usinewgame`, so the engine
   * starts the next game clean.
   */
  async newGame(result: "win" | "lose" | "draw" = "draw"): Promise<void> {
    if (this.thinking) throw new EngineError(`${this.name}: already thinking`, this.name);
    this.send(`gameover ${result}`);
    await this.ready();
    this.send("usinewgame");
  }

  /** Asks a running search to finish now; think() then resolves with what it has. */
  stop(): void {
    if (this.thinking && this.running) {
      this.stopRequested = true;
      this.send("stop");
      // An engine that ignores stop is treated as hung after the grace period.
      const w = this.waiter;
      if (w) {
        setTimeout(() => {
          if (this.waiter !== w) return;
          this.kill();
          this.failWaiter(new EngineTimeoutError(`${this.name}: no bestmove within ${this.t.graceMs} ms of stop`, this.name));
        }, this.t.graceMs).unref();
      }
    }
  }

  /**
   * stop (if thinking; its bestmove is waited for at most `graceMs`, default the engine's
   * grace), quit, and kill when it has not gone within the quit timeout (or `graceMs`, when
   * shorter). Resolves when the process is gone.
   */
  async quit(graceMs: number = this.t.graceMs): Promise<void> {
    if (!this.child) return;
    if (this.running) {
      if (this.thinking) {
        this.stop();
        await Promise.race([this.waitIdle(), delay(graceMs)]);
      }
      this.send("quit");
      const timer = setTimeout(() => this.kill(), Math.min(this.t.quitMs, graceMs));
      await this.exited;
      clearTimeout(timer);
    }
  }

  /** Kills the process and its process group now (SIGKILL). */
  kill(): void {
    if (this.running) killGroup(this.child!);
  }

  private idleWaiters: (() => void)[] = [];
  private waitIdle(): Promise<void> {
    if (!this.thinking) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /**
   * Sends `command` and feeds each stdout line to `handle` until it calls done().
   * Times out with `timeoutError` (killing the process when `killOnTimeout`).
   */
  private expect(
    command: string,
    timeoutMs: number,
    handle: (line: string, done: () => void) => void,
    timeoutError: (ms: number) => Error,
    killOnTimeout = false,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.running) {
        reject(this.deadError());
        return;
      }
      let finished = false;
      const finish = (e?: Error) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        this.waiter = null;
        if (e) reject(e);
        else resolve();
        if (!this.waiter) for (const r of this.idleWaiters.splice(0)) r();
      };
      const timer = setTimeout(() => {
        if (killOnTimeout) this.kill();
        finish(timeoutError(timeoutMs));
      }, timeoutMs);
      this.waiter = { onLine: (line) => handle(line, () => finish()), fail: (e) => finish(e) };
      this.send(command);
    });
  }

  private deadError(): Error {
    const x = this.exitInfo;
    const how = x ? (x.signal ? `signal ${x.signal}` : `exit code ${x.code}`) : "not running";
    const tail = this.stderrTail.length ? `; stderr: ${this.stderrTail.slice(-3).join(" | ")}` : "";
    const msg = `${this.name}: engine process ended (${how})${tail}`;
    if (!this.thinking) return new EngineStartError(msg, this.name);
    return new EngineCrashError(msg, this.name, x?.code ?? null, x?.signal ?? null, this.stderrTail.slice());
  }

  private failWaiter(e: Error): void {
    const w = this.waiter;
    this.waiter = null;
    w?.fail(e);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.note(`exited (${signal ?? code})`);
    this.failWaiter(this.deadError());
    this.resolveExited({ code, signal });
  }

  private onStdout(line: string): void {
    if (this.opts.logTraffic) this.log("stdout", line);
    const t = line.trim();
    const word = t.split(/\s/, 1)[0]!;
    if (["info", "bestmove", "id", "option", "usiok", "readyok", "checkmate"].includes(word)) {
      this.garbageLines = 0;
      this.garbageBytes = 0;
    } else if (t !== "") {
      this.garbageLines++;
      this.garbageBytes += line.length;
      if (this.garbageLines > MAX_GARBAGE_LINES || this.garbageBytes > MAX_GARBAGE_BYTES) {
        this.protocolError(`${this.garbageLines} lines that are not USI`);
        return;
      }
    }
    this.waiter?.onLine(line);
  }

  private onOverlong(bytes: number): void {
    this.note(`dropped an output line of ${bytes}+ bytes`);
    this.garbageLines++;
    this.garbageBytes += bytes;
    if (this.garbageBytes > MAX_GARBAGE_BYTES || this.garbageLines > MAX_GARBAGE_LINES) this.protocolError("oversized output");
  }

  private protocolError(why: string): void {
    this.garbageLines = 0;
    this.garbageBytes = 0;
    const e = new EngineProtocolError(`${this.name}: protocol error: ${why}`, this.name);
    this.kill();
    this.failWaiter(e);
  }

  private onStderr(line: string): void {
    this.stderrTail.push(line.length > 500 ? line.slice(0, 500) + "…" : line);
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    this.log("stderr", line);
  }

  private send(line: string): void {
    if (!this.running) return;
    if (this.opts.logTraffic) this.log("stdin", line);
    this.child!.stdin!.write(line + "\n");
  }

  private note(line: string): void {
    this.log("note", line);
  }

  private log(stream: EngineLogEntry["stream"], line: string): void {
    try {
      this.opts.log?.({ engine: this.name, stream, line });
    } catch {
      // A failing logger must not take the engine down.
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
