// The built-in engine's runner (bundled as dist/engines/fairy-stockfish.cjs): a separate
// program that loads the fairy-stockfish-nnue.wasm package (GPL-3.0) and speaks USI on
// stdin/stdout. horu starts it as a child process (node, or Electron's own executable with
// ELECTRON_RUN_AS_NODE=1) and talks to it like to any other engine, so horu's own code is
// never linked with the engine's.
//
// The package's loader fetches the .wasm as a URL whenever a global `fetch` exists, which
// Node 18+ has and which cannot read files; handing the loader the binary (`wasmBinary`)
// makes it instantiate from memory instead, with the package left as it is.
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

interface StockfishModule {
  postMessage(command: string): void;
  addMessageListener(listener: (line: string) => void): void;
}
type StockfishFactory = (module: {
  wasmBinary: Uint8Array;
  locateFile(file: string): string;
  print?(line: string): void;
  printErr?(line: string): void;
}) => Promise<StockfishModule>;

/** The package folder; inside a packaged app, its unpacked copy (worker threads cannot start from an asar archive). */
function packageDir(): string {
  const dir = path.dirname(require.resolve("fairy-stockfish-nnue.wasm/stockfish.js"));
  const unpacked = dir.replace(/([\\/])app\.asar([\\/])/, "$1app.asar.unpacked$2");
  return unpacked !== dir && existsSync(unpacked) ? unpacked : dir;
}

async function main(): Promise<void> {
  const dir = packageDir();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Stockfish = require(path.join(dir, "stockfish.js")) as StockfishFactory;
  const engine = await Stockfish({
    wasmBinary: readFileSync(path.join(dir, "stockfish.wasm")),
    locateFile: (file) => path.join(dir, file),
  });
  engine.addMessageListener((line) => process.stdout.write(line + "\n"));
  const input = createInterface({ input: process.stdin });
  for await (const line of input) {
    const command = line.trim();
    if (command === "quit") break;
    engine.postMessage(command);
  }
  // stdin closed (horu went away) or `quit`: the engine's threads would keep us alive.
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`fairy-stockfish (built in): ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
