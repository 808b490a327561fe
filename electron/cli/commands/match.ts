// `horu match`: two players (engine + optional book) play every opening twice with colours
// swapped; prints each game, then the table with the Elo interval. Resumable: run it
// again with the same --out folder and it continues where it stopped.
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError, wholeNumber, printJson } from "../command.js";
import { INSTALL_HINT, engineFromCommandLine, findEngineOnPath, parseEngineOption } from "../../engines/command-line.js";
import { startEachOnce } from "./engine-args.js";
import { MatchRunner, readConfig, writeConfig, type MatchConfig, type MatchEvent, type MatchLimits } from "../../match/runner.js";
import { buildMatchConfig, formatGameLine, formatTable, type PlayerOptions } from "../../match/setup.js";
import { DEFAULT_BOOK_CHOICE, type BookChoiceOptions } from "../../../shared/match/book-choice.js";
import { DEFAULT_RULES } from "../../../shared/match/game.js";
import { MAX_JITTER_PCT } from "../../../shared/match/jitter.js";

const usage = `usage: horu match --out DIR [options]       (start a match)
       horu match --out DIR                 (resume the match stored in DIR)

Two players, each a USI engine with an optional book, play every opening twice with
colours swapped. Each finished game is stored in DIR at once (results.jsonl and a record
in DIR/games, CSA or KIF, book moves marked); a match stopped by Ctrl-C or killed resumes
with the same command. The table: W/D/L, score, Elo with a 95% interval from game pairs,
the SPRT, and each opening's results (docs/MATCH.md).

Players (a trailing 1 or 2 sets one player; without it, both):
  --engine CMD          engine command line (default fairy-stockfish or gpsusi on PATH);
                        "builtin" is the built-in Fairy-Stockfish, "builtin:<id>" any built-in
                        engine ("builtin:horu": horu's own)
  --engine1 CMD, --engine2 CMD
  --option NAME=VALUE   USI option (repeatable), e.g. Threads=1, USI_Hash=64; --option1, --option2
  --name1 NAME, --name2 NAME      names in the table and the records
  --book1 FILE, --book2 FILE      a book: horu book, YaneuraOu .db or .ybb, Apery .bin, ShogiGUI .sbk
  --book-mode best|weighted       best move only (default), or random among moves within
                                  --book-window CP (default 30) of the best, weighted by count
  --book-leave V        leave the book when its best value is below V (default: never)
  --book-max-ply N      no book moves from ply N on (default 256)
                        (each of the book options also as --book-mode1 ... --book-max-ply2)
Openings (default: the start position):
  --openings FILE       SFEN file: "startpos moves ..." / "sfen ..." lines (a game collection works)
  --opening-plies N     cut the lines to N plies (default: all)
  --shuffle-openings    play the openings in an order shuffled by --seed (with --games N
                        fewer than two per opening: a sample of the collection, not its first lines)
  --openings-book FILE --opening-ply N     the positions a book reaches at ply N
  (openings that reach the same position are played once)
Games and limits:
  --games N             games (default: two per opening); rounded up to an even number
  --nodes N | --movetime MS | --time MS [--byoyomi MS] [--inc MS]   (default --nodes 100000)
  --jitter PCT          with --nodes: each engine move gets its own node limit within +-PCT%
                        (seeded by --seed, recorded in match.json): a deterministic engine
                        then plays different games (e.g. --jitter 5)
  --concurrency N       games played at once, two engine processes each (default 1)
  --grace MS            a move later than its time by more than MS loses on time (default 2000);
                        raise it on a loaded machine, where a starved engine answers late
  --max-moves N         draw at N plies (default ${DEFAULT_RULES.maxPlies}); 0 = none
  --resign-score CP --resign-moves N   adjudicate a loss when a side's score stayed at or below
                        -CP for N of its moves and the opponent agrees (default ${DEFAULT_RULES.resignScore}, ${DEFAULT_RULES.resignMoves}; 0 = off)
  --sprt ELO0,ELO1[,ALPHA,BETA]        stop when the SPRT decides (alpha = beta = 0.05 by default)
  --record csa|kif      game record format (default csa)
  --seed N              seed of the weighted book choice, the jitter and the shuffle (default 1)

The table says how many games and game pairs were distinct (copies of a game add nothing);
the Elo interval and the SPRT use each distinct pair once, and no interval is printed when
the distinct pairs are too few (under 10) or all scored the same.
  --json                print the final table as JSON on the last line
  --quiet               do not pass on what the engines write to their error output (and
                        their notes, e.g. a restart's cause) as "NAME: line" on standard error`;

const bookKeys = ["book", "book-mode", "book-window", "book-leave", "book-max-ply", "engine", "option", "name"] as const;

