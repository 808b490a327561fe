// Bundles child.ts into a plain .cjs that node runs without a TypeScript loader.
// better-sqlite3 stays external (native addon); NODE_PATH points the child at ours.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = resolve(here, "../../../node_modules");

export async function buildChild(outDir: string): Promise<string> {
  const outfile = join(outDir, "store-child.cjs");
  await build({
    entryPoints: [join(here, "child.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["better-sqlite3"],
    logLevel: "warning",
  });
  return outfile;
}

export function spawnChild(script: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [script, ...args], {
    env: { ...process.env, NODE_PATH: nodeModules },
    stdio: ["pipe", "pipe", "pipe"],
  });
}
