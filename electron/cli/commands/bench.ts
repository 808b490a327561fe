// `horu bench [NAME]`: the benchmarks of docs/DESIGN.md §8, printing figures (never asserting a time).
import { parseArgs } from "node:util";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError, wholeNumber } from "../command.js";
import { DEFAULT_DIG_SETTINGS } from "../../../shared/dig/settings.js";
import { benchPerft } from "../../bench/perft.js";
import { benchGraphBuild, benchSelection } from "../../bench/select.js";
import type { DynamicMultiPv } from "../../engines/usi/widen.js";
import { snapshotPath } from "../../book/graph-snapshot.js";
import type { DigShapedValues } from "../../bench/books/dig-shaped-book.js";

type BenchOptions = {
  positions: number;
  huge: boolean;
  hugeBook?: string;
  rebuild: boolean;
  seconds: number;
  secondsGiven?: number;
  megabytes?: number;
  minutes?: number;
  games?: number;
  depth?: number;
  nodes?: number;
  sample?: number;
  book?: string;
  runs: number;
  runsGiven?: number;
  parentSpread?: boolean;
  /** Where `web` puts its copy of the book (default: the temporary folder). */
  dir?: string;
  values?: DigShapedValues;
  /** `replay`: the record of results, the results given back, positions in flight. */
  results?: string;
  selections?: number;
  inFlight?: number;
  /** `replay`: engines answer at once (results the record lacks are made up). */
  instant?: boolean;
  /** `replay`: results given back together, in one transaction. */
  batch?: number;
  /** `web`: engine processes the dig runs (issue 43 asks for 64 slots). */
  engines?: number;
};
type Bench = { name: string; summary: string; run(o: BenchOptions): Promise<void> | void };

const say = (line: string) => process.stdout.write(line + "\n");

