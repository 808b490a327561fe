// The match behind the UI: plays one match in this process (MatchRunner), or follows a
// match folder another process plays (`horu match` on a server), and turns either into the
// MatchStatusView the Match view draws, pushed at most a few times a second.
import { existsSync } from "node:fs";
import path from "node:path";
import type { MatchGameView, MatchLiveView, MatchStatusView, ParsedArgs } from "../../shared/api/contract.js";
import { Game } from "../../shared/match/game.js";
import type { MatchTable } from "../../shared/match/stats.js";
import {
  MatchRunner,
  readConfig,
  readLive,
  readResults,
  tableOf,
  writeConfig,
  type GameRow,
  type LiveGame,
  type MatchConfig,
} from "./runner.js";
import { buildMatchConfig } from "./setup.js";
import { processRunning } from "../store/lock.js";
import { userError } from "../../shared/api/user-error.js";

const PUSH_EVERY_MS = 250;
const FOLLOW_EVERY_MS = 1000;

function gameView(c: MatchConfig, r: GameRow): MatchGameView {
  const names = c.players.map((p) => p.name);
  return {
    game: r.game,
    opening: r.opening,
    black: names[r.black]!,
    white: names[1 - r.black]!,
    result: r.winner === null ? "1/2" : r.winner === r.black ? "1-0" : "0-1",
    reason: r.reason,
    plies: r.plies,
    bookPlies: r.bookPlies,
    record: r.record,
  };
}

function liveView(c: MatchConfig, l: LiveGame): MatchLiveView {
  const names = c.players.map((p) => p.name);
  let sfen = l.start;
  try {
    const g = new Game({ sfen: l.start, moves: l.moves }, { maxPlies: 0, resignScore: 0, resignMoves: 0 });
    sfen = g.pos.toSfen();
  } catch {
    // a torn live.json: show the start
  }
  return {
    game: l.game,
    black: names[l.black]!,
    white: names[1 - l.black]!,
    sfen,
    moves: l.moves,
    bookMoves: l.bookMoves,
    lastScore: l.lastScore,
  };
}

/** JSON has no Infinity: an unbounded Elo end travels as +-9999. */
const finite = (x: number) => Math.max(-9999, Math.min(9999, x));

function openingLine(c: MatchConfig, i: number): string {
  const o = c.openings[i];
  if (!o) return "";
  return o.moves.length ? o.moves.join(" ") : o.sfen;
}

export function statusView(
  dir: string,
  c: MatchConfig,
  rows: readonly GameRow[],
  table: MatchTable,
  live: LiveGame[],
  state: MatchStatusView["state"],
  error: string | null,
): MatchStatusView {
  return {
    dir,
    state,
    players: [c.players[0].name, c.players[1].name],
    planned: c.games,
    played: rows.length,
    limits: c.limits,
    openings: { count: c.openings.length, source: c.openingsSource },
    jitter: c.jitter ? { nodesPct: c.jitter.nodesPct, seed: c.seed } : null,
    table: {
      wdl: table.wdl,
      points: table.points,
      score: table.score,
      pentanomial: table.pentanomial,
      distinctGames: table.distinctGames,
      pairs: table.pairs,
      distinctPairs: table.distinctPairs,
      distinctPentanomial: table.distinctPentanomial,
      elo: table.elo
        ? {
            elo: finite(table.elo.elo),
            low: table.elo.low === null ? null : finite(table.elo.low),
            high: table.elo.high === null ? null : finite(table.elo.high),
            samples: table.elo.samples,
            why: table.elo.why,
          }
        : null,
      warning: table.warning,
      sprt: table.sprt ? { ...table.sprt } : null,
      perOpening: table.perOpening.slice(0, 200).map((o) => ({ ...o, line: openingLine(c, o.opening) })),
    },
    games: rows
      .slice(-500)
      .reverse()
      .map((r) => gameView(c, r)),
    live: live.sort((a, b) => a.game - b.game).map((l) => liveView(c, l)),
    error,
  };
}

export class MatchController {
  private runner: MatchRunner | null = null;
  private config: MatchConfig | null = null;
  private dir: string | null = null;
  private state: MatchStatusView["state"] = "done";
  private error: string | null = null;
  private pushTimer: ReturnType<typeof setTimeout> | null = null;
  private followTimer: ReturnType<typeof setInterval> | null = null;
  private followed: { rows: GameRow[]; live: LiveGame[] } = { rows: [], live: [] };

