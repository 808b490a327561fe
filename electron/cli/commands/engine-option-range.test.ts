// An engine option value the engine does not take (Threads -5, Hash 999999, a combo value it
// does not list): the engine ignores it without a word, so `horu engines add` used to save it
// and `horu dig --option` to dig with the engine's default. The command line now refuses it,
// naming the engine, the option, the value and what the engine takes (its `usi` handshake's
// range), before anything is saved and before a dig or a match starts.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../../store/book-store.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../../testing/paths.js";
import { missing } from "../../testing/missing.js";

function horu(args: string[], config: string) {
  const r = spawnSync(process.execPath, [HORU, ...args], {
    env: { ...process.env, HORU_CONFIG_DIR: config },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(missing(haveFairy, FAIRY))(`engine option values out of the engine's range (${NO_ENGINE})`, () => {
  it("horu engines add refuses them with the range, and saves nothing", { timeout: 60_000 }, () => {
    const config = path.join(tempDir(), "config");
    const cases: Array<[string, RegExp]> = [
      ["Threads=-5", /engine fairy-stockfish: option Threads cannot be -5: it takes a whole number from 1 to 512/],
      ["USI_Hash=999999", /option USI_Hash \(the engine's Hash\) cannot be 999999: it takes a whole number from 1 to 131072/],
      ["Analysis Contempt=Sideways", /option Analysis Contempt cannot be "Sideways": it takes one of Both, Off, White, Black/],
      ["Ponder=3", /option Ponder cannot be 3: it takes true or false/],
    ];
    for (const [option, said] of cases) {
      const r = horu(["engines", "add", FAIRY, "--option", option], config);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(said);
      // Not taken for an engine that does not run.
      expect(r.stderr).not.toMatch(/not a working USI engine/);
      expect(existsSync(path.join(config, "engines.json"))).toBe(false);
    }
    // Values it takes (a combo in any case, as the engine compares them) are added.
    const ok = horu(["engines", "add", FAIRY, "--option", "Threads=1", "--option", "Analysis Contempt=off", "--json"], config);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(config, "engines.json"), "utf8")).engines[0].options).toEqual({
      Threads: 1,
      "Analysis Contempt": "off",
    });
    // horu engines test with --option says the same.
    const test = horu(["engines", "test", FAIRY, "--option", "Hash=0"], config);
    expect(test.code).toBe(1);
    expect(test.stderr).toMatch(/option Hash cannot be 0: it takes a whole number from 1 to 131072/);
  });

  it("horu dig refuses them before the dig starts: the book's settings unchanged, a new book not left", { timeout: 120_000 }, () => {
    const dir = tempDir();
    const config = path.join(dir, "config");
    const book = path.join(dir, "b.horu");
    const first = horu(
      ["dig", "--book", book, "--engine", FAIRY, "--engines", "1", "--option", "Threads=1", "--nodes", "500", "--positions", "1"],
      config,
    );
    expect(first.code, first.stderr).toBe(0);

    const r = horu(
      ["dig", "--book", book, "--engine", FAIRY, "--engines", "1", "--option", "Hash=999999", "--nodes", "5000", "--positions", "1"],
      config,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/engine fairy-stockfish: option Hash cannot be 999999: it takes a whole number from 1 to 131072/);
    expect(r.stderr).not.toMatch(/thought/);
    const store = BookStore.open(book, { readonly: true });
    try {
      expect(store.settings.get("limit")).toEqual({ nodes: 500 });
    } finally {
      store.close();
    }

    // A library engine saved without its test (--no-test) is refused by the dig that would use it.
    const saved = horu(["engines", "add", FAIRY, "--no-test", "--option", "Threads=-5"], config);
    expect(saved.code, saved.stderr).toBe(0);
    const fresh = path.join(dir, "new.horu");
    const d = horu(["dig", "--book", fresh, "--nodes", "500", "--positions", "1"], config);
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/option Threads cannot be -5: it takes a whole number from 1 to 512/);
    expect(existsSync(fresh)).toBe(false);
  });

  it(
    "horu dig: a second engine that does not run now is said, not refused (the dig keeps trying it, as before)",
    { timeout: 120_000 },
    () => {
      const dir = tempDir();
      const down = path.join(dir, "down.sh");
      writeFileSync(down, "#!/bin/sh\n# an engine on a host that is down now\nexit 3\n");
      chmodSync(down, 0o755);
      const r = horu(
        [
          "dig",
          "--book",
          path.join(dir, "b.horu"),
          "--engine",
          FAIRY,
          "--engine",
          down,
          "--engines",
          "1",
          "--option",
          "Threads=1",
          "--nodes",
          "500",
          "--positions",
          "2",
        ],
        path.join(dir, "config"),
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /warning: down\.sh: engine process ended \(exit code 3\) before finishing the USI handshake \(no usiok\) \(the dig tries it again while it digs\)/,
      );
      expect(r.stderr).toMatch(/stopped: 2 thought/);
    },
  );

  it("horu match refuses them before the match folder is written", { timeout: 60_000 }, () => {
    const dir = tempDir();
    const out = path.join(dir, "m");
    const r = horu(
      ["match", "--out", out, "--engine", FAIRY, "--option1", "Threads=-5", "--games", "2", "--nodes", "500"],
      path.join(dir, "config"),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/engine 1:fairy-stockfish: option Threads cannot be -5: it takes a whole number from 1 to 512/);
    expect(existsSync(path.join(out, "match.json"))).toBe(false);
  });
});
