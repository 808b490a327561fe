// The user guide's screenshots, in English and Japanese: a small book dug by
// fairy-stockfish, opened in `horu web` at 1600x1000, each view taken in both languages while
// a dig runs (dig, book, engines, seed report, banned moves, tools), the position panel under
// the board, and the first screen with no book. They go to docs/images/NAME-en.png and NAME-ja.png; the tree's are taken by
// e2e/tree.test.ts. Each view is also checked for what makes a screenshot wrong: an error bar.
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "./harness";
import { addLibraryEngine, digSmallBook, ENGINE, useHoruWeb } from "./testing/fixture";
import { OpenBook } from "../electron/book/open-book";
import { Position } from "../shared/rules/position";
import { missing } from "../electron/testing/missing.js";
import { translate } from "../renderer/src/i18n";

const IMAGES = path.join(ROOT, "docs", "images");
const RECORD = path.join(ROOT, "shared", "formats", "testdata", "kifu", "conversion_input_kifu-utf8.kifu");
const ready = existsSync("/usr/bin/chromium") && existsSync(ENGINE);

describe.skipIf(missing(ready, "/usr/bin/chromium or fairy-stockfish"))("the user guide's screenshots", () => {
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: path.join(IMAGES, `${name}.png`) });
  const tab = (name: string) => page.getByTestId(`tab-${name}`).click();
  /**
   * From the root (Black to move) to the position after its first listed move: waits until the
   * table lists White's replies (the ply counter moves first, the table once the node arrives),
   * and clears the text the double click selected.
   */
  const oneMoveIn = async () => {
    await page.getByTestId("move-row").first().dblclick();
    await expect.poll(() => page.getByTestId("ply").textContent()).toMatch(/^1/);
    await expect.poll(async () => (await page.getByTestId("move-row").allTextContents()).every((t) => t.includes("△"))).toBe(true);
    await page.evaluate(() => window.getSelection()?.removeAllRanges());
  };

  const web = useHoruWeb(
    "horu-docs-",
    (dir) => {
      const book = path.join(dir, "opening.horu");
      digSmallBook(book, { nodes: 3000, positions: 40 });
      const b = OpenBook.open(book);
      // In the user's engine library: an engine a book names is only asked about (BookEnginesDialog).
      addLibraryEngine(dir);
      // A banned rook shuffle for the banned-moves view.
      const root = Position.fromUsi("startpos moves 2h3h 8b7b 3h2h");
      b.store.bans.add({
        sfen: root.sfenKey(),
        keyHi: root.keyHi,
        keyLo: root.keyLo,
        move: "7b8b",
        reason: "repetition",
        line: ["2h3h", "8b7b", "3h2h", "7b8b"],
      });
      b.close();
      return ["--book", book];
    },
    300_000,
  );

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on("dialog", (d) => void d.accept());
    await page.goto(web.horu.url);
    await page.getByTestId("tab-dig").waitFor();
  }, 120_000);

  it("takes every view in English and Japanese", { timeout: 300_000 }, async () => {
    // Seed a game record first, so the seed view has a report to show.
    await tab("seed");
    await page.getByTestId("seed-input").setInputFiles(RECORD);
    await page.getByTestId("seed-report").waitFor({ timeout: 30_000 });
    await tab("dig");
    await page.getByTestId("dig-start").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toBe("digging");
    await expect.poll(() => page.getByTestId("engine-row").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect
      .poll(async () => Number(await page.getByTestId("chart-root-value").getAttribute("data-points")), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(6);
    for (const lang of ["en", "ja"] as const) {
      if ((await page.locator("html").getAttribute("lang")) !== lang) await page.getByTestId("lang").click();
      await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(lang);
      await tab("dig");
      await page.getByTestId("engine-row").first().waitFor();
      await shot(`dig-${lang}`);
      // The book one ply deep: the position after its first move, with its replies.
      await tab("book");
      await page.getByTestId("nav-root").click();
      await page.getByTestId("move-row").first().waitFor();
      await oneMoveIn();
      await shot(`book-${lang}`);
      await page.getByTestId("nav-root").click();
      for (const name of ["engines", "seed", "bans", "tools"]) {
        await tab(name);
        await page.waitForTimeout(300); // the view's first answer
        // The library's engine (the one digging) is listed: an older screenshot showed an empty library.
        if (name === "engines") await expect.poll(() => page.getByTestId("engine-config").count()).toBe(1);
        await shot(`${name}-${lang}`);
      }
      expect(await page.getByTestId("error").count(), lang).toBe(0);
    }
    await tab("dig");
    await page.getByTestId("dig-stop").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toMatch(/stopped|idle/);
    // The position panel under the board (the guide's "Working on a position"): a thought
    // position one ply deep with a comment, and a deeper think queued for the next dig.
    await tab("book");
    await page.getByTestId("nav-root").click();
    await oneMoveIn();
    await page.getByTestId("node-comment").fill("角道を開ける手が多い");
    await page.getByTestId("comment-save").click();
    await expect.poll(() => page.getByTestId("comment-save").isDisabled()).toBe(true);
    await page.getByTestId("act-think-deeper").click();
    await page.getByTestId("node-queued").waitFor();
    for (const lang of ["en", "ja"] as const) {
      if ((await page.locator("html").getAttribute("lang")) !== lang) await page.getByTestId("lang").click();
      await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(lang);
      await page.getByTestId("node-actions").waitFor();
      expect(await page.getByTestId("node-queued").textContent(), lang).toBe(translate(lang, "queuedIdle"));
      // The note of the last action follows the language too (it once kept the language it was made in).
      expect(await page.getByTestId("node-action-note").textContent(), lang).toBe(translate(lang, "queuedDeeperIdle"));
      await shot(`node-actions-${lang}`);
    }
    expect(await page.getByTestId("error").count()).toBe(0);
    // The first screen: no book open.
    await page.getByTestId("book-close").click();
    await page.getByTestId("welcome").waitFor();
    for (const lang of ["ja", "en"] as const) {
      if ((await page.locator("html").getAttribute("lang")) !== lang) await page.getByTestId("lang").click();
      await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(lang);
      await page.waitForTimeout(300);
      await shot(`first-run-${lang}`);
    }
  });
});
