// `horu bench [NAME]`: the benchmarks of DESIGN 8, printing figures (never asserting a time).
import { parseArgs } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError } from "../command.js";
import { benchPerft } from "../../../shared/rules/bench.js";
import { benchGraphBuild, benchSelection } from "../../../shared/book/bench.js";

type Bench = { name: string; summary: string; run(o: { positions: number; huge: boolean }): Promise<void> | void };

const say = (line: string) => process.stdout.write(line + "\n");

const benches: Bench[] = [
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
    name: "store",
    summary: "SQLite book: write rate, streaming read rate, file size per position",
    run: async ({ positions }) => {
      const { benchStore } = await import("../../store/bench.js");
      const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-"));
      try {
        (await benchStore(dir, { positions: [Math.min(positions, 1_000_000)] })).forEach(say);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];

const usage = [
  "usage: horu bench [NAME...] [--positions N] [--huge]",
  "",
  "Runs the benchmarks and prints their figures. Without NAME, runs them all.",
  "  --positions N   book size for the book benchmarks (default 1000000)",
  "  --huge          also run the 15M-position selection benchmark (needs several GB of memory)",
  "",
  ...benches.map((b) => `  ${b.name.padEnd(8)} ${b.summary}`),
].join("\n");

export const benchCommand: Command = {
  name: "bench",
  summary: "run the benchmarks and print their figures",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { positions: { type: "string" }, huge: { type: "boolean" } } });
    const positions = values.positions === undefined ? 1_000_000 : Number(values.positions);
    if (!Number.isInteger(positions) || positions < 1000) throw new UsageError(`--positions must be a whole number >= 1000, not '${values.positions}'`);
    const chosen = positionals.length ? positionals : benches.map((b) => b.name);
    for (const name of chosen) {
      const bench = benches.find((b) => b.name === name);
      if (!bench) throw new UsageError(`unknown benchmark '${name}' (known: ${benches.map((b) => b.name).join(", ")})`);
      say(`== ${bench.name}: ${bench.summary}`);
      const t0 = performance.now();
      await bench.run({ positions, huge: values.huge ?? false });
      say(`   (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    return 0;
  },
};
