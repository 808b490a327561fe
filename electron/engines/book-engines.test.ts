// A book file can come from anyone: the engines its `engines` table names (from
// before the engine library) are never added to the library, enabled or run on the book's
// say. The host lists them for the UI to ask about; `horu dig` says how to add them.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { HostService } from "../host/service.js";
import { parseCall, type Method } from "../../shared/api/contract.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";
import { EngineLibrary, engineAddCommand } from "./library.js";
import { parseCommandLine } from "./argv.js";

/** A book whose engines table holds a command that leaves a mark when run (then starts a real engine). */
function craftedBook(dir: string): { file: string; mark: string } {
  const file = path.join(dir, "crafted.horu");
  const mark = path.join(dir, "it ran");
  const book = OpenBook.create(file, { limit: { nodes: 1000 }, multipv: 2 });
  book.store.engines.add({
    name: "Looks Harmless",
    command: "/bin/sh",
    args: ["-c", `touch '${mark}'; exec ${FAIRY}`],
    cwd: null,
    options: { Threads: 1 },
    enabled: true,
  });
  book.close();
  return { file, mark };
}

async function call<M extends Method>(s: HostService, method: M, args: unknown) {
  return s.call(method, parseCall(method, args).args as never);
}

describe("a book's own engines", () => {
  it("the host opens the book without adding its engines, and lists them with their command lines", async () => {
    const dir = tempDir();
    const { file } = craftedBook(dir);
    const s = new HostService({ recentFile: path.join(dir, "recent.json"), configDir: dir });
    await call(s, "book.open", { path: file });
    expect(await call(s, "engines.list", {})).toEqual([]);
    expect(existsSync(path.join(dir, "engines.json"))).toBe(false);
    const listed = await call(s, "engines.ofBook", {});
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: "Looks Harmless", cwd: null, options: { Threads: 1 } });
    // The command line shown is exactly what would run, and reads back the same.
    expect(parseCommandLine(listed[0]!.commandLine)).toEqual(["/bin/sh", "-c", expect.stringContaining("touch")]);
    expect(listed[0]!.addCommand).toMatch(/^horu engines add '\/bin\/sh -c /);
    // Once the user adds it (what the dialog's button does), it is no longer asked about.
    await call(s, "engines.add", { name: listed[0]!.name, commandLine: listed[0]!.commandLine, options: listed[0]!.options });
    expect(await call(s, "engines.ofBook", {})).toEqual([]);
    await call(s, "book.close", {});
    expect(await call(s, "engines.ofBook", {})).toEqual([]);
  });

  it("the printed `horu engines add` command reads back as the same engine", () => {
    const e = {
      name: "it's",
      command: "/opt/my engine",
      args: ["--x", 'a"b\\c', ""],
      cwd: "/opt/a b",
      options: { Hash: 64 },
      enabled: true,
    };
    const cmd = engineAddCommand(e);
    // The shell's reading of it: each word, NUL-separated.
    const words = spawnSync("/bin/sh", ["-c", `set -- ${cmd}; for w in "$@"; do printf '%s\\0' "$w"; done`], { encoding: "utf8" })
      .stdout.split("\0")
      .slice(0, -1);
    expect(words.slice(0, 3)).toEqual(["horu", "engines", "add"]);
    expect(parseCommandLine(words[3]!)).toEqual(["/opt/my engine", "--x", 'a"b\\c', ""]);
    expect(words.slice(4)).toEqual(["--name", "it's", "--cwd", "/opt/a b", "--option", "Hash=64"]);
  });

  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    `horu dig never runs the book's engine, and says how to add it (${NO_ENGINE})`,
    { timeout: 90_000 },
    () => {
      const dir = tempDir();
      const { file, mark } = craftedBook(dir);
      const config = path.join(dir, "config");
      const r = spawnSync(process.execPath, [HORU, "dig", "--book", file, "--positions", "1"], {
        encoding: "utf8",
        env: { ...process.env, HORU_CONFIG_DIR: config },
        timeout: 80_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(mark), "the book's engine command ran").toBe(false);
      expect(r.stderr).toMatch(/the book names 1 engine\(s\) not in your engine library/);
      expect(r.stderr).toContain(`horu engines add '/bin/sh -c "touch`);
      // It dug with an engine of this machine's own choosing, and the library is as it was (none).
      expect(r.stdout).toMatch(/positions thought: 1/);
      expect(new EngineLibrary(config).list()).toEqual([]);
      expect(existsSync(path.join(config, "engines.json")) ? readFileSync(path.join(config, "engines.json"), "utf8") : "").not.toContain(
        "sh",
      );
    },
  );
});
