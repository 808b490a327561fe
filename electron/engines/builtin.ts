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
    note: "horu's own TypeScript engine (alpha-beta + Monte-Carlo): far weaker, for trying horu out or studying the search",
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

/** The packaged app's own executable, started with this flag, runs a built-in engine instead of the app (main.ts). */
export const ENGINE_FLAG = "--horu-engine=";

/** The built-in engine an app process was started to run (`--horu-engine=<id>`), or null; only horu's own ids count. */
export function engineFromArgv(argv: string[]): BuiltinEngine | null {
  const arg = argv.find((a) => a.startsWith(ENGINE_FLAG));
  return arg ? (BUILTIN_ENGINES.find((b) => b.id === arg.slice(ENGINE_FLAG.length)) ?? null) : null;
}

/** Where this process runs: Node, Electron from a checkout (npm start), or a packaged app (code in app.asar). */
export type Runtime = "node" | "electron" | "packaged";

export function currentRuntime(): Runtime {
  if (!process.versions.electron) return "node";
  const here = typeof __dirname === "string" ? __dirname : "";
  return /[\\/]app\.asar([\\/]|$)/.test(here) ? "packaged" : "electron";
}

/**
 * How to start a built-in engine here: Node runs the runner; Electron from a checkout runs it
 * in node mode (ELECTRON_RUN_AS_NODE); the packaged app, whose RunAsNode fuse is off
 * (package.json electronFuses), starts itself with --horu-engine=<id>, which runs only
 * horu's own runner for that id. Throws when the runner was not built.
 */
export function builtinSpec(
  b: BuiltinEngine,
  options: Record<string, string | number | boolean> = {},
  runtime: Runtime = currentRuntime(),
): UsiEngineOptions {
  const runner = runnerPath(b);
  if (!runner) throw new Error(`${b.name}: its runner ${b.runner} is missing from dist/engines; run \`npm run build:node\``);
  return {
    command: process.execPath,
    args: runtime === "packaged" ? [`${ENGINE_FLAG}${b.id}`] : [runner],
    env: runtime === "electron" ? { ELECTRON_RUN_AS_NODE: "1" } : undefined,
    name: b.name,
    options: { ...b.options, ...options },
    // Compiling the WebAssembly takes seconds, more on a busy machine.
    timeouts: { usiokMs: 60_000, readyokMs: 60_000 },
  };
}
