// Engines given on the command line: any program ("ssh host /path/engine" works), or a
// built-in engine by its "builtin:<id>" name.
import path from "node:path";
import type { UsiEngineOptions } from "./usi/engine.js";
import { parseCommandLine } from "./argv.js";
import { BUILTIN_ENGINES, BUILTIN_PREFIX } from "./builtin.js";
import { specFromConfig } from "./choose.js";
import { detectEngines } from "./detect.js";

export const INSTALL_HINT =
  "no USI engine found on PATH or in the usual places: install one (Debian/Ubuntu: `sudo apt-get install fairy-stockfish` puts it in /usr/games) or give one with --engine '/path/to/engine'";

/** The best native engine found on PATH and in the usual places (engines/detect.ts), or null. */
export function findEngineOnPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const found = detectEngines(env);
  return (found.find((e) => !e.timeOnly) ?? found[0])?.command ?? null;
}

/**
 * An engine from a user-written command line ("ssh host /path/engine" works: it is split
 * like a shell would, without running one). The program must exist when it is a path.
 * "builtin" alone names the first built-in engine.
 */
export function engineFromCommandLine(text: string, options: Record<string, string | number | boolean> = {}): UsiEngineOptions {
  const trimmed = text.trim();
  if (trimmed === "builtin" || trimmed.startsWith(BUILTIN_PREFIX)) {
    const command = trimmed === "builtin" ? BUILTIN_PREFIX + BUILTIN_ENGINES[0]!.id : trimmed;
    return specFromConfig({ name: "", command, args: [], cwd: null, options: {}, enabled: true }, options);
  }
  const argv = parseCommandLine(text);
  if (argv.length === 0) throw new Error("empty engine command line");
  const [command, ...args] = argv;
  return specFromConfig({ name: path.basename(command!), command: command!, args, cwd: null, options: {}, enabled: true }, options);
}

/** Parses NAME=VALUE engine options; numbers and true/false become typed values. */
export function parseEngineOption(text: string): [string, string | number | boolean] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new Error(`engine option '${text}' is not NAME=VALUE`);
  const name = text.slice(0, eq),
    raw = text.slice(eq + 1);
  const value = raw === "true" ? true : raw === "false" ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  return [name, value];
}
