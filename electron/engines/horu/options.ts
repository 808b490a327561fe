// The USI options of horu's engine: their declarations (the `option` lines answered to
// `usi`), validation of `setoption`, and how they map onto the search settings.
import type { SearchOptions } from "../../../shared/horu-engine/search.js";
import type { MctsOptions } from "../../../shared/horu-engine/mcts.js";
import type { HybridRules } from "../../../shared/horu-engine/hybrid.js";

type Spin = { type: "spin"; default: number; min: number; max: number };
type Check = { type: "check"; default: boolean };
type Combo = { type: "combo"; default: string; vars: string[] };
export type OptionSpec = (Spin | Check | Combo) & { name: string; help: string };

export const OPTIONS: OptionSpec[] = [
  {
    name: "USI_Hash",
    type: "spin",
    default: 16,
    min: 1,
    max: 2048,
    help: "transposition table size in MiB (shared with the Monte-Carlo thread)",
  },
  { name: "USI_Ponder", type: "check", default: false, help: "accepted; pondering is driven by go ponder / ponderhit" },
  {
    name: "Threads",
    type: "spin",
    default: 1,
    min: 1,
    max: 1,
    help: "one alpha-beta thread (plus the Monte-Carlo thread when Hybrid is on)",
  },
  { name: "MultiPV", type: "spin", default: 1, min: 1, max: 600, help: "number of principal variations" },
  {
    name: "QuiescenceChecks",
    type: "combo",
    default: "threat",
    vars: ["none", "all", "threat"],
    help: "checks in the quiescence search: never, always, or after a predicted mate threat (docs/DESIGN.md §11.3)",
  },
  {
    name: "QuiescenceCheckPlies",
    type: "spin",
    default: 2,
    min: 0,
    max: 16,
    help: "checks only in the first N plies of a quiescence search",
  },
  { name: "ThreatThreshold", type: "spin", default: 500, min: 0, max: 1000, help: "mate-threat predictor threshold, in permille" },
  { name: "DrawValue", type: "spin", default: 0, min: -32000, max: 32000, help: "value of a repetition for the side to move (cp)" },
  {
    name: "Hybrid",
    type: "check",
    default: true,
    help: "run the Monte-Carlo tree search beside alpha-beta and apply the hybrid move rules (docs/DESIGN.md §11.2)",
  },
  { name: "HybridMateWins", type: "check", default: true, help: "a mate found by alpha-beta is always played" },
  { name: "HybridMinPlayouts", type: "spin", default: 300, min: 0, max: 100000000, help: "fewer playouts than this: alpha-beta's move" },
  {
    name: "HybridLowWinRate",
    type: "spin",
    default: 300,
    min: 0,
    max: 1000,
    help: "Monte-Carlo win rate (permille) of alpha-beta's move below which Monte-Carlo's move is played",
  },
  {
    name: "HybridLowValue",
    type: "spin",
    default: -400,
    min: -32000,
    max: 32000,
    help: "alpha-beta value (cp) below which Monte-Carlo's move is played",
  },
  {
    name: "HybridMinVisits",
    type: "spin",
    default: 30,
    min: 0,
    max: 100000000,
    help: "a Monte-Carlo rate counts only with this many visits behind it",
  },
  { name: "MctsTreeDepth", type: "spin", default: 5, min: 1, max: 32, help: "UCB is applied down to this depth" },
  {
    name: "MctsPlayoutPlies",
    type: "spin",
    default: 12,
    min: 0,
    max: 512,
    help: "playouts stop after this many plies and are judged by the evaluation",
  },
  { name: "MctsDrawMargin", type: "spin", default: 150, min: 0, max: 32000, help: "|evaluation| below this at a playout's end is a draw" },
  {
    name: "MctsBlendPlayouts",
    type: "spin",
    default: 40,
    min: 1,
    max: 1000000,
    help: "a node's own average is blended into its best child's rate until this many playouts",
  },
  { name: "MctsHashBonus", type: "spin", default: 100, min: 0, max: 1000, help: "UCB bonus (permille) for alpha-beta's hash move" },
  {
    name: "MctsNice",
    type: "spin",
    default: 10,
    min: 0,
    max: 19,
    help: "the Monte-Carlo thread runs this much nicer than the engine (Linux), so on a busy machine it takes spare CPU, not alpha-beta's",
  },
  { name: "TimeMargin", type: "spin", default: 150, min: 0, max: 10000, help: "milliseconds kept back from every time limit" },
];

