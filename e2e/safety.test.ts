// Issue 13, tried again end to end through `horu web` in chromium: each case that once
// destroyed a book or left stale state gives the right behaviour, and the book survives every
// one (integrity_check ok, every result still there).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { ARTIFACTS, ensureRenderer, launchBrowser, startHoru, type Horu } from "./harness";
import { OpenBook } from "../electron/dig/book";
import { growBook } from "../electron/testing/grow";

const haveChromium = existsSync("/usr/bin/chromium");

function makeBook(file: string, n: number): string[] {
  const book = OpenBook.create(file);
  try {
    return growBook(book, n);
  } finally {
    book.close();
  }
}

/** integrity_check ok and every stored position still there (read-only, beside the live holder). */
function assertIntact(file: string, sfens: string[]): void {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    db.close();
  }
  const book = OpenBook.open(file, {}, { readonly: true });
  try {
    for (const s of sfens) expect(book.store.getPosition(s), s).toBeDefined();
  } finally {
    book.close();
  }
}

describe.skipIf(!haveChromium && !process.env.CI)("nothing a user does destroys a book (horu web)", () => {
  let dir: string;
  let horu: Horu;
  let browser: Browser;
  let page: Page;
  let mine: string, other: string, existing: string;
  let mineSfens: string[], otherSfens: string[];
  const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim() ?? "";
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "horu-e2e-safety-"));
    mine = path.join(dir, "mine.horu");
    other = path.join(dir, "other.horu");
    existing = path.join(dir, "existing.db");
    mineSfens = makeBook(mine, 30);
    otherSfens = makeBook(other, 10);
    writeFileSync(existing, "#YANEURAOU-DB2016 1.00\n# the previous export\n");
    await ensureRenderer();
    horu = await startHoru({ HOME: dir }, ["--book", mine]);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(horu.url);
    await page.getByTestId("lang").click();
    await page.getByTestId("export-open").waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await horu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const exportTo = async (target: string) => {
    if (!(await page.getByTestId("export-dialog").isVisible())) await page.getByTestId("export-open").click();
    await page.getByTestId("export-path").fill(target);
    await page.getByTestId("export-run").click();
  };

  it("export onto the open book is refused, by full or relative path; the book stays whole", async () => {
    expect(await text("book-path")).toBe(mine);
    await page.getByTestId("export-open").click();
    // Relative paths resolve against the book's folder, and the dialog says so.
    await expect.poll(() => text("export-folder")).toBe(dir);
    for (const target of [mine, "mine.horu"]) {
      await exportTo(target);
      await expect.poll(() => text("error")).toContain("is the open book");
      expect(await page.getByTestId("export-confirm").count()).toBe(0);
      expect(await text("export-target")).toContain("refused");
    }
    await shot("safety-export-open-book");
    assertIntact(mine, mineSfens);
  });

  it("export onto another horu book is refused", async () => {
    await exportTo(other);
    await expect.poll(() => text("error")).toContain("horu book or another SQLite database");
    expect(await page.getByTestId("export-confirm").count()).toBe(0);
    assertIntact(other, otherSfens);
  });

  it("export onto an existing .db asks first: Cancel keeps it, Replace writes it; the error banner clears on success", async () => {
    await exportTo("existing.db");
    await page.getByTestId("export-confirm").waitFor();
    expect(await text("export-confirm")).toContain(existing);
    await shot("safety-export-confirm");
    await page.getByTestId("export-confirm-cancel").click();
    expect(readFileSync(existing, "utf8")).toContain("the previous export");
    await page.getByTestId("export-run").click();
    await page.getByTestId("export-confirm-replace").click();
    await page.getByTestId("export-result").waitFor({ timeout: 30_000 });
    expect(await text("export-result")).toContain(existing);
    const written = readFileSync(existing, "utf8");
    expect(written.startsWith("#YANEURAOU-DB2016")).toBe(true);
    expect(written).not.toContain("the previous export");
    // The earlier refusal's banner went away with this success.
    expect(await page.getByTestId("error").count()).toBe(0);
    assertIntact(mine, mineSfens);
  });

  it("a new relative name lands beside the book, not in the server's working directory", async () => {
    await exportTo("fresh.bin");
    await expect.poll(() => text("export-result"), { timeout: 30_000 }).toContain(path.join(dir, "fresh.bin"));
    expect(existsSync(path.join(dir, "fresh.bin"))).toBe(true);
    await page.keyboard.press("Escape");
  });
});
