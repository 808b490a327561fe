// The engine library file, engine detection and the choice a dig makes without --engine.
import { describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EngineLibrary, LibraryError } from "./library.js";
import { detectEngines } from "./detect.js";
import { chooseEngines, specFromConfig } from "./choose.js";
import { BUILTIN_ENGINES } from "./builtin.js";
import { configDir } from "./places.js";
import { tempDir } from "../testing/paths.js";

const engine = (name: string, command = `/opt/${name}`) => ({ name, command, args: [], cwd: null, options: { Threads: 1 }, enabled: true });
/** An environment that finds nothing: no PATH, no usual places. */
const bare = (dir: string): NodeJS.ProcessEnv => ({ PATH: "", HORU_ENGINE_DIRS: "", HOME: dir });

describe("the engine library", () => {
  it("adds, finds, updates and removes engines, and keeps them in one JSON file", () => {
    const dir = tempDir();
    const lib = new EngineLibrary(dir);
    expect(lib.list()).toEqual([]);
    const a = lib.add(engine("a"));
    const b = lib.add({ ...engine("b", "ssh"), args: ["host", "/opt/YaneuraOu"] });
    expect([a.id, b.id]).toEqual([1, 2]);
    expect(lib.add(engine("a")).id).toBe(1); // the same engine again: nothing new
    expect(() => lib.add({ ...engine("a"), options: { Threads: 4 } })).toThrow(/already in the library as 'a'/);
    expect(lib.find("2")?.name).toBe("b");
    expect(lib.find("B")?.id).toBe(2);
    lib.update({ ...a, enabled: false });
    expect(new EngineLibrary(dir).get(1)?.enabled).toBe(false);
    lib.remove(1);
    expect(lib.list().map((e) => e.name)).toEqual(["b"]);
    expect(lib.add(engine("c")).id).toBe(3);
    const file = JSON.parse(readFileSync(path.join(dir, "engines.json"), "utf8"));
    expect(file).toMatchObject({ format: "horu-engines", version: 1 });
    expect(file.engines).toHaveLength(2);
  });

  it("reports a damaged file with its line and never rewrites it", () => {
    const dir = tempDir();
    const file = path.join(dir, "engines.json");
    const text = '{\n  "format": "horu-engines",\n  "version": 1,\n  "engines": [ { "id": 1, }\n]}\n';
    writeFileSync(file, text);
    const lib = new EngineLibrary(dir);
    expect(lib.load().problem).toMatch(/engines\.json at line 4: not a valid engine library/);
    expect(() => lib.add(engine("x"))).toThrow(LibraryError);
    expect(() => lib.remove(1)).toThrow(/at line 4/);
    expect(lib.notInLibrary([engine("y")]).map((e) => e.name)).toEqual(["y"]);
    expect(readFileSync(file, "utf8")).toBe(text);
    // A well-formed file with a bad entry names the entry and the field.
    writeFileSync(
      file,
      JSON.stringify({ format: "horu-engines", version: 1, engines: [engine("ok") && { ...engine("ok"), id: 1 }, { id: 2, name: "bad" }] }),
    );
    expect(lib.load().problem).toMatch(/engine 2 field command/);
  });

  it("leaves a library from a newer horu untouched", () => {
    const dir = tempDir();
    const file = path.join(dir, "engines.json");
    const text = JSON.stringify({ format: "horu-engines", version: 2, engines: [{ id: 1, name: "future", anything: true }] });
    writeFileSync(file, text);
    const lib = new EngineLibrary(dir);
    expect(lib.load().problem).toMatch(/written by a newer horu \(library version 2; this horu reads version 1\)/);
    expect(() => lib.add(engine("x"))).toThrow(/newer horu/);
    expect(readFileSync(file, "utf8")).toBe(text);
    // A dig still finds an engine: the problem is a warning, detection and the built-in one go on.
    const choice = chooseEngines({ library: lib, env: bare(dir) });
    expect(choice.source).toBe("builtin");
    expect(choice.warnings[0]).toMatch(/newer horu/);
  });

  it("never takes a book's engines in: it lists those not in the library, and writes nothing", () => {
    const dir = tempDir();
    const lib = new EngineLibrary(dir);
    lib.add(engine("a"));
    const before = readFileSync(path.join(dir, "engines.json"), "utf8");
    // Same command, args and folder as a library engine: known, whatever the book calls it.
    const fromBook = [
      { ...engine("a"), name: "renamed" },
      engine("b"),
      { ...engine("sh", "/bin/sh"), args: ["-c", "touch /tmp/x"] },
      engine("b"),
    ];
    expect(lib.notInLibrary(fromBook).map((e) => e.name)).toEqual(["b", "sh"]);
    expect(readFileSync(path.join(dir, "engines.json"), "utf8")).toBe(before);
    expect(lib.list().map((e) => e.name)).toEqual(["a"]);
  });

  it("lives in the platform's config folder, or $HORU_CONFIG_DIR", () => {
    expect(configDir({ HORU_CONFIG_DIR: "/x/y" })).toBe(path.resolve("/x/y"));
    expect(configDir({ HOME: "/home/u" }, "linux")).toBe("/home/u/.config/horu");
    expect(configDir({ HOME: "/home/u", XDG_CONFIG_HOME: "/cfg" }, "linux")).toBe("/cfg/horu");
    expect(configDir({ HOME: "/Users/u" }, "darwin")).toBe("/Users/u/Library/Application Support/horu");
    expect(configDir({ HOME: "C:\\Users\\u", APPDATA: "/appdata" }, "win32")).toBe(path.join("/appdata", "horu"));
  });
});

