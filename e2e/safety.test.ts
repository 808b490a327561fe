// Safety, end to end through `horu web` in chromium: each case that once
// destroyed a book or left stale state gives the right behaviour, and the book survives every
// one (integrity_check ok, every result still there).
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./harness";
import { addBookEngine, ENGINE, haveChromium, useHoruWeb } from "./testing/fixture";
import { OpenBook } from "../electron/book/open-book";
import { assertIntact, makeBook } from "./books";

describe.skipIf(!haveChromium && !process.env.CI)("nothing a user does destroys a book (horu web)", () => {
  let page: Page;
  let mine: string, other: string, existing: string;
  let mineSfens: string[], otherSfens: string[];
  const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim() ?? "";
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

  const web = useHoruWeb("horu-e2e-safety-", (dir) => {
    mine = path.join(dir, "mine.horu");
    other = path.join(dir, "other.horu");
    existing = path.join(dir, "existing.db");
    mineSfens = makeBook(mine, 30);
    otherSfens = makeBook(other, 10);
    writeFileSync(existing, "#YANEURAOU-DB2016 1.00\n# the previous export\n");
    writeFileSync(path.join(dir, "notes.txt"), "my precious notes\n");
    return ["--book", mine];
  });

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(web.horu.url);
    await page.getByTestId("lang").click();
    await page.getByTestId("export-open").waitFor();
  }, 120_000);

  /** A target the dialog refuses: Export is disabled and the reason is on screen. */
  const refuse = async (target: string) => {
    if (!(await page.getByTestId("export-dialog").isVisible())) await page.getByTestId("export-open").click();
    await page.getByTestId("export-path").fill(target);
  };
  const exportTo = async (target: string) => {
    if (!(await page.getByTestId("export-dialog").isVisible())) await page.getByTestId("export-open").click();
    await page.getByTestId("export-path").fill(target);
    await page.getByTestId("export-run").click();
  };
  /** What the dialog says against the target: the banner, the target line and the disabled button's reason. */
  const refusal = async () =>
    [
      (await page.getByTestId("error").count()) > 0 ? await text("error") : "",
      await text("export-target"),
      (await page.getByTestId("export-run").getAttribute("title")) ?? "",
    ].join(" ");

  it("export onto the open book is refused, by full or relative path; the book stays whole", async () => {
    expect(await text("book-path")).toBe(mine);
    await page.getByTestId("export-open").click();
    // Relative paths resolve against the book's folder, and the dialog says so.
    await expect.poll(() => text("export-folder")).toBe(web.dir);
    for (const target of [mine, "mine.horu"]) {
      await refuse(target);
      await expect.poll(refusal).toContain("is the open book");
      expect(await page.getByTestId("export-run").isDisabled()).toBe(true);
      expect(await page.getByTestId("export-confirm").count()).toBe(0);
      expect(await text("export-target")).toContain("refused");
    }
    await shot("safety-export-open-book");
    assertIntact(mine, mineSfens);
  });

  it("export onto another horu book is refused", async () => {
    await refuse(other);
    await expect.poll(refusal).toContain("horu book or another SQLite database");
    expect(await page.getByTestId("export-run").isDisabled()).toBe(true);
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
    // The question is about the name it asked on: another name typed, it goes (Replace once
    // replaced the new name's file, a user's notes, unasked).
    await page.getByTestId("export-run").click();
    await page.getByTestId("export-confirm").waitFor();
    await page.getByTestId("export-path").fill("notes.txt");
    await expect.poll(() => page.getByTestId("export-confirm").count()).toBe(0);
    expect(readFileSync(path.join(web.dir, "notes.txt"), "utf8")).toBe("my precious notes\n");
    await page.getByTestId("export-path").fill("existing.db");
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
    await expect.poll(() => text("export-result"), { timeout: 30_000 }).toContain(path.join(web.dir, "fresh.bin"));
    expect(existsSync(path.join(web.dir, "fresh.bin"))).toBe(true);
    await page.keyboard.press("Escape");
  });
});

