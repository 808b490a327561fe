// The match runner: two players (an engine with options, and optionally a book) play
// every opening twice with colours swapped, up to `concurrency` games at once (two engine
// processes each). Every finished game is appended to the match folder's results file
// and fsync'ed before it counts, so a match killed at any moment resumes where it was:
// finished games are kept, games that were being played are played again.
//
// Folder layout: match.json (the settings and the resolved opening list), results.jsonl
// (one finished game per line), games/NNNN.csa|kif (the records, book moves marked).
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { checkFolderOrAbsent, checkReplaceable, createTemp } from "../fs/safe-file.js";
import path from "node:path";
import { EventEmitter } from "node:events";
import { UsiEngine, EngineTimeoutError, type UsiEngineOptions } from "../engines/usi/engine.js";
import type { SearchLimit } from "../engines/usi/limit.js";
import { engineFromCommandLine } from "../engines/command-line.js";
import { Game, pointsFor, type AdjudicationRules, type EndReason, type Opening } from "../../shared/match/game.js";
import { chooseBookMove, type BookChoiceOptions } from "../../shared/match/book-choice.js";
import { matchTable, type MatchTable, type SprtSpec } from "../../shared/match/stats.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { rng } from "../../shared/util/rng.js";
import { jitteredNodes, type Jitter } from "../../shared/match/jitter.js";
import { openMatchBook, type MatchBook } from "../formats/book-files.js";
import { gameRecord } from "./record.js";
import { BLACK, WHITE, type Color } from "../../shared/rules/types.js";
import { userError } from "../../shared/api/user-error.js";

export interface PlayerSpec {
  name: string;
  /** Engine command line (split without a shell). */
  engine: string;
  options: Record<string, string | number | boolean>;
  book?: string;
  bookChoice: BookChoiceOptions;
}

export type MatchLimits =
  { kind: "nodes"; nodes: number } | { kind: "movetime"; ms: number } | { kind: "clock"; timeMs: number; byoyomiMs: number; incMs: number };

export interface MatchConfig {
  version: 1;
  players: [PlayerSpec, PlayerSpec];
  /** Resolved openings; game 2k and 2k+1 play openings[k % length]. */
  openings: Opening[];
  openingsSource: string;
  games: number;
  limits: MatchLimits;
  concurrency: number;
  rules: AdjudicationRules;
  record: "csa" | "kif";
  sprt?: SprtSpec;
  /** Seeds the weighted book choice and the node jitter. */
  seed: number;
  /** Varies each engine move's node limit (nodes limits only); absent: every move at the match's limit. */
  jitter?: Jitter;
  /** Milliseconds past a move's time before it is lost on time (default 2,000). */
  graceMs?: number;
}

/** One finished game, as stored. Players are 0 and 1; `points` are player 0's. */
export interface GameRow {
  game: number;
  opening: number;
  /** The player who had black. */
  black: 0 | 1;
  winner: 0 | 1 | null;
  reason: EndReason;
  plies: number;
  bookPlies: [number, number];
  points: number;
  record: string;
  at: number;
  /** The moves played after the opening (USI, space-separated): tells a game from its copies. Absent in rows of older horu. */
  line?: string;
}

export type MatchEvent =
  | { type: "game-start"; game: number; opening: number; black: 0 | 1; sfen: string }
  | { type: "move"; game: number; ply: number; usi: string; player: 0 | 1; book: boolean; score?: number; sfen: string }
  | { type: "game-end"; row: GameRow; table: MatchTable }
  | { type: "engine-restart"; player: 0 | 1; why: string }
  | { type: "done"; table: MatchTable; stopped: boolean };

/** A game being played, as the UI shows it (also written to live.json for watchers). */
export interface LiveGame {
  game: number;
  opening: number;
  black: 0 | 1;
  /** The position the game started from (SFEN with ply) and the moves since, opening moves included. */
  start: string;
  moves: string[];
  bookMoves: number;
  lastScore: number | null;
}

