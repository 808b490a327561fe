// End to end: what the screen shows is true. Against a real `horu web`
// and fairy-stockfish: every engine row's PV and score are of the row's own position (checked
// against the raw events the page received), the Book table leads with the book's move, a
// mate-rooted book says "finished: mate" with counters that agree, and an imported book shows
// its value and best line. Screenshots (both languages) go to e2e/artifacts/.
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS, ROOT } from "./harness";
import { digSmallBook, ENGINE, useHoruWeb } from "./testing/fixture";
import { apiCall } from "./frames";
import { Position } from "../shared/rules/position";
import { parseUsiMove } from "../shared/rules/usi";
import { scoreText, sideOf, sortedMoves, type Viewpoint } from "../renderer/src/logic";
import { dictionaries, translate } from "../renderer/src/i18n";
import type { MoveView, NodeView } from "../shared/api/contract";
import type { UsiInfo } from "../shared/usi/info";
import { shogiguiBook } from "../shared/testing/shogigui-sbk";

const DB = path.join(ROOT, "shared", "formats", "testdata", "books", "book_yaneuraou.db");
if (process.env.CI && !(existsSync("/usr/bin/chromium") && existsSync(ENGINE)))
  throw new Error("e2e/truth.test.ts needs /usr/bin/chromium and fairy-stockfish (CI installs both)");
const haveAll = existsSync("/usr/bin/chromium") && existsSync(ENGINE);

/** A mate in one for Black (G*5b), as a book's root. */
const MATE_ROOT = "sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1";

type Raw = { think: number; sfen: string; info: UsiInfo };
type EngineRaw = { sfen: string | null; think: number; info: UsiInfo | null };

function position(sfen: string): Position {
  return sfen.startsWith("startpos") ? Position.fromUsi(sfen) : Position.fromSfen(sfen.replace(/^sfen /, ""));
}

