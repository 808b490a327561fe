// Issue 44 item 4, end to end: a move that closes a cycle says what it repeats and why it is
// valued so, in the Book table and in the tree's details, in English and Japanese. The book:
// 7g7f 8b7b 2h3h 7b8b, where Black's 3h2h goes back to the position after 7g7f (ply 1).
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./harness";
import { useHoruWeb } from "./testing/fixture";
import { missing } from "../electron/testing/missing.js";
import { writeCraftedBook, type CraftedBook } from "../electron/testing/transposition-book";

const BOOK: CraftedBook = [
  {
    line: [],
    moves: [
      ["7g7f", 30],
      ["2g2f", 20],
    ],
  },
  {
    line: ["7g7f"],
    moves: [
      ["8b7b", -10],
      ["3c3d", -20],
    ],
  },
  {
    line: ["7g7f", "8b7b"],
    moves: [
      ["2h3h", 5],
      ["2g2f", 15],
    ],
  },
  {
    line: ["7g7f", "8b7b", "2h3h"],
    moves: [
      ["7b8b", -5],
      ["3c3d", -10],
    ],
  },
  {
    line: ["7g7f", "8b7b", "2h3h", "7b8b"],
    moves: [
      ["3h2h", 10],
      ["2g2f", 5],
    ],
  },
];

describe.skipIf(missing(existsSync("/usr/bin/chromium"), "/usr/bin/chromium"))("repetitions explained (horu web)", () => {
  let page: Page;
  const row = (usi: string) => page.locator(`[data-testid="move-row"][data-usi="${usi}"]`);
  const web = useHoruWeb("horu-e2e-cycle-", (dir) => {
    const file = path.join(dir, "cycle.horu");
    writeCraftedBook(file, BOOK);
    return ["--book", file];
  });

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1500, height: 900 } });
    await page.addInitScript(() => localStorage.setItem("horu.lang", localStorage.getItem("horu.lang") ?? "en"));
    await page.goto(web.horu.url);
  }, 120_000);

  it("says which ply a move repeats and that it is valued as a draw, in the Book table and the tree", { timeout: 90_000 }, async () => {
    await page.getByTestId("tab-book").click();
    for (const usi of ["7g7f", "8b7b", "2h3h", "7b8b"]) {
      await row(usi).waitFor({ timeout: 20_000 });
      await row(usi).dblclick();
    }
    await expect.poll(() => page.getByTestId("ply").textContent(), { timeout: 20_000 }).toMatch(/^4/);
    const cell = row("3h2h").getByTestId("move-cycle");
    await expect
      .poll(() => cell.getAttribute("title"), { timeout: 20_000 })
      .toMatch(/^repeats the position at ply 1: valued as a draw \(sennichite\), [±+]?0$/);
    // Its search value is the cycle's on this line (a draw), not the bound of the position it
    // goes back to (reached from the root by 7g7f).
    expect(await row("3h2h").getByTestId("search-value").textContent()).toMatch(/^= [±+]?0 ↻$/);
    // The other move closes nothing.
    expect(await row("2g2f").getByTestId("move-cycle").count()).toBe(0);
    await row("3h2h").click();
    await expect.poll(() => page.getByTestId("cycle-note").textContent()).toMatch(/ply 1: valued as a draw \(sennichite\)/);
    await page.screenshot({ path: path.join(ARTIFACTS, "cycle-book-en.png") });

    // Into the move: the tree's details say the same of the position reached.
    await row("3h2h").dblclick();
    await expect.poll(() => page.getByTestId("ply").textContent(), { timeout: 20_000 }).toMatch(/^5/);
    await page.getByTestId("tab-tree").click();
    await expect
      .poll(() => page.getByTestId("tree-details-cycle").textContent(), { timeout: 20_000 })
      .toMatch(/repeats the position at ply 1: valued as a draw \(sennichite\)/);
    await page.screenshot({ path: path.join(ARTIFACTS, "cycle-tree-en.png") });
    await page.getByTestId("lang").click();
    await expect.poll(() => page.getByTestId("tree-details-cycle").textContent()).toMatch(/1手目の局面に戻る: 千日手で引き分けと評価/);
    await page.getByTestId("tab-book").click();
    await page.getByTestId("nav-back").click();
    await expect.poll(() => page.getByTestId("ply").textContent(), { timeout: 20_000 }).toMatch(/^4/);
    await expect
      .poll(() => row("3h2h").getByTestId("move-cycle").getAttribute("title"))
      .toMatch(/^1手目の局面に戻る: 千日手で引き分けと評価/);
    await page.screenshot({ path: path.join(ARTIFACTS, "cycle-book-ja.png") });
  });
});
