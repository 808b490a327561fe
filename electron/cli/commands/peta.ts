// `horu peta IN.db OUT.db [--shrink] [--draw-black V --draw-white V]`: a DB2016 book file
// through the peta_shock-compatible minimax (docs/DESIGN.md §5); the work is electron/peta's.
import type { Command } from "../command.js";
import { printJson, UsageError } from "../command.js";
import { existsSync, statSync } from "node:fs";
import { isSqliteFile, planExportTarget } from "../../export/export-target.js";
import { petaFile } from "../../export/peta/peta-file.js";

export { petaFile, type PetaFileOptions, type PetaFileResult } from "../../export/peta/peta-file.js";

const usage = `usage: horu peta IN.db OUT.db [--shrink] [--draw-black V --draw-white V] [--strict] [--threads 1|2] [--force] [--json]

Converts a YaneuraOu DB2016 book file the way \`makebook peta_shock\` does:
every position is written with its moves' minimax values over the whole book,
best first (docs/DESIGN.md §5). The file is read and written as bytes in large pieces,
never held in memory whole.

  --shrink         keep only the moves with the best value
  --draw-black V   value of a draw for black (centipawns, black's view)
  --draw-white V   value of a draw for white (white's view); with both 0 (the
                   default) the output is exactly peta_shock's
  --strict         stop at the first malformed line instead of skipping it
  --threads N      read the file and find the moves on 1 or 2 threads (default:
                   2 for files of 4 MiB or more when the machine has 2 cores)
  --force          replace OUT.db when it exists (never a horu book or other SQLite file)
  --json           print the summary as one JSON object on the last line`;

function parseArgs(args: string[]) {
  const files: string[] = [];
  let shrink = false;
  let strict = false;
  let json = false;
  let force = false;
  let drawBlack = 0;
  let drawWhite = 0;
  let threads: 1 | 2 | undefined;
  const number = (name: string, text: string | undefined): number => {
    if (text === undefined || !/^[+-]?\d+$/.test(text)) throw new UsageError(`${name} needs an integer value, got ${text ?? "nothing"}`);
    const v = Number(text);
    if (Math.abs(v) > 32000) throw new UsageError(`${name} must be within +-32000`);
    return v;
  };
  // "--draw-black=-50" (how `horu` passes a negative value on) as "--draw-black -50".
  args = args.flatMap((x) =>
    /^--(draw-black|draw-white|threads)=/.test(x) ? [x.slice(0, x.indexOf("=")), x.slice(x.indexOf("=") + 1)] : [x],
  );
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--shrink") shrink = true;
    else if (a === "--strict") strict = true;
    else if (a === "--json") json = true;
    else if (a === "--force") force = true;
    else if (a === "--draw-black") drawBlack = number(a, args[++i]);
    else if (a === "--draw-white") drawWhite = number(a, args[++i]);
    else if (a === "--threads") {
      const t = args[++i];
      if (t !== "1" && t !== "2") throw new UsageError(`--threads needs 1 or 2, got ${t ?? "nothing"}`);
      threads = t === "1" ? 1 : 2;
    } else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else files.push(a);
  }
  if (files.length !== 2) throw new UsageError("expected an input and an output file");
  if (files[0] === files[1]) throw new UsageError("the output must be another file than the input");
  const target = planExportTarget(files[1], process.cwd(), files[0], "input");
  // A refusal is no misuse of the command: said alone, without the usage text.
  if (target.refused) throw new Error(target.refused);
  if (target.exists && !force) throw new UsageError(`${target.path} already exists: give --force to replace it`);
  // A horu book was read as text ("23 lines not understood, move line before any 'sfen' line"),
  // and an empty file wrote an empty book with exit 0.
  if (isSqliteFile(files[0]))
    throw new Error(
      `${files[0]}: an SQLite database (a horu book, or another program's), not a YaneuraOu DB2016 text book: ` +
        `for a horu book, \`horu export --book ${files[0]} --out OUT.db\` writes its Peta-Shock minimax as a DB2016 book; nothing written`,
    );
  if (existsSync(files[0]) && statSync(files[0]).isFile() && statSync(files[0]).size === 0)
    throw new Error(`${files[0]}: an empty file (0 bytes), no book; nothing written`);
  return { input: files[0], output: target.path, shrink, strict, json, drawBlack, drawWhite, threads };
}

export const petaCommand: Command = {
  name: "peta",
  summary: "convert a DB2016 book with peta_shock-style minimax",
  usage,
  async run(args: string[]): Promise<number> {
    const opts = parseArgs(args);
    const cpu0 = process.cpuUsage();
    const r = await petaFile(opts);
    for (const e of r.errors) process.stderr.write(`${opts.input}:${e.line}: ${e.message} (skipped)\n`);
    if (r.malformedLines > r.errors.length) {
      process.stderr.write(`${opts.input}: ${r.malformedLines - r.errors.length} more malformed lines skipped\n`);
    }
    const counts = r.counts;
    const cpu = process.cpuUsage(cpu0);
    const summary = {
      input: opts.input,
      output: opts.output,
      positions: r.positions,
      moves: r.moves,
      malformedLines: r.malformedLines,
      writtenPositions: counts.written,
      writtenMoves: counts.writtenMoves,
      absent: counts.absent,
      badSfen: counts.badSfen,
      settled: counts.settled,
      loopNodes: counts.loopNodes,
      rounds: counts.rounds,
      threads: r.threads,
      readMs: Math.round(r.readMs),
      exportMs: Math.round(r.exportMs),
      writeMs: Math.round(r.writeMs),
      totalMs: Math.round(r.readMs + r.exportMs + r.writeMs),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      maxRssKiB: process.resourceUsage().maxRSS,
    };
    const sec = (ms: number) => (ms / 1000).toFixed(2) + " s";
    process.stdout.write(
      [
        `read ${summary.positions} positions, ${summary.moves} moves from ${opts.input} in ${sec(summary.readMs)} (${r.threads} thread${r.threads > 1 ? "s" : ""})` +
          (summary.malformedLines ? ` (${summary.malformedLines} malformed lines skipped)` : ""),
        `minimax: ${counts.settled} settled, ${counts.written - counts.settled} in cycles (${counts.loopNodes} in perpetual-check loops), ` +
          `${counts.absent} absent, ${counts.badSfen} bad SFEN; ${counts.rounds.join("+")} rounds in ${sec(summary.exportMs)}`,
        `wrote ${summary.writtenPositions} positions, ${summary.writtenMoves} moves to ${opts.output} in ${sec(summary.writeMs)}`,
        `total ${sec(summary.totalMs)} (${sec(summary.cpuMs)} CPU), peak RSS ${(summary.maxRssKiB / 1024).toFixed(0)} MiB`,
      ].join("\n") + "\n",
    );
    if (opts.json) printJson(summary);
    return 0;
  },
};
