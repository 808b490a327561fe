// `horu dig`: digs a book headless until stopped, or until N positions / S seconds.
import { terminalText } from "../terminal-text.js";
import { signedValue, sideName } from "../value-text.js";
import { parseArgs } from "node:util";
import path from "node:path";
import { HostService } from "../../host/service.js";
import { startWebServer } from "../../web/server.js";
import { defaultWorkerFile } from "../../host/remote-service.js";
import { existsSync } from "node:fs";
import type { Command } from "../command.js";
import { UsageError, wholeNumber, printJson, openProgress } from "../command.js";
import { OpenBook } from "../../book/open-book.js";
import { Dig, type DigEvent, type DigSummary } from "../../dig/dig.js";
import { commandLineEngines, engineArgOptions, processesOf, readEngineArgs, startEachOnce } from "./engine-args.js";
import { chooseEngines, specFromConfig } from "../../engines/choose.js";
import { EngineLibrary, engineAddCommand } from "../../engines/library.js";
import { forgetRecent, rememberRecent } from "../../engines/places.js";
import {
  DIG_POLICIES,
  DigPolicySchema,
  DigSettingsSchema,
  MULTIPV_MODES,
  type DigSettings,
  type MultiPvMode,
} from "../../../shared/dig/settings.js";
import { seedFiles } from "../../book/seed.js";
import { storedLine } from "../../dig/print-results.js";
import { DigInterrupts } from "./dig-interrupt.js";
import { checkReliability, reliabilityOptions, reliabilityUsage, startBackups, withThinkTimeout } from "./dig-reliability.js";
import { playChoice } from "../../../shared/book/settle.js";

