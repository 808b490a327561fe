// In the browser: live analysis (検討) beside the book's moves. One click has the library's
// engine search the browsed position in its own process; its lines (legal from the position)
// deepen; going into a move restarts it there; Stop ends the engine's process. Screenshots in
// English and Japanese for the user guide.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "./harness";
import { addLibraryEngine, digSmallBook, haveChromium, haveEngine, useHoruWeb } from "./testing/fixture";
import { Position } from "../shared/rules/position";
import { missing } from "../electron/testing/missing.js";
import { apiCall } from "./frames";
import type { DigStatus } from "../shared/api/contract";

const IMAGES = path.join(ROOT, "docs", "images");

/** The fairy-stockfish processes below `pid`. */
function enginesBelow(pid: number): number[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const below = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows)
      if (below.has(r.ppid) && !below.has(r.pid)) {
        below.add(r.pid);
        grew = true;
      }
  }
  return rows.filter((r) => r.pid !== pid && below.has(r.pid) && r.args.includes("fairy-stockfish")).map((r) => r.pid);
}

describe.skipIf(missing(haveChromium && haveEngine, "/usr/bin/chromium or fairy-stockfish"))("live analysis (horu web)", () => {
  const web = useHoruWeb(
    "horu-e2e-analysis-",
    (dir) => {
      const book = path.join(dir, "opening.horu");
      digSmallBook(book, { nodes: 1000, positions: 4 });
      addLibraryEngine(dir);
      return ["--book", book];
    },
    300_000,
  );

  async function lines(page: Page): Promise<{ moves: string[]; depth: number }[]> {
    return page
      .getByTestId("analysis-line")
      .evaluateAll((rows) =>
        rows.map((r) => ({ moves: (r.getAttribute("data-moves") ?? "").split(" "), depth: Number(r.getAttribute("data-depth")) })),
      );
  }

  async function open(lang: "en" | "ja"): Promise<Page> {
    const page = await web.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript((l) => localStorage.setItem("horu.lang", l), lang);
    await page.goto(web.horu.url);
    await page.getByTestId("tab-book").click();
    await page.getByTestId("analysis-start").waitFor({ timeout: 30_000 });
    return page;
  }

  it("analyses the browsed position, deepens, restarts when the board moves, stops the engine", { timeout: 240_000 }, async () => {
    const page = await open("en");
    const sfen0 = (await page.getByTestId("analysis").getAttribute("data-sfen"))!;
    expect(enginesBelow(web.horu.proc.pid!)).toEqual([]);
    await page.getByTestId("analysis-start").click();
    await expect.poll(async () => (await lines(page)).length, { timeout: 60_000 }).toBe(3);
    const first = await lines(page);
    for (const l of first) expect(() => Position.fromUsi(`sfen ${sfen0} moves ${l.moves.join(" ")}`)).not.toThrow();
    await expect.poll(async () => (await lines(page))[0]?.depth ?? 0, { timeout: 60_000 }).toBeGreaterThan(first[0]!.depth);
    const engines = enginesBelow(web.horu.proc.pid!);
    expect(engines.length).toBe(1);
    await page.screenshot({ path: path.join(IMAGES, "analysis-en.png") });

    // Into the first move: the analysis follows the board.
    await page.getByTestId("move-row").first().dblclick();
    await expect.poll(() => page.getByTestId("analysis").getAttribute("data-sfen")).not.toBe(sfen0);
    const sfen1 = (await page.getByTestId("analysis").getAttribute("data-sfen"))!;
    await expect.poll(async () => (await lines(page)).length, { timeout: 60_000 }).toBe(3);
    for (const l of await lines(page)) expect(() => Position.fromUsi(`sfen ${sfen1} moves ${l.moves.join(" ")}`)).not.toThrow();
    expect(enginesBelow(web.horu.proc.pid!)).toEqual(engines);

    await page.getByTestId("analysis-stop").click();
    await expect.poll(() => enginesBelow(web.horu.proc.pid!), { timeout: 20_000 }).toEqual([]);
    expect(await page.getByTestId("analysis-line").count()).toBe(0);
    await page.close();

    // The Japanese screenshot, then stopped by leaving the page's panel (Stop).
    const ja = await open("ja");
    await ja.getByTestId("analysis-start").click();
    await expect.poll(async () => (await lines(ja)).length, { timeout: 60_000 }).toBe(3);
    await ja.waitForTimeout(1000);
    await ja.screenshot({ path: path.join(IMAGES, "analysis-ja.png") });
    await ja.getByTestId("analysis-stop").click();
    await expect.poll(() => enginesBelow(web.horu.proc.pid!), { timeout: 20_000 }).toEqual([]);
    await ja.close();
  });

  it("shows as many lines as MultiPV asks, without disturbing a running dig", { timeout: 240_000 }, async () => {
    const page = await open("en");
    const thought = async () => (await apiCall<DigStatus>(page, "dig.status", {})).thought;
    await page.getByTestId("tab-dig").click();
    await page.getByTestId("dig-start").click();
    await expect.poll(thought, { timeout: 60_000 }).toBeGreaterThan(0);
    const digEngines = enginesBelow(web.horu.proc.pid!);
    expect(digEngines.length).toBeGreaterThan(0);

    await page.getByTestId("tab-book").click();
    await page.getByTestId("analysis-multipv").fill("5");
    await page.getByTestId("analysis-start").click();
    await expect.poll(async () => (await lines(page)).length, { timeout: 60_000 }).toBe(5);
    // Its own process beside the dig's, which keep theirs and go on storing results.
    const both = enginesBelow(web.horu.proc.pid!);
    expect(both.length).toBe(digEngines.length + 1);
    for (const pid of digEngines) expect(both).toContain(pid);
    const before = await thought();
    await expect.poll(thought, { timeout: 60_000 }).toBeGreaterThan(before + 2);
    expect(enginesBelow(web.horu.proc.pid!)).toEqual(both);

    // Fewer lines: the analysis starts again with 2.
    await page.getByTestId("analysis-multipv").fill("2");
    await expect.poll(async () => (await lines(page)).length, { timeout: 60_000 }).toBe(2);
    await page.getByTestId("analysis-stop").click();
    await expect.poll(() => enginesBelow(web.horu.proc.pid!), { timeout: 20_000 }).toEqual(digEngines);
    const after = await thought();
    await expect.poll(thought, { timeout: 60_000 }).toBeGreaterThan(after);
    await apiCall(page, "dig.stop", {});
    await expect.poll(() => enginesBelow(web.horu.proc.pid!), { timeout: 30_000 }).toEqual([]);
    await page.close();
  });
});
