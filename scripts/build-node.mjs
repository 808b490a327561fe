// Bundles the Node-side entry points (CLI, Electron main, preload, the host, engine, export, seed, settle and peta workers) with esbuild.
// better-sqlite3 and electron stay external: one is a native addon, the other is the host.
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  external: ["better-sqlite3", "electron"],
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    entryPoints: { horu: "electron/cli/main.ts", "horu-peta": "electron/cli/peta-main.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
  }),
  build({ ...common, entryPoints: { "host-worker": "electron/host/worker-host.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" } }),
  build({
    ...common,
    entryPoints: { "engine-worker": "electron/engines/horu/worker.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
  }),
  build({
    ...common,
    entryPoints: { "export-worker": "electron/export/export-worker.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
  }),
  build({ ...common, entryPoints: { "seed-worker": "electron/book/seed-worker.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" } }),
  build({ ...common, entryPoints: { "settle-worker": "electron/book/settle-worker.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" } }),
  build({ ...common, entryPoints: { "peta-worker": "electron/export/peta/worker.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" } }),
  build({
    ...common,
    entryPoints: { "electron-main": "electron/main/main.ts", preload: "electron/main/preload.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
  }),
  // Built-in engines' runners (electron/engines/builtin.ts): separate programs horu starts as
  // child processes. The engine packages stay external: they are loaded at run time from
  // node_modules, never bundled into horu's code.
  build({
    ...common,
    entryPoints: { "fairy-stockfish": "electron/engines/runners/fairy-stockfish.ts" },
    outdir: "dist/engines",
    outExtension: { ".js": ".cjs" },
    external: [...common.external, "fairy-stockfish-nnue.wasm", "fairy-stockfish-nnue.wasm/*"],
  }),
  // horu's own engine as a built-in one: its runner and its search threads' bundle side by side.
  build({
    ...common,
    entryPoints: { horu: "electron/engines/runners/horu.ts", "engine-worker": "electron/engines/horu/worker.ts" },
    outdir: "dist/engines",
    outExtension: { ".js": ".cjs" },
  }),
]);
