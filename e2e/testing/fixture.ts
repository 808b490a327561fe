// The e2e tests' shared fixture: fairy-stockfish and Chromium where the machine has them, a
// small book dug by `horu dig` as a user digs one, and the engine added to the user's library
// (a book's own engines are only asked about: BookEnginesDialog) or to a book.
import { execFileSync, type StdioOptions } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../harness";
import { EngineLibrary } from "../../electron/engines/library";
import type { OpenBook } from "../../electron/book/open-book";

export const ENGINE = "/usr/games/fairy-stockfish";
export const haveChromium = existsSync("/usr/bin/chromium");
export const haveEngine = existsSync(ENGINE);

/** fairy-stockfish as an engine entry (library or book): one thread, 16 MiB of hash. */
export const fairyEntry = () => ({
  name: "fairy",
  command: ENGINE,
  args: [] as string[],
  cwd: null,
  options: { Threads: 1, Hash: 16 },
  enabled: true,
});

export interface SmallDig {
  nodes: number;
  positions: number;
  /** --engines (the dig's default when absent). */
  engines?: number;
  /** --root, a USI position line. */
  root?: string;
  /** A hang guard only: generous, as the suite runs on loaded machines. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
}

/** Digs `file` (created if new) with `horu dig` and fairy-stockfish: `positions` thinks of `nodes` nodes. */
export function digSmallBook(file: string, o: SmallDig): void {
  const args = [path.join(ROOT, "bin", "horu.js"), "dig", "--book", file, "--engine", ENGINE];
  if (o.engines !== undefined) args.push("--engines", String(o.engines));
  args.push("--option", "Threads=1", "--option", "Hash=16", "--nodes", String(o.nodes));
  if (o.root !== undefined) args.push("--root", o.root);
  args.push("--positions", String(o.positions));
  execFileSync(process.execPath, args, {
    cwd: ROOT,
    env: o.env ?? process.env,
    stdio: o.stdio ?? "ignore",
    timeout: o.timeoutMs ?? 300_000,
  });
}

/** Adds fairy-stockfish to the engine library of the user whose HOME is `home`. */
export function addLibraryEngine(home: string): void {
  new EngineLibrary(path.join(home, ".config", "horu")).add(fairyEntry());
}

/** Adds fairy-stockfish to the engines `book` names. */
export function addBookEngine(book: OpenBook): void {
  book.store.engines.add(fairyEntry());
}
