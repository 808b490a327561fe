// End to end through `horu web` with fairy-stockfish: the Dig view's charts plot
// digging time (a pause takes no room, so runs join up; read from the canvas itself), with
// distinct tick labels and dots for a short run, and their history is the book's: it survives a
// reload of the page and a reopening of the book by another server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { ARTIFACTS, ensureRenderer, launchBrowser, startHoru, type Horu } from "./harness";
import { addLibraryEngine, ENGINE, haveChromium } from "./testing/fixture";
import { OpenBook } from "../electron/book/open-book";
import type { ChartSample } from "../shared/api/contract";
import { diggingSeconds } from "../renderer/src/logic";

const CHARTS = ["chart-root-value", "chart-throughput"] as const;

/** The page's own call to the host (the token the page keeps), for the samples' times. */
const history = (page: Page) =>
  page.evaluate(() =>
    fetch("/api/call", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Horu-Token": sessionStorage.getItem("horu.token") ?? "" },
      body: JSON.stringify({ method: "dig.history", args: {} }),
    })
      .then((r) => r.json())
      .then((b: { result: ChartSample[] }) => b.result),
  );

/**
 * How many pixels of the chart's line colour one column of its canvas holds, at digging time
 * `x` seconds (placed with the x scale and plot box the chart reports as it draws).
 */
