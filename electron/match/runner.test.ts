// The match runner with real engines: games from openings with colours swapped, book moves
// marked in the records, results stored as they happen; and with the fake engine for
// faults: a crash or an illegal move loses that game, the engine is restarted, the match
// goes on.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MatchRunner, readResults, writeConfig, type MatchConfig, type MatchEvent } from "./runner.js";
import { DEFAULT_BOOK_CHOICE } from "../../shared/match/book-choice.js";
import { FAIRY, FAKE_ENGINE, TEST_DATA, haveFairy, NO_ENGINE, tempDir } from "../testing/paths.js";
import { importCSA } from "tsshogi";
import { BOOK_MARK } from "./record.js";
import { missing } from "../testing/missing.js";

const fairy = { engine: FAIRY, options: { Threads: 1, USI_Hash: 16 }, bookChoice: DEFAULT_BOOK_CHOICE };

function config(over: Partial<MatchConfig>): MatchConfig {
  return {
    version: 1,
    players: [
      { name: "A", ...fairy },
      { name: "B", ...fairy },
    ],
    openings: [{ sfen: "startpos", moves: [] }],
    openingsSource: "test",
    games: 2,
    limits: { kind: "nodes", nodes: 300 },
    concurrency: 1,
    rules: { maxPlies: 60, resignScore: 3000, resignMoves: 3 },
    record: "csa",
    seed: 1,
    ...over,
  };
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`match runner (${NO_ENGINE})`, () => {
  it("plays each opening twice with colours swapped, book moves marked, results stored", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const book = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    const c = config({
      players: [
        { name: "book", ...fairy, book },
        { name: "nobook", ...fairy },
      ],
      openings: [
        { sfen: "startpos", moves: [] },
        { sfen: "startpos", moves: ["2g2f", "8c8d"] },
      ],
      games: 4,
      concurrency: 2,
    });
    writeConfig(dir, c);
    const runner = new MatchRunner(dir, c);
    const events: MatchEvent[] = [];
    runner.on("event", (e: MatchEvent) => events.push(e));
    const table = await runner.run();
    expect(table.games).toBe(4);
    expect(table.wdl.wins + table.wdl.draws + table.wdl.losses).toBe(4);
    expect(table.pentanomial.reduce((a, b) => a + b, 0)).toBe(2);
    const rows = readResults(dir);
    expect(rows.map((r) => r.game).sort()).toEqual([0, 1, 2, 3]);
    expect(rows.map((r) => [r.game, r.black, r.opening]).sort()).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [2, 0, 1],
      [3, 1, 1],
    ]);
    // From the start position the book player has book moves; the records mark them.
    const first = rows.find((r) => r.game === 0)!;
    expect(first.bookPlies[0]).toBeGreaterThan(0);
    expect(first.bookPlies[1]).toBe(0);
    const csa = readFileSync(path.join(dir, first.record), "utf8");
    expect(csa).toContain(BOOK_MARK);
    const rec = importCSA(csa);
    expect(rec).not.toBeInstanceOf(Error);
    expect(events.some((e) => e.type === "move" && e.book)).toBe(true);
    expect(events.filter((e) => e.type === "game-end")).toHaveLength(4);
    // A second run of a finished match plays nothing more.
    const again = new MatchRunner(dir, c);
    expect((await again.run()).games).toBe(4);
    expect(readResults(dir)).toHaveLength(4);
  });

  it("counts distinct games: a deterministic engine repeats its games, node jitter makes them differ", { timeout: 180_000 }, async () => {
    // The same engine on both sides without jitter: the games replay one another (fairy-stockfish
    // at a node limit is deterministic but for rare hash effects), 8 games hold at most 3.
    const same = tempDir();
    const c0 = config({ games: 8, concurrency: 2, rules: { maxPlies: 40, resignScore: 0, resignMoves: 0 } });
    writeConfig(same, c0);
    const t0 = await new MatchRunner(same, c0).run();
    expect(t0.games).toBe(8);
    const rows0 = readResults(same);
    const lines0 = new Set(rows0.map((r) => `${r.opening}:${r.line}`));
    expect(lines0.size).toBeLessThanOrEqual(3);
    expect(t0.distinctGames).toBe(lines0.size);
    const line = new Map(rows0.map((r) => [r.game, `${r.opening}:${r.line}`]));
    const pairs0 = new Set([0, 2, 4, 6].map((g) => `${line.get(g)}|${line.get(g + 1)}`));
    expect(t0.pairs).toBe(4);
    expect(t0.distinctPairs).toBe(pairs0.size);
    expect(t0.elo!.samples).toBe(pairs0.size);
    expect(t0.elo!.low).toBeNull(); // never a zero-width interval
    expect(t0.warning).toMatch(/most games repeat/);

    // With +-10% nodes per move (seeded), the games differ; the seed and jitter are in match.json.
    const varied = tempDir();
    const c1 = config({
      games: 8,
      concurrency: 2,
      jitter: { nodesPct: 10 },
      seed: 7,
      rules: { maxPlies: 40, resignScore: 0, resignMoves: 0 },
    });
    writeConfig(varied, c1);
    const stored = JSON.parse(readFileSync(path.join(varied, "match.json"), "utf8")) as MatchConfig;
    expect(stored.jitter).toEqual({ nodesPct: 10 });
    expect(stored.seed).toBe(7);
    const t1 = await new MatchRunner(varied, c1).run();
    const rows1 = readResults(varied);
    const distinct = new Set(rows1.map((r) => `${r.opening}:${r.line}`)).size;
    expect(t1.distinctGames).toBe(distinct);
    expect(distinct).toBeGreaterThanOrEqual(6);
    expect(t1.distinctPairs).toBeGreaterThanOrEqual(3);
    expect(t1.warning).toBeNull();

    // The limits depend on (seed, game, ply) only: a game replayed (as on resume) is the same game.
    const replay = tempDir();
    writeConfig(replay, { ...c1, games: 2, concurrency: 1 });
    await new MatchRunner(replay, { ...c1, games: 2, concurrency: 1 }).run();
    const byGame = new Map(rows1.map((r) => [r.game, r.line]));
    for (const r of readResults(replay)) expect(r.line).toBe(byGame.get(r.game));
  });

  it("a crash or an illegal move loses that game; the engine restarts and the match goes on", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const state = path.join(dir, "fake-state");
    // Crashes on its first think; afterwards always answers 7g7f, which is illegal for white
    // and for black's second move.
    const fake = `${process.execPath} ${FAKE_ENGINE} --mode ok --fail-first 1 --state ${state}`;
    const c = config({
      players: [
        { name: "fake", engine: fake, options: {}, bookChoice: DEFAULT_BOOK_CHOICE },
        { name: "fairy", ...fairy },
      ],
      games: 4,
    });
    writeConfig(dir, c);
    const runner = new MatchRunner(dir, c);
    const restarts: string[] = [];
    runner.on("event", (e: MatchEvent) => {
      if (e.type === "engine-restart") restarts.push(e.why);
    });
    const table = await runner.run();
    expect(table.games).toBe(4);
    const rows = readResults(dir).sort((a, b) => a.game - b.game);
    expect(rows.map((r) => r.winner)).toEqual([1, 1, 1, 1]);
    expect(rows[0]!.reason).toBe("crash");
    expect(rows.slice(1).map((r) => r.reason)).toEqual(["illegal-move", "illegal-move", "illegal-move"]);
    expect(restarts.length).toBe(4);
    expect(Number(readFileSync(state, "utf8"))).toBeGreaterThanOrEqual(4);
    for (const r of rows) expect(existsSync(path.join(dir, r.record))).toBe(true);
  });

  it("a clock: engines get btime/wtime/byoyomi, and an engine that never answers loses on time", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const c = config({
      players: [
        { name: "hang", engine: `${process.execPath} ${FAKE_ENGINE} --mode hang`, options: {}, bookChoice: DEFAULT_BOOK_CHOICE },
        { name: "fairy", ...fairy },
      ],
      games: 2,
      limits: { kind: "clock", timeMs: 300, byoyomiMs: 200, incMs: 0 },
      rules: { maxPlies: 12, resignScore: 0, resignMoves: 0 },
    });
    writeConfig(dir, c);
    const logs: string[] = [];
    const table = await new MatchRunner(dir, c, (l) => logs.push(l)).run();
    expect(table.games).toBe(2);
    const rows = readResults(dir).sort((a, b) => a.game - b.game);
    expect(rows.map((r) => [r.reason, r.winner])).toEqual([
      ["timeout", 1],
      ["timeout", 1],
    ]);
    expect(logs.some((l) => /got: go btime \d+ wtime \d+ byoyomi 200$/.test(l))).toBe(true);
  });

  it("a fixed time per move: a late answer loses on time after 2 s, not within --grace", { timeout: 120_000 }, async () => {
    const late = {
      name: "late",
      engine: `${process.execPath} ${FAKE_ENGINE} --mode slow-bestmove --delay 2500`,
      options: {},
      bookChoice: DEFAULT_BOOK_CHOICE,
    };
    const play = async (graceMs: number | undefined) => {
      const dir = tempDir();
      // One ply: the late engine moves first in game 1 (black); in game 2 fairy's move ends it.
      const c = config({
        players: [late, { name: "fairy", ...fairy }],
        games: 2,
        limits: { kind: "movetime", ms: 100 },
        rules: { maxPlies: 1, resignScore: 0, resignMoves: 0 },
        ...(graceMs !== undefined ? { graceMs } : {}),
      });
      writeConfig(dir, c);
      await new MatchRunner(dir, c, () => {}).run();
      return readResults(dir)
        .sort((a, b) => a.game - b.game)
        .map((r) => r.reason);
    };
    expect(await play(undefined)).toEqual(["timeout", "max-moves"]);
    expect(await play(6000)).toEqual(["max-moves", "max-moves"]);
  });

  it("a torn last line of the results file (a kill mid-write) is dropped, earlier games kept", () => {
    const dir = tempDir();
    writeConfig(dir, config({}));
    const row = {
      game: 0,
      opening: 0,
      black: 0,
      winner: null,
      reason: "max-moves",
      plies: 60,
      bookPlies: [0, 0],
      points: 0.5,
      record: "games/0001.csa",
      at: 1,
    };
    writeFileSync(path.join(dir, "results.jsonl"), JSON.stringify(row) + "\n" + '{"game":1,"open');
    expect(readResults(dir)).toEqual([row]);
    expect(readFileSync(path.join(dir, "results.jsonl"), "utf8")).toBe(JSON.stringify(row) + "\n");
    writeFileSync(path.join(dir, "results.jsonl"), "garbage\n" + JSON.stringify(row) + "\n");
    expect(() => readResults(dir)).toThrow(/results\.jsonl:1: not a stored game/);
  });
});
