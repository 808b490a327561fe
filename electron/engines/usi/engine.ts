// One USI engine session (docs/DESIGN.md §4): handshake, options, searches, stop/quit and
// typed failures, over an engine process (process.ts) in the protocol's words (protocol.ts);
// the dig's MultiPV widening is widen.ts's, the typed search limit limit.ts's.
import { parseInfoLine, type UsiInfo } from "../../../shared/usi/info.js";
import { MultiPvCollector, DEFAULT_WINDOW_CP } from "../../../shared/usi/multipv.js";
import { optionValueProblem, parseIdLine, parseOptionLine, setOptionCommand, type UsiOption } from "../../../shared/usi/option.js";
import {
  EngineCrashError,
  EngineError,
  EngineOptionError,
  EngineProtocolError,
  EngineStartError,
  EngineTimeoutError,
  EngineUnsupportedError,
} from "./errors.js";
import { searchTimeoutMs, type SearchLimit } from "./limit.js";
import { EngineProcess, delay, type ExitInfo } from "./process.js";
import { spawnFailureWords } from "./spawn-failure.js";
import {
  OPTION_ALIASES,
  USI_WORDS,
  assertOneLine,
  bookOffSettings,
  findOption,
  goCommand,
  isBestmoveLine,
  isClockOnly,
  parseBestmove,
  positionArgument,
  type ThinkStatus,
} from "./protocol.js";
import { thinkMultiPv, type MultiPvResult, type MultiPvSpec, type Pass } from "./widen.js";

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
   * them for a core; they take all the CPU it leaves (process.ts runNicer).
   */
  nice?: number;
}

/** A think's result: the MultiPV policy's (widen.ts) and the engine that gave it. */
export interface ThinkResult extends MultiPvResult {
  /** `id name` (or the display name when the engine sent none). */
  engine: string;
}

export interface Handshake {
  idName: string;
  idAuthor: string;
  options: UsiOption[];
}

/** Consecutive lines that are not USI before we call it a protocol error. */
const MAX_GARBAGE_LINES = 2000;
/** Output bytes without a single useful line before we call it a protocol error. */
const MAX_GARBAGE_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL = 20;

type Waiter = {
  onLine: (line: string) => void;
  fail: (e: Error) => void;
};

export class UsiEngine {
  readonly name: string;
  /** Available after start(): what the engine said about itself. */
  handshake: Handshake = { idName: "", idAuthor: "", options: [] };
  /** The engine answered usi with usiok (an end before it is said to be one). */
  private usiokSeen = false;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<ExitInfo>;