describe.skipIf(!haveAll)("what the screen shows is true (horu web, fairy-stockfish)", () => {
  let page: Page;
  const problems: string[] = [];
  /** Every engine view the page received: dig.info events and the status's engine rows. */
  const raw: Raw[] = [];
  const text = async (id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? "";
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  const openBook = async (file: string, create = false) => {
    await page.getByTestId("book-path-input").fill(file);
    await page.getByTestId(create ? "book-create" : "book-open").click();
    await expect.poll(() => text("book-path"), { timeout: 30_000 }).toBe(file);
  };
  const viewpoint = async (): Promise<Viewpoint> => ((await text("viewpoint")) === dictionaries.en.viewBlack ? "black" : "mover");

  // The page creates books only in its folder: with no book open, the documents folder (here web.dir).
  const web = useHoruWeb("horu-truth-", () => [], { env: (dir) => ({ HORU_DOCUMENTS_DIR: dir }) });

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("websocket", (ws) =>
      ws.on("framereceived", (f) => {
        const data = typeof f.payload === "string" ? f.payload : f.payload.toString();
        if (!data.includes('"dig.')) return;
        const e = JSON.parse(data) as
          | { type: "dig.info"; info: UsiInfo; sfen: string; think: number }
          | { type: "dig.status"; status: { engines: Array<{ sfen: string | null; think: number; info: UsiInfo | null }> } }
          | { type: string };
        if (e.type === "dig.info") {
          const i = e as { info: UsiInfo; sfen: string; think: number };
          raw.push({ think: i.think, sfen: i.sfen, info: i.info });
        } else if (e.type === "dig.status") {
          for (const v of (e as { status: { engines: Array<{ sfen: string | null; think: number; info: UsiInfo | null }> } }).status
            .engines)
            if (v.sfen && v.info) raw.push({ think: v.think, sfen: v.sfen, info: v.info });
        }
      }),
    );
    // Statuses also come as answers to calls (dig.start, dig.status).
    page.on("response", (r) => {
      if (!r.url().endsWith("/api/call")) return;
      void r
        .json()
        .then((b: { result?: { engines?: EngineRaw[]; status?: { engines?: EngineRaw[] } } }) => {
          for (const v of b.result?.engines ?? b.result?.status?.engines ?? [])
            if (v.sfen && v.info) raw.push({ think: v.think, sfen: v.sfen, info: v.info });
        })
        .catch(() => undefined);
    });
    await page.goto(web.horu.url);
    await page.getByTestId("lang").click(); // English first
  }, 120_000);

  it("an imported book shows its root value and best line, also after a reload and a reopen", { timeout: 120_000 }, async () => {
    const file = path.join(web.dir, "imported.horu");
    await openBook(file, true);
    await page.getByTestId("tab-tools").click();
    await page.getByTestId("import-input").setInputFiles(DB);
    await page.getByTestId("import-report").waitFor();
    // `horu select` on this book: root value 63, best line 2g2f.
    const check = async () => {
      await page.getByTestId("tab-book").click();
      await expect.poll(() => text("pv-value"), { timeout: 20_000 }).toBe("+63");
      expect(await page.getByTestId("book-pv").textContent()).toContain("２六歩");
      await page.getByTestId("tab-dig").click();
      expect(await text("root-value")).toBe("+63");
      expect(await text("book-value")).toBe("+63");
    };
    await check();
    await page.reload();
    await check();
    await openBook(file);
    await check();
  });

  it(
    "an imported .sbk and .db: a move without a value or depth shows – with why, never 0; ShogiGUI's marks show",
    { timeout: 120_000 },
    async () => {
      const file = path.join(web.dir, "formats.horu");
      await openBook(file, true);
      const sbk = path.join(web.dir, "shogigui.sbk");
      writeFileSync(sbk, shogiguiBook());
      const db = path.join(web.dir, "none.db");
      writeFileSync(
        db,
        "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n9g9f none none none 2\n",
      );
      await page.getByTestId("tab-tools").click();
      await page.getByTestId("import-input").setInputFiles([sbk, db]);
      await expect.poll(() => page.getByTestId("import-positions").count(), { timeout: 30_000 }).toBe(2);
      await page.getByTestId("tab-book").click();
      const lang = (await page.evaluate(() => document.documentElement.lang)) === "ja" ? "ja" : "en";
      const d = {
        valueNoneHelp: translate(lang, "valueNoneHelp"),
        depthNoneHelp: translate(lang, "depthNoneHelp"),
        "mark.good": translate(lang, "mark.good"),
        "mark.bad": translate(lang, "mark.bad"),
        "mark.blunder": translate(lang, "mark.blunder"),
      };
      const cell = async (usi: string, id: string) => {
        const c = page.locator(`[data-testid=move-row][data-usi="${usi}"] [data-testid=${id}]`);
        await c.waitFor({ state: "attached", timeout: 20_000 });
        return {
          text: ((await c.textContent()) ?? "").trim(),
          title: await c.getAttribute("title"),
          none: await c.getAttribute("data-none"),
        };
      };
      // No evaluation in the .sbk, `none none none` in the .db: unknown, said so, not 0.
      for (const usi of ["1g1f", "9g9f"]) {
        expect(await cell(usi, "engine-value"), usi).toEqual({ text: "–", title: d.valueNoneHelp, none: "true" });
        expect(await cell(usi, "engine-depth"), usi).toEqual({ text: "–", title: d.depthNoneHelp, none: "true" });
      }
      expect((await cell("7g7f", "engine-value")).text).toBe("+25");
      expect((await cell("7g7f", "engine-depth")).text).toBe("27");
      const marks: Array<[string, string]> = [
        ["7g7f", d["mark.good"]],
        ["5g5f", d["mark.bad"]],
        ["2g2f", ""],
        ["1g1f", d["mark.blunder"]],
        ["9g9f", ""],
      ];
      for (const [usi, mark] of marks) expect((await cell(usi, "move-mark")).text, usi).toBe(mark);
      await shot(`formats-${lang}`);
    },
  );

  it(
    "every engine row's PV starts with a move of its own position, its score with the viewpoint's sign (sampled through a dig)",
    { timeout: 300_000 },
    async () => {
      await openBook(path.join(web.dir, "dug.horu"), true);
      await apiCall(page, "engines.add", { commandLine: ENGINE, options: { Threads: 1, Hash: 16 } });
      // Short thinks: engines move on to the next position often, where a stale PV would show.
      await apiCall(page, "book.updateSettings", { settings: { limit: { nodes: 20_000 } } });
      await page.getByTestId("tab-dig").click();
      await page.getByTestId("processes").fill("2");
      await page.getByTestId("dig-start").click();
      await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 60_000 }).toBe("digging");
      let checked = 0,
        whiteBlack = 0;
      const thinks = new Set<string>();
      for (let sample = 0; sample < 80 && !(checked >= 40 && whiteBlack >= 3 && sample >= 40); sample++) {
        if (sample === 20 || sample === 50) await page.getByTestId("viewpoint").click();
        const view = await viewpoint();
        // One consistent read of every row (a DOM snapshot taken in the page at one instant).
        const rows = await page.getByTestId("engine-row").evaluateAll((els) =>
          els.map((r) => ({
            sfen: r.getAttribute("data-sfen") ?? "",
            think: Number(r.getAttribute("data-think")),
            pv: r.querySelector("[data-testid=engine-pv]")?.getAttribute("data-usi") ?? "",
            value: r.querySelector("[data-testid=engine-score]")?.getAttribute("data-value") ?? "",
            score: r.querySelector("[data-testid=engine-score]")?.textContent ?? "",
          })),
        );
        for (const r of rows) {
          if (!r.sfen || !r.pv) continue;
          const first = r.pv.split(" ")[0]!;
          const m = parseUsiMove(first);
          expect(m !== null && position(r.sfen).isLegal(m), `PV ${r.pv} in the row of ${r.sfen}`).toBe(true);
          // The raw view the row shows: same think, same PV and value, and of the row's position.
          // Call answers are read asynchronously: give a just-received one a moment to be recorded.
          const find = () =>
            raw.find((x) => x.think === r.think && (x.info.pv ?? []).join(" ") === r.pv && String(x.info.value ?? "") === r.value);
          await expect.poll(find, { timeout: 3000, interval: 50 }).toBeDefined();
          const source = find();
          expect(source, `a received view of think ${r.think} with PV ${r.pv}`).toBeDefined();
          expect(source!.sfen).toBe(r.sfen);
          if (source!.info.value !== undefined) {
            expect(r.score).toBe(scoreText(source!.info.value, sideOf(source!.sfen), view));
            if (view === "black" && sideOf(r.sfen) === "white" && source!.info.value !== 0) whiteBlack++;
          }
          thinks.add(`${r.think}`);
          checked++;
        }
        await page.waitForTimeout(250);
      }
      expect(checked).toBeGreaterThanOrEqual(40);
      expect(thinks.size).toBeGreaterThan(3); // across many thinks, not one
      expect(whiteBlack).toBeGreaterThan(0); // White-to-move rows seen from Black: the sign flips
      await shot("truth-dig-en");
      await page.getByTestId("lang").click();
      await page.waitForTimeout(600);
      await shot("truth-dig-ja");
      await page.getByTestId("lang").click();
      await apiCall(page, "dig.stop", {});
      await expect.poll(() => page.getByTestId("dig-state").getAttribute("data-state"), { timeout: 90_000 }).toBe("stopped");
    },
  );

  it(
    "the Book table leads with the book's move, marked, in the Tree's order and values; the header shows the deepest think",
    { timeout: 120_000 },
    async () => {
      if ((await viewpoint()) !== "black") await page.getByTestId("viewpoint").click();
      const status = await apiCall<{ pv: string[] }>(page, "dig.status", {});
      expect(status.pv.length).toBeGreaterThan(0);
      await page.getByTestId("tab-book").click();
      await page.getByTestId("nav-root").click();
      const node = await apiCall<NodeView>(page, "book.node", { line: [] });
      const order = sortedMoves(node.moves).map((m: MoveView) => m.usi);
      await expect.poll(() => page.getByTestId("move-row").first().getAttribute("data-usi"), { timeout: 20_000 }).toBe(status.pv[0]);
      expect(await page.getByTestId("move-row").first().getAttribute("data-book-move")).toBe("true");
      expect(await page.locator('[data-testid="move-row"][data-book-move="true"]').count()).toBe(1);
      const shown = await page.getByTestId("move-row").evaluateAll((els) => els.map((e) => e.getAttribute("data-usi")));
      expect(shown).toEqual(order.slice(0, shown.length));
      // The deepest line of the root's think, not the shallowest.
      const deepest = Math.max(...node.moves.map((m) => m.engineDepth ?? 0));
      expect(Number(await text("think-depth"))).toBeGreaterThanOrEqual(deepest);
      // The search's value once the search after the dig's last results is done (a settling dig's
      // deeper thinks can still land after it stopped): "–" until then. The book's move can be a
      // leaf (a shallow widening line valued above every thought move): the search has not been
      // into it, its Search cell stays "–", and the Tree shows the engine's value, as the table's
      // Engine column does.
      const bookRow = page.locator(`[data-testid="move-row"][data-usi="${status.pv[0]}"]`);
      const leaf = node.moves.find((m) => m.usi === status.pv[0])?.state === "leaf";
      if (leaf) expect(await bookRow.getByTestId("search-value").textContent()).toBe("–");
      const bookCell = bookRow.getByTestId(leaf ? "engine-value" : "search-value");
      await expect.poll(() => bookCell.textContent(), { timeout: 20_000 }).toMatch(/\d/);
      const bookValue = await bookCell.textContent();
      await shot("truth-book-en");
      // The Tree shows the same value for the same move, and the same move first.
      await page.getByTestId("tab-tree").click();
      const treeNode = page.locator(`[data-testid="tree-node"][data-key="${status.pv[0]}"]`);
      // The Tree adds ↻ to a value that came through a cycle (the Book table says so in its state column).
      const [graph] = await apiCall<Array<{ children: Array<{ usi: string; childBound: { cyclic: boolean } | null }> }>>(
        page,
        "book.graph",
        {
          sfens: [node.sfen],
        },
      );
      const cyclic = graph.children.find((c) => c.usi === status.pv[0])?.childBound?.cyclic ?? false;
      await expect
        .poll(() => treeNode.locator("[data-testid=tree-value]").textContent(), { timeout: 20_000 })
        .toBe(`${bookValue}${cyclic ? " ↻" : ""}`);
      expect(await treeNode.getAttribute("class")).toContain("pv");
      await page.getByTestId("tab-book").click();
    },
  );

  it(
    "a mate-rooted book shows one finished-mate state: the mating move marked, not banned; counters agree",
    { timeout: 120_000 },
    async () => {
      const file = path.join(web.dir, "mate.horu");
      digSmallBook(file, {
        nodes: 20000,
        positions: 4,
        engines: 1,
        root: MATE_ROOT,
        env: { ...process.env, HOME: web.dir },
        stdio: "pipe",
      });
      await openBook(file);
      await page.getByTestId("tab-book").click();
      await page.getByTestId("nav-root").click();
      const mating = page.locator('[data-testid="move-row"][data-usi="G*5b"]');
      await expect.poll(() => page.getByTestId("move-row").first().getAttribute("data-usi"), { timeout: 20_000 }).toBe("G*5b");
      expect(await mating.getAttribute("class")).toContain("state-mate");
      expect(await mating.getAttribute("class")).not.toContain("state-banned");
      expect(await mating.getAttribute("data-book-move")).toBe("true");
      expect(await mating.textContent()).toContain("finished: mate");
      // The English UI writes mates in English (issue 44); the Japanese one as 詰 N.
      expect(await mating.getByTestId("search-value").textContent()).toBe("= mate 1");
      // Beside the board: the finished line (to the mate) with the book value, then the line still dug.
      expect(await text("finished-value")).toBe("mate 1");
      expect(await page.getByTestId("finished-pv").textContent()).toContain("５二金打");
      // Dig view: one finished state, the book value a mate in 1, and the ban counter equals the bans tab's.
      await page.getByTestId("tab-dig").click();
      await page.getByTestId("finished-mate").waitFor();
      expect(await text("book-value")).toBe("mate 1");
      expect(await page.getByTestId("root-value").locator("..").getAttribute("title")).toBe(dictionaries.en.rootValueHelp);
      const counter = await text("ban-stat");
      await page.getByTestId("tab-bans").click();
      await expect.poll(() => text("ban-count")).toBe(counter);
      await page.getByTestId("tab-book").click();
      await shot("truth-mate-en");
      // The mated position says so, not "nodes 0, depth 0".
      await mating.dblclick();
      await expect.poll(() => text("terminal")).toBe(dictionaries.en.mated);
      expect(await page.getByTestId("think-depth").count()).toBe(0);
      await page.getByTestId("lang").click();
      await expect.poll(() => text("terminal")).toBe(dictionaries.ja.mated);
      await shot("truth-mated-ja");
      await page.getByTestId("nav-root").click();
      await expect.poll(() => page.getByTestId("move-row").first().textContent()).toContain("終局: 詰み");
      await shot("truth-mate-ja");
      await page.getByTestId("lang").click();
      expect(problems).toEqual([]);
    },
  );
});
