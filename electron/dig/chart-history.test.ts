// The Dig view's chart history lives in the book: points stored while digging, a
// gap at each pause, stop and new run, thinned when old, and still there after reopening.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { Dig, type DigEvent } from "./dig.js";
import { BookStore, CHART_KEEP, CHART_RECENT } from "../store/book-store.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";
import type { ChartSample } from "../../shared/api/contract.js";

describe("chart samples in the store", () => {
  it("keep their order across a reopen, thin old points but never a gap or the newest ones", () => {
    const file = path.join(tempDir("horu-chart-"), "c.horu");
    const store = BookStore.create(file);
    // The book's limits (CHART_KEEP, CHART_RECENT) scaled down, so the test writes hundreds of points, not thousands.
    const limits = { keep: 200, recent: 40 };
    expect(CHART_KEEP).toBeGreaterThan(CHART_RECENT);
    const n = 700;
    for (let i = 0; i < n; i++)
      store.chart.add({ t: 1_000_000 + i * 1000, thought: i, rootValue: i % 3 ? -i : null, gap: i % 150 === 149 }, limits);
    const kept = store.chart.all();
    expect(kept.length).toBeLessThanOrEqual(limits.keep + 64);
    expect(kept.length).toBeGreaterThan(limits.keep / 2);
    for (let i = 1; i < kept.length; i++) expect(kept[i].t).toBeGreaterThan(kept[i - 1].t);
    expect(kept.filter((s) => s.gap).map((s) => s.thought)).toEqual(Array.from({ length: Math.floor(n / 150) }, (_, k) => k * 150 + 149));
    expect(kept.slice(-limits.recent).map((s) => s.thought)).toEqual(
      Array.from({ length: limits.recent }, (_, k) => n - limits.recent + k),
    );
    // Every field comes back as written.
    for (const s of kept)
      expect(s).toEqual({
        t: 1_000_000 + s.thought * 1000,
        thought: s.thought,
        rootValue: s.thought % 3 ? -s.thought : null,
        gap: s.thought % 150 === 149,
      });
    store.close();
    const again = BookStore.open(file);
    expect(again.chart.all()).toEqual(kept);
    again.close();
  });
});

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`the dig stores its chart points (${NO_ENGINE})`, () => {
  it(
    "points while digging, a gap at the pause and at the stop, the same as the events sent; a killed run gets its gap on the next start",
    { timeout: 120_000 },
    async () => {
      const file = path.join(tempDir("horu-chart-dig-"), "d.horu");
      const book = OpenBook.create(file, { limit: { nodes: 2000 }, multipv: 2 });
      const sent: ChartSample[] = [];
      let atPause = -1;
      let resolvePaused!: () => void, resolveMore!: () => void;
      const paused = new Promise<void>((r) => (resolvePaused = r));
      const more = new Promise<void>((r) => (resolveMore = r));
      const dig: Dig = new Dig(book, {
        engines: [{ command: FAIRY, name: "fairy", options: { Threads: 1, Hash: 16 } }],
        progressEveryMs: 50,
        sampleEveryMs: 100,
        onEvent: (e: DigEvent) => {
          if (e.kind === "sample") sent.push(e.sample);
          if (e.kind === "result" && dig.progress.thought === 4) dig.pause();
          if (e.kind === "progress" && e.progress.state === "paused" && atPause < 0) {
            atPause = e.progress.thought;
            resolvePaused();
          }
          if (e.kind === "sample" && atPause >= 0 && !e.sample.gap && e.sample.thought >= atPause + 3) resolveMore();
        },
      });
      const run = dig.run();
      await paused;
      const atPauseSamples = book.store.chart.all();
      expect(atPauseSamples.at(-1)).toMatchObject({ gap: true, rootValue: null, thought: atPause });
      expect(atPauseSamples.slice(0, -1).every((s) => !s.gap)).toBe(true);
      expect(atPauseSamples.length).toBeGreaterThanOrEqual(2);
      // Paused: no point is stored however long it lasts (the timer keeps ticking).
      await new Promise<void>((resolve) => {
        let ticks = 0;
        const off = setInterval(() => {
          if (++ticks < 4) return;
          clearInterval(off);
          resolve();
        }, 100);
      });
      expect(book.store.chart.count()).toBe(atPauseSamples.length);
      dig.resume();
      await more;
      await dig.stop();
      await run;
      const all = book.store.chart.all();
      expect(all).toEqual(sent);
      expect(all.at(-1)).toMatchObject({ gap: true });
      expect(all.filter((s) => s.gap)).toHaveLength(2);
      // The selection's root value is charted while digging.
      expect(all.some((s) => !s.gap && s.rootValue !== null)).toBe(true);

      // A run that was killed left no gap: the next run puts one first, so its line starts afresh.
      book.store.chart.add({ t: Date.now(), thought: 7, rootValue: 12, gap: false });
      const before = book.store.chart.count();
      await new Dig(book, {
        engines: [{ command: FAIRY, name: "fairy", options: { Threads: 1, Hash: 16 } }],
        positions: 1,
        sampleEveryMs: 100,
      }).run();
      const after = book.store.chart.all().slice(before);
      expect(after[0]).toMatchObject({ gap: true });
      expect(after.at(-1)).toMatchObject({ gap: true });
      book.close();
      const reopened = BookStore.open(file, { readonly: true });
      expect(reopened.chart.all().length).toBe(before + after.length);
      reopened.close();
    },
  );
});
