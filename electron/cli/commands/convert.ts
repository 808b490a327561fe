// `horu convert`: a book file of one tool to another's format, directly: YaneuraOu DB2016
// (.db), Apery/dlshogi (.bin), YaneuraOu binary (.ybb), ShogiGUI (.sbk); a horu book as
// input gives its Peta-Shock minimax values.
import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { UsageError, printJson } from "../command.js";
import { planExportTarget } from "../../export/export-target.js";
import { bookFileKind, bookKindOfName, droppedBy, readBookFileFull, writeBookFile } from "../../formats/book-files.js";

const usage = `usage: horu convert IN OUT [--root POSITION] [--force] [--json]

Reads the book IN (.db, .bin, .ybb, .sbk or a horu book: its minimax values with the book's
draw values) and writes OUT in the format its name ends with (.db, .bin, .ybb or .sbk).
Moves keep their order; values and depths the file lacks stay "none" where the target has
it. An Apery .bin holds only position keys, so it is read by walking legal moves from the
start position, or from --root (an SFEN, "startpos moves ...", "sfen ... moves ..."). What the target cannot hold is dropped and listed: .bin keeps no depth,
ponder or comment, .ybb no count, only .db move comments, only .sbk marks, game counts
and the author. A damaged IN is refused with its place. An existing OUT is replaced only
with --force, and a horu book (or any SQLite file) never.`;

export const convertCommand: Command = {
  name: "convert",
  summary: "convert a book file between .db, .bin, .ybb and .sbk",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: "boolean" }, force: { type: "boolean" }, root: { type: "string" } },
    });
    if (positionals.length !== 2) throw new UsageError("give IN and OUT");
    const [input, output] = positionals as [string, string];
    const from = bookFileKind(input);
    // Only a .bin is walked from a position; the other formats name every position they hold.
    if (values.root !== undefined && from !== "bin") throw new UsageError(`--root applies to an Apery .bin IN only (${input} is ${from})`);
    const kind = bookKindOfName(output);
    if (!kind) throw new UsageError(`OUT must end in .db, .bin, .ybb or .sbk: ${output}`);
    const target = planExportTarget(output, process.cwd(), input, "input");
    // A refusal is no misuse of the command: said alone, without the usage text.
    if (target.refused) throw new Error(target.refused);
    if (target.exists && !values.force) throw new UsageError(`${target.path} already exists: give --force to replace it`);
    const t0 = performance.now();
    const read = readBookFileFull(input, from, values.root);
    const blocks = read.blocks;
    const meta = { author: read.author, description: read.description };
    const dropped = droppedBy(blocks, kind, meta);
    const bytes = writeBookFile(output, blocks, kind, meta);
    const moves = blocks.reduce((a, b) => a + b.moves.length, 0);
    const ms = performance.now() - t0;
    process.stdout.write(
      `${input} (${from}) -> ${output} (${kind}): ${blocks.length.toLocaleString("en")} positions, ${moves.toLocaleString("en")} moves, ${bytes.toLocaleString("en")} bytes in ${(ms / 1000).toFixed(2)} s\n`,
    );
    for (const p of read.problems) process.stdout.write(`  ${p}\n`);
    if (dropped.length) process.stdout.write(`${kind} cannot hold everything; left out:\n${dropped.map((d) => `  ${d}\n`).join("")}`);
    if (values.json)
      printJson({ input, output, from, to: kind, positions: blocks.length, moves, bytes, ms, dropped, problems: read.problems });
    return 0;
  },
};
