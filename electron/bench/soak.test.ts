// The soak in CI: HORU_SOAK_MINUTES, default 10 in CI (CI=true) and 2 locally; longer by hand with
// `horu bench soak --minutes 60`) of `horu dig` under injected faults.
import { describe, expect, it } from "vitest";
import { runSoak } from "./soak.js";
import { HORU, NO_ENGINE, haveFairy } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

// The issue asks for 10 minutes in CI; a developer's quick local run takes 2.
const minutes = Number(process.env.HORU_SOAK_MINUTES ?? (process.env.CI ? 10 : 2));

describe.skipIf(process.platform !== "linux" || missing(haveFairy, "/usr/games/fairy-stockfish"))(
  `soak: digging under faults (${NO_ENGINE})`,
  () => {
    it(
      `${minutes} min with dig kills, engine kills, hangs and garbage: nothing lost, nothing stuck, bounded RSS`,
      { timeout: (minutes * 1.5 + 3) * 60_000 },
      async () => {
        const lines: string[] = [];
        const r = await runSoak({
          minutes,
          horu: HORU,
          print: (l) => {
            lines.push(l);
            console.log(l);
          },
        });
        expect(r.integrity).toBe("ok");
        expect(r.missing).toEqual([]);
        expect(r.failedPositions).toBe(0);
        expect(r.stored).toBeGreaterThan(100);
        // Every kind of fault happened at least once in the run.
        for (const [kind, n] of Object.entries(r.faults)) expect(n, kind).toBeGreaterThan(0);
        expect(r.engineFailures).toBeGreaterThan(0);
        // Memory: the last third of the samples within 1.5x of the first third.
        expect(r.rssLastThirdMiB).toBeLessThan(r.rssFirstThirdMiB * 1.5);
        expect(r.longestRun.lastThirdMiB).toBeLessThan(r.longestRun.firstThirdMiB * 1.5);
        // Throughput: figures are printed; on 2 shared cores only a loose bound is asserted.
        expect(r.perHourMinusFaults).toBeGreaterThan(r.baselinePerHour * 0.5);
      },
    );
  },
);