  private proc: EngineProcess | null = null;
  private resolveExited!: (v: ExitInfo) => void;
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
    return this.proc !== null && this.proc.running;
  }

  /** The engine's process id while it runs (benchmarks read its CPU time). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get isThinking(): boolean {
    return this.thinking;
  }

  /** The engine's option by name (exact, then case-insensitive). */
  option(name: string): UsiOption | undefined {
    return findOption(this.handshake.options, name);
  }

  /** Spawns, handshakes, sets options, turns the own book off, waits readyok, sends usinewgame. */
  async start(): Promise<Handshake> {
    if (this.started) throw new EngineStartError(`${this.name}: already started`, this.name);
    this.started = true;
    const { command, args, cwd, env, nice } = this.opts;
    let rejectSpawn!: (e: Error) => void;
    const spawnError = new Promise<never>((_, reject) => (rejectSpawn = reject));
    spawnError.catch(() => {});
    const proc = new EngineProcess(
      { command, args, cwd, env, nice },
      {
        stdout: (l) => this.onStdout(l),
        overlong: (n) => this.onOverlong(n),
        stderr: (l) => this.onStderr(l),
        spawnFailed: (e) => {
          const what =
            e.code === "ENOENT"
              ? `engine not found: ${command}${cwd ? ` (cwd ${cwd})` : ""}`
              : `cannot start engine ${command}: ${spawnFailureWords(command, cwd, e)}`;
          const err = new EngineStartError(what, this.name);
          this.resolveExited(proc.exitInfo!);
          this.failWaiter(err);
          rejectSpawn(err);
        },
        exited: (x) => this.onExit(x),
      },
    );
    this.proc = proc;

    try {
      await Promise.race([spawnError, this.handshakeUsi()]);
      proc.renice(); // threads made at its start, after the first call (later ones start with their maker's value)
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
          this.usiokSeen = true;
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
    const set: Array<[UsiOption, string | number | boolean]> = [];
    for (const [key, value] of Object.entries(user)) {
      const target = [key, ...(OPTION_ALIASES[key] ?? [])].map((n) => this.option(n)).find((o) => o !== undefined);
      if (!target) {
        // Unknown options are skipped: some engines abort on them.
        this.note(`option ${key} not offered by the engine; skipped`);
        continue;
      }
      // A value the engine does not take is ignored by it without a word: refused before anything is set.
      const problem = optionValueProblem(this.name, target, value, key);
      if (problem) throw new EngineOptionError(problem, this.name);
      set.push([target, value]);
    }
    for (const [target, value] of set) {
      userTargets.add(target.name);
      this.setOption(target.name, target.type === "button" ? undefined : value);
    }
    // Turn the engine's own book off (the book is what we are building), unless the user set it.
    for (const [name, value] of bookOffSettings(this.handshake.options)) if (!userTargets.has(name)) this.setOption(name, value);
  }

  private setOption(name: string, value?: string | number | boolean): void {
    const text = value === undefined ? "" : String(value);
    if (value !== undefined && this.sent.get(name) === text) return;
    this.sent.set(name, text);
    this.send(setOptionCommand(name, value));
  }

  /**
   * Searches one position, with fixed or dynamic MultiPV (widen.ts: thinkMultiPv). The limit is
   * checked before anything is sent: an engine that cannot search by it fails at once.
   */
  async think(
    sfen: string,
    limit: SearchLimit,
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
        this.proc?.exitInfo?.code ?? null,
        this.proc?.exitInfo?.signal ?? null,
        this.stderrTail.slice(),
      );
    if (this.thinking) throw new EngineError(`${this.name}: already thinking`, this.name);
    if (/[\r\n]/.test(sfen)) throw new EngineUnsupportedError(`${this.name}: newline in sfen`, this.name);
    this.goFor(limit);
    this.thinking = true;
    try {
      const position = positionArgument(sfen);
      const mpv = this.option("MultiPV");
      const r = await thinkMultiPv(
        {
          search: (k, l) => this.search(position, l, k, windowCp, onInfo),
          stopRequested: () => this.stopRequested,
          hasMultiPv: mpv !== undefined,
          multiPvMax: mpv?.type === "spin" ? mpv.max : undefined,
        },
        position,
        limit,
        multipv,
        windowCp,
        legalCount,
      );
      return { ...r, engine: this.handshake.idName || this.name };
    } finally {
      this.thinking = false;
      this.stopRequested = false;
    }
  }

  private stopRequested = false;

  /** The `go` command for a limit, or why this engine cannot search by it. */
  private goFor(l: SearchLimit): string {
    if (isClockOnly(this.handshake.idName) && (l.kind === "nodes" || l.kind === "depth"))
      throw new EngineUnsupportedError(`${this.name}: this engine supports only a time limit (movetime)`, this.name);
    const go = goCommand(l);
    if (go === null) throw new EngineUnsupportedError(`${this.name}: think needs a positive nodes, depth or movetime limit`, this.name);
    return go;
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

  private async search(position: string, limit: SearchLimit, k: number, windowCp: number, onInfo?: (info: UsiInfo) => void): Promise<Pass> {
    const go = this.goFor(limit);
    const { keyByMove } = this.setMultiPv(k, windowCp);
    const collector = new MultiPvCollector(k, { keyByMove });
    let nodes = 0;
    let depth = 0;
    let timeMs = 0;
    const t0 = Date.now();
    this.send(`position ${position}`);
    let bestLine = "";
    await this.expect(
      go,
      searchTimeoutMs(limit, this.t),
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
        } else if (isBestmoveLine(trimmed)) {
          bestLine = trimmed;
          done();
        }
      },
      (ms) => new EngineTimeoutError(`${this.name}: no bestmove within ${ms} ms`, this.name),
      true,
    );
    const { bestmove, ponder, status: said } = parseBestmove(bestLine);
    let status: ThinkStatus = said;
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
    if (!this.proc) return;
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
    this.proc?.kill();
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
    const x = this.proc?.exitInfo ?? null;
    const how = x ? (x.signal ? `signal ${x.signal}` : `exit code ${x.code}`) : "not running";
    const tail = this.stderrTail.length ? `; stderr: ${this.stderrTail.slice(-3).join(" | ")}` : "";
    // Ended before usiok: said so, else "ended (exit code 0)" left open whether it was ever a USI engine.
    const when = this.usiokSeen ? "" : " before finishing the USI handshake (no usiok)";
    const msg = `${this.name}: engine process ended (${how})${when}${tail}`;
    if (!this.thinking) return new EngineStartError(msg, this.name);
    return new EngineCrashError(msg, this.name, x?.code ?? null, x?.signal ?? null, this.stderrTail.slice());
  }

  private failWaiter(e: Error): void {
    const w = this.waiter;
    this.waiter = null;
    w?.fail(e);
  }

  private onExit(x: ExitInfo): void {
    this.note(`exited (${x.signal ?? x.code})`);
    this.failWaiter(this.deadError());
    this.resolveExited(x);
  }

  private onStdout(line: string): void {
    if (this.opts.logTraffic) this.log("stdout", line);
    const t = line.trim();
    const word = t.split(/\s/, 1)[0]!;
    if (USI_WORDS.has(word)) {
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
    assertOneLine(line);
    if (this.opts.logTraffic) this.log("stdin", line);
    this.proc!.send(line);
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
