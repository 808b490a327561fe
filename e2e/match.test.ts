// The Match view end to end against a real `horu web` and fairy-stockfish: start a match
// from the UI and see its games live, then watch a `horu match` another process plays.
// Screenshots go to e2e/artifacts/.
import { beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, ROOT, ALLOW_SERVER_PATHS } from "./harness";
import { ENGINE, haveChromium, haveEngine, useHoruWeb } from "./testing/fixture";
import { missing } from "../electron/testing/missing.js";

const haveBoth = haveChromium && haveEngine;

describe.skipIf(missing(haveBoth, "/usr/bin/chromium or fairy-stockfish"))("Match view", () => {
  let page: Page;
  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? "";
  const consoleProblems: string[] = [];
  // The Match view names folders and engine books on this machine: over HTTP that needs the flag.
  const web = useHoruWeb("horu-e2e-match-", () => [ALLOW_SERVER_PATHS]);

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on("pageerror", (e) => consoleProblems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" && /^Failed to load resource: the server responded with a status of (4|5)\d\d/.test(m.text())) return;
      if (m.type() === "error") consoleProblems.push(`console error: ${m.text()}`);
    });
    await page.goto(web.horu.url);
  }, 120_000);

  it("starts a match without a book open and shows games, table and Elo live, in Japanese", { timeout: 150_000 }, async () => {
    // Japanese is the default language: the labels below are the Japanese ones.
    await page.getByTestId("tab-match-nobook").click();
    await expect.poll(() => text("match-view")).toContain("対局開始");
    const out = path.join(web.dir, "ui-match");
    await page.getByTestId("match-engine1").fill(ENGINE);
    await page.getByTestId("match-engine2").fill(ENGINE);
    await page.getByTestId("match-book1").fill(path.join(ROOT, "shared", "formats", "testdata", "books", "book_yaneuraou.db"));
    await page.getByTestId("match-games").fill("4");
    await page.getByTestId("match-nodes").fill("2000");
    await page.getByTestId("match-maxmoves").fill("60");
    await page.getByTestId("match-dir").fill(out);
    await page.getByTestId("match-start").click();
    // Live: a game in progress with moves on its board.
    await expect
      .poll(async () => Number(/手数 (\d+)/.exec(await text("match-live-ply"))?.[1] ?? 0), { timeout: 60_000, interval: 100 })
      .toBeGreaterThan(0);
    expect(await text("match-state")).toBe("対局中");
    await page.screenshot({ path: path.join(ARTIFACTS, "match-live.png") });
    // Finished: four rows, the table and an Elo interval.
    await expect.poll(() => text("match-state"), { timeout: 120_000, interval: 250 }).toBe("終了");
    expect(await page.getByTestId("match-game-row").count()).toBe(4);
    expect(await text("match-played")).toMatch(/^4 \/ 4/);
    // Two pairs are too few for an interval: the Elo is shown without one, never a zero-width one.
    expect(await text("match-elo")).toMatch(/^(?:[+-]\d+\.\d|[+−]∞) \(区間なし\)$/);
    expect(await text("match-distinct")).toMatch(/^[1-4] \/ 4 · [1-2] \/ 2$/);
    const [w, d, l] = (await text("match-wdl")).split("-").map(Number);
    expect(w! + d! + l!).toBe(4);
    const table = await text("match-table");
    expect(table).toContain("勝-分-敗");
    expect(table).toContain("Elo (95%信頼区間)");
    expect(table).toContain("得点率");
    expect(await text("match-setup")).toContain("2,000 ノード/手");
    const results = readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n");
    expect(results).toHaveLength(4);
    // The start form is back with what was typed (it once reset after a match).
    expect(await page.getByTestId("match-engine1").inputValue()).toBe(ENGINE);
    expect(await page.getByTestId("match-games").inputValue()).toBe("4");
    expect(await page.getByTestId("match-nodes").inputValue()).toBe("2000");
    expect(await page.getByTestId("match-maxmoves").inputValue()).toBe("60");
    expect(await page.getByTestId("match-dir").inputValue()).toBe(out);
    await page.screenshot({ path: path.join(ARTIFACTS, "match-done.png") });
  });

  it("watches a horu match played by another process, live, in English", { timeout: 150_000 }, async () => {
    await page.getByTestId("lang").click();
    const out = path.join(web.dir, "cli-match");
    const cli = spawn(
      process.execPath,
      [
        path.join(ROOT, "bin", "horu.js"),
        "match",
        "--out",
        out,
        "--engine",
        ENGINE,
        "--option",
        "Threads=1",
        "--nodes",
        "3000",
        "--games",
        "4",
        "--max-moves",
        "80",
      ],
      { stdio: "ignore" },
    );
    const exited = new Promise<number | null>((r) => cli.on("exit", (code) => r(code)));
    try {
      // Wait for the folder to hold a match with a game in progress, then open it.
      await expect.poll(() => existsSync(path.join(out, "live.json")), { timeout: 30_000, interval: 100 }).toBe(true);
      await page.getByTestId("match-open-dir").fill(out);
      await page.getByTestId("match-open").click();
      // The first test's finished match is on screen until this one replaces it: wait for
      // this one's own setup before reading its state.
      await expect.poll(() => text("match-setup"), { timeout: 30_000 }).toContain("3,000 nodes/move");
      await expect.poll(() => text("match-state"), { timeout: 30_000 }).toMatch(/watching|finished/);
      await expect.poll(() => text("match-state"), { timeout: 120_000, interval: 250 }).toBe("finished");
      expect(await page.getByTestId("match-game-row").count()).toBe(4);
      expect(await text("match-elo")).toMatch(/\(no interval\)$/);
      expect(await text("match-table")).toContain("too few distinct pairs");
      expect(await text("match-games-table")).toMatch(/move cap \(draw\)|mate|adjudication|repetition/);
      await page.screenshot({ path: path.join(ARTIFACTS, "match-watch.png") });
    } finally {
      if (cli.exitCode === null) cli.kill("SIGKILL");
    }
    expect(await exited).toBe(0);
  });

  it("printed no errors in the browser console", () => {
    expect(consoleProblems).toEqual([]);
  });
});
