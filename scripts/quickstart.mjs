// `npm run quickstart [-- horu dig options]`: a newcomer's first run on any OS, with no apt
// and no root. Installs the dependencies when they are missing, builds everything `horu web`
// and `npm start` need, then digs book.horu (or $HORU_BOOK) from the initial position with
// the best engine this machine has: the engine library's, else a native engine found on PATH
// or in the usual places, else the built-in Fairy-Stockfish; `horu dig` says which and why.
// Ctrl-C stops cleanly (exit 0, the running thinks stored or put back). With
// HORU_QUICKSTART_BUILT=1 it skips the install and build steps. Only Node's own modules here: this runs before node_modules exists.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const say = (line) => process.stderr.write(`quickstart: ${line}\n`);

function run(command, args, extraEnv = {}) {
  const r = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...extraEnv },
    shell: process.platform === "win32" && command === npm,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    say(`\`${[command, ...args].join(" ")}\` failed (exit code ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

// HORU_QUICKSTART_BUILT=1: the dependencies are installed and dist/ is built (tests, CI): dig at once.
const built = process.env.HORU_QUICKSTART_BUILT === "1";
if (
  !built &&
  (!existsSync(path.join(root, "node_modules", "better-sqlite3")) ||
    !existsSync(path.join(root, "node_modules", "fairy-stockfish-nnue.wasm")))
) {
  say("installing the dependencies (npm ci)");
  // Electron's binary (the desktop app) comes from GitHub, not from npm: fetched on its own
  // below, so a machine that reaches only the npm registry still digs and serves horu web.
  run(npm, ["ci", "--no-audit", "--no-fund"], { ELECTRON_SKIP_BINARY_DOWNLOAD: "1" });
  if (!process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    say("downloading Electron's binary for the desktop app (npm start)");
    const e = spawnSync(process.execPath, [path.join(root, "node_modules", "electron", "install.js")], { cwd: root, encoding: "utf8" });
    if (e.status !== 0) {
      const why = /(ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN)[^\n]*/.exec(`${e.stderr}${e.stdout}`)?.[0] ?? `exit code ${e.status}`;
      say(
        `could not download it (${why}): digging and \`horu web\` do not need it; for the desktop app later: node node_modules/electron/install.js`,
      );
    }
  }
}
if (!built) {
  say("building the command line, the desktop app's bundles and the UI (npm run build)");
  run(npm, ["run", "--silent", "build"]);
}

const book = process.env.HORU_BOOK ?? "book.horu";
say(`digging ${book}; the engine and why it was chosen follow`);
const dig = spawn(process.execPath, [path.join(root, "bin", "horu.js"), "dig", "--book", book, ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
// Ctrl-C at a terminal reaches horu dig directly (same process group), which finishes the
// running thinks, stores them and exits; a signal sent to this script alone (a process
// manager, npm passing it on) is passed on. horu takes the same Ctrl-C arriving twice
// within half a second as one.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (dig.exitCode === null && dig.signalCode === null) dig.kill(signal);
  });
}
dig.on("error", (e) => {
  say(`cannot start horu dig: ${e.message}`);
  process.exit(1);
});
dig.on("exit", (code, signal) => {
  if (code === 0) say(`done. Watch and browse the book: npm run horu -- web --book ${book}   (or npm start for the desktop app)`);
  if (signal) {
    // Ended by a signal: end the same way, so whoever started us sees it.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
