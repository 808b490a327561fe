// Frame benchmark: a big real-position book opened in `horu web`, dug by
// fairy-stockfish at a small node count while the page shows the Dig view, the Book view and
// the Tree view; requestAnimationFrame gaps and long tasks are recorded and printed.
//
// CI runs a short version (50,000 positions, 8 s a view). The real figure, by hand:
//   HORU_FRAMES_POSITIONS=1000000 HORU_FRAMES_SECONDS=45 npx vitest run e2e/frames.test.ts
// (writing and opening 1M positions takes a few minutes), or on a book already made
// (`horu import` of a DB2016 file, `horu bench book --positions 15000000 --book F`):
//   HORU_FRAMES_BOOK=/work/bigbooks/dig_15m.horu HORU_FRAMES_SECONDS=30 npx vitest run e2e/frames.test.ts
// That book is dug in place (a few hundred positions are added to it), not copied.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { ARTIFACTS, ensureRenderer, launchBrowser, startHoru, type Horu } from "./harness";
import { ENGINE, haveChromium, haveEngine } from "./testing/fixture";
import { apiCall, formatFigures, makeBigBook, startRecording, stopRecording, type FrameFigures } from "./frames";
import { missing } from "../electron/testing/missing.js";

const haveBoth = haveChromium && haveEngine;
const BOOK = process.env.HORU_FRAMES_BOOK;
const POSITIONS = Number(process.env.HORU_FRAMES_POSITIONS ?? 50_000);
const SECONDS = Number(process.env.HORU_FRAMES_SECONDS ?? 8);
const big = BOOK !== undefined || POSITIONS >= 500_000;
/** The 1-minute load average beside each view's figures: a shared machine's frames depend on it. */
const withLoad = (f: FrameFigures): FrameFigures => ({ ...f, label: `${f.label} (load ${loadavg()[0]!.toFixed(2)})` });
const SIZE = BOOK ? path.basename(BOOK) : `${POSITIONS.toLocaleString("en")}-position`;

