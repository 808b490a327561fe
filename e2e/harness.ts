// Shared pieces of the end-to-end tests: a fresh renderer build, a real `horu web` process
// (bin/horu.js, built by vitest's global setup) and Debian's chromium through playwright-core.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";

export const ROOT = process.env.HORU_ROOT ?? path.resolve(import.meta.dirname, "..");
export const ARTIFACTS = path.join(ROOT, "e2e", "artifacts");
const OUT = path.join(ROOT, "dist", "renderer");

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds the renderer with vite's JS API when dist/renderer is missing or older than its sources. */
export async function ensureRenderer(): Promise<void> {
  const index = path.join(OUT, "index.html");
  const sources = Math.max(
    newestMtime(path.join(ROOT, "renderer")),
    newestMtime(path.join(ROOT, "shared")),
    statSync(path.join(ROOT, "vite.config.ts")).mtimeMs,
  );
  // vitest sets NODE_ENV=test, which would bundle React's development build: slower, and
  // not what users get. The e2e tests (frame timings included) run the production bundle;
  // HORU_E2E_DEV=1 builds the development one instead, whose React warnings (an uncached
  // selector, a render loop) then fail e2e/ui.test.ts through its console check.
  const mode = process.env.HORU_E2E_DEV ? "development" : "production";
  const stamp = path.join(OUT, `.${mode}`);
  if (existsSync(index) && existsSync(stamp) && statSync(index).mtimeMs >= sources) return;
  const { build } = await import("vite");
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = mode;
  try {
    await build({ configFile: path.join(ROOT, "vite.config.ts"), root: path.join(ROOT, "renderer"), mode, logLevel: "warn" });
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
  writeFileSync(stamp, `the renderer bundle here was built in ${mode} mode by e2e/harness.ts\n`);
}

export interface Horu {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** A running `horu` process with everything it printed and a stop that waits for its exit. */
export interface HoruProcess {
  proc: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Spawns `horu COMMAND [args...]` from the checkout, collecting stdout and stderr together. */
export function spawnHoru(command: string, args: string[], env: NodeJS.ProcessEnv = {}, killAfterMs = 10_000): HoruProcess {
  const proc = spawn(process.execPath, [path.join(ROOT, "bin", "horu.js"), command, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  return {
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), killAfterMs);
      await exited;
      clearTimeout(t);
    },
  };
}

/**
 * Give it in `args` when a test has the page name files or folders on this machine (a match
 * folder, a book by path to import): over HTTP the server refuses those without it.
 */
export const ALLOW_SERVER_PATHS = "--allow-server-paths";

/**
 * Starts `horu web --port 0 --allow-root [args...]` and waits for its URL line (which comes once a
 * --book has opened). CI runs as root, which `horu web` refuses unless told: --allow-root. A
 * `--port N` in args replaces the 0 (a restart on the same address).
 */
export async function startHoru(env: NodeJS.ProcessEnv = {}, args: string[] = [], timeoutMs = 30_000): Promise<Horu> {
  // A private HOME means a private config folder (engine library, recent books) and documents folder too.
  const own = env.HOME
    ? { HORU_CONFIG_DIR: path.join(env.HOME, ".config", "horu"), HORU_DOCUMENTS_DIR: path.join(env.HOME, "Documents") }
    : {};
  const web = spawnHoru("web", [...(args.includes("--port") ? [] : ["--port", "0"]), "--allow-root", ...args], { ...own, ...env });
  const { proc } = web;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`horu web printed no URL in ${timeoutMs / 1000} s:\n${web.output()}`)), timeoutMs);
    const check = () => {
      const m = /horu web: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(web.output());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on("data", check);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`horu web exited (${code}):\n${web.output()}`));
    });
  });
  return { url, ...web };
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
  // The UI opens in the browser's language: pages and contexts are Japanese unless a test asks
  // for another locale, as the tests were written for (they switch to English with "lang").
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (o = {}) => newContext({ locale: "ja-JP", ...o });
  browser.newPage = (o = {}) => newPage({ locale: "ja-JP", ...o });
  return browser;
}
