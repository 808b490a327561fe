// In the browser: a book file names an engine command of its own (its engines
// table). Opening it adds nothing and runs nothing: the window shows the command line and
// asks; "Don't add" is remembered for the book, "Add and allow to run" puts it in the library.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ALLOW_SERVER_PATHS, ARTIFACTS } from "./harness";
import { ENGINE, haveChromium, haveEngine, useHoruWeb } from "./testing/fixture";
import { OpenBook } from "../electron/book/open-book";
import { missing } from "../electron/testing/missing.js";

const haveBoth = haveChromium && haveEngine;

describe.skipIf(missing(haveBoth, "/usr/bin/chromium or fairy-stockfish"))("a book's own engine command (horu web)", () => {
  let mark: string;
  const web = useHoruWeb("horu-e2e-book-engines-", (dir) => {
    mark = path.join(dir, "it-ran");
    const file = path.join(dir, "crafted.horu");
    const book = OpenBook.create(file, { limit: { nodes: 1000 } });
    book.store.engines.add({
      name: "Looks Harmless",
      command: "/bin/sh",
      args: ["-c", `touch ${mark}; exec ${ENGINE}`],
      cwd: null,
      options: { Threads: 1 },
      enabled: true,
    });
    book.close();
    // --allow-server-paths: this test is about the book, not about what a page may add without it.
    return ["--book", file, ALLOW_SERVER_PATHS];
  });
  const library = () => path.join(web.dir, ".config", "horu", "engines.json");
  const libraryText = () => (existsSync(library()) ? readFileSync(library(), "utf8") : "");

  it("shows the command line and asks; declining adds nothing, runs nothing, and is remembered", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1280, height: 800 } });
    // English (the dialog is modal: it covers the language button).
    await page.addInitScript(() => localStorage.setItem("horu.lang", "en"));
    await page.goto(web.horu.url);
    const dialog = page.getByTestId("book-engines-dialog");
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.textContent()).toMatch(/not in your engine library/);
    expect((await page.getByTestId("book-engine-command").textContent())?.trim()).toBe(`/bin/sh -c "touch ${mark}; exec ${ENGINE}"`);
    // Its options go with it, shown as they would be sent.
    expect((await page.getByTestId("book-engine-options").textContent())?.trim()).toBe("setoption name Threads value 1");
    await page.screenshot({ path: path.join(ARTIFACTS, "book-engines-ask.png") });

    await page.getByTestId("book-engine-decline").click();
    await dialog.waitFor({ state: "detached" });
    expect(libraryText()).not.toContain("/bin/sh");
    // Asked once per book: a reload does not ask again.
    const asked = page.waitForResponse((r) => r.url().includes("/api/call") && (r.request().postData() ?? "").includes("engines.ofBook"));
    await page.reload();
    await asked;
    // The answer is in the store and rendered (two frames later): no dialog.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.getByTestId("book-path").textContent()).toContain("crafted.horu");
    expect(await dialog.count()).toBe(0);
    expect(existsSync(mark), "the book's command ran").toBe(false);
    await page.close();
  });

  it("adding it is the user's click: then it is in the library, and it is not asked about again", async () => {
    const context = await web.browser.newContext({ viewport: { width: 1280, height: 800 } }); // its own storage: not declined here
    const page = await context.newPage();
    await page.goto(web.horu.url);
    const dialog = page.getByTestId("book-engines-dialog");
    await dialog.waitFor({ timeout: 30_000 });
    // Japanese, the default.
    expect(await dialog.textContent()).toMatch(/エンジンライブラリにないエンジン/);
    expect(await page.getByTestId("book-engine-add").textContent()).toBe("追加して実行を許可");
    await page.screenshot({ path: path.join(ARTIFACTS, "book-engines-ask-ja.png") });
    await page.getByTestId("book-engine-add").click();
    await dialog.waitFor({ state: "detached" });
    const added = JSON.parse(libraryText()) as { engines: Array<{ name: string; command: string; args: string[] }> };
    expect(added.engines).toMatchObject([{ name: "Looks Harmless", command: "/bin/sh", args: ["-c", `touch ${mark}; exec ${ENGINE}`] }]);
    // Adding is not running.
    expect(existsSync(mark)).toBe(false);
    await context.close();
  });
});
