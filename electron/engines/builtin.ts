// Engines horu ships: each runs as its own program (a runner script under dist/engines/,
// started with this Node, or with Electron's executable in node mode) and speaks USI like
// any other engine. A book or the library names one as "builtin:<id>"; the command line
// that starts it is worked out on this machine when it starts, so it survives a move.
import type { UsiEngineOptions } from "./usi/engine.js";
import { findBundled } from "../paths/bundled.js";

export interface BuiltinEngine {
  /** Stable id: "builtin:<id>" in the library and on the command line. */
  id: string;
  /** The name the user sees. */
  name: string;
  /** The runner under dist/engines/ (scripts/build-node.mjs bundles it). */
  runner: string;
  /** Licence and where its text ships. */
  licence: string;
  /** USI options it starts with (the user's own go on top). */
  options: Record<string, string | number | boolean>;
  /** Why a user would pick it, shown where engines are chosen. */
  note: string;
}

/** Every built-in engine, best first. One entry (and one runner in build-node.mjs) adds an engine. */
export const BUILTIN_ENGINES: BuiltinEngine[] = [
  {
    id: "fairy-stockfish",
    name: "Fairy-Stockfish (built in)",
    runner: "fairy-stockfish.cjs",
    licence: "GPL-3.0, node_modules/fairy-stockfish-nnue.wasm/Copying.txt",
    options: { Threads: 1, USI_Hash: 64 },
    note: "WebAssembly build from npm: about a third of the native engine's speed, needs nothing installed",
  },
  {
    id: "horu",
    name: "horu (built in)",
    runner: "horu.cjs",
    licence: "MIT, horu's own (docs/ENGINE.md)",
    options: { USI_Hash: 64 },
    note: "horu's own TypeScript engine (alpha-beta + Monte-Carlo, seeds 002/003): far weaker, for trying horu out or studying the search",
  },
];

export const BUILTIN_PREFIX = "builtin:";

export function isBuiltinCommand(command: string): boolean {
  return command.startsWith(BUILTIN_PREFIX);
}

export function builtinEngine(command: string): BuiltinEngine | undefined {
  const id = command.startsWith(BUILTIN_PREFIX) ? command.slice(BUILTIN_PREFIX.length) : command;
  return BUILTIN_ENGINES.find((b) => b.id === id);
}

/** The runner in dist/engines/ (in a packaged app, unpacked from the asar archive), or null when it was not built. */
export function runnerPath(b: BuiltinEngine): string | null {
  return findBundled(`engines/${b.runner}`);
}

/**
 * How to start a built-in engine here: this process's own executable running the runner,
 * in node mode when that executable is Electron. Throws when the runner was not built.
 */
export function builtinSpec(b: BuiltinEngine, options: Record<string, string | number | boolean> = {}): UsiEngineOptions {
  const runner = runnerPath(b);
  if (!runner) throw new Error(`${b.name}: its runner ${b.runner} is missing from dist/engines; run \`npm run build:node\``);
  return {
    command: process.execPath,
    args: [runner],
    env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: "1" } : undefined,
    name: b.name,
    options: { ...b.options, ...options },
    // Compiling the WebAssembly takes seconds, more on a busy machine.
    timeouts: { usiokMs: 60_000, readyokMs: 60_000 },
  };
}