describe("engine detection and the dig's choice", () => {
  it("finds YaneuraOu builds, fairy-stockfish and gpsusi by name, best kind first, executables only", () => {
    const dir = tempDir();
    const bin = path.join(dir, "bin"),
      games = path.join(dir, "games"),
      yane = path.join(dir, "engines", "YaneuraOu-v8");
    for (const d of [bin, games, yane]) mkdirSync(d, { recursive: true });
    const exe = (file: string) => {
      writeFileSync(file, "#!/bin/sh\n");
      chmodSync(file, 0o755);
    };
    exe(path.join(games, "gpsusi"));
    exe(path.join(bin, "fairy-stockfish"));
    exe(path.join(yane, "YaneuraOu_NNUE-avx2"));
    writeFileSync(path.join(bin, "YaneuraOu-not-executable"), "");
    const found = detectEngines(
      { PATH: bin, HORU_ENGINE_DIRS: [games, path.join(dir, "engines")].join(path.delimiter), HOME: dir },
      "linux",
    );
    expect(found.map((f) => [f.kind, f.where])).toEqual([
      ["yaneuraou", `in ${path.join(dir, "engines")}`],
      ["fairy-stockfish", "on PATH"],
      ["gpsusi", `in ${games}`],
    ]);
    expect(found[0]!.cwd).toBe(yane);
    expect(found[2]!.timeOnly).toBe(true);

    // No library: the best detected engine, and why.
    const lib = new EngineLibrary(dir);
    const env = { PATH: bin, HORU_ENGINE_DIRS: games, HOME: dir };
    expect(chooseEngines({ library: lib, env, limit: { nodes: 1000 } })).toMatchObject({
      source: "detected",
      configs: [{ command: path.join(bin, "fairy-stockfish") }],
    });
    // Only gpsusi (time only) with a node limit: the built-in engine, saying why.
    const onlyGps = chooseEngines({ library: lib, env: { PATH: "", HORU_ENGINE_DIRS: games, HOME: dir }, limit: { nodes: 1000 } });
    expect(onlyGps.source).toBe("builtin");
    expect(onlyGps.why).toMatch(/searches by time only/);
    expect(chooseEngines({ library: lib, env: { PATH: "", HORU_ENGINE_DIRS: games, HOME: dir }, limit: { movetimeMs: 500 } }).source).toBe(
      "detected",
    );
    // The library's enabled engines come first.
    lib.add(engine("mine", "/opt/mine"));
    expect(chooseEngines({ library: lib, env }).configs.map((c) => c.name)).toEqual(["mine"]);
  });

  it("starts a built-in engine with this Node running its runner, and refuses missing programs", () => {
    const b = BUILTIN_ENGINES[0]!;
    const spec = specFromConfig({ name: "", command: `builtin:${b.id}`, args: [], cwd: null, options: { USI_Hash: 16 }, enabled: true });
    expect(spec.command).toBe(process.execPath);
    expect(spec.args?.[0]).toMatch(/dist[\\/]engines[\\/]fairy-stockfish\.cjs$/);
    expect(spec.name).toBe(b.name);
    expect(spec.options).toMatchObject({ Threads: 1, USI_Hash: 16 });
    expect(() => specFromConfig({ ...engine("x"), command: "builtin:nope" })).toThrow(/no built-in engine 'builtin:nope'/);
    expect(() => specFromConfig(engine("x", "/no/such/engine"))).toThrow(/engine not found: \/no\/such\/engine does not exist/);
  });
});
