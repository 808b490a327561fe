// The e2e tests' shared fixture: fairy-stockfish and Chromium where the machine has them, a
// small book dug by `horu dig` as a user digs one, and the engine added to the user's library
// (a book's own engines are only asked about: BookEnginesDialog) or to a book; and a test's
// `horu web` with a browser (useHoruWeb).
import { afterAll, beforeAll } from "vitest";
import { execFileSync, type StdioOptions } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { ROOT, ensureRenderer, launchBrowser, startHoru, type Horu } from "../harness";
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

/** What useHoruWeb set up, there from its beforeAll on. */
export interface HoruWeb {
  /** The test's own temporary folder, `horu web`'s HOME. */
  readonly dir: string;
  readonly horu: Horu;
  readonly browser: Browser;
}

/** What a test's `horu web` needs besides its folder and arguments (useHoruWeb's third argument). */
export interface HoruWebOptions {
  /** The beforeAll's timeout: a hang guard (120 s when absent). */
  timeoutMs?: number;
  /**
   * More environment for `horu web`, from the test's folder (e.g. `HORU_DOCUMENTS_DIR: dir`,
   * where the page creates books with no book open): added to `HOME: dir`.
   */
  env?: (dir: string) => NodeJS.ProcessEnv;
}

/**
 * Registers a beforeAll (given `timeoutMs`, or `options.timeoutMs`) that makes a temporary
 * folder named from `prefix`, builds the renderer, has `prepare` fill the folder (a book, the
 * library's engine) and return `horu web`'s arguments, starts `horu web` with the folder as HOME
 * (and `options.env`'s variables) and launches the browser; and an afterAll that closes the
 * browser, stops `horu web` and removes the folder.
 */
export function useHoruWeb(prefix: string, prepare: (dir: string) => string[], options: number | HoruWebOptions = {}): HoruWeb {
  const { timeoutMs = 120_000, env }: HoruWebOptions = typeof options === "number" ? { timeoutMs: options } : options;
  let dir: string | undefined;
  let horu: Horu | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    await ensureRenderer();
    const args = prepare(dir);
    horu = await startHoru({ HOME: dir, ...env?.(dir) }, args);
    browser = await launchBrowser();
  }, timeoutMs);
  afterAll(async () => {
    await browser?.close();
    await horu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const set = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`useHoruWeb: no ${what} before its beforeAll`);
    return v;
  };
  return {
    get dir() {
      return set(dir, "folder");
    },
    get horu() {
      return set(horu, "horu web");
    },
    get browser() {
      return set(browser, "browser");
    },
  };
}
