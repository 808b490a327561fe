// Issue 44 item 1, end to end: after Pause the values on screen are the stored book's. A dig
// with fairy-stockfish at few nodes is paused; the root value (Dig), the root's bound (Book)
// and the Tree's root box must all equal a negamax of the book read through the API, also
// after a reload. Before the fix, positions selected ahead stayed in flight while paused, so
// the Tree and Book left their values out, and the root value was the last selection's.
import { describe, expect, it } from "vitest";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./harness";
import { addLibraryEngine, haveChromium, haveEngine, useHoruWeb } from "./testing/fixture";
import { apiCall } from "./frames";
import { missing } from "../electron/testing/missing.js";
import { OpenBook } from "../electron/book/open-book";
import { formatValue } from "../renderer/src/logic";
import type { DigStatus, GraphNodeView } from "../shared/api/contract";

/** The book's negamax from `sfen` (side to move's view), read through book.graph; null when not thought. */
async function negamax(page: Page, sfen: string, memo = new Map<string, number | null>()): Promise<number | null> {
  if (memo.has(sfen)) return memo.get(sfen)!;
  memo.set(sfen, null); // a cycle back here counts for nothing (none in a short dig from the start)
  const [node] = await apiCall<GraphNodeView[]>(page, "book.graph", { sfens: [sfen] });
  let best: number | null = null;
  if (node && node.state === "thought")
    for (const c of node.children) {
      if (c.state === "banned") continue;
      const below = c.state === "thought" ? await negamax(page, c.to, memo) : null;
      const v = below !== null ? -below : c.engineValue;
      if (v !== null && (best === null || v > best)) best = v;
    }
  memo.set(sfen, best);
  return best;
}

describe.skipIf(missing(haveChromium && haveEngine, "/usr/bin/chromium or fairy-stockfish"))("values after Pause (horu web)", () => {
  const web = useHoruWeb("horu-e2e-pause-", (dir) => {
    const book = path.join(dir, "paused.horu");
    // Few nodes a think, several positions selected ahead: a pause always finds some waiting.
    OpenBook.create(book, { limit: { nodes: 3000 }, prefetch: 6 }).close();
    addLibraryEngine(dir);
    return ["--book", book];
  });

  it("shows the stored book's value at the root after Pause, also after a reload", { timeout: 240_000 }, async () => {
    const page = await web.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(() => localStorage.setItem("horu.lang", "en"));
    await page.goto(web.horu.url);
    await page.getByTestId("tab-dig").click();
    await page.getByTestId("dig-start").click();
    await expect
      .poll(async () => (await apiCall<DigStatus>(page, "dig.status", {})).thought, { timeout: 120_000 })
      .toBeGreaterThanOrEqual(12);
    await page.getByTestId("dig-pause").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toBe("paused");

    const root = (await apiCall<{ rootSfen: string }>(page, "book.info", {})).rootSfen;
    const check = async () => {
      // Nothing is left in flight while paused: every move from the root is thought or a leaf.
      const [r] = await apiCall<GraphNodeView[]>(page, "book.graph", { sfens: [root] });
      expect(r!.children.filter((c) => c.state === "in-flight")).toEqual([]);
      const value = await negamax(page, root);
      expect(value).not.toBeNull();
      const shown = formatValue(value!); // Black moves at the root: the same in either viewpoint
      await page.getByTestId("tab-dig").click();
      await expect.poll(() => page.getByTestId("root-value").textContent(), { timeout: 20_000 }).toBe(shown);
      await page.getByTestId("tab-book").click();
      await expect.poll(() => page.getByTestId("bound").textContent(), { timeout: 20_000 }).toMatch(new RegExp(`: = \\${shown}$`));
      await page.getByTestId("tab-tree").click();
      const box = page.locator('[data-testid=tree-node][data-usi=""] [data-testid=tree-value]');
      await expect.poll(() => box.textContent(), { timeout: 20_000 }).toBe(`= ${shown}`);
    };
    await check();
    await page.screenshot({ path: path.join(ARTIFACTS, "pause-values-tree.png") });
    await page.reload();
    await check();
    await apiCall(page, "dig.stop", {});
    await page.close();
  });
});
