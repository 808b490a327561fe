// Which engines a dig uses when none is given: the library's enabled engines, else the best
// engine found on this machine, else the built-in one; with a sentence saying why.
import { existsSync, statSync } from "node:fs";
import type { UsiEngineOptions } from "./usi/engine.js";
import { parseCommandLine } from "./argv.js";
import type { ThinkLimit } from "../../shared/dig/settings.js";
import type { EngineConfigView } from "../../shared/api/contract.js";
import { BUILTIN_ENGINES, BUILTIN_PREFIX, builtinEngine, builtinSpec } from "./builtin.js";
import { detectEngines, usualPlaces, type FoundEngine } from "./detect.js";
import { EngineLibrary } from "./library.js";
import { userError } from "../../shared/api/user-error.js";

type Options = Record<string, string | number | boolean>;

/** How to start an engine config (library, book or command line); "builtin:<id>" is resolved here. */
export function specFromConfig(c: Omit<EngineConfigView, "id">, extra: Options = {}): UsiEngineOptions {
  const b = builtinEngine(c.command);
  if (c.command.startsWith(BUILTIN_PREFIX)) {
    if (!b)
      throw new Error(`no built-in engine '${c.command}' (there are: ${BUILTIN_ENGINES.map((x) => BUILTIN_PREFIX + x.id).join(", ")})`);
    return { ...builtinSpec(b, { ...c.options, ...extra }), name: c.name || b.name };
  }
  if ((c.command.includes("/") || c.command.includes("\\")) && !existsSync(c.command))
    throw userError(`engine not found: ${c.command} does not exist`, { key: "engineMissing", params: { path: c.command } });
  if (c.cwd && (!existsSync(c.cwd) || !statSync(c.cwd).isDirectory()))
    throw userError(`engine folder not found: ${c.cwd}`, { key: "engineFolderMissing", params: { path: c.cwd } });
  return { command: c.command, args: c.args, cwd: c.cwd ?? undefined, name: c.name, options: { ...c.options, ...extra } };
}

export type EngineSource = "library" | "detected" | "builtin";

export interface CandidateEngine {
  source: EngineSource;
  name: string;
  /** The command line to add it to the library with ("builtin:<id>" for a built-in one). */
  commandLine: string;
  cwd: string | null;
  options: Options;
  where: string;
  timeOnly: boolean;
}

export interface EngineChoice {
  source: EngineSource;
  configs: Array<Omit<EngineConfigView, "id">>;
  /** One sentence for the user: what was chosen and why. */
  why: string;
  /** Problems met on the way (a damaged library), to show as warnings. */
  warnings: string[];
}

const quote = (p: string) => (/[\s"'\\]/.test(p) ? `"${p.replace(/(["\\])/g, "\\$1")}"` : p);

function fromFound(f: FoundEngine): CandidateEngine {
  return {
    source: "detected",
    name: f.name,
    commandLine: quote(f.command),
    cwd: f.cwd,
    options: { Threads: 1 },
    where: f.where,
    timeOnly: f.timeOnly,
  };
}

export function builtinCandidates(): CandidateEngine[] {
  return BUILTIN_ENGINES.map((b) => ({
    source: "builtin",
    name: b.name,
    commandLine: BUILTIN_PREFIX + b.id,
    cwd: null,
    options: {},
    where: "built in",
    timeOnly: false,
  }));
}

export function detectedCandidates(env: NodeJS.ProcessEnv = process.env): CandidateEngine[] {
  return detectEngines(env).map(fromFound);
}

/** The first engine of the list that can think under this limit (time-only engines need a movetime limit). */
function usable(c: CandidateEngine, limit: ThinkLimit | undefined): boolean {
  return !c.timeOnly || (limit !== undefined && "movetimeMs" in limit);
}

function toConfig(c: CandidateEngine): Omit<EngineConfigView, "id"> {
  const [command, ...args] = c.commandLine.startsWith(BUILTIN_PREFIX) ? [c.commandLine] : parseCommandLine(c.commandLine);
  return { name: c.name, command: command!, args, cwd: c.cwd, options: c.options, enabled: true };
}

/** The library's enabled engines, else the best detected engine, else the first built-in one. */
export function chooseEngines(opts: { library?: EngineLibrary; limit?: ThinkLimit; env?: NodeJS.ProcessEnv } = {}): EngineChoice {
  const env = opts.env ?? process.env;
  const warnings: string[] = [];
  const library = opts.library ?? new EngineLibrary();
  const state = library.load();
  if (state.problem) warnings.push(state.problem);
  const enabled = state.engines.filter((e) => e.enabled);
  if (enabled.length > 0) {
    return {
      source: "library",
      configs: enabled,
      why: `the engine library's enabled engine${enabled.length > 1 ? "s" : ""} (${enabled.map((e) => e.name).join(", ")}, in ${library.file})`,
      warnings,
    };
  }
  const found = detectedCandidates(env);
  const native = found.find((c) => usable(c, opts.limit));
  if (native) {
    return {
      source: "detected",
      configs: [toConfig(native)],
      why: `${native.name} found ${native.where} (${native.commandLine}): a native engine is the fastest choice`,
      warnings,
    };
  }
  const b = builtinCandidates()[0]!;
  const skipped = found.filter((c) => !usable(c, opts.limit));
  const looked = `on PATH or in ${usualPlaces(env).length ? usualPlaces(env).join(", ") : "no other folder"}`;
  const why =
    `no native USI engine found ${looked}` +
    (skipped.length ? ` (${skipped.map((c) => c.name).join(", ")} searches by time only: give --movetime to use it)` : "") +
    `; using ${b.name}, which needs nothing installed`;
  return { source: "builtin", configs: [toConfig(b)], why, warnings };
}
