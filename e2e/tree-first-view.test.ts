// Issue 44 item 5 (the tree's first view), end to end: a root with all its 30 moves in the book,
// the best first. Laid out best first, the best move's box sat at the top of its column and
// was drawn clipped above the view's edge; now the first view shows it whole.
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import path from "node:path";
import { ARTIFACTS } from "./harness";
import { useHoruWeb } from "./testing/fixture";
import { missing } from "../electron/testing/missing.js";
import { OpenBook } from "../electron/book/open-book";
import { Position } from "../shared/rules/position";
import { moveToUsi } from "../shared/rules/usi";
import { addCraftedThought } from "../electron/testing/transposition-book";

/** A book whose root lists every legal move, 7g7f best (+60), the others below it. */
function writeWideBook(file: string): void {
  const book = OpenBook.create(file, {});
  try {
    const pos = Position.startpos();
    const legal = new Uint16Array(600);
    const n = pos.generateLegal(legal);
    const moves = Array.from(legal.subarray(0, n), (m) => moveToUsi(m));
    addCraftedThought(
      book,
      pos,
      moves.map((move, i): [string, number] => [move, move === "7g7f" ? 60 : -10 - i]),
    );
  } finally {
    book.close();
  }
}

describe.skipIf(missing(existsSync("/usr/bin/chromium"), "/usr/bin/chromium"))("the tree's first view (horu web)", () => {
  const web = useHoruWeb("horu-e2e-tree-view-", (dir) => {
    const file = path.join(dir, "wide.horu");
    writeWideBook(file);
    return ["--book", file];
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1100, height: 700 },
  ])
    it(`shows the best move's box whole at ${viewport.width}×${viewport.height}`, { timeout: 60_000 }, async () => {
      const page = await web.browser.newPage({ viewport });
      await page.goto(web.horu.url);
      await page.getByTestId("tab-tree").click();
      const best = page.locator('[data-testid="tree-node"][data-key="7g7f"]');
      await expect.poll(() => best.count(), { timeout: 20_000 }).toBe(1);
      expect(await best.getAttribute("class")).toContain("pv");
      const canvas = (await page.getByTestId("tree-canvas").boundingBox())!;
      // Placed once, the view moves at most once more: poll until the box is inside.
      await expect
        .poll(
          async () => {
            const b = await best.locator("rect").boundingBox();
            return (
              b !== null &&
              b.x >= canvas.x &&
              b.y >= canvas.y &&
              b.x + b.width <= canvas.x + canvas.width &&
              b.y + b.height <= canvas.y + canvas.height
            );
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      // The root stays in view beside it.
      const root = (await page.locator('[data-testid="tree-node"][data-key=""] rect').boundingBox())!;
      expect(root.y).toBeGreaterThanOrEqual(canvas.y);
      expect(root.y + root.height).toBeLessThanOrEqual(canvas.y + canvas.height);
      await page.screenshot({ path: path.join(ARTIFACTS, `tree-first-view-${viewport.width}.png`) });
      await page.close();
    });
});
