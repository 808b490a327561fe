// kill -9 of `horu match` right after games were reported: every game it printed is in the
// results file, and running the same command again finishes the match with each game once.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { HORU, FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { readResults } from "./runner.js";
import { missing } from "../testing/missing.js";

function match(
  args: string[],
  killAfterGames: number | null,
): Promise<{ printed: number[]; code: number | null; signal: string | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HORU, "match", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const printed: number[] = [];
    let out = "",
      err = "",
      buf = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const m = /^game (\d+) /.exec(line);
        if (m) {
          printed.push(Number(m[1]) - 1);
          if (killAfterGames !== null && printed.length >= killAfterGames) child.kill("SIGKILL");
        }
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ printed, code, signal, out, err }));
  });
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`kill -9 during horu match (${NO_ENGINE})`, () => {
  it("keeps every reported game and resumes to a complete match", { timeout: 180_000 }, async () => {
    const dir = path.join(tempDir(), "m");
    const args = [
      "--out",
      dir,
      "--engine",
      FAIRY,
      "--option",
      "Threads=1",
      "--option",
      "USI_Hash=16",
      "--nodes",
      "300",
      "--games",
      "8",
      "--max-moves",
      "40",
      "--concurrency",
      "2",
      "--record",
      "kif",
    ];
    const reported = new Set<number>();
    let kills = 0;
    for (const after of [1, 2]) {
      const run = await match(kills === 0 ? args : ["--out", dir], after);
      if (run.signal === "SIGKILL") kills++;
      for (const g of run.printed) reported.add(g);
      const stored = new Set(readResults(dir).map((r) => r.game));
      for (const g of reported) expect(stored.has(g), `game ${g} was reported but is not stored`).toBe(true);
    }
    expect(kills).toBe(2);
    const last = await match(["--out", dir], null);
    expect(last.code, last.err).toBe(0);
    expect(last.err).toMatch(/resuming the match/);
    expect(last.out).toMatch(/8 games/);
    expect(last.out).toMatch(/distinct: +\d+ of 8 games, \d+ of 4 pairs/);
    expect(last.out).toMatch(/Elo \(95%\): +\S+ \(no interval: too few distinct pairs \([1-4] < 10\)\) from [1-4] distinct game pairs/);
    const rows = readResults(dir);
    expect(rows.map((r) => r.game).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const r of rows) expect(existsSync(path.join(dir, r.record))).toBe(true);
    // Options with an existing match folder are refused rather than silently mixed in.
    const refused = await match(["--out", dir, "--nodes", "5"], null);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/already holds a match/);
  });
});
