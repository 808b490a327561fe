// A first run that digs. A fresh user (empty config folder, no book, no engine
// added) opens horu web in Chromium: the first screen shows the board and one action; from
// opening to a live, growing book takes at most three clicks, counted here. Files dropped
// with no book open are offered a new book. Screenshots go to e2e/artifacts/.
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { ARTIFACTS, ROOT } from "./harness";
import { useHoruWeb } from "./testing/fixture";

const KIFU = path.join(ROOT, "shared", "formats", "testdata", "kifu", "book_source_src03.csa");
const ready = existsSync("/usr/bin/chromium");
if (process.env.CI && !ready) throw new Error("the first-run e2e test needs /usr/bin/chromium (apt-get install chromium); CI installs it");

describe.skipIf(!ready)("the first run", () => {
  let page: Page;
  let clicks = 0;
  const click = async (l: Locator) => {
    clicks++;
    await l.click();
  };
  const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim() ?? "";
  const problems: string[] = [];

  // A fresh user: an empty HOME, no book, no engine.
  const web = useHoruWeb("horu-first-", () => []);

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  }, 120_000);

  it("goes from opening to a live, growing book in at most three clicks", { timeout: 180_000 }, async () => {
    await page.goto(web.horu.url);
    // The first screen: the board (40 pieces), one clear action, the engine it will use, where the book goes.
    await page.getByTestId("welcome").waitFor();
    expect(await page.locator("[data-testid=welcome] svg.board .piece-text").count()).toBe(40);
    await expect.poll(() => page.getByTestId("quick-start").isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await text("quick-path")).toMatch(
      new RegExp(`^${path.join(web.dir, "Documents").replace(/[/\\]/g, "\\$&")}[/\\\\]horu-\\d{4}-\\d{2}-\\d{2}\\.horu$`),
    );
    expect(await text("quick-engine")).not.toBe("");
    expect(await page.locator("html").getAttribute("lang")).toBe("ja");
    await page.screenshot({ path: path.join(ARTIFACTS, "first-run.png") });

    await click(page.getByTestId("quick-start"));
    // A book in the documents folder, digging, and growing while we watch.
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toBe("digging"); // the label is in Japanese here
    const bookPath = await text("book-path");
    expect(path.dirname(bookPath)).toBe(path.join(web.dir, "Documents"));
    expect(existsSync(bookPath)).toBe(true);
    await expect.poll(async () => Number(await text("thought")), { timeout: 120_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    const first = Number(await text("thought"));
    await expect.poll(async () => Number(await text("thought")), { timeout: 120_000, interval: 500 }).toBeGreaterThan(first);
    expect(await text("engine-choice")).not.toBe("");
    await page.screenshot({ path: path.join(ARTIFACTS, "first-run-digging.png") });
    expect(clicks).toBeLessThanOrEqual(3);

    await page.getByTestId("dig-stop").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toBe("stopped");
  });

  it("lists the book under recent books once it is closed", { timeout: 60_000 }, async () => {
    const bookPath = await text("book-path");
    await page.getByTestId("book-close").click();
    await page.getByTestId("welcome").waitFor();
    expect(await page.getByTestId("recent-list").textContent()).toContain(bookPath);
    // The recent list lives in the config folder, shared with the desktop app.
    expect(JSON.parse(readFileSync(path.join(web.dir, ".config", "horu", "recent.json"), "utf8"))).toContain(bookPath);
  });

  it("offers a new book for records dropped with no book open, and seeds them into it", { timeout: 90_000 }, async () => {
    const books = () => readdirSync(path.join(web.dir, "Documents")).filter((f) => f.endsWith(".horu"));
    const before = books().length;
    const csa = readFileSync(KIFU).toString("base64");
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], "game.csa"));
      window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, csa);
    await page.getByTestId("drop-offer").waitFor();
    expect(await text("drop-offer")).toContain("game.csa");
    await page.screenshot({ path: path.join(ARTIFACTS, "first-run-drop.png") });
    await page.getByTestId("drop-create").click();
    await page.getByTestId("seed-report").waitFor({ timeout: 60_000 });
    await expect.poll(async () => Number(await text("kifu-seeds")), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(books().length).toBe(before + 1);
    expect(await text("book-path")).toMatch(/horu-\d{4}-\d{2}-\d{2}-2\.horu$/);
    expect(problems).toEqual([]);
  });
});
