// Hostile engine output through the pool and a dig: an engine that floods (an 8 MiB info
// line per think, over and over), never ends a line (40 MiB without a newline), prints
// garbage or invalid UTF-8. Memory stays bounded (line buffers are capped), the engine is
// restarted, and the work goes on: the dig completes its positions with a real engine.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { EnginePool } from "../engines/usi/pool.js";
import type { UsiEngineOptions } from "../engines/usi/engine.js";
import { OpenBook } from "../book/open-book.js";
import { Dig, type DigEvent } from "./dig.js";
import { BookStore } from "../store/book-store.js";
import { FAIRY, FAKE_ENGINE, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

const fake = (mode: string): UsiEngineOptions => ({
  command: process.execPath,
  args: [FAKE_ENGINE, "--mode", mode],
  name: `fake-${mode}`,
  timeouts: { usiokMs: 5000, readyokMs: 5000, thinkMs: 1500, graceMs: 500, quitMs: 500 },
});

/** Samples this process's RSS while `work` runs; returns the largest growth (MiB) over the start. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growthMiB: number }> {
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, growthMiB: (peak - start) / 2 ** 20 };
  } finally {
    clearInterval(t);
  }
}

describe("hostile engine output", () => {
  it("flood (8 MiB lines), invalid UTF-8: every think still answers, 20 thinks each, memory bounded", { timeout: 60_000 }, async () => {
    for (const mode of ["flood", "invalid-utf8"]) {
      const pool = new EnginePool([fake(mode)], { restartDelayMs: 10 });
      await pool.start();
      const { value: outcomes, growthMiB } = await peakGrowth(() =>
        Promise.all(
          Array.from({ length: 20 }, () =>
            pool.run({
              sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
              limit: { kind: "nodes", nodes: 100 },
              multipv: { fixed: 2 },
            }),
          ),
        ),
      );
      await pool.stop();
      expect(
        outcomes.every((o) => o.ok),
        mode,
      ).toBe(true);
      // 20 x 8 MiB went through the pipe; what stays is a line buffer, not the lines.
      console.log(`hostile ${mode}: 20 thinks, RSS grew at most ${growthMiB.toFixed(1)} MiB`);
      expect(growthMiB, mode).toBeLessThan(96);
    }
  });

  it(
    "no newline ever (40 MiB per think) and garbage: the think times out or fails, the engine is restarted, memory bounded",
    { timeout: 60_000 },
    async () => {
      for (const mode of ["no-newline", "garbage"]) {
        const pool = new EnginePool([fake(mode)], { restartDelayMs: 10, maxAttempts: 3 });
        const failures: string[] = [];
        pool.on("failure", (f) => failures.push(f.error.message));
        await pool.start();
        const { value: o, growthMiB } = await peakGrowth(() =>
          pool.run({
            sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            limit: { kind: "nodes", nodes: 100 },
            multipv: { fixed: 2 },
          }),
        );
        const restarts = pool.states[0]!.restarts;
        await pool.stop();
        expect(o.ok).toBe(false);
        if (!o.ok) expect(o.reason).toBe("failed"); // three attempts, each on a fresh process
        expect(failures.length).toBe(3);
        expect(restarts).toBeGreaterThanOrEqual(2);
        console.log(
          `hostile ${mode}: ${failures.length} failures (${failures[0]}), ${restarts} restarts, RSS grew at most ${growthMiB.toFixed(1)} MiB`,
        );
        expect(growthMiB, mode).toBeLessThan(96);
      }
    },
  );

  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    `a dig with one hostile engine beside a real one goes on and completes (${NO_ENGINE})`,
    { timeout: 120_000 },
    async () => {
      for (const mode of ["no-newline", "garbage"]) {
        const file = path.join(tempDir(), `${mode}.horu`);
        const book = OpenBook.create(file, { limit: { nodes: 2000 }, multipv: 3 });
        const failures: DigEvent[] = [];
        const results: string[] = [];
        const dig = new Dig(book, {
          engines: [{ command: FAIRY, name: "fairy", options: { Threads: 1, Hash: 16 } }, fake(mode)],
          positions: 30,
          onEvent: (e) => {
            if (e.kind === "engine-failure" || e.kind === "failed" || e.kind === "error") failures.push(e);
            if (e.kind === "result") results.push(e.sfen);
          },
        });
        const s = await dig.run();
        book.close();
        expect(s.thought, mode).toBe(30);
        expect(
          failures.some((e) => e.kind === "engine-failure" && e.engine === `fake-${mode}`),
          mode,
        ).toBe(true);
        expect(
          failures.filter((e) => e.kind === "error"),
          mode,
        ).toEqual([]);
        const store = BookStore.open(file, { readonly: true });
        expect(store.integrityCheck()).toBe("ok");
        for (const r of results) expect(store.thoughts.has(r)).toBe(true);
        store.close();
        console.log(
          `hostile ${mode} in a dig: 30 positions with fairy beside it, ${failures.length} engine failures, ${s.failed} positions given up on`,
        );
      }
    },
  );
});
