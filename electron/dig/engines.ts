// Which engines a dig uses: given on the command line, stored in the book, or found on PATH.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseCommandLine, type UsiEngineOptions } from "../usi/engine.js";

/** Engines packaged by Debian (apt-get install fairy-stockfish gpsshogi) and looked for by default. */
export const KNOWN_ENGINES = ["fairy-stockfish", "gpsusi"];

export const INSTALL_HINT =
  "no USI engine found: install one (Debian/Ubuntu: `sudo apt-get install fairy-stockfish` puts it in /usr/games) or give one with --engine '/path/to/engine'";

/** Finds a known engine on PATH (and /usr/games, where Debian puts them). */
export function findEngineOnPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = [...(env.PATH ?? "").split(path.delimiter), "/usr/games", "/usr/local/games"].filter(Boolean);
  for (const name of KNOWN_ENGINES) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (existsSync(file)) return file;
    }
  }
  return null;
}

/**
 * An engine from a user-written command line ("ssh host /path/engine" works: it is split
 * like a shell would, without running one). The program must exist when it is a path.
 */
export function engineFromCommandLine(text: string, options: Record<string, string | number | boolean> = {}): UsiEngineOptions {
  const argv = parseCommandLine(text);
  if (argv.length === 0) throw new Error("empty engine command line");
  const [command, ...args] = argv;
  if (command.includes("/") && !existsSync(command)) throw new Error(`engine not found: ${command} does not exist`);
  return { command, args, name: path.basename(command), options };
}

/** Parses NAME=VALUE engine options; numbers and true/false become typed values. */
export function parseEngineOption(text: string): [string, string | number | boolean] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new Error(`engine option '${text}' is not NAME=VALUE`);
  const name = text.slice(0, eq), raw = text.slice(eq + 1);
  const value = raw === "true" ? true : raw === "false" ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  return [name, value];
}
