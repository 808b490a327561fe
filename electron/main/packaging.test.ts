// The electron-builder configuration (package.json "build") checked against its own schema,
// and against what the app needs at run time, without packaging anything (no network here).
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "../testing/paths.js";

const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8"));

describe("packaging", () => {
  it("is a valid electron-builder configuration", async () => {
    const require = createRequire(path.join(REPO, "package.json"));
    const { validateConfiguration } = require("app-builder-lib/out/util/config/config.js") as {
      validateConfiguration(c: unknown, log: unknown): Promise<void>;
    };
    await expect(validateConfiguration(pkg.build, { add() {}, isEnabled: false })).resolves.toBeUndefined();
  });

  it("ships the bundles and an Electron build of better-sqlite3 outside the asar", () => {
    const b = pkg.build;
    expect(b.appId).toBe("dev.horu.app");
    expect(pkg.main).toBe("dist/electron-main.cjs");
    expect(b.files).toContain("dist/**");
    expect(b.asarUnpack).toContain("node_modules/better-sqlite3/**");
    expect(b.npmRebuild).toBe(true);
    expect(b.linux.target).toEqual(["AppImage", "deb"]);
    expect(b.win.target).toEqual(["nsis"]);
    expect(b.mac.target).toEqual(["dmg"]);
    // The global setup ran scripts/build-node.mjs: every file the app loads is there.
    for (const file of ["electron-main.cjs", "preload.cjs", "host-worker.cjs"])
      expect(existsSync(path.join(REPO, "dist", file)), file).toBe(true);
    expect(pkg.scripts.dist).toBe("npm run build && electron-builder");
  });

  it("ships the built-in engine as a separate program outside the asar, with its licence", () => {
    const b = pkg.build;
    // Worker threads and a child process cannot start from inside an asar archive.
    expect(b.asarUnpack).toContain("node_modules/fairy-stockfish-nnue.wasm/**");
    expect(b.asarUnpack).toContain("dist/engines/**");
    expect(pkg.dependencies["fairy-stockfish-nnue.wasm"]).toBeDefined();
    expect(b.files.some((f: string) => f.startsWith("!node_modules/") && f.includes("fairy-stockfish"))).toBe(false);
    expect(existsSync(path.join(REPO, "dist", "engines", "fairy-stockfish.cjs"))).toBe(true);
    expect(readFileSync(path.join(REPO, "node_modules", "fairy-stockfish-nnue.wasm", "Copying.txt"), "utf8")).toContain(
      "GNU GENERAL PUBLIC LICENSE",
    );
    // The runner loads the engine at run time; the bundle must not contain the engine's code.
    expect(readFileSync(path.join(REPO, "dist", "engines", "fairy-stockfish.cjs"), "utf8")).not.toContain("instantiateWasm");
  });
});
