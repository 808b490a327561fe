// `horu perft SFEN|startpos DEPTH [--divide]`: legal move counts, for checking the rules core.
import type { Command } from "../command.js";
import { UsageError } from "../command.js";
import { Position, perft as perftCount, perftDivide } from "../../../shared/rules/position.js";

const usage = `usage: horu perft SFEN|startpos [moves ...] DEPTH [--divide]

Counts the leaf positions DEPTH plies below a position. The total is printed
alone on the last line; with --divide, each legal move's count comes first.
The SFEN may be given as several arguments ("lnsgkgsnl/... b - 1").`;

export const perftCommand: Command = {
  name: "perft",
  summary: "count legal move sequences from a position (rules check)",
  usage,
  async run(args: string[]): Promise<number> {
    const divide = args.includes("--divide");
    const rest = args.filter((a) => a !== "--divide");
    const unknown = rest.find((a) => a.startsWith("--"));
    if (unknown) throw new UsageError(`unknown option ${unknown}`);
    if (rest.length < 2) throw new UsageError("expected a position and a depth");
    const depthText = rest[rest.length - 1];
    if (!/^[0-9]+$/.test(depthText)) throw new UsageError(`depth must be a non-negative integer, got "${depthText}"`);
    const depth = Number(depthText);
    if (depth > 20) throw new UsageError(`depth ${depth} is too large`);
    let pos: Position;
    try {
      pos = Position.fromUsi(rest.slice(0, -1).join(" "));
    } catch (e) {
      throw new UsageError(`bad position: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (divide && depth >= 1) {
      let total = 0;
      for (const { move, count } of perftDivide(pos, depth)) {
        process.stdout.write(`${move}: ${count}\n`);
        total += count;
      }
      process.stdout.write(`${total}\n`);
    } else {
      process.stdout.write(`${perftCount(pos, depth)}\n`);
    }
    return 0;
  },
};