function linePixelsAt(page: Page, testId: string, x: number): Promise<number> {
  return page.evaluate(
    ({ testId, t }) => {
      const box = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`)!;
      const canvas = box.querySelector("canvas")!;
      const [left, top, width, height] = box.dataset.plot!.split(",").map(Number);
      const min = Number(box.dataset.xMin),
        max = Number(box.dataset.xMax);
      const x = Math.round(left + ((t - min) / (max - min)) * width);
      const hex = box.dataset.color!;
      const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const data = canvas.getContext("2d")!.getImageData(x, top, 1, height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 100 && Math.abs(data[i] - want[0]) + Math.abs(data[i + 1] - want[1]) + Math.abs(data[i + 2] - want[2]) < 60) n++;
      }
      return n;
    },
    { testId, t: x },
  );
}

describe.skipIf((!haveChromium || !existsSync(ENGINE)) && !process.env.CI)(
  "the charts' history is the book's (horu web, fairy-stockfish)",
  () => {
    let dir: string;
    let book: string;
    let horu: Horu;
    let browser: Browser;
    let page: Page;
    const attr = async (id: string, name: string) => Number(await page.getByTestId(id).getAttribute(name));
    const state = () => page.getByTestId("dig-state").getAttribute("data-state");

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "horu-e2e-charts-"));
      book = path.join(dir, "charts.horu");
      const b = OpenBook.create(book, { limit: { nodes: 3000 } });
      // In the user's engine library: an engine a book names is only asked about (BookEnginesDialog).
      addLibraryEngine(dir);
      b.close();
      await ensureRenderer();
      horu = await startHoru({ HOME: dir }, ["--book", book]);
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(horu.url);
      await page.getByTestId("lang").click();
      await page.getByTestId("dig-start").waitFor();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await horu?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** The pause: the index of its gap sample, and its wall-clock span. */
    let pauseAt = 0,
      points = 0;

    /**
     * Both charts, by digging time: `lines` separate lines; the runs join up (the pause takes no
     * room); the axis ends at the last point; a line within each run; distinct tick labels.
     */
    async function checkDrawing(samples: ChartSample[], lines: number): Promise<void> {
      const xs = diggingSeconds(samples);
      for (const id of CHARTS) {
        await expect.poll(() => attr(id, "data-points")).toBe(samples.length);
        expect(await attr(id, "data-lines"), id).toBe(lines);
        // The run after the pause starts where the one before it ended, not 6 s of wall clock later.
        expect(xs[pauseAt + 1]! - xs[pauseAt - 1]!).toBeLessThan(0.01);
        expect(await attr(id, "data-x-max")).toBeLessThanOrEqual(xs.at(-1)! + 60);
        expect(await attr(id, "data-x-max")).toBeGreaterThanOrEqual(xs.at(-1)!);
        const live = samples.map((s, i) => ({ s, x: xs[i]! })).filter((p) => !p.s.gap);
        const [a, b] = live.slice(-2);
        expect(await linePixelsAt(page, id, (a.x + b.x) / 2), `${id}: the line between the last two points`).toBeGreaterThan(0);
        const before = live.filter((p) => p.s.t < samples[pauseAt]!.t).slice(-2);
        expect(await linePixelsAt(page, id, (before[0]!.x + before[1]!.x) / 2), `${id}: the line before the pause`).toBeGreaterThan(0);
        const labels = JSON.parse((await page.getByTestId(id).getAttribute("data-x-labels")) ?? "[]") as string[];
        expect(labels.length, id).toBeGreaterThan(1);
        expect(new Set(labels).size, `${id}: ${labels.join(" ")}`).toBe(labels.length);
        // A short dig shows its points as dots.
        expect(await page.getByTestId(id).getAttribute("data-show-points")).toBe("true");
      }
    }

    it(
      "digs, pauses, digs on: both charts plot digging time, so the runs join up at the pause (kept in the book as a gap)",
      { timeout: 300_000 },
      async () => {
        await page.getByTestId("dig-start").click();
        await expect.poll(() => attr("chart-root-value", "data-points"), { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
        await page.getByTestId("dig-pause").click();
        await expect.poll(state, { timeout: 30_000 }).toBe("paused");
        const atPause = await history(page);
        expect(atPause.at(-1)).toMatchObject({ gap: true });
        // The pause lasts 6 s of the test's choosing (it is the span under test, not a wait for something).
        const pausedAt = Date.now();
        await expect.poll(() => Date.now() - pausedAt >= 6000, { timeout: 10_000, interval: 500 }).toBe(true);
        // Paused, the charts gain no point.
        expect(await attr("chart-root-value", "data-points")).toBe(atPause.length);
        await page.getByTestId("dig-resume").click();
        await expect.poll(() => attr("chart-throughput", "data-points"), { timeout: 60_000 }).toBeGreaterThanOrEqual(atPause.length + 4);
        await page.getByTestId("dig-stop").click();
        await expect.poll(state, { timeout: 30_000 }).toBe("stopped");
        const samples = await history(page);
        points = samples.length;
        const gaps = samples.filter((s) => s.gap);
        expect(gaps).toHaveLength(2); // the pause and the stop
        pauseAt = samples.indexOf(gaps[0]);
        expect(samples[pauseAt + 1].t - samples[pauseAt - 1].t).toBeGreaterThanOrEqual(6000);
        await checkDrawing(samples, 2);
        await page.getByTestId("chart-root-value").screenshot({ path: path.join(ARTIFACTS, "chart-pause-break.png") });
      },
    );

    it("a reload shows the same history, from the book", { timeout: 60_000 }, async () => {
      await page.reload();
      await expect.poll(() => attr("chart-root-value", "data-points"), { timeout: 30_000 }).toBe(points);
      await checkDrawing(await history(page), 2);
    });

    it(
      "another server reopening the book shows it too; the book is whole; the old page says its token is gone",
      { timeout: 300_000 },
      async () => {
        await horu.stop();
        const db = new Database(book, { readonly: true });
        try {
          expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
          expect((db.prepare("SELECT count(*) AS n FROM chart_samples").get() as { n: number }).n).toBe(points);
        } finally {
          db.close();
        }
        // The same address, a new token: the old page says its token is gone and how to come back,
        // instead of reconnecting forever.
        const port = new URL(horu.url).port;
        horu = await startHoru({ HOME: dir }, ["--book", book, "--port", port]);
        await page.getByTestId("token-gone").waitFor({ timeout: 30_000 });
        expect(await page.getByTestId("token-gone").textContent()).toMatch(/horu web was restarted.*\?token=/);
        expect(await page.getByTestId("connection-lost").count()).toBe(0);
        await page.goto(horu.url);
        await expect.poll(() => page.getByTestId("token-gone").count()).toBe(0);
        await expect.poll(() => attr("chart-root-value", "data-points"), { timeout: 30_000 }).toBe(points);
        await checkDrawing(await history(page), 2);
      },
    );
  },
);
