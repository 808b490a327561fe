// The electron-builder configuration (package.json "build") checked against its own schema,
// and against what the app needs at run time, without packaging anything (no network here).
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "../testing/paths.js";
import { BUILTIN_ENGINES, builtinSpec, engineFromArgv } from "../engines/builtin.js";

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

  it("sets Electron's fuses: no node mode, no NODE_OPTIONS or inspector flags, the app only from its checked asar, encrypted cookies", () => {
    // electron-builder 26 flips them in the packaged binary (electronFuses); the schema check above validates the names.
    expect(pkg.build.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      // The page comes from app://horu/ (app-protocol.ts): file:// needs no extra rights.
      grantFileProtocolExtraPrivileges: false,
    });
    expect(pkg.build.asar).toBe(true);
  });

  it("starts a built-in engine in the packaged app without node mode (the RunAsNode fuse is off)", () => {
    const b = BUILTIN_ENGINES[0]!;
    const packaged = builtinSpec(b, {}, "packaged");
    expect(packaged.command).toBe(process.execPath);
    expect(packaged.args).toEqual([`--horu-engine=${b.id}`]);
    expect(packaged.env?.ELECTRON_RUN_AS_NODE).toBeUndefined();
    // main.ts runs only horu's own runners: an id it knows, never a path from the command line.
    expect(engineFromArgv(["/opt/horu/horu", `--horu-engine=${b.id}`])?.id).toBe(b.id);
    expect(engineFromArgv(["/opt/horu/horu", "--horu-engine=/tmp/evil.js"])).toBeNull();
    expect(engineFromArgv(["/opt/horu/horu"])).toBeNull();
    // From a checkout (npm start) Electron's binary has no fuses set: node mode as before.
    expect(builtinSpec(b, {}, "electron")).toMatchObject({
      args: [expect.stringMatching(/fairy-stockfish\.cjs$/)],
      env: { ELECTRON_RUN_AS_NODE: "1" },
    });
    expect(builtinSpec(b, {}, "node").env).toBeUndefined();
  });

  it("the page's meta CSP lets it connect to its own origin only (web mode: its calls and events)", () => {
    const html = readFileSync(path.join(REPO, "renderer", "index.html"), "utf8");
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? "";
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).not.toMatch(/ws:|wss:|\*/);
  });
});
