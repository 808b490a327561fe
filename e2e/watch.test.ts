// Watching a dig from anywhere. A `horu dig` process digs with fairy-stockfish
// while `horu web --book` on the same book follows it read-only (the count grows, the
// writer's pid and host are shown, writes are refused); `horu dig --web` serves its own dig.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { ARTIFACTS, ROOT, ensureRenderer, launchBrowser, spawnHoru, startHoru, type Horu } from "./harness";
import { ENGINE } from "./testing/fixture";
import { workerOf } from "../electron/testing/dig-process.js";
import { translate } from "../renderer/src/i18n";

const ready = existsSync("/usr/bin/chromium") && existsSync(ENGINE);
if (!ready && process.env.CI)
  throw new Error("e2e/watch.test.ts needs /usr/bin/chromium and /usr/games/fairy-stockfish (.ci/run installs them)");

/** Starts `horu dig` with the given arguments; `output()` is everything it printed. */
const startDig = (args: string[]) => spawnHoru("dig", args, {}, 15_000);

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!ready)("watching a dig", () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  let web: Horu | null = null;
  let dig: ReturnType<typeof startDig> | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "horu-watch-"));
    await ensureRenderer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    await dig?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("horu web --book follows a book that horu dig is digging: read-only, live, the writer named", { timeout: 120_000 }, async () => {
    const book = path.join(dir, "watched.horu");
    dig = startDig([
      "--book",
      book,
      "--engine",
      ENGINE,
      "--option",
      "Threads=1",
      "--option",
      "Hash=16",
      "--nodes",
      "3000",
      "--positions",
      "100000",
    ]);
    await waitFor("the dig to start", () => /digging( \([a-z-]+\))? from/.test(dig!.output()), 60_000);
    web = await startHoru({ HOME: dir }, ["--book", book]);
    await page.goto(web.url);
    await page.getByTestId("lang").click(); // English for the assertions
    const banner = page.getByTestId("read-only");
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.textContent()).toContain(`pid ${workerOf(dig.proc.pid!)}`);
    const size = async () => Number(((await page.getByTestId("book-size").textContent()) ?? "0").replaceAll(",", ""));
    const first = await size();
    // The count grows while this window does nothing: it follows the other process's commits.
    await expect.poll(size, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(first + 5);
    // This window digs nothing itself: its own counters say unknown, not 0 while the book grows.
    for (const id of ["thought", "elapsed"]) expect(await page.getByTestId(id).textContent(), id).toBe("–");
    // The user guide's pictures of a followed book, in both languages at the guide's size.
    await page.setViewportSize({ width: 1600, height: 1000 });
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("en");
    await page.screenshot({ path: path.join(ROOT, "docs", "images", "watch-read-only-en.png") });
    await page.getByTestId("lang").click();
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("ja");
    await expect.poll(() => banner.textContent()).toContain(`pid ${workerOf(dig.proc.pid!)}`);
    expect(await banner.textContent()).toContain(translate("ja", "readOnlyBanner"));
    await page.screenshot({ path: path.join(ROOT, "docs", "images", "watch-read-only-ja.png") });
    await page.getByTestId("lang").click();
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("en");
    await page.setViewportSize({ width: 1280, height: 800 });
    // Writes are refused clearly; the position panel is not offered.
    expect(await page.getByTestId("node-actions").count()).toBe(0);
    const refused = await page.evaluate(() =>
      fetch("/api/call", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Horu-Token": sessionStorage.getItem("horu.token") ?? "" },
        body: JSON.stringify({
          method: "book.comment",
          args: { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", text: "x" },
        }),
      }).then((r) => r.json()),
    );
    expect(refused).toMatchObject({ key: "readOnlyHeld", error: expect.stringMatching(/^read-only: pid \d+ on .+ is writing this book/) });
    await web.stop();
    web = null;
    await dig.stop();
    expect(dig.output()).toMatch(/positions thought: \d+/);
    dig = null;
  });

  it("horu dig --web serves the dig it runs: engines live, pause and stop from the window", { timeout: 120_000 }, async () => {
    const book = path.join(dir, "served.horu");
    dig = startDig([
      "--book",
      book,
      "--engine",
      ENGINE,
      "--option",
      "Threads=1",
      "--option",
      "Hash=16",
      "--nodes",
      "3000",
      "--web",
      "--allow-root",
    ]);
    await waitFor("the URL", () => /horu web: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(dig!.output()), 60_000);
    const url = /horu web: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(dig.output())![1]!;
    await page.goto(url);
    await page.getByTestId("lang").click();
    const state = () => page.getByTestId("dig-state").getAttribute("data-state");
    await expect.poll(state, { timeout: 30_000 }).toBe("digging");
    expect(await page.getByTestId("read-only").count()).toBe(0);
    expect(await page.getByTestId("writer").textContent()).toContain(`pid ${workerOf(dig.proc.pid!)}`);
    await expect.poll(() => page.getByTestId("engine-row").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect
      .poll(async () => Number((await page.getByTestId("thought").textContent())?.replaceAll(",", "")), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: path.join(ARTIFACTS, "dig-web.png") });
    await page.getByTestId("dig-stop").click();
    // Stopping the dig from the window ends the horu dig process with its summary.
    await waitFor("horu dig to exit", () => dig!.proc.exitCode !== null, 60_000);
    expect(dig.proc.exitCode).toBe(0);
    expect(dig.output()).toMatch(/positions thought: [1-9]\d*/);
    dig = null;
  });
});
