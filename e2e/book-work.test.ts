// Working on a book in the GUI against `horu web` with fairy-stockfish: think now / deeper,
// add a move played on the board, a comment, prune and undo, retry failed, remove a ban;
// import a .db book with its report, back up now and restore.
import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, ROOT } from "./harness";
import { addBookEngine, digSmallBook, ENGINE, useHoruWeb } from "./testing/fixture";
import { OpenBook } from "../electron/book/open-book";
import { Position } from "../shared/rules/position";

const DB = path.join(ROOT, "shared", "formats", "testdata", "books", "book_yaneuraou.db");
const ready = existsSync("/usr/bin/chromium") && existsSync(ENGINE);
if (!ready && process.env.CI)
  throw new Error("e2e/book-work.test.ts needs /usr/bin/chromium and /usr/games/fairy-stockfish (.ci/run installs them)");

const after = (...moves: string[]) => Position.fromUsi(moves.length ? `startpos moves ${moves.join(" ")}` : "startpos");

describe.skipIf(!ready)("working on the book in the GUI", () => {
  let page: Page;
  const api = (method: string, args: unknown) =>
    page.evaluate(
      ([m, a]) =>
        fetch("/api/call", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Horu-Token": sessionStorage.getItem("horu.token") ?? "" },
          body: JSON.stringify({ method: m, args: a }),
        }).then((r) => r.json() as Promise<{ result?: unknown; error?: string }>),
      [method, args] as const,
    );
  const nodeAt = async (line: string[]) =>
    (await api("book.node", { line })).result as {
      thought: boolean;
      queued: boolean;
      provenance: string | null;
      comment: string | null;
      listedInParent: boolean | null;
      moves: Array<{ usi: string; state: string; engineValue: number | null; childValue: number | null }>;
    };
  const digUntil = async (what: () => Promise<boolean>) => {
    await page.getByTestId("tab-dig").click();
    await page.getByTestId("dig-start").click();
    await expect.poll(what, { timeout: 60_000, interval: 250 }).toBe(true);
    await page.getByTestId("dig-stop").click();
    await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toMatch(/stopped|idle/);
  };

  const web = useHoruWeb(
    "horu-work-",
    (dir) => {
      const file = path.join(dir, "work.horu");
      // A small real book: fairy-stockfish thinks 4 positions with 2000 nodes each.
      digSmallBook(file, { nodes: 2000, positions: 4 });
      const b = OpenBook.open(file);
      addBookEngine(b);
      // A failed position and a ban, as a long dig leaves them.
      const failed = after("1g1f", "1c1d");
      b.store.failures.markFailed({ sfen: failed.sfenKey(), keyHi: failed.keyHi, keyLo: failed.keyLo });
      const root = after();
      b.store.bans.add({ sfen: root.sfenKey(), keyHi: root.keyHi, keyLo: root.keyLo, move: "9g9f", reason: "repetition" });
      b.close();
      return ["--book", file];
    },
    180_000,
  );

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on("dialog", (d) => void d.accept());
    await page.goto(web.horu.url);
    // The book names an engine this machine has not approved: the window asks before adding it.
    await page.getByTestId("book-engine-add").click();
    await page.getByTestId("book-engines-dialog").waitFor({ state: "detached" });
    await page.getByTestId("lang").click();
  }, 120_000);

  it("says this window holds the writer lock", async () => {
    expect(await page.getByTestId("writer").textContent()).toMatch(/pid \d+ @ /);
    expect(await page.getByTestId("read-only").count()).toBe(0);
  });

  it("a comment per position, kept in the book", async () => {
    await page.getByTestId("node-comment").fill("角道を開ける手が多い");
    await page.getByTestId("comment-save").click();
    await expect.poll(async () => (await nodeAt([])).comment).toBe("角道を開ける手が多い");
    await page.reload();
    await expect.poll(() => page.getByTestId("node-comment").inputValue()).toBe("角道を開ける手が多い");
  });

  /** Pawn pushes from the root whose positions the book has not thought yet (the engine chooses what it thinks). */
  let added = "",
    fresh = "";

  it("adds a move played on the board and thinks the root deeper; the dig does both first", { timeout: 120_000 }, async () => {
    const unthought: string[] = [];
    // A move the root's think did not list: adding makes sense only for those (9g9f is banned above).
    for (const m of ["1g1f", "5g5f", "3g3f", "4g4f", "6g6f", "8g8f", "2g2f", "7g7f"])
      if (!(await nodeAt([m])).thought && (await nodeAt([m])).listedInParent === false) unthought.push(m);
    added = unthought[0]!;
    // A listed move not thought yet offers no "add": selection reaches it (or think now).
    const listed = (await nodeAt([])).moves.find((m) => m.state === "leaf");
    if (listed) {
      await page.locator(`[data-square="${listed.usi.slice(0, 2)}"]`).click();
      await page.locator(`[data-square="${listed.usi.slice(2, 4)}"]`).click();
      await expect.poll(() => page.getByTestId("ply").textContent()).toMatch(/^1/);
      await expect.poll(() => page.getByTestId("act-think-now").count()).toBe(1);
      expect(await page.getByTestId("act-add-move").count()).toBe(0);
      await page.getByTestId("nav-root").click();
      await expect.poll(() => page.getByTestId("ply").textContent()).toMatch(/^0/);
    }
    // Play it on the board.
    await page.locator(`[data-square="${added.slice(0, 2)}"]`).click();
    await page.locator(`[data-square="${added.slice(2, 4)}"]`).click();
    await expect.poll(() => page.getByTestId("ply").textContent()).toMatch(/^1/);
    // One ply in: White moves, and it is the game's second move (a book key has no move number of its own).
    await expect.poll(() => page.getByTestId("side-to-move").textContent()).toMatch(/^☖.*(move 2|2手目)$/);
    await page.getByTestId("act-add-move").click();
    await expect.poll(() => page.getByTestId("node-queued").count()).toBe(1);
    await page.getByTestId("nav-root").click();
    const rootBefore = (await nodeAt([])).provenance!;
    await page.getByTestId("act-think-deeper").click();
    await expect.poll(() => page.getByTestId("node-queued").count()).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, "node-actions.png") });
    const nodes = (p: string | null) => Number(/(\d+) nodes/.exec(p ?? "")?.[1] ?? 0);
    await digUntil(async () => (await nodeAt([added])).thought && !(await nodeAt([])).queued);
    // The root was thought again with 4x the book's 2000 nodes, its result replaced.
    expect(nodes((await nodeAt([])).provenance)).toBeGreaterThan(nodes(rootBefore));
    expect(nodes((await nodeAt([])).provenance)).toBeGreaterThanOrEqual(8000);
    // The added move is now a book move from the root.
    const root = (await api("book.node", { line: [] })).result as { moves: Array<{ usi: string; state: string }> };
    expect(root.moves.find((m) => m.usi === added)?.state).toBe("thought");
    // Its row shows a value once known: the engine's (when the root's deeper think listed it),
    // else the added position's own think, from the root's side.
    const child = await nodeAt([added]);
    const best = Math.max(...child.moves.filter((m) => m.engineValue !== null).map((m) => m.engineValue!));
    const move = (await nodeAt([])).moves.find((m) => m.usi === added)!;
    if (move.engineValue === null) expect(move.childValue).toBe(-best);
    else expect(move.childValue).toBeNull();
    await page.getByTestId("tab-book").click();
    await page.getByTestId("nav-root").click();
    const row = page.locator(`[data-testid="move-row"][data-usi="${added}"]`);
    await row.scrollIntoViewIfNeeded();
    await expect.poll(() => row.getByTestId("engine-value").textContent()).toMatch(/\d/);
    if (move.engineValue === null) expect(await row.getByTestId("engine-value").getAttribute("data-child-value")).toBe(String(-best));
  });

  it("think now puts an unthought position first", { timeout: 120_000 }, async () => {
    await page.getByTestId("tab-book").click();
    await page.getByTestId("nav-root").click();
    // Chosen now: the dig above may have thought some of them by selection.
    for (const m of ["1g1f", "9g9f", "3g3f", "4g4f", "6g6f", "8g8f", "5g5f"])
      if (m !== added && !fresh && !(await nodeAt([m])).thought) fresh = m;
    expect(fresh).not.toBe("");
    await page.locator(`[data-square="${fresh.slice(0, 2)}"]`).click();
    await page.locator(`[data-square="${fresh.slice(2, 4)}"]`).click();
    await expect.poll(() => page.getByTestId("ply").textContent()).toMatch(/^1/);
    await page.getByTestId("act-think-now").click();
    await expect.poll(() => page.getByTestId("node-queued").count()).toBe(1);
    // No dig runs: the screen says when it will be thought instead of a bare "queued".
    expect(await page.getByTestId("node-action-note").textContent()).toMatch(/no dig is running, so it is thought when the dig starts/);
    expect(await page.getByTestId("node-queued").textContent()).toBe("queued: thought when the dig starts");
    await digUntil(async () => (await nodeAt([fresh])).thought);
  });

  it("prunes a subtree and undoes it", { timeout: 60_000 }, async () => {
    await page.getByTestId("tab-book").click();
    await page.getByTestId("nav-root").click();
    await page.locator(`[data-square="${added.slice(0, 2)}"]`).click();
    await page.locator(`[data-square="${added.slice(2, 4)}"]`).click();
    await expect.poll(async () => (await nodeAt([added])).thought).toBe(true);
    const before = Number(await api("book.info", {}).then((r) => (r.result as { positions: number }).positions));
    await page.getByTestId("act-prune").click();
    await expect.poll(async () => (await nodeAt([added])).thought).toBe(false);
    expect(((await api("book.info", {})).result as { positions: number }).positions).toBe(before - 1);
    await page.getByTestId("act-undo-prune").click();
    await expect.poll(async () => (await nodeAt([added])).thought).toBe(true);
    expect(((await api("book.info", {})).result as { positions: number }).positions).toBe(before);
  });

  it("retries failed positions and removes a ban", async () => {
    await page.getByTestId("act-retry-all").click();
    await expect.poll(() => page.getByTestId("act-retry-all").count()).toBe(0);
    expect(((await api("book.info", {})).result as { failed: number }).failed).toBe(0);
    await page.getByTestId("tab-bans").click();
    await expect.poll(() => page.getByTestId("ban-count").textContent()).toBe("1");
    await page.getByTestId("ban-remove").click();
    await expect.poll(() => page.getByTestId("ban-count").textContent()).toBe("0");
  });

  it("imports a .db book with its report, backs up, and restores the backup", { timeout: 60_000 }, async () => {
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("backup-now").click();
    await expect.poll(() => page.getByTestId("backup-row").count()).toBe(1);
    const before = ((await api("book.info", {})).result as { positions: number }).positions;
    // The browser sends the file in pieces (upload.begin, upload.chunk..., book.importUpload).
    const calls: string[] = [];
    const onRequest = (r: { url(): string; postData(): string | null }) => {
      if (r.url().endsWith("/api/call")) calls.push((JSON.parse(r.postData() ?? "{}") as { method?: string }).method ?? "");
    };
    page.on("request", onRequest);
    await page.getByTestId("import-input").setInputFiles(DB);
    await page.getByTestId("import-report").waitFor();
    page.off("request", onRequest);
    const upload = calls.filter((m) => m.startsWith("upload.") || m === "book.importUpload");
    expect(upload).toEqual(["upload.begin", "upload.chunk", "book.importUpload"]);
    const imported = Number(await page.getByTestId("import-positions").first().textContent());
    expect(imported).toBeGreaterThan(0);
    await expect.poll(async () => ((await api("book.info", {})).result as { positions: number }).positions).toBeGreaterThan(before);
    // The report replaces the progress line: no "importing 100%" left behind.
    await expect.poll(() => page.getByTestId("import-progress").count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, "tools.png") });
    // Restore: the book goes back to the backup's positions; the book before is kept beside it.
    await page.getByTestId("backup-restore").first().click();
    await expect
      .poll(async () => ((await api("book.info", {})).result as { positions: number }).positions, { timeout: 30_000 })
      .toBe(before);
    const kept = execFileSync("ls", [web.dir]).toString();
    expect(kept).toMatch(/work\.[\dT-]+Z\.before-restore\.horu/);
    // Scheduled backups: set, shown, stored in the book.
    await page.getByTestId("backup-every").fill("30");
    await page.getByTestId("backup-keep").fill("3");
    await page.getByTestId("backup-schedule").click();
    await expect
      .poll(async () => ((await api("book.info", {})).result as { backup: unknown }).backup)
      .toEqual({ everyMinutes: 30, keep: 3, dir: null });
    expect(await page.getByTestId("backup-schedule-state").textContent()).toContain("30");
  });
});