const CONFIG = "match.json";
const LIVE = "live.json";
const LIVE_EVERY_MS = 500;
const LIVE_BEAT_MS = 2000;
const RESULTS = "results.jsonl";
/** A clock move may run over by this much (process and pipe latency) before it loses on time. */
const CLOCK_MARGIN_MS = 1000;
const MAX_RESTARTS_IN_A_ROW = 3;

export function gameOpening(config: MatchConfig, game: number): number {
  return Math.floor(game / 2) % config.openings.length;
}

/** Game 2k: player 0 has black; 2k+1: colours swapped. */
export function blackPlayer(game: number): 0 | 1 {
  return (game & 1) === 0 ? 0 : 1;
}

/** Reads the finished games; a torn last line (a kill mid-write) is dropped from the file. */
export function readResults(dir: string): GameRow[] {
  const file = path.join(dir, RESULTS);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const rows: GameRow[] = [];
  const lines = text.split("\n");
  let goodBytes = 0;
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const complete = i < lines.length - 1;
    offset += Buffer.byteLength(line) + (complete ? 1 : 0);
    if (line.trim() === "") {
      if (complete) goodBytes = offset;
      continue;
    }
    let row: GameRow;
    try {
      row = JSON.parse(line) as GameRow;
    } catch {
      if (complete) throw new Error(`${file}:${i + 1}: not a stored game (damaged results file)`);
      break; // torn tail
    }
    if (!complete) break; // no newline yet: not acknowledged
    rows.push(row);
    goodBytes = offset;
  }
  if (goodBytes !== Buffer.byteLength(text)) writeFileSync(file, Buffer.from(text).subarray(0, goodBytes));
  return rows;
}

