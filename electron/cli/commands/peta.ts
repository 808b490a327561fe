// `horu peta IN.db OUT.db [--shrink] [--draw-black V --draw-white V]`: a DB2016 book file
// through the peta_shock-compatible minimax (DESIGN 5), streamed in and out so the input
// never sits in memory as text.
import { createReadStream, createWriteStream, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Command } from "../command.js";
import { printJson, UsageError } from "../command.js";
import { Db2016Error, Db2016Reader, db2016BlockText, db2016HeaderLines } from "../../../shared/formats/db2016.js";
import { PetaShockExporter, type ExportCounts } from "../../../shared/book/export.js";
import { planExportTarget } from "../../dig/export-target.js";

const usage = `usage: horu peta IN.db OUT.db [--shrink] [--draw-black V --draw-white V] [--strict] [--force] [--json]

Converts a YaneuraOu DB2016 book file the way \`makebook peta_shock\` does:
every position is written with its moves' minimax values over the whole book,
best first (DESIGN 5).

  --shrink         keep only the moves with the best value
  --draw-black V   value of a draw for black (centipawns, black's view)
  --draw-white V   value of a draw for white (white's view); with both 0 (the
                   default) the output is exactly peta_shock's
  --strict         stop at the first malformed line instead of skipping it
  --force          replace OUT.db when it exists (never a horu book or other SQLite file)
  --json           print the summary as one JSON object on the last line`;

/** Malformed lines printed before the rest are only counted. */
const SHOWN_ERRORS = 20;

function parseArgs(args: string[]) {
  const files: string[] = [];
  let shrink = false;
  let strict = false;
  let json = false;
  let force = false;
  let drawBlack = 0;
  let drawWhite = 0;
  const number = (name: string, text: string | undefined): number => {
    if (text === undefined || !/^[+-]?\d+$/.test(text)) throw new UsageError(`${name} needs an integer value, got ${text ?? "nothing"}`);
    const v = Number(text);
    if (Math.abs(v) > 32000) throw new UsageError(`${name} must be within +-32000`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--shrink") shrink = true;
    else if (a === "--strict") strict = true;
    else if (a === "--json") json = true;
    else if (a === "--force") force = true;
    else if (a === "--draw-black") drawBlack = number(a, args[++i]);
    else if (a === "--draw-white") drawWhite = number(a, args[++i]);
    else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else files.push(a);
  }
  if (files.length !== 2) throw new UsageError("expected an input and an output file");
  if (files[0] === files[1]) throw new UsageError("the output must be another file than the input");
  const target = planExportTarget(files[1], process.cwd(), files[0]);
  if (target.refused) throw new UsageError(target.refused);
  if (target.exists && !force) throw new UsageError(`${target.path} already exists: give --force to replace it`);
  return { input: files[0], output: target.path, shrink, strict, json, drawBlack, drawWhite };
}

async function readBook(file: string, exporter: PetaShockExporter, strict: boolean) {
  const reader = new Db2016Reader((block) => exporter.add(block), { strict, maxErrors: SHOWN_ERRORS });
  const stream = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of lines) reader.push(line, ++lineNo);
    reader.end();
  } catch (e) {
    if (e instanceof Db2016Error) throw new Error(`${file}:${e.line}: ${e.detail}`, { cause: e });
    const err = e as NodeJS.ErrnoException;
    throw new Error(`${file}: ${err.code === "ENOENT" ? "no such file" : err.message}`, { cause: e });
  } finally {
    lines.close();
    stream.destroy();
  }
  return reader;
}

/** Written beside the target and renamed into place: a failure never leaves half a book there. */
async function writeBook(target: string, exporter: PetaShockExporter, blockCount: number): Promise<void> {
  const file = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    await writeBookTo(file, exporter, blockCount);
    renameSync(file, target);
  } catch (e) {
    rmSync(file, { force: true });
    throw e instanceof Error ? new Error(e.message.replace(file, target), { cause: e }) : e;
  }
}

async function writeBookTo(file: string, exporter: PetaShockExporter, blockCount: number): Promise<void> {
  const out = createWriteStream(file, { encoding: "utf8" });
  const failed = new Promise<never>((_, reject) => out.once("error", (e) => reject(new Error(`${file}: ${e.message}`))));
  failed.catch(() => {});
  const write = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, "drain"), failed]);
  };
  await write(db2016HeaderLines(blockCount).join("\n") + "\n");
  // Blocks go out in batches of about 1 MB: one write per block would be slow.
  let batch = "";
  for (const block of exporter.blocks("sfen")) {
    batch += db2016BlockText(block);
    if (batch.length >= 1 << 20) {
      await write(batch);
      batch = "";
    }
  }
  if (batch) await write(batch);
  out.end();
  await Promise.race([once(out, "finish"), failed]);
}

export const petaCommand: Command = {
  name: "peta",
  summary: "convert a DB2016 book with peta_shock-style minimax",
  usage,
  async run(args: string[]): Promise<number> {
    const opts = parseArgs(args);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const exporter = new PetaShockExporter({ shrink: opts.shrink, drawBlack: opts.drawBlack, drawWhite: opts.drawWhite });
    const reader = await readBook(opts.input, exporter, opts.strict);
    for (const e of reader.errors) process.stderr.write(`${opts.input}:${e.line}: ${e.message} (skipped)\n`);
    if (reader.errorCount > reader.errors.length) {
      process.stderr.write(`${opts.input}: ${reader.errorCount - reader.errors.length} more malformed lines skipped\n`);
    }
    const t1 = performance.now();
    const counts: ExportCounts = exporter.run();
    const t2 = performance.now();
    await writeBook(opts.output, exporter, counts.written);
    const t3 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const summary = {
      input: opts.input,
      output: opts.output,
      positions: reader.blockCount,
      moves: reader.moveCount,
      malformedLines: reader.errorCount,
      writtenPositions: counts.written,
      writtenMoves: counts.writtenMoves,
      absent: counts.absent,
      badSfen: counts.badSfen,
      settled: counts.settled,
      loopNodes: counts.loopNodes,
      rounds: counts.rounds,
      readMs: Math.round(t1 - t0),
      exportMs: Math.round(t2 - t1),
      writeMs: Math.round(t3 - t2),
      totalMs: Math.round(t3 - t0),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    };
    const sec = (ms: number) => (ms / 1000).toFixed(2) + " s";
    process.stdout.write(
      [
        `read ${summary.positions} positions, ${summary.moves} moves from ${opts.input} in ${sec(summary.readMs)}` +
          (summary.malformedLines ? ` (${summary.malformedLines} malformed lines skipped)` : ""),
        `minimax: ${counts.settled} settled, ${counts.written - counts.settled} in cycles (${counts.loopNodes} in perpetual-check loops), ` +
          `${counts.absent} absent, ${counts.badSfen} bad SFEN; ${counts.rounds.join("+")} rounds in ${sec(summary.exportMs)}`,
        `wrote ${summary.writtenPositions} positions, ${summary.writtenMoves} moves to ${opts.output} in ${sec(summary.writeMs)}`,
        `total ${sec(summary.totalMs)} (${sec(summary.cpuMs)} CPU)`,
      ].join("\n") + "\n",
    );
    if (opts.json) printJson(summary);
    return 0;
  },
};