describe.skipIf(missing(haveBoth, "/usr/bin/chromium or fairy-stockfish"))(`frames while a ${SIZE} book digs`, () => {
  let dir: string;
  let horu: Horu;
  let browser: Browser;
  let page: Page;
  const figures: FrameFigures[] = [];
  const problems: string[] = [];
  const traffic: Record<string, { count: number; bytes: number }> = {};

  beforeAll(
    async () => {
      dir = mkdtempSync(path.join(tmpdir(), "horu-frames-"));
      let file = path.join(dir, "big.horu");
      if (BOOK) {
        if (!existsSync(BOOK)) throw new Error(`HORU_FRAMES_BOOK: no such book ${BOOK}`);
        file = path.resolve(BOOK);
      } else {
        const made = makeBigBook(file, POSITIONS);
        console.log(`frames: wrote ${made.positions.toLocaleString("en")} positions in ${(made.ms / 1000).toFixed(1)} s`);
      }
      await ensureRenderer();
      const t0 = performance.now();
      horu = await startHoru({ HOME: dir }, ["--book", file], big ? 900_000 : 120_000);
      console.log(`frames: horu web opened the book in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // Until the URL comes, the terminal says how far the open is.
      const before = horu.output().slice(0, horu.output().indexOf("horu web: http"));
      if (!/opening the book: .* 100%/.test(before)) problems.push(`no open progress before the URL: ${before}`);
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on("pageerror", (e) => problems.push(e.message));
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(m.text());
      });
      // What the host pushes, by event type: count and bytes (printed with the figures).
      page.on("websocket", (ws) =>
        ws.on("framereceived", (f) => {
          const data = typeof f.payload === "string" ? f.payload : f.payload.toString();
          const type = /"type":"([^"]+)"/.exec(data)?.[1] ?? "?";
          const t = (traffic[type] ??= { count: 0, bytes: 0 });
          t.count++;
          t.bytes += data.length;
        }),
      );
      await page.goto(horu.url);
      await page.getByTestId("lang").click();
      await page.getByTestId("book-path").filter({ hasText: file }).waitFor({ timeout: 60_000 });
      await apiCall(page, "engines.add", { commandLine: ENGINE, options: { Threads: 1, Hash: 16 } });
      await apiCall(page, "book.updateSettings", { settings: { limit: { nodes: 2000 } } });
    },
    big ? 1_800_000 : 180_000,
  );

  afterAll(async () => {
    await browser?.close();
    await horu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    for (const f of figures) console.log(`frames (${SIZE}): ${formatFigures(f)}`);
  });

  it(
    "keeps frames short on the Dig, Book and Tree views while digging",
    async () => {
      await page.getByTestId("tab-dig").click();
      // The same page before the dig: what this machine gives with nothing happening.
      await startRecording(page);
      await page.waitForTimeout((SECONDS * 1000) / 2);
      figures.push(withLoad(await stopRecording(page, "Dig view, not digging (baseline)", SECONDS / 2)));
      await page.getByTestId("dig-start").click();
      await expect.poll(() => page.getByTestId("dig-state").textContent(), { timeout: 60_000 }).toBe("digging");
      await expect
        .poll(async () => Number((await page.getByTestId("thought").textContent())?.replaceAll(",", "")), { timeout: 60_000 })
        .toBeGreaterThan(0);

      // HORU_FRAMES_PROFILE=1 also writes a CPU profile of each view to e2e/artifacts.
      const cdp = process.env.HORU_FRAMES_PROFILE ? await page.context().newCDPSession(page) : null;
      const profile = async (name: string | null) => {
        if (!cdp) return;
        if (name === null) {
          await cdp.send("Profiler.enable");
          await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
          await cdp.send("Profiler.start");
          return;
        }
        const { profile: p } = await cdp.send("Profiler.stop");
        writeFileSync(path.join(ARTIFACTS, `frames-${name}.cpuprofile`), JSON.stringify(p));
      };
      await profile(null);
      await startRecording(page);
      await page.waitForTimeout(SECONDS * 1000);
      figures.push(withLoad(await stopRecording(page, "Dig view", SECONDS)));
      await profile("dig");
      await page.screenshot({ path: path.join(ARTIFACTS, "frames-dig.png") });

      await page.getByTestId("tab-book").click();
      await page.getByTestId("move-row").first().waitFor();
      await profile(null);
      await startRecording(page);
      // Browse while it digs: into the first move and back, a few times.
      const end = Date.now() + SECONDS * 1000;
      while (Date.now() < end) {
        await page.keyboard.press("ArrowRight");
        await page.waitForTimeout(700);
        await page.keyboard.press("ArrowLeft");
        await page.waitForTimeout(700);
      }
      figures.push(withLoad(await stopRecording(page, "Book view", SECONDS)));
      await profile("book");
      await page.screenshot({ path: path.join(ARTIFACTS, "frames-book.png") });

      // The tree: open on the big book while it digs, refreshed every two seconds;
      // walk down the best line and back with the keys, open a node, zoom and pan.
      await page.getByTestId("tab-tree").click();
      await page.getByTestId("tree-node").nth(1).waitFor({ timeout: 60_000 });
      // Unfold the book below the root as a user exploring it would: every closed node drawn
      // is opened (its children fetched), level by level, and Fit brings them all into view,
      // until some hundreds of boxes are drawn at once.
      const placedCount = async () => Number(/\/ (\d+)/.exec((await page.getByTestId("tree-count").textContent()) ?? "")?.[1] ?? 0);
      for (let level = 0; level < 4 && (await placedCount()) < 400; level++) {
        const before = await placedCount();
        await page.getByTestId("tree-fit").click();
        const opened = await page.locator('[data-testid="tree-toggle"]').evaluateAll((els) => {
          const closed = els.filter((e) => e.getAttribute("data-open") === "false");
          for (const e of closed) e.dispatchEvent(new MouseEvent("click", { bubbles: true }));
          return closed.length;
        });
        if (opened === 0) break;
        await expect.poll(placedCount, { timeout: 60_000 }).toBeGreaterThan(before);
      }
      await page.getByTestId("tree-fit").click();
      const unfolded = await placedCount();
      console.log(`frames: the tree holds ${unfolded} boxes before the walk`);
      expect(unfolded).toBeGreaterThan(big ? 200 : 20);
      await page.getByTestId("tree-canvas").focus();
      await profile(null);
      await startRecording(page);
      const treeEnd = Date.now() + SECONDS * 1000;
      const canvas = (await page.getByTestId("tree-canvas").boundingBox())!;
      for (let i = 0; Date.now() < treeEnd; i++) {
        for (const key of ["ArrowRight", "ArrowRight", "Enter", "ArrowDown", "+", "ArrowLeft", "ArrowLeft", "-", "0"]) {
          await page.keyboard.press(key);
          await page.waitForTimeout(250);
        }
        // Pan by dragging the background and zoom with the wheel, as a user browses.
        const x = canvas.x + canvas.width - 60,
          y = canvas.y + 40;
        await page.mouse.move(x, y);
        await page.mouse.down();
        for (let k = 1; k <= 20; k++) await page.mouse.move(x - k * 25, y + k * 15);
        await page.mouse.up();
        await page.mouse.wheel(0, -200);
        await page.waitForTimeout(250);
        await page.mouse.wheel(0, 200);
        await page.waitForTimeout(250);
        // Everything unfolded in view at once: the most boxes the tree draws.
        await page.getByTestId("tree-fit").click();
        await page.waitForTimeout(500);
      }
      figures.push(withLoad(await stopRecording(page, "Tree view", SECONDS)));
      await profile("tree");
      expect(await page.getByTestId("tree-node").count()).toBeGreaterThan(1);
      await page.screenshot({ path: path.join(ARTIFACTS, "frames-tree.png") });

      await apiCall(page, "dig.stop", {});
      for (const f of figures) console.log(formatFigures(f));
      for (const p of problems) console.log(`frames: browser console: ${p}`);
      console.log(
        `frames: events received: ${Object.entries(traffic)
          .map(([k, v]) => `${k} ${v.count} (${Math.round(v.bytes / 1024)} KiB)`)
          .join(", ")}`,
      );
      expect(problems).toEqual([]);
      // The figures printed above are the measurement (the 50 ms goal): no limit is asserted on
      // them, as the suite runs on loaded machines where the page is starved now and then. What
      // is asserted is that each view was recorded: it drew frames, and the figures are sane.
      for (const f of figures.slice(1)) {
        expect(f.frames, f.label).toBeGreaterThan(0);
        for (const v of [f.p50, f.p99, f.longTaskMax]) expect(Number.isFinite(v) && v >= 0, `${f.label}: ${v}`).toBe(true);
        expect(f.p50, f.label).toBeLessThanOrEqual(f.p99);
      }
    },
    big ? 600_000 : 300_000,
  );
});
