// The whole UI in Japanese. Every view the app's navigation offers (every tab
// found on the page, so views added later are covered too), the dialogs and forms they open,
// and the screen with no book, are rendered in Japanese while a real engine digs; any English
// word outside engine output, paths and notation fails the test, naming the view and the word.
//
// What counts as data, not UI: elements with class "mono" (paths, SFEN, USI, PVs) or inside
// [data-raw] (engine names and output, file names, user comments), and <code>. Everything
// else, placeholders included, must be Japanese; a few words are the same in both languages
// (format and protocol names, units such as ms and cp).
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./harness";
import { addLibraryEngine, digSmallBook, ENGINE, useHoruWeb } from "./testing/fixture";
import { OpenBook } from "../electron/book/open-book";
import { Position } from "../shared/rules/position";

const ready = existsSync("/usr/bin/chromium") && existsSync(ENGINE);
if (!ready && process.env.CI)
  throw new Error("e2e/japanese.test.ts needs /usr/bin/chromium and /usr/games/fairy-stockfish (.ci/run installs them)");

/** Words that are the same in Japanese UIs: names of formats, protocols and units. */
const ALLOWED = new Set([
  "SFEN",
  "USI",
  "KIF",
  "KI2",
  "CSA",
  "JKF",
  "USEN",
  "NPS",
  "PV",
  "MultiPV",
  "pid",
  "cp",
  "ms",
  "horu",
  "DB2016",
  "YaneuraOu",
  "Apery",
  "ShogiGUI",
  "db",
  "bin",
  "ybb",
  "sbk",
  "kif",
  "kifu",
  "ki2",
  "csa",
  "sfen",
  "usi",
  "jkf",
  "txt",
  "SQLite",
  "Elo",
  "SPRT",
  "CPU",
  "RSS",
  "GiB",
  "MiB",
  "KiB",
  "B",
  "MB",
  "GB",
  "English",
  "ybb",
  "sbk",
  "startpos",
  "moves",
  "Threads",
  "USI_Hash",
  "Hash",
  "Enter",
  "Home",
  "OK",
  "ssh",
  "WAL",
  "JSON",
  "URL",
  "ID",
  "KB",
]);

/** Visible English words outside data elements, with a little context each. */
async function englishWords(page: Page): Promise<string[]> {
  return page.evaluate(
    (allowed) => {
      const skip = (el: Element | null): boolean => {
        for (let e = el; e; e = e.parentElement) {
          if (
            e.classList.contains("mono") ||
            e.hasAttribute("data-raw") ||
            e.tagName === "CODE" ||
            e.tagName === "SCRIPT" ||
            e.tagName === "STYLE"
          )
            return true;
        }
        return false;
      };
      const visible = (el: Element): boolean => {
        const r = (el as HTMLElement).getBoundingClientRect?.();
        const s = getComputedStyle(el);
        return !!r && r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
      };
      const found: string[] = [];
      const check = (raw: string, where: Element) => {
        // Paths, SFEN and command lines inside a sentence are data, not words.
        // USI moves are notation (shown with the Japanese one), and an SFEN is a position.
        const text = raw
          .replace(/\bsfen \S+ [bw] \S+( \d+)?/g, " ")
          .replace(/\S+\/\S+ [bw] [-A-Za-z0-9]+( \d+)?/g, " ") // a bare SFEN (tooltips of positions)
          .replace(/\S*\/\S*/g, " ")
          .replace(/\b(horu [a-z]+( [a-z]+)?( --?[a-z-]+( [A-Z]+)?)*|ssh \w+)/g, " ") // command lines: `horu engines add`, `horu web --allow-server-paths`
          .replace(/(^|[^A-Za-z0-9])([1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])(?![A-Za-z0-9])/g, "$1 ");
        for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9_'-]*[A-Za-z0-9]|[A-Za-z]/g)) {
          const w = m[0];
          if (allowed.includes(w)) continue;
          if (/^[A-Za-z]$/.test(w) && /[0-9]/.test(text)) continue; // units glued to numbers ("12k", "3M")
          const ctx = text.trim().slice(0, 60);
          found.push(
            `"${w}" in ${where.tagName.toLowerCase()}${where.getAttribute("data-testid") ? `[${where.getAttribute("data-testid")}]` : ""}: ${ctx}`,
          );
        }
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || skip(el) || !visible(el)) continue;
        if (el.tagName === "OPTION" && skip(el.parentElement)) continue;
        check(n.textContent ?? "", el);
      }
      for (const el of document.querySelectorAll("[placeholder]"))
        if (!skip(el) && visible(el)) check(el.getAttribute("placeholder") ?? "", el);
      // Text drawn on canvases (the charts' axes) is not in the DOM: the chart lists it here.
      for (const el of document.querySelectorAll("[data-canvas-labels]"))
        if (visible(el)) check((JSON.parse(el.getAttribute("data-canvas-labels") ?? "[]") as string[]).join(" "), el);
      // Tooltips are read too (engine choice, buttons): what the pointer shows is UI.
      for (const el of document.querySelectorAll("[title]")) if (!skip(el) && visible(el)) check(el.getAttribute("title") ?? "", el);
      for (const el of document.querySelectorAll("select"))
        if (!skip(el) && visible(el)) for (const o of el.querySelectorAll("option")) if (!skip(o)) check(o.textContent ?? "", o);
      return [...new Set(found)];
    },
    [...ALLOWED],
  );
}