const usage = `usage: horu dig --book FILE [options]

Digs the book FILE (created when it does not exist) with USI engines: engines think
positions with MultiPV, selection picks the next leaf of the book's PV. It digs until
Ctrl-C, --positions or --time; a progress line while it runs, a summary at the end
(positions, wall time, the engines' busy share, selection p50/p99, the share of selections
that trusted a cyclic value, engine searches per position; with --time also the rate and
selection p50/p99 of the dig's second half).

Ctrl-C (or SIGTERM) finishes the running thinks and stores them; a think still running
after about 2.5 s goes back unthought, and horu exits 0 within about 5 s. A second Ctrl-C
stops at once. Nothing stored is ever lost (docs/RELIABILITY.md).

Engines are any command line, split without a shell ("ssh host /opt/engine/YaneuraOu"
works: a cut connection loses nothing, the position is thought again and the engine
reconnects). "builtin" is the built-in Fairy-Stockfish, "builtin:horu" horu's own engine.
Without --engine: the library's enabled engines, else the best engine found on PATH or in
the usual places (YaneuraOu builds, fairy-stockfish, gpsusi in /usr/games;
HORU_ENGINE_DIRS replaces the usual places), else the built-in engine; horu says which and
why. GPS Shogi (gpsusi) searches by time only: give it --movetime. The engines run 10
nicer than horu (19 when they outnumber the cores), so the selection is not kept waiting for
a core (docs/DESIGN.md §4).

On Linux, \`horu dig\` (and \`horu web\`) start again with glibc's transparent huge pages
(GLIBC_TUNABLES=glibc.malloc.hugetlb=1): on a big book the selection's random reads miss
the processor's page-address cache far less. The first process passes Ctrl-C, Ctrl-Z, kill
and the exit code through, so the pair behaves as one (the book's lock names the second's
pid); HORU_HUGE_PAGES=0 keeps one process (docs/DESIGN.md §3.5).

  --book FILE          the book (SQLite); created with the given settings if missing; an
                       existing book keeps the settings given here (think limit, --multipv,
                       --window, --root ...) for later digs, once an engine has started
  --engine CMD         engine command line (repeatable; "ssh host /path/engine" works;
                       "builtin" is the built-in Fairy-Stockfish); default: the engine
                       library's enabled engines (horu engines list), else the best engine
                       found on PATH or in the usual places, else the built-in engine
  --engines N          processes per engine (default 1 for library engines, else 2)
  --option NAME=VALUE  USI option for the engines (repeatable), e.g. Threads=1, USI_Hash=256
  --nodes N | --depth D | --movetime MS   think limit (default: the book's, else --nodes 100000)
  --policy P           what to think next: tera-shock (default: the leaf at the end of the
                       book's PV, Super Tera-Shock selection) or breadth-first (every position
                       reachable through moves within --window of the best, level by level:
                       all of ply n before any of ply n+1; --max-ply bounds the depth)
  --multipv K|auto|auto-bounded|deep-best
                       candidates per think (default for a new book: deep-best, the best
                       move from one line at the full limit, the other moves from auto at
                       a quarter of it, valued no higher; auto: 4, widened while close,
                       the default before; auto-bounded: auto, a move only the cheaper
                       widening search found valued no higher than the full search's 4th
                       line)
  --window CP          keep candidates within CP of the best (default 300)
  --root SFEN          "startpos", "startpos moves 7g7f ...", or an SFEN (default startpos)
  --eval-limit V       do not dig below leaves valued beyond +-V
  --max-ply N          do not think positions more than N plies from the root
  --breadth-plies N    with tera-shock: first think every position within --window up to N
                       plies from the root, breadth first (the opponent's replies near the
                       root), then select by Super Tera-Shock (default 0: none)
  --cover N            with tera-shock: first think where the book's games would leave it
                       (the book playing its minimax move, the opponent its engine's moves
                       within 50 cp of the best, at most 3), likeliest first, down to 1 game
                       in N; the rarer are left to selection (default 0: off)
  --settle F           with tera-shock and --nodes: every 200 positions, think the positions
                       the book plays into again at F times the limit (at most 25 a round,
                       likeliest first; its best move from one line, as deep-best finds it,
                       unless --multipv is a number), and play the engine's own best there
                       unless the minimax beats it by more than 50 cp (export: --choice
                       robust:50 is then the default); no rounds past 250,000 positions
                       (default for a new book: 8; 0 = off, as books made before had it)
  --prefetch N         positions selected ahead of the free engines (0-64; default 4; with
                       more than 16 engine processes at least a quarter of them): on a huge
                       book they cover a selection that takes longer than a think (a
                       position asked for with \`horu book think\` goes ahead of them)
  --positions N        stop after N positions thought
  --engine-nodes N     stop once the engines searched N nodes for the positions thought
                       (books compared at the same engine time)
  --time S             stop after S seconds
  --seed FILES...      seed game records (KIF/KI2/CSA/SFEN) before digging (+bonus in selection)
  --think-plies N      with --seed: think the first N plies of each record before selecting,
                       so the seeded lines enter the book (the bonus alone reaches only moves
                       an engine listed)
  --json               print the summary as JSON on the last line
  --print-results      print "stored <sfen>" on standard output as each result is stored
  --web                also serve this dig's UI to a browser on 127.0.0.1 (the URL, with its
                       token, is printed as "horu web: URL" on standard error); the window
                       can pause, resume and stop the dig
  --web-port P         the port for --web (default 0: a free one)
  --allow-root         with --web: run although this user is root (refused otherwise, as
                       horu web does: the window starts programs and writes files)
${reliabilityUsage}`;

/** The command-line option of each setting it sets (where the names differ). */
const OPTION_OF: Partial<Record<keyof DigSettings, string>> = {
  windowCp: "window",
  evalLimit: "eval-limit",
  maxLeafPly: "max-ply",
  breadthPlies: "breadth-plies",
  coverOneIn: "cover",
  settleFactor: "settle",
};

const intOption = (name: string, raw: string | undefined, min = 1): number | undefined => wholeNumber(name, raw, min);

