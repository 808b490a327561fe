// Layout and wording fixes found walking the UI as a new user at 1280 x 800 and 1920 x 1080, in
// English and Japanese, against a real `horu web` (no --allow-server-paths) and a small book
// dug by fairy-stockfish: the top bar's book path and recent books whole, the Book view's
// moves filling a tall window, the export dialog's folder kept while a path is refused,
// tooltips that say more than the label, moves drawn with full-width digits as the KIF copy
// writes them, and what stood cut off, overlapped or mislabeled. Screenshots go to e2e/artifacts/.
import { afterAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { ARTIFACTS } from "./harness";
import { addLibraryEngine, digSmallBook, ENGINE, useHoruWeb } from "./testing/fixture";
import { missing } from "../electron/testing/missing.js";

const ready = existsSync("/usr/bin/chromium") && existsSync(ENGINE);

type Lang = "en" | "ja";

describe.skipIf(missing(ready, "/usr/bin/chromium or fairy-stockfish"))("layout and wording at 1280 and 1920 px", () => {
  let book: string;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  const web = useHoruWeb(
    "horu-layout-",
    (dir) => {
      book = path.join(dir, "book.horu");
      digSmallBook(book, { nodes: 1000, positions: 6 });
      addLibraryEngine(dir);
      return ["--book", book];
    },
    300_000,
  );

  async function open(width: number, height: number, lang: Lang): Promise<Page> {
    const context = await web.browser.newContext({ viewport: { width, height }, locale: lang === "ja" ? "ja-JP" : "en-US" });
    contexts.push(context);
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(web.horu.url);
    await page.getByTestId("book-path").filter({ hasText: book }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `layout-${name}.png`) });

  /**
   * Whether a control shows its whole text: a select its chosen option, an input its
   * placeholder (or value), anything else its content; measured in the control's own font.
   */
  const showsWhole = (l: Locator) =>
    l.evaluate((el) => {
      const css = getComputedStyle(el);
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      const pad = parseFloat(css.paddingLeft) + parseFloat(css.paddingRight);
      if (el instanceof HTMLSelectElement) {
        const label = el.selectedOptions[0]?.textContent ?? "";
        // The arrow takes about 20 px besides the padding.
        return ctx.measureText(label).width + pad + 20 <= el.clientWidth;
      }
      // A number's spin buttons take about 16 px of the box.
      if (el instanceof HTMLInputElement)
        return ctx.measureText(el.value || el.placeholder).width + pad + (el.type === "number" ? 16 : 0) <= el.clientWidth;
      // The text's laid-out width against the box's, unrounded: a box a fraction of a pixel
      // short draws an ellipsis that rounded scrollWidth and clientWidth do not tell.
      const range = document.createRange();
      range.selectNodeContents(el);
      const inner = el.getBoundingClientRect().width - pad - parseFloat(css.borderLeftWidth) - parseFloat(css.borderRightWidth);
      return range.getBoundingClientRect().width <= inner + 0.01;
    });
  const inViewport = async (page: Page, l: Locator) => {
    const b = (await l.boundingBox())!;
    const vp = page.viewportSize()!;
    return b.x >= 0 && b.y >= 0 && b.x + b.width <= vp.width + 0.5 && b.y + b.height <= vp.height + 0.5;
  };

  // Before useHoruWeb's afterAll closes the browser and stops horu web (afterAll hooks run in reverse).
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  // 1265 px is a 1280 px window less a 15 px vertical scrollbar (headless Chromium draws none).
  for (const [width, lang] of [
    [1280, "en"],
    [1265, "en"],
    [1265, "ja"],
    [1920, "en"],
  ] as const) {
    it(`shows the book's file name and the recent books' label whole in the top bar (${width} px, ${lang})`, async () => {
      const page = await open(width, 800, lang);
      const bar = page.locator(".bookbar");
      expect((await bar.boundingBox())!.height).toBeLessThan(48); // one line
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // The file's name whole (the folder gives way from its front), the whole path on hover.
      expect(await page.getByTestId("book-file").textContent()).toBe("book.horu");
      expect(await showsWhole(page.getByTestId("book-file"))).toBe(true);
      expect(await inViewport(page, page.getByTestId("book-file"))).toBe(true);
      expect(await page.getByTestId("book-path").getAttribute("title")).toBe(book);
      expect(await page.getByTestId("book-path").textContent()).toBe(book);
      // "Recent books…" (it read "Recent bo…", at 1920 px too).
      expect(await showsWhole(page.getByTestId("recent"))).toBe(true);
      // Every button of the bar inside the window.
      for (const b of await bar.locator("button").all()) expect(await inViewport(page, b), (await b.textContent()) ?? "").toBe(true);
      if (width === 1265) await shot(page, `bar-${width}-${lang}`);
      expect(problems).toEqual([]);
    }, 60_000);
  }

  it("gives the Book view's moves the height a tall window has, the view itself not scrolling", async () => {
    for (const [w, h] of [
      [1920, 1080],
      [1280, 800],
    ] as const) {
      const page = await open(w, h, "en");
      await page.getByTestId("tab-book").click();
      await page.getByTestId("move-row").first().waitFor();
      const list = (await page.getByTestId("moves").boundingBox())!;
      const view = page.locator(".book-view");
      // The list ends just above the analysis panel and the copy box, which end at the window's bottom.
      const copy = (await page.getByTestId("copy").boundingBox())!;
      expect(copy.y + copy.height).toBeLessThanOrEqual(h);
      expect(copy.y + copy.height).toBeGreaterThan(h - 40);
      expect(await view.evaluate((v) => v.scrollHeight <= v.clientHeight + 1)).toBe(true);
      // It stood 260 px high whatever the window.
      expect(list.height).toBeGreaterThan(w === 1920 ? 600 : 300);
      await shot(page, `book-${w}`);
    }
  }, 60_000);

  it("keeps the export dialog's folder, and says where a refused relative path would go", async () => {
    for (const lang of ["en", "ja"] as const) {
      const page = await open(1280, 800, lang);
      await page.getByTestId("export-open").click();
      const folder = page.getByTestId("export-folder");
      await expect.poll(() => folder.textContent()).toBe(web.dir);
      // Out of the book's folder: refused by the host (this page writes only there).
      await page.getByTestId("export-path").fill("../x.db");
      await page.getByTestId("export-refused").waitFor();
      expect(await page.getByTestId("export-refused").textContent()).toContain("--allow-server-paths");
      expect(await folder.textContent()).toBe(web.dir);
      expect(await page.getByTestId("export-target").textContent()).toBe(
        `${path.join(path.dirname(web.dir), "x.db")} (${lang === "en" ? "refused" : "拒否"})`,
      );
      expect(await page.getByTestId("export-run").isDisabled()).toBe(true);
      // Back in the folder: the host's plan again.
      await page.getByTestId("export-path").fill("out.db");
      await expect.poll(() => page.getByTestId("export-target").textContent()).toBe(path.join(web.dir, "out.db"));
      expect(await page.getByTestId("export-refused").count()).toBe(0);
      // The shrink box at the start of its cell, under the other fields.
      const shrink = (await page.locator('.modal .form > input[type="checkbox"]').boundingBox())!;
      const maxPly = (await page.locator('.modal .form > input[type="number"]').first().boundingBox())!;
      expect(Math.abs(shrink.x - maxPly.x)).toBeLessThan(6); // the box's own margin
      await page.getByTestId("export-path").fill("../x.db");
      await page.getByTestId("export-refused").waitFor();
      await shot(page, `export-refused-${lang}`);
    }
  }, 60_000);

  it("gives no tooltip that only repeats its control's label", async () => {
    for (const lang of ["en", "ja"] as const) {
      const page = await open(1280, 800, lang);
      const repeats = async () =>
        page.evaluate(() => {
          const norm = (s: string | null | undefined) => (s ?? "").replace(/[…\s.:：]/g, "").toLowerCase();
          const out: string[] = [];
          for (const el of document.querySelectorAll("[title]")) {
            // The book's path: cut to the bar's room, its title is the whole path.
            if (el.getAttribute("data-testid") === "book-path") continue;
            const title = norm(el.getAttribute("title"));
            const label = el instanceof HTMLSelectElement ? el.selectedOptions[0]?.textContent : el.textContent;
            if (title && title === norm(label)) out.push(`${el.getAttribute("data-testid") ?? el.className}: ${el.getAttribute("title")}`);
          }
          return out;
        });
      for (const tab of ["dig", "book", "tree", "engines", "bans", "tools", "match", "setup", "record"]) {
        await page.getByTestId(`tab-${tab}`).click();
        await page.getByTestId(`tab-${tab}`).and(page.locator('[aria-selected="true"]')).waitFor();
        expect(await repeats(), `${tab} (${lang})`).toEqual([]);
      }
      // An icon alone says what it does (the banned moves' ↻ said nothing).
      await page.getByTestId("tab-bans").click();
      expect(await page.getByTestId("bans-reload").getAttribute("title")).toMatch(lang === "en" ? /again/ : /読み直/);
      // The dig settings' labels explain themselves on hover.
      await page.getByTestId("tab-dig").click();
      const labels = page.locator('[data-testid="settings"] .field-label[title]');
      await labels.first().waitFor();
      expect(await labels.count()).toBeGreaterThanOrEqual(11);
      for (const l of await labels.all())
        expect(((await l.getAttribute("title")) ?? "").length).toBeGreaterThan(((await l.textContent()) ?? "").length);
    }
  }, 90_000);

  it("draws moves with full-width digits, as the KIF copy writes them", async () => {
    for (const lang of ["en", "ja"] as const) {
      const page = await open(1280, 800, lang);
      await page.getByTestId("tab-book").click();
      const first = page.getByTestId("move-text").first();
      await first.waitFor();
      const shown = (await first.textContent())!.trim();
      expect(shown).toMatch(/^[▲△][１-９][一二三四五六七八九]/);
      // The same move in the KIF copy of the line into it.
      await page.getByTestId("move-row").first().dblclick();
      await expect.poll(() => page.getByTestId("copy-text").inputValue()).toMatch(/\n\s+1 /);
      expect(await page.getByTestId("copy-text").inputValue()).toContain(` ${shown.slice(1).replace(/[左右上引寄直]+$/, "")}`);
      // Drawn as wide as the kanji beside it (a proportional font drew "７" as narrow as "7").
      for (const sel of ['[data-testid="move-text"]', ".pv-panel .ply", '[data-testid="tree-node"] text']) {
        if (sel.includes("tree")) {
          await page.getByTestId("tab-tree").click();
          await page.getByTestId("tree-node").first().waitFor();
        }
        const ratio = await page
          .locator(sel)
          .first()
          .evaluate((el) => {
            const css = getComputedStyle(el);
            const ctx = document.createElement("canvas").getContext("2d")!;
            ctx.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
            return ctx.measureText("７").width / ctx.measureText("八").width;
          });
        expect(ratio, sel).toBeGreaterThan(0.9);
      }
    }
  }, 60_000);

  it("shows what stood cut off, overlapped or mislabeled, whole and right", async () => {
    for (const lang of ["en", "ja"] as const) {
      const page = await open(1280, 800, lang);
      // The side to move under the board, below it (it stood 3 px into the board's edge).
      const stm = (await page.getByTestId("side-to-move").first().boundingBox())!;
      const board = (await page.locator("svg.board .board-bg").first().boundingBox())!;
      expect(stm.y).toBeGreaterThanOrEqual(board.y + board.height);
      // Dig settings: every label and the policy's name whole.
      await page.getByTestId("tab-dig").click();
      await page.getByTestId("settings").waitFor();
      expect(await showsWhole(page.getByTestId("set-policy"))).toBe(true);
      for (const l of await page.locator('[data-testid="settings"] .field-label').all())
        expect(await showsWhole(l), (await l.textContent()) ?? "").toBe(true);
      // MultiPV's number beside its select: three digits whole, at 1920 px in Japanese too.
      if (lang === "ja") {
        await page.setViewportSize({ width: 1920, height: 1080 });
        await page.getByTestId("set-multipv-mode").selectOption("fixed");
        await page.getByTestId("set-multipv").fill("600");
        expect(await showsWhole(page.getByTestId("set-multipv"))).toBe(true);
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      // Book: the selected row's state in white on the accent (it was green on blue).
      await page.getByTestId("tab-book").click();
      await page.getByTestId("move-row").first().click();
      const state = page.locator('[data-testid="move-row"].selected .c-state');
      expect(await state.evaluate((e) => getComputedStyle(e).color)).toBe("rgb(255, 255, 255)");
      // Tree: the keys' help whole and inside the window (the bar cut it at its end).
      await page.getByTestId("tab-tree").click();
      const keys = page.getByTestId("tree-keys");
      await keys.waitFor();
      expect(await inViewport(page, keys)).toBe(true);
      expect(await showsWhole(page.locator(".tree-bar"))).toBe(true);
      // Match: labels whole; without --allow-server-paths it says how to play, offering no upload buttons it lacks.
      await page.getByTestId("tab-match").click();
      await page.getByTestId("match-openings").waitFor();
      for (const l of await page.locator(".match-form .field-label").all())
        expect(await showsWhole(l), (await l.textContent()) ?? "").toBe(true);
      const off = (await page.getByTestId("server-paths-off").textContent()) ?? "";
      expect(off).toContain("--allow-server-paths");
      expect(off).not.toMatch(/button|ボタン/);
      // Tools: the path fields' hints whole, and a book without backups says so.
      await page.getByTestId("tab-tools").click();
      await page.getByTestId("backup-none").waitFor();
      expect(await page.getByTestId("backup-list").isVisible()).toBe(false);
      expect(await showsWhole(page.getByTestId("backup-dir"))).toBe(true);
      expect(await showsWhole(page.getByTestId("restore-path"))).toBe(true);
      await shot(page, `tools-${lang}`);
    }
    expect(problems).toEqual([]);
  }, 90_000);
});