describe.skipIf(!ready)("the Japanese UI", () => {
  let page: Page;
  const problems: string[] = [];
  const look = async (view: string) => {
    await page.waitForTimeout(0);
    for (const w of await englishWords(page)) problems.push(`${view}: ${w}`);
    await page.screenshot({ path: path.join(ARTIFACTS, `ja-${view}.png`) });
  };

  const web = useHoruWeb(
    "horu-ja-",
    (dir) => {
      const book = path.join(dir, "ja.horu");
      digSmallBook(book, { nodes: 2000, positions: 3 });
      const b = OpenBook.open(book);
      // In the user's engine library: an engine a book names is only asked about (BookEnginesDialog).
      addLibraryEngine(dir);
      const root = Position.fromUsi("startpos");
      b.store.bans.add({ sfen: root.sfenKey(), keyHi: root.keyHi, keyLo: root.keyLo, move: "9g9f", reason: "repetition" });
      b.close();
      return ["--book", book];
    },
    180_000,
  );

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1440, height: 900 }, locale: "ja-JP" });
    page.on("dialog", (d) => void d.dismiss());
    await page.goto(web.horu.url);
    await page.getByTestId("tab-dig").waitFor();
  }, 120_000);

  it("renders every view in Japanese with no English word outside engine output, paths and notation", { timeout: 120_000 }, async () => {
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ja");
    // A dig running, so the dig view shows engines, states and counters.
    await page.getByTestId("tab-dig").click();
    await page.getByTestId("dig-start").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toBe("digging");
    await expect.poll(() => page.getByTestId("engine-row").count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // The charts' axis labels are drawn on a canvas: read what was drawn. Digging times are in
    // 日/時間/分/秒, counts use 万/億, and no Latin letter (no "Nov", "12k", "5m") is drawn.
    const chartLabels = () =>
      page
        .locator(".chart[data-canvas-labels]")
        .evaluateAll((els) => els.map((e) => JSON.parse(e.getAttribute("data-canvas-labels") ?? "[]") as string[]));
    await expect.poll(async () => (await chartLabels()).filter((l) => l.length >= 2).length, { timeout: 30_000 }).toBe(2);
    const drawn = (await chartLabels()).flat();
    expect(drawn.filter((l) => /[A-Za-z]/.test(l))).toEqual([]);
    expect(drawn.some((l) => /^(\d+(日|時間|分|秒))+$/.test(l))).toBe(true);
    expect(drawn).toContain("掘った時間");

    // Every tab the navigation offers, whatever views others add later.
    const tabs = await page.locator('nav [data-testid^="tab-"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!));
    expect(tabs.length).toBeGreaterThanOrEqual(6);
    for (const tab of tabs) {
      await page.getByTestId(tab).click();
      await page.waitForTimeout(300);
      await look(tab);
      // Within a view, its own sub-navigation ([data-subtab]) too.
      const subs = await page.locator("[data-subtab]").evaluateAll((els) => els.map((e) => e.getAttribute("data-subtab")!));
      for (const sub of subs) {
        await page.locator(`[data-subtab="${sub}"]`).click();
        await page.waitForTimeout(200);
        await look(`${tab}-${sub}`);
      }
    }
    await page.getByTestId("tab-dig").click();
    await page.getByTestId("dig-stop").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toMatch(/stopped|idle/);
    await look("dig-stopped");

    // The forms and dialogs views open.
    await page.getByTestId("tab-engines").click();
    await page.getByTestId("engine-new").click();
    await look("engine-new");
    await page.getByTestId("engine-command").fill("/nonexistent/engine");
    await page.getByTestId("engine-test").click();
    await page.getByTestId("engine-test-result").waitFor();
    await look("engine-test-error");
    await page.getByTestId("export-open").click();
    await look("export-dialog");
    // The server's refusal of the open book as an export target, in Japanese, and the button off.
    await page.getByTestId("export-path").fill("ja.horu");
    await page.getByTestId("export-refused").waitFor();
    expect(await page.getByTestId("export-refused").textContent()).toContain("開いている定跡です");
    expect(await page.getByTestId("export-run").isDisabled()).toBe(true);
    await look("export-refused");
    await page.getByTestId("export-cancel").click();

    // A root that is not a position: the reason in Japanese (the parser's English is not shown).
    await page.getByTestId("tab-dig").click();
    await page.getByTestId("set-root").fill("startpos moves 7g7e");
    await page.getByTestId("settings-error").waitFor();
    expect(await page.getByTestId("settings-error").textContent()).toContain("1 手目 (7g7e) はその局面で指せません");
    await look("root-error");
    await page.getByTestId("set-root").fill("startpos");

    // Without --allow-server-paths, the fields that name server files say why they are off.
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("server-paths-off").waitFor();
    expect(await page.getByTestId("import-path").isDisabled()).toBe(true);
    await look("server-paths-off");

    // A host error, translated by its key.
    await page.getByTestId("book-path-input").fill(path.join(web.dir, "missing.horu"));
    await page.getByTestId("book-open").click();
    await page.getByTestId("error").waitFor();
    expect(await page.getByTestId("error").textContent()).toContain("がありません");
    await look("host-error");

    // Light theme, and the screen with no book.
    await page.getByTestId("theme").click();
    await look("light-theme");
    await page.getByTestId("book-close").click();
    await expect.poll(() => page.getByTestId("tab-dig").count()).toBe(0); // the screen without a book (welcome)
    await look("no-book");

    expect(problems, `English words in the Japanese UI:\n${problems.join("\n")}`).toEqual([]);
  });
});