export type OptionValues = Record<string, number | boolean | string>;

export function defaultValues(): OptionValues {
  const v: OptionValues = {};
  for (const o of OPTIONS) v[o.name] = o.default;
  return v;
}

export function optionLines(): string[] {
  return OPTIONS.map((o) => {
    switch (o.type) {
      case "spin":
        return `option name ${o.name} type spin default ${o.default} min ${o.min} max ${o.max}`;
      case "check":
        return `option name ${o.name} type check default ${o.default}`;
      case "combo":
        return `option name ${o.name} type combo default ${o.default} ${o.vars.map((x) => `var ${x}`).join(" ")}`;
    }
  });
}

/** Parses `setoption name N [value V]`; throws a message for the user on any problem. */
export function applySetoption(values: OptionValues, args: string[]): string {
  const ni = args.indexOf("name");
  if (ni !== 0) throw new Error(`setoption needs "name <option> value <value>"`);
  const vi = args.indexOf("value");
  const name = args.slice(1, vi < 0 ? undefined : vi).join(" ");
  const raw = vi < 0 ? undefined : args.slice(vi + 1).join(" ");
  // Aliases GUIs use for the common options.
  const alias: Record<string, string> = { Hash: "USI_Hash", Ponder: "USI_Ponder", USI_Threads: "Threads" };
  const spec = OPTIONS.find((o) => o.name.toLowerCase() === (alias[name] ?? name).toLowerCase());
  if (!spec) throw new Error(`unknown option "${name}"`);
  switch (spec.type) {
    case "spin": {
      if (raw === undefined || !/^-?[0-9]+$/.test(raw)) throw new Error(`option ${spec.name} needs a whole number, got "${raw ?? ""}"`);
      const n = Number(raw);
      if (n < spec.min || n > spec.max) throw new Error(`option ${spec.name} must be between ${spec.min} and ${spec.max}, got ${n}`);
      values[spec.name] = n;
      break;
    }
    case "check":
      if (raw !== "true" && raw !== "false") throw new Error(`option ${spec.name} needs true or false, got "${raw ?? ""}"`);
      values[spec.name] = raw === "true";
      break;
    case "combo":
      if (raw === undefined || !spec.vars.includes(raw))
        throw new Error(`option ${spec.name} must be one of ${spec.vars.join(", ")}, got "${raw ?? ""}"`);
      values[spec.name] = raw;
      break;
  }
  return spec.name;
}

export function searchOptions(v: OptionValues): SearchOptions {
  return {
    multiPV: v.MultiPV as number,
    qChecks: v.QuiescenceChecks as SearchOptions["qChecks"],
    qCheckPlies: v.QuiescenceCheckPlies as number,
    threatThreshold: (v.ThreatThreshold as number) / 1000,
    drawValue: v.DrawValue as number,
  };
}

export function mctsOptions(v: OptionValues): Partial<MctsOptions> {
  return {
    treeDepth: v.MctsTreeDepth as number,
    playoutPlies: v.MctsPlayoutPlies as number,
    drawMargin: v.MctsDrawMargin as number,
    blendPlayouts: v.MctsBlendPlayouts as number,
    hashBonus: (v.MctsHashBonus as number) / 1000,
  };
}

export function hybridRules(v: OptionValues): HybridRules {
  return {
    mateWins: v.HybridMateWins as boolean,
    minPlayouts: v.HybridMinPlayouts as number,
    lowWinRate: (v.HybridLowWinRate as number) / 1000,
    lowValue: v.HybridLowValue as number,
    minVisits: v.HybridMinVisits as number,
  };
}