export const digCommand: Command = {
  name: "dig",
  summary: "dig a book with USI engines until stopped",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        book: { type: "string" },
        ...engineArgOptions,
        nodes: { type: "string" },
        depth: { type: "string" },
        movetime: { type: "string" },
        multipv: { type: "string" },
        policy: { type: "string" },
        window: { type: "string" },
        root: { type: "string" },
        "eval-limit": { type: "string" },
        "max-ply": { type: "string" },
        "breadth-plies": { type: "string" },
        cover: { type: "string" },
        settle: { type: "string" },
        prefetch: { type: "string" },
        positions: { type: "string" },
        "engine-nodes": { type: "string" },
        time: { type: "string" },
        seed: { type: "boolean" },
        "think-plies": { type: "string" },
        json: { type: "boolean" },
        "print-results": { type: "boolean" },
        web: { type: "boolean" },
        "web-port": { type: "string" },
        "allow-root": { type: "boolean" },
        ...reliabilityOptions,
      },
    });
    if (!values.book) throw new UsageError("--book FILE is required");
    if (positionals.length && !values.seed) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values["think-plies"] !== undefined && !values.seed) throw new UsageError("--think-plies applies to --seed FILES");
    // As horu import refuses them: a record named and not there is a typo, not a file to skip.
    if (values.seed) for (const p of positionals) if (!existsSync(p)) throw new UsageError(`--seed: ${p} does not exist`);
    checkReliability(values);
    const webPort = values["web-port"] === undefined ? 0 : Number(values["web-port"]);
    if (!Number.isInteger(webPort) || webPort < 0 || webPort > 65535)
      throw new UsageError(`--web-port must be a port number (0-65535), not '${values["web-port"]}'`);
    if (values["web-port"] !== undefined && !values.web) throw new UsageError("--web-port needs --web");
    if (values["allow-root"] && !values.web) throw new UsageError("--allow-root applies to --web");
    // Checked before the book is opened: a refused run touches nothing.
    if (values.web && process.getuid?.() === 0 && !values["allow-root"]) {
      throw new UsageError(
        "horu dig --web refuses to run as root: the window can start programs and write files with root's rights. Run it as an ordinary user, or give --allow-root if you mean it (CI, a container)",
      );
    }

    const overrides: Partial<DigSettings> = {};
    const limits = [values.nodes, values.depth, values.movetime].filter((v) => v !== undefined);
    if (limits.length > 1) throw new UsageError("give one of --nodes, --depth, --movetime");
    if (values.nodes !== undefined) overrides.limit = { nodes: intOption("nodes", values.nodes)! };
    if (values.depth !== undefined) overrides.limit = { depth: intOption("depth", values.depth)! };
    if (values.movetime !== undefined) overrides.limit = { movetimeMs: intOption("movetime", values.movetime)! };
    if (values.multipv !== undefined)
      overrides.multipv = (MULTIPV_MODES as readonly string[]).includes(values.multipv)
        ? (values.multipv as MultiPvMode)
        : intOption("multipv", values.multipv)!;
    if (values.policy !== undefined) {
      const p = DigPolicySchema.safeParse(values.policy);
      if (!p.success) throw new UsageError(`--policy must be ${DIG_POLICIES.join(" or ")}, not '${values.policy}'`);
      overrides.policy = p.data;
    }
    if (values.window !== undefined) overrides.windowCp = intOption("window", values.window, 0)!;
    if (values.root !== undefined) overrides.root = values.root;
    if (values["eval-limit"] !== undefined) overrides.evalLimit = intOption("eval-limit", values["eval-limit"])!;
    if (values["max-ply"] !== undefined) overrides.maxLeafPly = intOption("max-ply", values["max-ply"])!;
    if (values["breadth-plies"] !== undefined) overrides.breadthPlies = intOption("breadth-plies", values["breadth-plies"], 0)!;
    if (values.cover !== undefined) overrides.coverOneIn = intOption("cover", values.cover, 0)!;
    if (values.settle !== undefined) overrides.settleFactor = intOption("settle", values.settle, 0)!;
    if (values.prefetch !== undefined) overrides.prefetch = intOption("prefetch", values.prefetch, 0)!;
    // The settings' own ranges (the book keeps what it is given): refused here, naming the option.
    const checked = DigSettingsSchema.partial().safeParse(overrides);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const [key, inner] = issue.path as string[];
      const flag = key === "limit" ? (inner === "movetimeMs" ? "movetime" : inner!) : (OPTION_OF[key as keyof DigSettings] ?? key!);
      const raw = (values as Record<string, unknown>)[flag];
      throw new UsageError(
        issue.code === "too_big"
          ? `--${flag} must be at most ${String(issue.maximum)}, not '${String(raw)}'`
          : `--${flag}: ${issue.message}`,
      );
    }
    const positions = intOption("positions", values.positions);
    const seconds = intOption("time", values.time);
    const engineNodes = intOption("engine-nodes", values["engine-nodes"]);
    const engineArgs = readEngineArgs(values);
    const { copies } = engineArgs;

    const existed = existsSync(values.book);
    // An existing book takes the settings given here for this dig and the next ones, but only
    // once an engine has started: a dig that fails before (a wrong engine path) changes nothing.
    const book = existed
      ? OpenBook.open(values.book, overrides, { onProgress: openProgress(), storeOverrides: false })
      : OpenBook.create(values.book, overrides);
    // The selection walks up these lists from the dig's first change on: read with the graph's
    // snapshot, or else built with the open (seconds on a 15M book), not in the middle of the dig.
    book.graph.ensureParents();
    rememberRecent(values.book); // so the app and `horu web` list it under recent books
    const tty = process.stderr.isTTY === true;
    // Engine names and messages come from books, the library and engines: no control byte reaches the terminal.
    const say = (line: string) => process.stderr.write(terminalText(line) + "\n");
    // From here on a Ctrl-C is horu's to handle (dig-interrupt.ts), while the engines start too.
    const interrupts = new DigInterrupts((line) => say(`${tty ? "\n" : ""}${line}`));
    let engineStarted = false;
    try {
      for (const p of book.problems) say(`warning: ${p}`);
      // Asked for on this command line: said. A book's own setting (the default) under another limit just does not settle.
      if (overrides.settleFactor !== undefined && overrides.settleFactor > 0 && !("nodes" in book.settings.limit))
        say(
          `warning: --settle thinks deeper by a multiple of a node limit; this book thinks by ${JSON.stringify(book.settings.limit)}, so nothing is thought again`,
        );
      say(
        `${existed ? "opened" : "created"} ${values.book}: ${book.timings.positions.toLocaleString("en")} positions, graph built in ${(book.timings.graphMs / 1000).toFixed(2)} s${book.timings.boundsRestored ? "; selection goes on from the bounds saved at the last close" : ""}`,
      );
      if (values.seed) {
        for (const line of seedFiles(book, positionals, { thinkPlies: intOption("think-plies", values["think-plies"]) })) say(line);
      }

      // Engines: the command line's, else the library's, else the best found here, else the built-in one.
      let specs = commandLineEngines(values, engineArgs);
      let perEngine = copies ?? 1;
      if (specs.length === 0) {
        const library = new EngineLibrary();
        // Books from before the library kept their own engines. A book can come from anyone:
        // its engines are never run on its say, only named, with how to add them.
        const unknown = library.notInLibrary(book.store.engines.list());
        if (unknown.length > 0) {
          say(`the book names ${unknown.length} engine(s) not in your engine library; horu runs only engines you added. To dig with one:`);
          for (const e of unknown) say(`  ${engineAddCommand(e)}`);
        }
        const choice = chooseEngines({ library, limit: book.settings.limit });
        for (const w of choice.warnings) say(`warning: ${w}`);
        say(`engine: ${choice.why}`);
        specs = choice.configs.map((c) => specFromConfig(c, engineArgs.options));
        if (choice.source !== "library") perEngine = copies ?? 2;
      }
      const engines = withThinkTimeout(processesOf(specs, perEngine), values);
      // Each engine started once before the dig (together): an option value one does not take
      // (outside its range: the engine would ignore it), or a first engine that does not run, is
      // refused here; another that does not run now is said, and the dig keeps trying it.
      const probes = specs.map((_, i) => engines[i * perEngine]!);
      for (const e of await startEachOnce(probes, "first")) say(`warning: ${e.message} (the dig tries it again while it digs)`);
      engineStarted = true;
      if (interrupts.interrupted) {
        say("interrupted before the dig started; the book is as it was");
        return 0;
      }
      if (existed) book.store.settings.setMany(overrides);

      const limit = book.settings.limit;

      let lastLine = 0;
      let failure: string | null = null;
      let toWeb: ((e: DigEvent) => void) | null = null;
      const onEvent = (e: DigEvent) => {
        toWeb?.(e);
        switch (e.kind) {
          case "progress": {
            let p = e.progress;
            // Stopped without a selection (a run that thought only queued positions): the book's
            // value and line as a selection would see them, if a short search finds them.
            if (p.state === "stopped" && p.rootValue === null) {
              const seen = book.preview(200);
              if (seen) p = { ...p, rootValue: seen.rootValue, pv: seen.line };
            }
            const now = Date.now();
            if (!tty && now - lastLine < 10_000 && p.state === "digging") return;
            lastLine = now;
            const line =
              `${p.state}: ${p.thought} thought (${Math.round(p.perHour).toLocaleString("en")}/h), book ${p.bookSize.toLocaleString("en")}, ` +
              (book.settings.policy === "breadth-first"
                ? `breadth-first at ply ${book.jobs.breadthFirstPly}, value ${p.bookValue ?? "-"}`
                : `root ${p.rootValue === null ? "-" : `${signedValue(p.rootValue)} for ${sideName(book.root.side)}`} pv ${p.pv.slice(0, 8).join(" ")}${p.pv.length > 8 ? " ..." : ""}`) +
              (p.lastSelection ? `, select ${p.lastSelection.ms.toFixed(1)} ms` : "");
            process.stderr.write(tty ? `\r\x1b[K${terminalText(line)}` : terminalText(line) + "\n");
            return;
          }
          case "result":
            if (values["print-results"]) process.stdout.write(storedLine(e.sfen));
            return;
          case "engine-failure":
            say(
              `${tty ? "\n" : ""}engine ${e.engine} failed${e.sfen ? ` on ${e.sfen}` : ""}: ${e.message}${e.requeued ? " (position re-queued)" : ""}`,
            );
            return;
          case "failed":
            say(`${tty ? "\n" : ""}gave up on ${e.sfen}: ${e.message}`);
            return;
          case "error":
            failure = e.message;
            say(`${tty ? "\n" : ""}error: ${e.message} (dig paused)`);
            void dig.stop();
            return;
          default:
            return;
        }
      };
      // The plain book value is shown only for breadth first and in the window; elsewhere its
      // search would hold a second selector (as much memory as the selection's) for nothing.
      const bookValue = book.settings.policy === "breadth-first" || values.web === true;
      const dig = new Dig(book, { engines, positions, seconds, engineNodes, onEvent, bookValue });
      const backups = startBackups(book.store, values.book, values, say);
      interrupts.attach(dig);
      // Settle rounds run with Super Tera-Shock selection and a node limit (settle-jobs.ts).
      const settles = playChoice(book.settings).kind === "robust" && "nodes" in book.settings.limit;
      say(
        `digging (${book.settings.policy}) from ${book.settings.root} with ${engines.length} engine process(es): ${engines.map((e) => e.name).join(", ")}; limit ${JSON.stringify(limit)}, multipv ${book.settings.multipv}${settles ? `, settle ${book.settings.settleFactor}x` : ""}`,
      );
      let summary: DigSummary;
      let web: Awaited<ReturnType<typeof startWebServer>> | null = null;
      const digCpu0 = process.cpuUsage();
      try {
        const running = dig.run();
        if (values.web) {
          // The dig's own services behind the UI, in this process: the window sees engines and in-flight positions live.
          // The page is confined as `horu web`'s is without --allow-server-paths (docs/SECURITY.md).
          const service = new HostService({ confine: true });
          toWeb = service.attach(book, dig, running);
          web = await startWebServer({ host: service, port: webPort, staticDir: path.join(path.dirname(defaultWorkerFile()), "renderer") });
          say(`horu web: ${web.url}`);
        }
        summary = await running;
      } finally {
        await web?.close();
        await backups?.stop();
      }
      if (tty) process.stderr.write("\n");
      const lines = [
        `positions thought: ${summary.thought} (failed ${summary.failed}); book now ${summary.bookSize.toLocaleString("en")} positions`,
        `wall time: ${(summary.wallMs / 1000).toFixed(1)} s; engine busy share ${(summary.busyShare * 100).toFixed(2)}%, waiting for a position ${(summary.waitingShare * 100).toFixed(2)}%`,
        `selection: p50 ${summary.selectP50Ms.toFixed(2)} ms, p99 ${summary.selectP99Ms.toFixed(2)} ms over ${summary.selections} selections; ${(summary.cyclicShare * 100).toFixed(2)}% of them trusted a cyclic value`,
        `engine searches: ${summary.searches} (${summary.thought > 0 ? (summary.searches / summary.thought).toFixed(2) : "0"} per position); ` +
          `those after a position's first took ${summary.searchedMs > 0 ? ((100 * summary.laterSearchMs) / summary.searchedMs).toFixed(1) : "0"}% of the engines' search time`,
      ];
      if (summary.deepThinks > 0)
        lines.push(
          `thought again deeper: ${summary.deepThinks} positions, ${summary.engineNodes > 0 ? ((100 * summary.deepNodes) / summary.engineNodes).toFixed(1) : "0"}% of the engines' ${summary.engineNodes.toLocaleString("en")} nodes`,
        );
      const half = summary.secondHalf;
      if (half && half.wallMs > 0)
        lines.push(
          `second half (${(half.wallMs / 1000).toFixed(1)} s): ${half.thought} positions, ${(half.thought / (half.wallMs / 1000)).toFixed(2)}/s; selection p50 ${half.selectP50Ms.toFixed(2)} ms, p99 ${half.selectP99Ms.toFixed(2)} ms over ${half.selections} selections; ` +
            `engines waiting for a position ${(100 * half.waitingShare).toFixed(2)}% of their time`,
        );
      for (const l of lines) process.stdout.write(terminalText(l) + "\n");
      // horuCpuMs: this process's own CPU from its start (the open included), apart from its
      // engines'; digCpuMs: only while it dug (selection, inserts, the store).
      if (values.json) {
        const cpu = process.cpuUsage(),
          digCpu = process.cpuUsage(digCpu0);
        printJson({
          ...summary,
          horuCpuMs: (cpu.user + cpu.system) / 1000,
          digCpuMs: (digCpu.user + digCpu.system) / 1000,
          boundsRestored: book.timings.boundsRestored,
        });
      }
      // Stopped by an error (a full disk): results so far are stored; say it and exit non-zero.
      if (failure !== null) say(`stopped: ${failure}`);
      return failure === null ? 0 : 1;
    } finally {
      interrupts.dispose();
      book.close();
      // A book this command made for a dig that never started (no engine would run) holds
      // nothing: it goes, so a typo in the engine path leaves no empty book behind.
      if (!existed && !engineStarted && !values.seed) {
        OpenBook.removeNew(values.book);
        forgetRecent(values.book); // listed at the start; the app would offer a file that is gone
        // Said: "created BOOK" was the last word on it, and the file is not there.
        say(`${values.book} not kept: the dig never started, so the book just created held nothing`);
      }
    }
  },
};