describe.skipIf((!haveChromium || !existsSync(ENGINE)) && !process.env.CI)("nothing on screen is stale (horu web, fairy-stockfish)", () => {
  let page: Page;
  let digged: string;
  const pausedStatuses: Array<{ elapsedMs: number }> = [];
  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? "";

  const web = useHoruWeb("horu-e2e-state-", (dir) => {
    digged = path.join(dir, "dig.horu");
    const book = OpenBook.create(digged, { limit: { nodes: 3000 } });
    addBookEngine(book);
    book.close();
    return ["--book", digged];
  });

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1280, height: 860 } });
    // The status events the page receives while paused, read off its WebSocket.
    page.on("websocket", (ws) =>
      ws.on("framereceived", ({ payload }) => {
        const e = JSON.parse(String(payload)) as { type: string; status?: { state: string; elapsedMs: number } };
        if (e.type === "dig.status" && e.status?.state === "paused") pausedStatuses.push(e.status);
      }),
    );
    await page.goto(web.horu.url);
    // The book names an engine this machine has not approved: the window asks before adding it.
    await page.getByTestId("book-engine-add").click();
    await page.getByTestId("book-engines-dialog").waitFor({ state: "detached" });
    await page.getByTestId("lang").click();
    await page.getByTestId("dig-start").waitFor();
  }, 120_000);

  it("an error banner goes with the next successful action; paused, nothing is in flight and the clock stops; after Stop no engine thinks", async () => {
    await page.getByTestId("book-path-input").fill(path.join(web.dir, "missing", "deep", "x.horu"));
    await page.getByTestId("book-open").click();
    await page.getByTestId("error").waitFor();
    await page.getByTestId("dig-start").click();
    await expect.poll(() => page.getByTestId("error").count()).toBe(0);
    await expect.poll(async () => Number((await text("thought")).replaceAll(",", "")), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    await page.getByTestId("dig-pause").click();
    await expect.poll(() => text("dig-state"), { timeout: 30_000 }).toMatch(/paused/i);
    await expect.poll(() => page.getByTestId("in-flight").locator("li").count()).toBe(0);
    const elapsed = await text("elapsed");
    // Paused, the host still sends its status twice a second: after 5 of them (over 2 s, so a
    // running clock would have moved on screen), every one carries the same elapsed time.
    const seen = pausedStatuses.length;
    await expect.poll(() => pausedStatuses.length - seen, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    expect(new Set(pausedStatuses.slice(seen).map((st) => st.elapsedMs)).size).toBe(1);
    expect(await text("elapsed")).toBe(elapsed);
    expect(await page.locator('[data-testid="engine-row"] [data-state="thinking"]').count()).toBe(0);
    await page.getByTestId("dig-resume").click();
    await expect.poll(() => text("dig-state"), { timeout: 30_000 }).toMatch(/digging/i);
    await page.getByTestId("dig-stop").click();
    await expect.poll(() => text("dig-state"), { timeout: 30_000 }).toMatch(/stopped/i);
    expect(await page.locator('[data-testid="engine-row"] [data-state="thinking"]').count()).toBe(0);
    expect(await page.locator('[data-testid="engine-row"] [data-state="stopped"]').count()).toBeGreaterThan(0);
  });

  it("the tab and the board position survive a reload", async () => {
    await page.getByTestId("tab-book").click();
    await page.locator("[data-testid=move-row]").first().dblclick();
    await expect.poll(() => text("ply")).toMatch(/^1/);
    expect(await page.evaluate(() => localStorage.getItem("horu.tab"))).toBe("book");
    await page.reload();
    await expect.poll(() => text("ply")).toMatch(/^1/);
    await expect.poll(() => page.getByTestId("tab-book").getAttribute("class")).toContain("active");
  });

  it("switching to an empty book shows none of the previous book's counts, PV or root value", async () => {
    await page.getByTestId("tab-dig").click();
    const empty = path.join(web.dir, "empty.horu");
    await page.getByTestId("book-path-input").fill(empty);
    await page.getByTestId("book-create").click();
    await expect.poll(() => text("book-path")).toBe(empty);
    await expect.poll(() => text("thought")).toBe("0");
    expect(await text("book-size")).toBe("0");
    expect(await text("root-value")).toBe("–");
    expect(await page.getByTestId("in-flight").locator("li").count()).toBe(0);
    await web.horu.stop();
    const db = new Database(digged, { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect((db.prepare("SELECT count(*) AS n FROM positions").get() as { n: number }).n).toBeGreaterThanOrEqual(3);
    } finally {
      db.close();
    }
  });
});