  constructor(private readonly push: (s: MatchStatusView) => void) {}

  status(): MatchStatusView | null {
    if (!this.config || !this.dir) return null;
    if (this.runner)
      return statusView(this.dir, this.config, this.runner.rows, this.runner.table, [...this.runner.live.values()], this.state, this.error);
    return statusView(
      this.dir,
      this.config,
      this.followed.rows,
      tableOf(this.config, this.followed.rows),
      this.followed.live,
      this.state,
      this.error,
    );
  }

  private changed(): void {
    if (this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      const s = this.status();
      if (s) this.push(s);
    }, PUSH_EVERY_MS);
  }

  private busy(): boolean {
    return this.runner !== null && (this.state === "running" || this.state === "stopping");
  }

  start(x: ParsedArgs<"match.start">): MatchStatusView {
    if (this.busy()) throw userError("a match is running: stop it first");
    if (existsSync(path.join(x.dir, "match.json")))
      throw new Error(`${x.dir} already holds a match: open it to resume it, or choose another folder`);
    const config = buildMatchConfig({
      players: x.players.map((p) => ({
        engine: p.engine,
        options: p.options,
        name: p.name,
        book: p.book,
        bookChoice: { mode: p.bookMode, windowCp: p.bookWindow, maxPly: p.bookMaxPly },
      })) as [never, never],
      openings: x.openings,
      openingPlies: x.openingPlies,
      games: x.games,
      limits: x.movetimeMs ? { kind: "movetime", ms: x.movetimeMs } : { kind: "nodes", nodes: x.nodes ?? 100_000 },
      concurrency: x.concurrency,
      rules: { maxPlies: x.maxMoves },
      ...(x.jitterPct && !x.movetimeMs ? { jitterPct: x.jitterPct } : {}),
    });
    writeConfig(x.dir, config);
    return this.play(x.dir, config);
  }

  /** Resumes a stored match here, or follows it when another process is playing it. */
  open(dir: string): MatchStatusView {
    if (this.busy()) throw userError("a match is running: stop it first");
    const config = readConfig(dir);
    const live = readLive(dir);
    // Another process playing this folder (its pid alive here, or its live.json fresh, for a
    // folder shared with another machine) is followed, never played beside it: two players
    // of one folder would play the same games twice. Between its games, or before its first
    // move, it has no game in progress, and it is still playing.
    if (live && live.pid !== process.pid && (Date.now() - live.at < 5_000 || processRunning(live.pid))) return this.follow(dir, config);
    return this.play(dir, config);
  }

  private play(dir: string, config: MatchConfig): MatchStatusView {
    this.stopFollowing();
    const runner = new MatchRunner(dir, config);
    this.runner = runner;
    this.config = config;
    this.dir = dir;
    this.state = "running";
    this.error = null;
    runner.on("event", () => this.changed());
    void runner.run().then(
      () => {
        const decided = config.sprt !== undefined && runner.table.sprt?.verdict !== "continue";
        if (this.runner === runner) this.state = runner.rows.length >= config.games || decided ? "done" : "stopped";
        this.changed();
      },
      (e: unknown) => {
        if (this.runner === runner) {
          this.state = "failed";
          this.error = e instanceof Error ? e.message : String(e);
        }
        this.changed();
      },
    );
    return this.status()!;
  }

  private follow(dir: string, config: MatchConfig): MatchStatusView {
    this.stopFollowing();
    this.runner = null;
    this.config = config;
    this.dir = dir;
    this.state = "watching";
    this.error = null;
    const poll = () => {
      try {
        this.followed = { rows: readResults(dir), live: readLive(dir)?.games ?? [] };
        this.state = this.followed.rows.length >= config.games ? "done" : "watching";
      } catch (e) {
        this.error = e instanceof Error ? e.message : String(e);
      }
      this.changed();
    };
    poll();
    this.followTimer = setInterval(poll, FOLLOW_EVERY_MS);
    this.followTimer.unref?.();
    return this.status()!;
  }

  private stopFollowing(): void {
    if (this.followTimer) clearInterval(this.followTimer);
    this.followTimer = null;
  }

  stop(): MatchStatusView | null {
    if (this.runner && this.state === "running") {
      this.state = "stopping";
      this.runner.stop();
    } else if (this.followTimer) {
      this.stopFollowing();
      this.state = "stopped";
    }
    this.changed();
    return this.status();
  }

  async close(): Promise<void> {
    this.stopFollowing();
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    await this.runner?.abort();
  }
}