function playerOptions() {
  const o: Record<string, { type: "string"; multiple?: boolean }> = {};
  for (const k of bookKeys) {
    const multiple = k === "option";
    o[k] = { type: "string", multiple };
    o[`${k}1`] = { type: "string", multiple };
    o[`${k}2`] = { type: "string", multiple };
  }
  return o;
}

function intArg(name: string, raw: string | undefined, min: number): number | undefined {
  return wholeNumber(name, raw, min);
}

function signedArg(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number, not '${raw}'`);
  return n;
}

function jitterArg(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > MAX_JITTER_PCT)
    throw new UsageError(`--jitter must be a percentage from 0 to ${MAX_JITTER_PCT}, not '${raw}'`);
  return n;
}

export const matchCommand: Command = {
  name: "match",
  summary: "play two engines/books against each other; table with Elo interval; resumable",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: false,
      options: {
        out: { type: "string" },
        openings: { type: "string" },
        "opening-plies": { type: "string" },
        "openings-book": { type: "string" },
        "opening-ply": { type: "string" },
        "shuffle-openings": { type: "boolean" },
        jitter: { type: "string" },
        games: { type: "string" },
        nodes: { type: "string" },
        movetime: { type: "string" },
        time: { type: "string" },
        byoyomi: { type: "string" },
        inc: { type: "string" },
        concurrency: { type: "string" },
        "max-moves": { type: "string" },
        grace: { type: "string" },
        "resign-score": { type: "string" },
        "resign-moves": { type: "string" },
        sprt: { type: "string" },
        record: { type: "string" },
        seed: { type: "string" },
        json: { type: "boolean" },
        quiet: { type: "boolean" },
        ...playerOptions(),
      },
    });
    void positionals;
    const v = values as Record<string, string | string[] | boolean | undefined>;
    const dir = values.out;
    if (!dir) throw new UsageError("--out DIR is required (the match folder)");
    const given = Object.keys(v).filter((k) => v[k] !== undefined && !["out", "json", "quiet"].includes(k));

    let config: MatchConfig;
    if (existsSync(path.join(dir, "match.json"))) {
      if (given.length)
        throw new UsageError(`${dir} already holds a match: run 'horu match --out ${dir}' alone to resume it, or choose another folder`);
      config = readConfig(dir);
      process.stderr.write(`resuming the match in ${dir}\n`);
    } else {
      // `--out DIR` alone reads as "resume": a mistyped folder must not start a match nobody set up.
      if (!given.length)
        throw new UsageError(
          `${dir} holds no match to resume (no ${path.join(dir, "match.json")}); to start one there, give its players (e.g. --engine PATH)`,
        );
      config = buildConfig(v);
      // Each player's engine started once before the folder is written: an engine that does not
      // run, or an option value it does not take (Threads=-5), is refused with nothing written.
      await startEachOnce(
        config.players.map((p) => ({ ...engineFromCommandLine(p.engine, p.options), name: p.name })),
        "all",
      );
      writeConfig(dir, config);
    }

    const runner = new MatchRunner(dir, config, (line) => {
      if (!values.quiet) process.stderr.write(line + "\n");
    });
    if (runner.rows.length) process.stderr.write(`${runner.rows.length} of ${config.games} games already played\n`);
    runner.on("event", (e: MatchEvent) => {
      if (e.type === "game-end") process.stdout.write(formatGameLine(config, e.row, runner.rows.length, e.table) + "\n");
      else if (e.type === "engine-restart") process.stderr.write(`${config.players[e.player].name}: engine restarted (${e.why})\n`);
    });
    let stops = 0;
    const onSigint = () => {
      stops++;
      if (stops === 1) {
        process.stderr.write("stopping: finishing the games being played (Ctrl-C again to stop now; they are replayed on resume)\n");
        runner.stop();
      } else void runner.abort();
    };
    process.on("SIGINT", onSigint);
    process.on("SIGTERM", onSigint);
    let table;
    try {
      table = await runner.run();
    } finally {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onSigint);
    }
    process.stdout.write(formatTable(config, table) + "\n");
    if (runner.rows.length < config.games && !table.sprt?.verdict.startsWith("H")) {
      process.stdout.write(`stopped after ${runner.rows.length} of ${config.games} games; resume with: horu match --out ${dir}\n`);
    }
    if (values.json)
      printJson({ dir, planned: config.games, played: runner.rows.length, players: config.players.map((p) => p.name), ...table });
    return 0;
  },
};

function buildConfig(v: Record<string, string | string[] | boolean | undefined>): MatchConfig {
  const str = (k: string) => v[k] as string | undefined;
  const list = (k: string) => (v[k] as string[] | undefined) ?? [];
  const forPlayer = (k: string, i: 1 | 2) => str(`${k}${i}`) ?? str(k);

  const players = ([1, 2] as const).map((i): PlayerOptions => {
    let engine = forPlayer("engine", i);
    if (!engine) {
      const found = findEngineOnPath();
      if (!found) throw new Error(INSTALL_HINT);
      engine = found;
    }
    engineFromCommandLine(engine); // a missing program or built-in runner now, not when the games start
    const options: Record<string, string | number | boolean> = {};
    for (const o of [...list("option"), ...list(`option${i}`)]) {
      try {
        const [name, value] = parseEngineOption(o);
        options[name] = value;
      } catch (e) {
        throw new UsageError(e instanceof Error ? e.message : String(e));
      }
    }
    const mode = forPlayer("book-mode", i) ?? "best";
    if (mode !== "best" && mode !== "weighted") throw new UsageError(`--book-mode must be best or weighted, not '${mode}'`);
    const bookChoice: BookChoiceOptions = {
      mode,
      windowCp: intArg("book-window", forPlayer("book-window", i), 0) ?? DEFAULT_BOOK_CHOICE.windowCp,
      leaveBelow: signedArg("book-leave", forPlayer("book-leave", i)) ?? DEFAULT_BOOK_CHOICE.leaveBelow,
      maxPly: intArg("book-max-ply", forPlayer("book-max-ply", i), 0) ?? DEFAULT_BOOK_CHOICE.maxPly,
    };
    return { name: str(`name${i}`), engine, options, book: forPlayer("book", i), bookChoice };
  }) as [PlayerOptions, PlayerOptions];

  if (str("openings") && str("openings-book")) throw new UsageError("give --openings or --openings-book, not both");
  if (str("jitter") !== undefined && (str("movetime") !== undefined || ["time", "byoyomi", "inc"].some((k) => str(k) !== undefined)))
    throw new UsageError("--jitter varies node limits: use it with --nodes");
  if (str("openings-book") && str("opening-ply") === undefined) throw new UsageError("--openings-book needs --opening-ply N");

  const clockGiven = ["time", "byoyomi", "inc"].some((k) => str(k) !== undefined);
  const kinds = [str("nodes") !== undefined, str("movetime") !== undefined, clockGiven].filter(Boolean).length;
  if (kinds > 1) throw new UsageError("give one of --nodes, --movetime, or a clock (--time/--byoyomi/--inc)");
  let limits: MatchLimits;
  if (str("movetime") !== undefined) limits = { kind: "movetime", ms: intArg("movetime", str("movetime"), 1)! };
  else if (clockGiven) {
    limits = {
      kind: "clock",
      timeMs: intArg("time", str("time"), 0) ?? 0,
      byoyomiMs: intArg("byoyomi", str("byoyomi"), 0) ?? 0,
      incMs: intArg("inc", str("inc"), 0) ?? 0,
    };
    if (limits.byoyomiMs > 0 && limits.incMs > 0) throw new UsageError("give --byoyomi or --inc, not both");
    if (limits.timeMs + limits.byoyomiMs + limits.incMs === 0) throw new UsageError("a clock needs --time, --byoyomi or --inc above 0");
  } else limits = { kind: "nodes", nodes: intArg("nodes", str("nodes"), 1) ?? 100_000 };

  let sprt: MatchConfig["sprt"];
  const s = str("sprt");
  if (s !== undefined) {
    const parts = s.split(",").map(Number);
    if (!(parts.length === 2 || parts.length === 4) || parts.some((x) => !Number.isFinite(x)))
      throw new UsageError(`--sprt wants ELO0,ELO1[,ALPHA,BETA], not '${s}'`);
    const [elo0, elo1, alpha = 0.05, beta = 0.05] = parts as [number, number, number?, number?];
    if (!(elo1 > elo0) || !(alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5))
      throw new UsageError("--sprt: ELO1 must exceed ELO0 and ALPHA, BETA lie in (0, 0.5)");
    sprt = { elo0, elo1, alpha, beta };
  }
  const record = str("record") ?? "csa";
  if (record !== "csa" && record !== "kif") throw new UsageError(`--record must be csa or kif, not '${record}'`);

  return buildMatchConfig({
    players,
    openings: str("openings"),
    openingPlies: intArg("opening-plies", str("opening-plies"), 0),
    openingsBook: str("openings-book"),
    openingPly: intArg("opening-ply", str("opening-ply"), 1),
    games: intArg("games", str("games"), 2),
    limits,
    concurrency: intArg("concurrency", str("concurrency"), 1),
    rules: {
      maxPlies: intArg("max-moves", str("max-moves"), 0) ?? DEFAULT_RULES.maxPlies,
      resignScore: intArg("resign-score", str("resign-score"), 0) ?? DEFAULT_RULES.resignScore,
      resignMoves: intArg("resign-moves", str("resign-moves"), 0) ?? DEFAULT_RULES.resignMoves,
    },
    record,
    sprt,
    seed: intArg("seed", str("seed"), 0),
    jitterPct: jitterArg(str("jitter")),
    shuffleOpenings: v["shuffle-openings"] === true,
    graceMs: intArg("grace", str("grace"), 0),
  });
}
