// `horu book quality`: how good a book is (electron/book/quality.ts). Its own options, so
// `horu book` hands the action over before reading its own.
import { parseArgs } from "node:util";
import { UsageError, printJson, wholeNumber } from "../command.js";
import { commandLineEngines, engineArgOptions, processesOf, readEngineArgs } from "./engine-args.js";
import { chooseEngines, specFromConfig } from "../../engines/choose.js";
import { bookQuality, formatQualityReport, progressLine } from "../../book/quality.js";
import { exportWithChoice } from "../../book/quality-export.js";
import { parseMoveChoice } from "../../../shared/book/quality.js";

export const qualityUsage = `usage: horu book quality --book FILE [options] [--json]

How good the book is, on the positions it would play into: from the root, the book's side
plays the book's move and the opponent each of its likely replies (its engine's candidates
within --reply-window cp of its best, at most --max-replies), for each side. Figures by ply
band, each with the positions it rests on and a 95% interval:

  accuracy   the book's move against an oracle (the engine at --oracle-factor times the
             dig's nodes, default 30): how often it is the oracle's best, how often within
             --near cp (default 50) of it, cp lost, the book's value minus the oracle's; the
             same for the engine alone at the dig's limit (the position's own think), and
             the book minus the engine alone, per position
  coverage   plies an opponent playing its engine (at --coverage-nodes, default the dig's,
             +-10% a run) stays in the book, --coverage-runs openings per side (default 8)
  stability  the root's best move and value at 5 points over the last --stability-last
             positions thought (default 200)

Searches are kept in the book (a second run only adds); --no-search reports from them only.

  --engine CMD [--engines N] [--option NAME=VALUE]...   engines (default as horu dig: the
                          library's enabled engines, else the best found; 2 processes)
  --oracle-nodes N | --oracle-factor F
  --per-band N            positions sampled per band, the likeliest first (default 20)
  --reply-window CP --max-replies N                       (default 50, 3)
  --choice minimax|robust[:CP]   the book's move: its minimax best, or the engine's own best
                          unless the minimax beats it by more than CP (default 50); default:
                          what the export plays (robust:50 for a book dug with --settle)
  --write-db OUT          also write the book as a DB2016 file with --choice's moves first`;

export async function runBookQuality(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      book: { type: "string" },
      ...engineArgOptions,
      "oracle-nodes": { type: "string" },
      "oracle-factor": { type: "string" },
      "per-band": { type: "string" },
      "reply-window": { type: "string" },
      "max-replies": { type: "string" },
      near: { type: "string" },
      "coverage-runs": { type: "string" },
      "coverage-nodes": { type: "string" },
      "stability-last": { type: "string" },
      choice: { type: "string" },
      "no-search": { type: "boolean" },
      "write-db": { type: "string" },
      json: { type: "boolean" },
    },
  });
  if (!values.book) throw new UsageError("--book FILE is required");
  let choice;
  try {
    choice = values.choice === undefined ? undefined : parseMoveChoice(values.choice);
  } catch (e) {
    throw new UsageError(`--choice: ${(e as Error).message}`);
  }
  const engineArgs = readEngineArgs(values);
  const { copies } = engineArgs;
  let specs = commandLineEngines(values, engineArgs);
  let per = copies ?? 2;
  if (specs.length === 0 && !values["no-search"]) {
    const c = chooseEngines({});
    specs = c.configs.map((x) => specFromConfig(x, engineArgs.options));
    if (c.source === "library") per = copies ?? 1;
    process.stderr.write(`engine: ${c.why}\n`);
  }
  const engines = processesOf(specs, per);
  const stop = new AbortController();
  const onInt = () => stop.abort();
  process.once("SIGINT", onInt);
  try {
    const r = await bookQuality({
      book: values.book,
      engines,
      oracleNodes: wholeNumber("oracle-nodes", values["oracle-nodes"], 1),
      oracleFactor: wholeNumber("oracle-factor", values["oracle-factor"], 1),
      perBand: wholeNumber("per-band", values["per-band"], 0),
      played: {
        ...(values["reply-window"] !== undefined ? { replyWindowCp: wholeNumber("reply-window", values["reply-window"], 0)! } : {}),
        ...(values["max-replies"] !== undefined ? { maxReplies: wholeNumber("max-replies", values["max-replies"], 1)! } : {}),
      },
      nearCp: wholeNumber("near", values.near, 0),
      coverageRuns: wholeNumber("coverage-runs", values["coverage-runs"], 0),
      coverageNodes: wholeNumber("coverage-nodes", values["coverage-nodes"], 1),
      stabilityLast: wholeNumber("stability-last", values["stability-last"], 0),
      ...(choice ? { choice } : {}),
      noSearch: values["no-search"] === true,
      onProgress: (p) => {
        // Every search reports; the terminal gets the phase's start, every 10th and its end.
        if (p.done === 0 || p.done === p.total || p.done % 10 === 0) process.stderr.write(progressLine(p) + "\n");
      },
      signal: stop.signal,
    });
    process.stdout.write(formatQualityReport(r) + "\n");
    if (values["write-db"]) {
      const n = exportWithChoice(values.book, values["write-db"], parseMoveChoice(r.choice));
      process.stdout.write(`wrote ${values["write-db"]}: ${n} positions, moves by ${r.choice}\n`);
    }
    if (values.json) printJson(r);
    return 0;
  } finally {
    process.off("SIGINT", onInt);
  }
}