export function readConfig(dir: string): MatchConfig {
  const file = path.join(dir, CONFIG);
  // The user's mistakes (a folder that is not a match, a damaged config): code "user", not a fault.
  if (!existsSync(file)) throw userError(`${dir}: not a match folder (no ${CONFIG})`);
  let c: MatchConfig;
  try {
    c = JSON.parse(readFileSync(file, "utf8")) as MatchConfig;
  } catch (e) {
    throw userError(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (c?.version !== 1) throw userError(`${file}: match format version ${String(c?.version)} is not known to this horu`);
  return c;
}

/** Writes the match settings (atomically) into a new or matching folder. */
export function writeConfig(dir: string, config: MatchConfig): void {
  // A file, a FIFO or a link to one named as the folder is the user's mistake, said so (not ENOTDIR).
  checkFolderOrAbsent(dir);
  checkFolderOrAbsent(path.join(dir, "games"));
  mkdirSync(path.join(dir, "games"), { recursive: true });
  const file = path.join(dir, CONFIG);
  const tmp = `${file}.${process.pid}.tmp`;
  // Created exclusively, never through a link planted at the temporary name.
  const fd = createTemp(tmp);
  try {
    writeSync(fd, JSON.stringify(config, null, 2) + "\n");
  } finally {
    closeSync(fd);
  }
  checkReplaceable(file);
  renameSync(tmp, file);
}

export function tableOf(config: MatchConfig, rows: readonly GameRow[]): MatchTable {
  return matchTable(
    rows.map((r) => ({
      index: r.game,
      score: r.points,
      opening: r.opening,
      key: r.line === undefined ? undefined : `${r.opening}:${r.line}`,
    })),
    config.sprt,
  );
}

interface Seat {
  engine: UsiEngine | null;
  restarts: number;
}

export class MatchRunner extends EventEmitter {
  readonly rows: GameRow[];
  private readonly books: (MatchBook | null)[];
  private next = 0;
  private stopping = false;
  private readonly active = new Set<number>();
  private readonly seats: Seat[][] = [];
  private fatal: Error | null = null;
  readonly live = new Map<number, LiveGame>();
  private liveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly dir: string,
    readonly config: MatchConfig,
    readonly log: (line: string) => void = () => {},
  ) {
    super();
    this.rows = readResults(dir);
    this.books = config.players.map((p) => (p.book ? openMatchBook(p.book) : null));
  }

  get table(): MatchTable {
    return tableOf(this.config, this.rows);
  }

  /** Games being played now. */
  get playing(): number[] {
    return [...this.active].sort((a, b) => a - b);
  }

  /** Finish the games being played, start no more. */
  stop(): void {
    this.stopping = true;
  }

  /** Kill the engines now (the games being played are lost and replayed on resume). */
  async abort(): Promise<void> {
    this.stopping = true;
    for (const seat of this.seats.flat()) seat.engine?.kill();
  }

  private sprtDone(): boolean {
    return this.config.sprt !== undefined && this.table.sprt?.verdict !== "continue";
  }

  private takeGame(): number | null {
    const done = new Set(this.rows.map((r) => r.game));
    while (this.next < this.config.games && (done.has(this.next) || this.active.has(this.next))) this.next++;
    if (this.stopping || this.fatal || this.sprtDone() || this.next >= this.config.games) return null;
    return this.next++;
  }

  /** Writes live.json soon (at most twice a second): what a `horu web` watching this folder shows. */
  private liveChanged(): void {
    if (this.liveTimer) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = null;
      this.writeLive();
    }, LIVE_EVERY_MS);
  }

  private writeLive(): void {
    const file = path.join(this.dir, LIVE);
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, at: Date.now(), games: [...this.live.values()] }));
      renameSync(`${file}.tmp`, file);
    } catch {
      // only a view for watchers
    }
  }

  async run(): Promise<MatchTable> {
    const workers = Math.max(1, Math.min(this.config.concurrency, this.config.games));
    // live.json says this process plays the folder from the start, and stays fresh through
    // long moves (a watcher on another machine goes by its age).
    this.writeLive();
    const beat = setInterval(() => this.writeLive(), LIVE_BEAT_MS);
    beat.unref?.();
    try {
      await Promise.all(Array.from({ length: workers }, (_, w) => this.worker(w)));
    } finally {
      clearInterval(beat);
      await Promise.all(this.seats.flat().map((s) => s.engine?.quit().catch(() => {})));
      if (this.liveTimer) clearTimeout(this.liveTimer);
      this.liveTimer = null;
      this.live.clear();
      this.writeLive();
    }
    if (this.fatal) throw this.fatal;
    const table = this.table;
    this.emit("event", { type: "done", table, stopped: this.stopping } satisfies MatchEvent);
    return table;
  }

  private async worker(w: number): Promise<void> {
    const seats: Seat[] = [
      { engine: null, restarts: 0 },
      { engine: null, restarts: 0 },
    ];
    this.seats[w] = seats;
    for (let g = this.takeGame(); g !== null; g = this.takeGame()) {
      this.active.add(g);
      try {
        const row = await this.playGame(g, seats);
        if (row) this.store(row);
      } catch (e) {
        this.fatal ??= e instanceof Error ? e : new Error(String(e));
      } finally {
        this.active.delete(g);
        this.live.delete(g);
        this.liveChanged();
      }
    }
  }

  private store(row: GameRow): void {
    // One line, written and fsync'ed before the game counts.
    const fd = openSync(path.join(this.dir, RESULTS), "a");
    try {
      writeSync(fd, JSON.stringify(row) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.rows.push(row);
    this.emit("event", { type: "game-end", row, table: this.table } satisfies MatchEvent);
  }

  /** How to start a player's engine: any command line, or a built-in engine ("builtin", "builtin:<id>") as `horu dig` takes it. */
  private engineOptions(p: 0 | 1): UsiEngineOptions {
    const spec = this.config.players[p];
    return {
      ...engineFromCommandLine(spec.engine, spec.options),
      name: spec.name,
      // A clock game must not wait long past the clock; node searches get ten minutes. Start-up
      // is not part of a game: the built-in WebAssembly Fairy-Stockfish took 21 s to answer
      // usi on a loaded 2-core machine, so the handshake may take a minute.
      timeouts: { thinkMs: 600_000, graceMs: this.config.graceMs ?? 2_000, usiokMs: 60_000, readyokMs: 60_000 },
      log: (e) => {
        if ((e.stream === "note" && !e.line.startsWith("exited")) || e.stream === "stderr") this.log(`${spec.name}: ${e.line}`);
      },
    };
  }

  /** A running engine for the seat, started (or restarted) as needed; fatal after repeated start failures. */
  private async ensureEngine(seat: Seat, p: 0 | 1, fresh: boolean): Promise<UsiEngine> {
    if (seat.engine?.running) {
      if (fresh) await seat.engine.newGame();
      return seat.engine;
    }
    for (;;) {
      try {
        const e = new UsiEngine(this.engineOptions(p));
        await e.start();
        seat.engine = e;
        seat.restarts = 0;
        return e;
      } catch (err) {
        seat.restarts++;
        const why = err instanceof Error ? err.message : String(err);
        if (seat.restarts >= MAX_RESTARTS_IN_A_ROW)
          throw new Error(`player ${this.config.players[p].name}: the engine failed to start ${seat.restarts} times in a row: ${why}`, {
            cause: err,
          });
        this.emit("event", { type: "engine-restart", player: p, why } satisfies MatchEvent);
      }
    }
  }

  private goLimit(clock: [number, number], game: number, ply: number): SearchLimit {
    const l = this.config.limits;
    switch (l.kind) {
      case "nodes":
        return { kind: "nodes", nodes: jitteredNodes(l.nodes, this.config.jitter?.nodesPct ?? 0, this.config.seed, game, ply) };
      case "movetime":
        return { kind: "movetime", ms: l.ms };
      case "clock":
        return { kind: "clock", btime: clock[BLACK], wtime: clock[WHITE], byoyomi: l.byoyomiMs, binc: l.incMs, winc: l.incMs };
    }
  }

  private async playGame(index: number, seats: Seat[]): Promise<GameRow | null> {
    const c = this.config;
    const openingIndex = gameOpening(c, index);
    const opening = c.openings[openingIndex]!;
    const black = blackPlayer(index);
    const playerOf = (color: Color): 0 | 1 => (color === BLACK ? black : ((1 - black) as 0 | 1));
    const game = new Game(opening, c.rules);
    const random = rng(c.seed * 1_000_003 + index);
    const inBook = [this.books[0] !== null, this.books[1] !== null];
    const bookPlies: [number, number] = [0, 0];
    const clock: [number, number] = c.limits.kind === "clock" ? [c.limits.timeMs, c.limits.timeMs] : [0, 0];
    const startSfen = game.pos.toSfen();
    this.live.set(index, {
      game: index,
      opening: openingIndex,
      black,
      start: new Game({ sfen: opening.sfen, moves: [] }, c.rules).pos.toSfen(),
      moves: [...opening.moves],
      bookMoves: 0,
      lastScore: null,
    });
    this.liveChanged();
    this.emit("event", { type: "game-start", game: index, opening: openingIndex, black, sfen: startSfen } satisfies MatchEvent);
    const fresh = [true, true];

    while (!game.result) {
      if (this.fatal) return null;
      const side = game.sideToMove;
      const p = playerOf(side);
      const book = this.books[p];
      if (book && inBook[p]) {
        const moves = (book.lookup(game.pos.sfenKey()) ?? []).filter((m) => {
          const mv = parseUsiMove(m.move);
          return mv !== null && game.pos.isLegal(mv);
        });
        const pick = chooseBookMove(moves, game.ply, c.players[p].bookChoice, random);
        if (pick) {
          bookPlies[p]++;
          game.play({ usi: pick.move, book: true, score: pick.value, timeMs: 0 });
          this.emitMove(index, game, p);
          continue;
        }
        // A position the book lacks is asked again later (a transposition may return to the
        // book); a book whose best is below the threshold, or the ply cap, ends it for the game.
        if (moves.length > 0 || game.ply >= c.players[p].bookChoice.maxPly) inBook[p] = false;
      }
      const seat = seats[p]!;
      let engine: UsiEngine;
      try {
        engine = await this.ensureEngine(seat, p, fresh[p]!);
      } catch (e) {
        if (this.stopping) return null;
        throw e;
      }
      fresh[p] = false;
      const t0 = performance.now();
      let r;
      try {
        r = await engine.think(game.positionCommand(), this.goLimit(clock, index, game.ply), { fixed: 1 });
      } catch (e) {
        if (this.stopping) return null; // aborted: replay this game on resume
        const why = e instanceof Error ? e.message : String(e);
        engine.kill();
        seat.engine = null;
        this.emit("event", { type: "engine-restart", player: p, why } satisfies MatchEvent);
        game.forfeit(e instanceof EngineTimeoutError ? "timeout" : "crash");
        break;
      }
      const elapsed = Math.round(performance.now() - t0);
      if (c.limits.kind === "clock") {
        const l = c.limits;
        const left = clock[side] - elapsed;
        if (left < -(l.byoyomiMs + CLOCK_MARGIN_MS)) {
          game.forfeit("timeout");
          break;
        }
        clock[side] = Math.max(0, left) + l.incMs;
      }
      if (r.status === "resign" || r.status === "nomoves") {
        game.forfeit("resign");
        break;
      }
      if (r.status === "win") {
        game.declare();
        break;
      }
      const result = game.play({ usi: r.bestmove, book: false, score: r.candidates[0]?.value, timeMs: elapsed });
      if (result?.reason === "illegal-move") {
        // An engine that sent an illegal move may be confused: start it afresh.
        engine.kill();
        seat.engine = null;
        this.emit("event", { type: "engine-restart", player: p, why: `illegal move ${r.bestmove}` } satisfies MatchEvent);
        break;
      }
      this.emitMove(index, game, p);
    }

    const result = game.result!;
    // Tell the engines how it ended (and be ready for the next game).
    for (const q of [0, 1] as const) {
      const e = seats[q]!.engine;
      if (!e?.running) continue;
      const mine = q === black ? BLACK : WHITE;
      const outcome = result.winner === null ? "draw" : result.winner === mine ? "win" : "lose";
      try {
        await e.newGame(outcome);
      } catch {
        e.kill();
        seats[q]!.engine = null;
      }
    }
    const ext = c.record;
    const recordName = `${String(index + 1).padStart(4, "0")}.${ext}`;
    const names: [string, string] = [c.players[black].name, c.players[1 - black]!.name];
    writeFileSync(
      path.join(this.dir, "games", recordName),
      gameRecord(game, result, { black: names[0], white: names[1], format: ext, title: `horu match game ${index + 1}` }),
    );
    const winner = result.winner === null ? null : playerOf(result.winner);
    return {
      game: index,
      opening: openingIndex,
      black,
      winner,
      reason: result.reason,
      plies: game.ply,
      bookPlies,
      points: pointsFor(result, black === 0 ? BLACK : WHITE),
      record: `games/${recordName}`,
      at: Date.now(),
      line: game.played.map((m) => m.usi).join(" "),
    };
  }

  private emitMove(index: number, game: Game, p: 0 | 1): void {
    const m = game.played[game.played.length - 1]!;
    const l = this.live.get(index);
    if (l) {
      l.moves.push(m.usi);
      if (m.book) l.bookMoves++;
      if (m.score !== undefined) l.lastScore = m.score;
      this.liveChanged();
    }
    this.emit("event", {
      type: "move",
      game: index,
      ply: game.ply,
      usi: m.usi,
      player: p,
      book: m.book,
      score: m.score,
      sfen: game.pos.toSfen(),
    } satisfies MatchEvent);
  }
}

/** What a process running the match in `dir` last wrote about its games in progress. */
export function readLive(dir: string): { pid: number; at: number; games: LiveGame[] } | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, LIVE), "utf8")) as { pid: number; at: number; games: LiveGame[] };
  } catch {
    return null;
  }
}