const benches: Bench[] = [
  {
    name: "engines",
    summary: "nodes/s and positions/hour of every engine found here and the built-in ones, one node limit",
    run: async ({ nodes }) => {
      const { benchEngines } = await import("../../engines/bench.js");
      await benchEngines({ nodes: nodes ?? 100_000, print: say });
    },
  },
  { name: "perft", summary: "legal move generation: perft(5) from the start position, nodes/s", run: () => benchPerft().forEach(say) },
  {
    name: "graph",
    summary: "opening a book: graph build from real positions, bytes/position, incremental inserts",
    run: ({ positions }) => benchGraphBuild({ positions, print: say }),
  },
  {
    name: "select",
    summary: "selection latency p50/p99 with 2 and 8 leaves in flight on a synthetic dug book",
    run: ({ positions, huge }) => {
      benchSelection({ positions, print: say });
      if (huge) benchSelection({ positions: 15_000_000, print: say, selections: 100 });
    },
  },
  {
    name: "export",
    summary: "Peta-Shock export of a synthetic real-position book (read, minimax, write)",
    run: async ({ positions }) => {
      const { benchExport } = await import("../../bench/export.js");
      benchExport([positions]).forEach(say);
    },
  },
  {
    name: "peta",
    summary: "the whole `horu peta` process on a DB2016 book: wall time, CPU, peak RSS",
    run: async ({ positions, book, runs }) => {
      const { benchPeta } = await import("../../bench/peta.js");
      await benchPeta({ file: book, positions, runs, horu: process.argv[1]!, print: say });
    },
  },
  {
    name: "import",
    summary: "streamed DB2016 import of a generated 2 GiB book: time, positions/s, peak RSS",
    run: async ({ megabytes }) => {
      const { benchImport } = await import("../../bench/import.js");
      await benchImport({ megabytes: megabytes ?? 2048, print: say });
    },
  },
  {
    name: "seed",
    summary: "seeding a book from records2016 (10,831 games): parse + seed + store",
    run: async () => {
      const { benchSeed } = await import("../../bench/import.js");
      // The checkout's sibling data folder, found from bin/horu.js (the CLI is a bundle: no import.meta.url).
      const data = path.resolve(path.dirname(process.argv[1] ?? "."), "..", "..", "shared", "data");
      benchSeed({ file: path.join(data, "positions", "records2016_10818.sfen"), print: say });
    },
  },
  {
    name: "dig",
    summary: "fixed MultiPV 4 against --multipv auto (2 x fairy-stockfish): rate, searches, busy share, coverage",
    run: ({ secondsGiven, nodes, sample, parentSpread, runsGiven }) =>
      benchDig({ seconds: secondsGiven, nodes, sample, parentSpread, turns: runsGiven }),
  },
  {
    name: "export-dig",
    summary: "the engines' busy share while a big book exports beside its dig (minimax and raw)",
    run: async ({ positions, nodes, book }) => {
      const { benchExportBeside } = await import("../../bench/dig.js");
      const engine = await fairyStockfish("export-dig");
      await benchExportBeside({ engine, positions, nodes: nodes ?? 20_000, processes: 2, book, print: say });
    },
  },
  {
    name: "soak",
    summary: "(only when named) horu dig under injected faults: integrity, lost results, RSS, rate",
    run: async ({ minutes }) => {
      const { runSoak } = await import("../../bench/soak.js");
      await runSoak({ minutes: minutes ?? 10, horu: process.argv[1]!, print: say });
    },
  },
  {
    name: "engine",
    summary: "horu's engine: alpha-beta nodes/s and Monte-Carlo playouts/s",
    run: async ({ secondsGiven }) => {
      const { benchEngine } = await import("../../bench/engine.js");
      benchEngine(secondsGiven ?? 5, say);
    },
  },
  {
    name: "quiescence",
    summary: "the quiescence measurement of docs/DESIGN.md §11.3: variants vs a full-width search",
    run: async ({ games, depth }) => {
      const { benchQuiescence } = await import("../../bench/engine.js");
      benchQuiescence({ games: games ?? 24, depth: depth ?? 3, every: 6, print: say });
    },
  },
  {
    name: "open",
    summary: "opening a book, whole processes: the rebuild, then `horu select` from the saved graph",
    run: ({ positions, book, huge, hugeBook, runs, rebuild }) => benchOpen({ positions, book, huge, hugeBook, runs, rebuild }),
  },
  {
    name: "book",
    summary: "(only when named) writes a dig-shaped real-position book for `open --huge`, `scale`, `web`",
    run: async ({ positions, book, values }) => {
      if (!book) throw new UsageError("bench book needs --book FILE (the book to write)");
      const { existsSync } = await import("node:fs");
      if (existsSync(book)) throw new UsageError(`${book} exists: give a new file`);
      await makeDigShaped(book, positions, values);
    },
  },
  {
    name: "scale",
    summary: "(only when named) the same dig on an empty book and on copies of big books",
    run: async ({ seconds, nodes, book, hugeBook }) => {
      const { benchScale } = await import("../../bench/scale.js");
      const engine = await fairyStockfish("scale");
      const cases = [{ label: "empty" }];
      if (book) cases.push({ label: path.basename(book), book } as { label: string; book: string });
      if (hugeBook) cases.push({ label: path.basename(hugeBook), book: hugeBook } as { label: string; book: string });
      await benchScale({ horu: process.argv[1]!, engine, cases, seconds, nodes: nodes ?? 20_000, print: say });
    },
  },
  {
    name: "replay",
    summary: "(only when named) a clockless dig of a copy of a book, engine results recorded and replayed",
    run: async ({ nodes, book, results, selections, inFlight, dir, instant, batch }) => {
      if (!book) throw new UsageError("bench replay needs --book FILE (a .horu book; a copy is dug)");
      const { benchReplay } = await import("../../bench/replay.js");
      const engine = instant ? "" : await fairyStockfish("replay");
      await benchReplay({
        book,
        results: results ?? `${book}-results.json`,
        selections: selections ?? 600,
        inFlight: inFlight ?? 6,
        window: 50,
        nodes: nodes ?? 20_000,
        engine,
        dir,
        instant,
        batch,
        print: say,
      });
    },
  },
  {
    name: "web",
    summary: "(only when named) every call `horu web`'s page makes, timed while idle and while digging",
    run: async ({ secondsGiven, nodes, book, dir, engines }) => {
      if (!book) throw new UsageError("bench web needs --book FILE (a .horu book; a copy is served)");
      const { benchWeb } = await import("../../bench/web.js");
      const engine = await fairyStockfish("web");
      await benchWeb({
        horu: process.argv[1]!,
        book,
        engine,
        seconds: secondsGiven ?? 30,
        nodes: nodes ?? 20_000,
        processes: engines,
        dir,
        print: say,
      });
    },
  },
  {
    name: "store",
    summary: "SQLite book: write rate, streaming read rate, file size per position",
    run: async ({ positions }) => {
      const { benchStore } = await import("../../bench/store.js");
      const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-"));
      try {
        (await benchStore(dir, { positions: [Math.min(positions, 1_000_000)] })).forEach(say);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];

/** The fairy-stockfish found here, which the benchmarks that dig with a real engine use (all the same one, so their figures compare). */
async function fairyStockfish(bench: string, more = ""): Promise<string> {
  const { detectEngines } = await import("../../engines/detect.js");
  const engine = detectEngines().find((e) => e.kind === "fairy-stockfish")?.command;
  if (!engine) throw new Error(`the ${bench} benchmark needs fairy-stockfish (Debian/Ubuntu: apt-get install fairy-stockfish)${more}`);
  return engine;
}

/** Fixed MultiPV 4 against dynamic MultiPV on the same work: rate, searches, busy share, coverage. */
async function benchDig(o: { seconds?: number; nodes?: number; sample?: number; parentSpread?: boolean; turns?: number }): Promise<void> {
  const { benchDigRate, DEFAULT_DIG_VARIANTS } = await import("../../bench/dig.js");
  const { DEFAULT_DYNAMIC } = await import("../../engines/usi/widen.js");
  const engine = await fairyStockfish("dig", "; `horu bench engines` compares the engines this machine has");
  // HORU_BENCH_DYNAMIC='{"start":4,"widenBy":0,"withinCp":300,"widenShare":0.1}' compares other dynamic parameters.
  const dynamic = process.env.HORU_BENCH_DYNAMIC ? (JSON.parse(process.env.HORU_BENCH_DYNAMIC) as DynamicMultiPv) : undefined;
  const variants = DEFAULT_DIG_VARIANTS.map((v) => (v.multipv === "auto" && dynamic ? { ...v, dynamic } : v));
  if (o.parentSpread) {
    const base = dynamic ?? DEFAULT_DYNAMIC.dynamic;
    variants.push({
      label: "auto, first MultiPV from the parent",
      multipv: "auto",
      dynamic: { ...base, firstFromParent: { narrow: 2, wide: 8 } },
    });
  }
  await benchDigRate({
    engine,
    nodes: o.nodes ?? 20_000,
    seconds: o.seconds ?? 30,
    processes: 2,
    sample: o.sample ?? 40,
    variants,
    rounds: o.turns,
    print: say,
  });
}

/**
 * Opening a book, whole `horu` processes as a user waits for them (time and peak RSS as
 * /usr/bin/time -v reports them, with the load average): `horu book graph` rebuilds the
 * graph from every position and saves the snapshot, then `horu select` opens from it
 * (--runs R times). The normal book is --book FILE (else a synthetic one of --positions in a
 * temporary folder); with --huge also a 15M-position one (--huge-book FILE, written there by
 * the dig-shaped generator when missing and kept).
 */
async function benchOpen(o: {
  positions: number;
  book?: string;
  huge: boolean;
  hugeBook?: string;
  runs: number;
  rebuild: boolean;
}): Promise<void> {
  const { writeSyntheticBook } = await import("../../bench/books/synthetic-book.js");
  const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-"));
  try {
    let file = o.book;
    if (file && !existsSync(file)) throw new Error(`--book ${file}: no such book`);
    if (!file) {
      file = path.join(dir, "open.horu");
      const made = writeSyntheticBook(file, o.positions);
      say(`wrote ${made.positions.toLocaleString("en")} positions in ${(made.ms / 1000).toFixed(1)} s`);
    }
    openRuns(file, o.runs, o.rebuild);
    if (o.huge) {
      let huge = o.hugeBook ?? path.join(dir, "huge.horu");
      if (!existsSync(huge)) huge = await makeDigShaped(huge, 15_000_000);
      openRuns(huge, o.runs, o.rebuild);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function makeDigShaped(file: string, positions: number, values: DigShapedValues = "noise"): Promise<string> {
  const { writeDigShapedBook } = await import("../../bench/books/dig-shaped-book.js");
  const load = () =>
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`;
  say(
    `writing a dig-shaped book of ${positions.toLocaleString("en")} positions to ${file}, ${values === "horu" ? "values from horu's quiescence search" : "made-up values"} (${load()}) ...`,
  );
  const t0 = performance.now();
  let shown = t0;
  const made = writeDigShapedBook(file, positions, {
    values,
    onProgress: (done) => {
      const now = performance.now();
      if (now - shown < 30_000) return;
      shown = now;
      say(`  ${done.toLocaleString("en")} positions, ${(done / ((now - t0) / 1000)).toFixed(0)}/s (${load()})`);
    },
  });
  say(
    `wrote ${made.positions.toLocaleString("en")} positions (${(made.edges / made.positions).toFixed(2)} moves each, ${made.transpositions.toLocaleString("en")} transpositions, deepest ply ${made.maxPly}) in ${(made.ms / 1000).toFixed(1)} s: ${(made.positions / (made.ms / 1000)).toFixed(0)} positions/s${values === "horu" ? `, ${made.evalNodes.toLocaleString("en")} quiescence nodes` : ""} (${load()})`,
  );
  // As a book horu dug is left at its close (and an import leaves one): a dig of it starts from saved bounds.
  const { prepareForDigging } = await import("../../book/prepare.js");
  const p = prepareForDigging(file);
  if (p.prepared)
    say(
      `readied for digging: the selection's bounds saved beside it, from ${p.searches.length} search(es) of the whole book until they settled (nodes ${p.searches.map((n) => n.toLocaleString("en")).join(", ")}; ${(p.searchMs / 1000).toFixed(1)} s, with the open and close ${(p.ms / 1000).toFixed(1)} s; ${load()})`,
    );
  return file;
}

/** One book: `runs` whole-process opens from the snapshot, and a whole-process rebuild (which saves it) first when there is none, else last unless !rebuild. */
function openRuns(file: string, runs: number, rebuild: boolean): void {
  const load = () =>
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`;
  const run = (args: string[], label: string, test: (stdout: string) => string, env: NodeJS.ProcessEnv = process.env) => {
    const time = "/usr/bin/time";
    const cmd = [process.execPath, process.argv[1]!, ...args];
    const before = load();
    const t0 = performance.now();
    const r = existsSync(time)
      ? spawnSync(time, ["-v", ...cmd], { encoding: "utf8", maxBuffer: 1 << 26, env })
      : spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8", maxBuffer: 1 << 26, env });
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(`horu ${args.join(" ")} failed: ${r.stderr}`);
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    // CPU time as well: on a shared machine the wall time says more about the others.
    const cpu = ["User", "System"]
      .map((k) => Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN))
      .reduce((a, b) => a + b, 0);
    say(
      `${label}: whole process ${(wall / 1000).toFixed(2)} s${Number.isNaN(cpu) ? "" : ` (CPU ${cpu.toFixed(2)} s)`}${rss ? `, peak RSS ${(Number(rss[1]) / 1024).toFixed(0)} MiB` : ""} (${before}) ${test(r.stdout)}`,
    );
  };
  say(`book ${file} (${(statSync(file).size / 2 ** 30).toFixed(2)} GiB)`);
  const rebuildRun = () =>
    run(["book", "graph", "--book", file, "--json"], "rebuild from the positions (horu book graph)", (out) => {
      const j = JSON.parse(out.slice(out.indexOf("{"))) as { positions: number; graphMs: number; bytes: number };
      return `: ${j.positions.toLocaleString("en")} positions, graph built in ${(j.graphMs / 1000).toFixed(1)} s, snapshot ${(j.bytes / 2 ** 20).toFixed(0)} MiB`;
    });
  // No snapshot yet: the rebuild makes it. Else the opens first, the rebuild last (it can take long).
  const rebuiltFirst = !existsSync(snapshotPath(file));
  if (rebuiltFirst) rebuildRun();
  for (let k = 1; k <= runs; k++) {
    run(["select", "--book", file, "--count", "1", "--json"], `from the snapshot (horu select, run ${k})`, (out) => {
      const j = JSON.parse(out.slice(out.indexOf("{"))) as { open?: { from?: string; replayed?: number; graphMs?: number } };
      if (j.open?.from !== "snapshot") throw new Error(`horu select did not open from the snapshot: ${JSON.stringify(j.open)}`);
      return `: graph read in ${((j.open.graphMs ?? 0) / 1000).toFixed(2)} s, ${j.open.replayed ?? 0} positions replayed (targets: 1M <= 5 s, 15M <= 60 s)`;
    });
    // As a dig meets it: on huge pages (as `horu dig` starts itself on Linux), and the second
    // selection, the first after a change, which walks the parent lists (built there unless
    // the snapshot carries them).
    if (process.platform === "linux")
      run(
        ["select", "--book", file, "--count", "2", "--json"],
        `  as a dig opens it (huge pages, two selections, run ${k})`,
        (out) => {
          const j = JSON.parse(out.slice(out.indexOf("{"))) as { open?: { graphMs?: number } };
          return `: graph read in ${((j.open?.graphMs ?? 0) / 1000).toFixed(2)} s`;
        },
        { ...process.env, GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" },
      );
  }
  if (!rebuiltFirst && rebuild) rebuildRun();
}

const usage = [
  "usage: horu bench [NAME...] [--positions N] [--seconds S] [--nodes N] [--runs R] [--book FILE]",
  "       [--huge [--huge-book FILE]] [--no-rebuild] [--sample N] [--parent-spread] [--megabytes M]",
  "       [--minutes M] [--games G --depth D] [--values noise|horu] [--dir DIR] [--results FILE]",
  "       [--selections N] [--in-flight K] [--instant] [--batch B] [--engines E]",
  "",
  "Runs the benchmarks and prints their figures (never asserting a time; docs/MEASURED.md keeps",
  "the figures measured so far). Without NAME, runs all but those marked (only when named).",
  "",
  ...benches.map((b) => `  ${b.name.padEnd(10)} ${b.summary}`),
  "",
  "Options:",
  "  --positions N   book size for the book benchmarks (default 1000000)",
  "  --seconds S     `dig`: each turn (default 30); `scale`: each dig (default 120); `web`: each phase",
  "                  (default 30); `engine`: each position (default 5)",
  "  --nodes N       the engines' node limit: `engines` (default 100000); `dig`, `export-dig`, `scale`,",
  "                  `replay`, `web` (default 20000)",
  "  --runs R        `peta`: runs, the median reported (default 3); `open`: opens from the saved graph;",
  "                  `dig`: the turns each variant takes, alternated A B B A ... (default 2)",
  "  --book FILE     the DB2016 book `peta` converts, the .horu book `open` opens (default: a synthetic",
  "                  one of --positions), the book `book` writes (a new file), the book `export-dig`,",
  "                  `scale`, `replay` and `web` dig a copy of",
  "  --huge          `select`, `open`: also a 15M-position book (needs several GB of memory)",
  "  --huge-book FILE  the 15M-position .horu book `open --huge` opens (written there when missing, and",
  "                  kept), and the second big book `scale` digs a copy of",
  "  --no-rebuild    `open`: only the opens from the saved graph (a 15M rebuild takes many minutes)",
  "  --sample N      `dig`: positions searched again wide for the coverage figure (default 40)",
  "  --parent-spread `dig`: also auto with its first MultiPV chosen from the parent's candidates",
  "  --megabytes M   `import`: size of the generated DB2016 file (default 2048)",
  "  --minutes M     `soak`: how long it runs with faults (default 10)",
  "  --games G, --depth D   `quiescence`: games and full-width depth (default 24, 3)",
  "  --values V      `book`: noise (default: values made up around the parent's) or horu (horu's",
  "                  quiescence value of the position each move leads to, the side to move's view,",
  "                  ranked best first; the same moves and budgets; 1M positions in 84 s at load 4-5)",
  "  --dir DIR       where `web` and `replay` copy the book (default: the temporary folder; 15M: ~8 GB)",
  "  --results FILE  `replay`: the record of engine results by SFEN (default: FILE.horu-results.json)",
  "  --selections N, --in-flight K   `replay`: results given back, each followed by a selection",
  "                  (default 600), and positions in flight (default 6)",
  "  --instant       `replay`: engines answer at once (what the record lacks is made up from the",
  "                  legal moves): the feed rate of one horu, positions/s with selection p50/p99",
  "  --batch B       `replay`: results given back together, in one transaction, then B selections",
  "                  (default 1), as a dig stores the results that came together",
  "  --engines E     `web`: fairy-stockfish processes the dig runs (default 2; 1-64)",
  "",
  "What each reports:",
  "  dig         2 x fairy-stockfish; positions per wall hour and per engine-CPU hour, searches a",
  "              position, the engines' busy share, the best line's depth, coverage (of the moves",
  "              within the window in one full-limit search of every legal move on --sample of the",
  "              dig's positions, the share the dig stored), the engine CPU of auto's searches",
  "  export-dig  a --positions book (default 1M) or a copy of --book FILE.horu, 2 x fairy-stockfish",
  "  peta        --book FILE.db, else a synthetic one; /usr/bin/time -v, with the load average",
  "  open        `horu book graph` (the rebuild from the positions), then `horu select` opening from",
  "              the saved graph --runs times: time, CPU and peak RSS with the load average",
  `  scale       \`horu dig\` (2 x fairy-stockfish, --multipv auto, --settle 0, --prefetch ${DEFAULT_DIG_SETTINGS.prefetch}) on an empty book, on`,
  "              copies of --book and --huge-book, then the empty book again: positions/s and the",
  "              ratio to the empty book (also to the mean of both), first selection, selection",
  "              p50/p99, selecting time and horu's CPU per position against the engines', the busy",
  "              share, peak RSS, load average; each dig's second half alone; then each big book",
  "              reopened for a short dig (its first selection from the bounds saved at the close)",
  "  replay      a copy of --book FILE.horu dug without its clock: --in-flight positions given back",
  "              oldest first with one selection after each; each result fairy-stockfish's (dynamic",
  "              MultiPV), recorded by SFEN in --results and read from it in later runs (a record of",
  "              another node limit is refused), so versions of the selection meet the same results:",
  "              nodes and CPU a selection per 50 results and over all",
  "  web         a copy of --book FILE.horu served by a `horu web` process: every call the page makes",
  "              by itself, over HTTP 4 times a second, idle then digging (2 x fairy-stockfish,",
  "              --multipv auto): count, p50, p99, max, calls over 100 ms",
  "  book        writes --positions positions to --book FILE with its saved graph: real positions",
  "              by legal moves from the start, 4-8 candidates each, budgets handed down in",
  "              geometric shares, transpositions linked (electron/bench/books/dig-shaped-book.ts)",
].join("\n");

export const benchCommand: Command = {
  name: "bench",
  summary: "run the benchmarks and print their figures",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        positions: { type: "string" },
        huge: { type: "boolean" },
        seconds: { type: "string" },
        megabytes: { type: "string" },
        minutes: { type: "string" },
        games: { type: "string" },
        depth: { type: "string" },
        nodes: { type: "string" },
        sample: { type: "string" },
        book: { type: "string" },
        "huge-book": { type: "string" },
        "no-rebuild": { type: "boolean" },
        runs: { type: "string" },
        "parent-spread": { type: "boolean" },
        dir: { type: "string" },
        values: { type: "string" },
        results: { type: "string" },
        selections: { type: "string" },
        "in-flight": { type: "string" },
        instant: { type: "boolean" },
        batch: { type: "string" },
        engines: { type: "string" },
      },
    });
    const digValues = values.values as DigShapedValues | undefined;
    if (digValues !== undefined && digValues !== "noise" && digValues !== "horu")
      throw new UsageError(`--values must be noise or horu, not '${values.values}'`);
    const games = wholeNumber("games", values.games, 1);
    const engines = wholeNumber("engines", values.engines, 1);
    if (engines !== undefined && engines > 64)
      throw new UsageError(`--engines must be at most 64 (a dig's engine slots), not '${values.engines}'`);
    const depth = wholeNumber("depth", values.depth, 1);
    const nodes = wholeNumber("nodes", values.nodes, 1);
    const sample = wholeNumber("sample", values.sample, 1);
    const runs = wholeNumber("runs", values.runs, 1) ?? 3;
    const minutes = values.minutes === undefined ? undefined : Number(values.minutes);
    if (minutes !== undefined && !(minutes > 0)) throw new UsageError(`--minutes must be a positive number, not '${values.minutes}'`);
    const megabytes = values.megabytes === undefined ? undefined : Number(values.megabytes);
    if (megabytes !== undefined && !(megabytes > 0))
      throw new UsageError(`--megabytes must be a positive number, not '${values.megabytes}'`);
    const seconds = values.seconds === undefined ? 120 : Number(values.seconds);
    if (!(seconds > 0)) throw new UsageError(`--seconds must be a positive number, not '${values.seconds}'`);
    const positions = wholeNumber("positions", values.positions, 1000) ?? 1_000_000;
    // The soak takes minutes of faults on purpose: only when named.
    const chosen = positionals.length
      ? positionals
      : benches.map((b) => b.name).filter((n) => n !== "soak" && n !== "book" && n !== "scale" && n !== "web" && n !== "replay");
    for (const name of chosen) {
      const bench = benches.find((b) => b.name === name);
      if (!bench) throw new UsageError(`unknown benchmark '${name}' (known: ${benches.map((b) => b.name).join(", ")})`);
      say(`== ${bench.name}: ${bench.summary}`);
      const t0 = performance.now();
      await bench.run({
        positions,
        huge: values.huge ?? false,
        seconds,
        secondsGiven: values.seconds === undefined ? undefined : seconds,
        megabytes,
        minutes,
        games,
        depth,
        nodes,
        sample,
        book: values.book,
        hugeBook: values["huge-book"],
        rebuild: !values["no-rebuild"],
        runs,
        runsGiven: values.runs === undefined ? undefined : runs,
        parentSpread: values["parent-spread"],
        dir: values.dir,
        values: digValues,
        results: values.results,
        selections: wholeNumber("selections", values.selections, 1),
        inFlight: wholeNumber("in-flight", values["in-flight"], 1),
        instant: values.instant,
        batch: wholeNumber("batch", values.batch, 1),
        engines,
      });
      say(`   (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    return 0;
  },
};
