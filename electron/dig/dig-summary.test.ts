// `horu dig --time` as a user runs it: its summary says how long the engines waited for a
// position (the feed's cost to them), over the whole dig and over its second half, in words
// and in --json, with fairy-stockfish.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`horu dig's summary (${NO_ENGINE})`, () => {
  it("says the engines' busy share and how long they waited for a position, whole and in the second half", { timeout: 120_000 }, () => {
    const book = path.join(tempDir(), "summary.horu");
    const out = execFileSync(
      process.execPath,
      [HORU, "dig", "--book", book, "--engine", FAIRY, "--engines", "2", "--nodes", "2000", "--multipv", "auto", "--time", "4", "--json"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(out).toMatch(/^wall time: [\d.]+ s; engine busy share [\d.]+%, waiting for a position [\d.]+%$/m);
    expect(out).toMatch(/^second half \([\d.]+ s\): .+; engines waiting for a position [\d.]+% of their time$/m);
    const summary = JSON.parse(out.trim().split("\n").at(-1)!) as {
      waitingShare: number;
      busyShare: number;
      secondHalf: { waitingShare: number };
    };
    expect(summary.waitingShare).toBeGreaterThanOrEqual(0);
    expect(summary.waitingShare + summary.busyShare).toBeLessThanOrEqual(1.0001);
    expect(summary.secondHalf.waitingShare).toBeGreaterThanOrEqual(0);
    expect(summary.secondHalf.waitingShare).toBeLessThanOrEqual(1);
    // The line says the same share as the JSON, to two decimals.
    expect(out).toContain(`waiting for a position ${(summary.waitingShare * 100).toFixed(2)}%`);
    expect(out).toContain(`engines waiting for a position ${(summary.secondHalf.waitingShare * 100).toFixed(2)}% of their time`);
  });
});
