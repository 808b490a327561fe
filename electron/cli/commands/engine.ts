// `horu engine`: horu's own USI engine on standard input/output (alpha-beta + Monte-Carlo,
// docs/DESIGN.md §11.2 and §11.3), so it joins the engine pool like any other: `--engine "horu engine"`.
// `horu engine selfplay` plays fast games checking every move is legal; `horu engine
// fit-eval` / `fit-threat` refit the evaluation and mate-threat weights from the records.
import type { Command } from "../command.js";
import { UsageError } from "../command.js";
import { runUsiOnStdio } from "../../engines/horu/stdio.js";

const usage = `usage: horu engine                 run the USI engine on standard input/output
       horu engine selfplay [--games N] [--nodes N] [--hybrid-every K] [--seed S] [--json]
       horu engine fit-eval [--positions N] [--out FILE]
       horu engine fit-threat [--games N] [--out FILE]

The engine: iterative-deepening PVS alpha-beta with a quiescence search that generates
checks after predicted mate threats (docs/DESIGN.md §11.3), and a Monte-Carlo tree search on a second
thread whose result can overrule alpha-beta's move (docs/DESIGN.md §11.2). Its options are listed by
the USI command \`usi\` (see docs/ENGINE.md). Use it anywhere an engine is asked for:
--engine "horu engine" or --engine builtin:horu (horu dig, horu match, the library).

  selfplay     fast self-play games of horu's engine, checking every move is legal
               (exit 1 on an illegal move)
  fit-eval     refit the evaluation (move prediction on records2016) into
               shared/horu-engine/weights.ts (or --out FILE)
  fit-threat   refit the mate-threat predictor (mate-search labels) the same way`;

export const engineCommand: Command = {
  name: "engine",
  summary: "horu's own USI engine (alpha-beta + Monte-Carlo hybrid), self-play, weight fitting",
  usage,
  async run(args: string[]): Promise<number> {
    const [sub, ...rest] = args;
    if (sub === undefined) return runUsiOnStdio();
    if (sub === "selfplay") {
      const { selfplayCommand } = await import("./horu-engine/selfplay.js");
      return selfplayCommand(rest);
    }
    if (sub === "fit-eval") {
      const { fitEvalCommand } = await import("./horu-engine/fit-eval.js");
      return fitEvalCommand(rest);
    }
    if (sub === "fit-threat") {
      const { fitThreatCommand } = await import("./horu-engine/fit-threat.js");
      return fitThreatCommand(rest);
    }
    throw new UsageError(`unknown engine subcommand "${sub}"`);
  },
};
