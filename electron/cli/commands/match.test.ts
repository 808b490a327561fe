// `horu match` takes the built-in engines as `horu dig` does ("builtin", "builtin:<id>"), so
// a match can be played on a machine with no engine installed.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { importCSA } from "tsshogi";
import { HORU, tempDir } from "../../testing/paths.js";

const horu = (...args: string[]) => spawnSync(process.execPath, [HORU, ...args], { encoding: "utf8", timeout: 240_000 });

describe("horu match with the built-in engines", () => {
  it("plays a short match: the built-in Fairy-Stockfish against horu's own engine, every game stored", { timeout: 300_000 }, () => {
    const dir = path.join(tempDir(), "m");
    const r = horu("match", "--out", dir, "--engine1", "builtin", "--engine2", "builtin:horu", "--games", "2", "--nodes", "300");
    const ran = `exit ${r.status}\n${r.stdout}\n${r.stderr}`;
    expect(r.status, ran).toBe(0);
    const summary = JSON.parse(horuJsonLast(horu("match", "--out", dir, "--json")).trim());
    expect(summary).toMatchObject({ planned: 2, played: 2, players: ["1:builtin", "2:builtin:horu"] });
    const rows = readFileSync(path.join(dir, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => x.black)).toEqual([0, 1]);
    for (const row of rows) {
      const record = importCSA(readFileSync(path.join(dir, row.record), "utf8"));
      if (record instanceof Error) throw record;
      // Both engines moved: the record holds the game's plies, each a legal move (tsshogi checks).
      expect(row.plies).toBeGreaterThan(1);
      expect(record.moves.length - 1).toBeGreaterThanOrEqual(row.plies);
    }
  });

  it("names the built-in engines when one is unknown", () => {
    const r = horu("match", "--out", path.join(tempDir(), "m"), "--engine", "builtin:nope", "--games", "2");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/no built-in engine 'builtin:nope' \(there are: builtin:fairy-stockfish, builtin:horu\)/);
  });
});

/** The last line of a finished command's standard output (the --json object). */
function horuJsonLast(r: ReturnType<typeof horu>): string {
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return r.stdout.trim().split("\n").pop()!;
}
