// End to end (issue 44): the set-up board makes the SFEN of what is placed on it, and the record
// pane steps through a KIF with a branch against a book dug by fairy-stockfish, the book's
// moves at each ply being the host's. Screenshots of both in English and Japanese go to docs/images.
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "./harness";
import { digSmallBook, ENGINE, useHoruWeb } from "./testing/fixture";
import { apiCall } from "./frames";
import { Position } from "../shared/rules/position";
import { sortedMoves } from "../renderer/src/logic";
import { missing } from "../electron/testing/missing.js";
import type { NodeView } from "../shared/api/contract";
import { BRANCHED_KIF } from "../shared/testing/record-kif";

const IMAGES = path.join(ROOT, "docs", "images");
const ready = existsSync("/usr/bin/chromium") && existsSync(ENGINE);

describe.skipIf(missing(ready, "/usr/bin/chromium or fairy-stockfish"))("the set-up board and the record pane", () => {
  let page: Page;
  const problems: string[] = [];
  const lang = async (want: "en" | "ja") => {
    if ((await page.evaluate(() => document.documentElement.lang)) !== want) await page.getByTestId("lang").click();
    await page.waitForFunction((w) => document.documentElement.lang === w, want);
  };

  const web = useHoruWeb(
    "horu-setup-record-",
    (dir) => {
      const book = path.join(dir, "book.horu");
      digSmallBook(book, { nodes: 1000, positions: 6 });
      return ["--book", book];
    },
    300_000,
  );

  beforeAll(async () => {
    page = await web.browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(web.horu.url);
    await page.getByTestId("tab-dig").waitFor();
    await lang("en");
  }, 120_000);

  it("sets up a position whose SFEN is what is on the board", { timeout: 120_000 }, async () => {
    await page.getByTestId("tab-setup").click();
    const sfen = () => page.getByTestId("setup-sfen").textContent();
    // It opens on the browsed position: the start.
    expect(await sfen()).toBe("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    await page.getByTestId("setup-clear").click();
    expect(await sfen()).toBe("9/9/9/9/9/9/9/9/9 b - 1");
    const place = async (color: "b" | "w", tool: string, square: string) => {
      await page.getByTestId(`setup-color-${color}`).click();
      await page.getByTestId(`setup-tool-${tool}`).click();
      await page.locator(`[data-testid="setup-board"] [data-square="${square}"]`).click();
    };
    await place("b", "K", "5i");
    await place("w", "K", "5a");
    await place("b", "G", "5h");
    await place("b", "G", "5h"); // the same piece again removes it
    expect(await page.locator('.setup-cell[data-square="5h"]').getAttribute("data-piece")).toBe("");
    await place("b", "G", "5h");
    await place("w", "+P", "1c");
    await place("b", "S", "2b");
    await page.getByTestId("setup-tool-erase").click();
    await page.locator('[data-testid="setup-board"] [data-square="2b"]').click();
    await page.getByTestId("setup-hand-b-P").fill("2");
    await page.getByTestId("setup-hand-w-R").fill("1");
    await page.getByTestId("setup-side-w").click();
    const expected = "4k4/9/8+p/9/9/9/9/4G4/4K4 w 2Pr 1";
    expect(await sfen()).toBe(expected);
    // The same position as the rules read it back, and legal.
    expect(Position.fromSfen(expected).toSfen()).toBe(expected);
    await expect.poll(() => page.getByTestId("setup-problem").count()).toBe(0);
    expect(await page.locator('.setup-cell[data-square="1c"]').textContent()).toBe("と");
    // Not in the book: said so.
    await page.getByTestId("setup-find").click();
    await expect.poll(() => page.getByTestId("setup-message").textContent()).toMatch(/no line/);
    await page.screenshot({ path: path.join(IMAGES, "setup-en.png") });
    await lang("ja");
    await page.screenshot({ path: path.join(IMAGES, "setup-ja.png") });
    await lang("en");
    // A SFEN read in, then found in the book: the book shows that position.
    await page.getByTestId("setup-paste").fill("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    await page.getByTestId("setup-load").click();
    expect(await sfen()).toBe("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1");
    // As the Dig view's root field takes it: a line of moves from the start reads as its position.
    await page.getByTestId("setup-paste").fill("startpos moves 7g7f 3c3d");
    await page.getByTestId("setup-load").click();
    expect(await sfen()).toBe("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1");
    await page.getByTestId("setup-paste").fill("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    await page.getByTestId("setup-load").click();
    const inBook = await apiCall<string[] | null>(page, "book.lineTo", {
      sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
    });
    await page.getByTestId("setup-find").click();
    if (inBook) {
      await expect.poll(() => page.getByTestId("ply").textContent()).toMatch(/^1/);
      expect(await page.getByTestId("tab-book").getAttribute("class")).toContain("active");
    } else await expect.poll(() => page.getByTestId("setup-message").count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("flags a position without a king, or with two of one side, as no root, and offers no Use as root", { timeout: 60_000 }, async () => {
    await page.getByTestId("tab-setup").click();
    await page.getByTestId("setup-clear").click();
    const problem = page.getByTestId("setup-problem");
    await expect.poll(() => problem.textContent()).toBe("Not usable as a root: Black has no king");
    expect(await page.getByTestId("setup-root").count()).toBe(0);
    const place = async (color: "b" | "w", tool: string, square: string) => {
      await page.getByTestId(`setup-color-${color}`).click();
      await page.getByTestId(`setup-tool-${tool}`).click();
      await page.locator(`[data-testid="setup-board"] [data-square="${square}"]`).click();
    };
    await place("b", "K", "5i");
    await expect.poll(() => problem.textContent()).toBe("Not usable as a root: White has no king");
    await place("w", "K", "5a");
    await place("w", "K", "1a");
    await expect.poll(() => problem.textContent()).toBe("Not usable as a root: White has two kings");
    expect(await page.getByTestId("setup-root").count()).toBe(0);
    await lang("ja");
    await expect.poll(() => problem.textContent()).toBe("ルートにできません: 後手の玉が2枚あります");
    await lang("en");
    await page.getByTestId("setup-tool-erase").click();
    await page.locator('[data-testid="setup-board"] [data-square="1a"]').click();
    await expect.poll(() => problem.count()).toBe(0);
    expect(await page.getByTestId("setup-root").isEnabled()).toBe(true);
    // A new root is asked for first: Cancel leaves the book's root as it was.
    const rootBefore = (await apiCall<{ rootSfen: string }>(page, "book.info", {})).rootSfen;
    await page.getByTestId("setup-root").click();
    await page.getByTestId("setup-root-confirm").waitFor();
    await page.getByTestId("setup-root-cancel").click();
    expect(await page.getByTestId("setup-root-confirm").count()).toBe(0);
    expect((await apiCall<{ rootSfen: string }>(page, "book.info", {})).rootSfen).toBe(rootBefore);
    // Confirmed, it is the root (the board's position), then set back as it was.
    await page.getByTestId("setup-root").click();
    await page.getByTestId("setup-root-confirm-yes").click();
    await expect.poll(() => page.getByTestId("setup-message").textContent()).toBe("The book's root is now this position.");
    const shown = (await page.getByTestId("setup-sfen").textContent())!.trim();
    expect((await apiCall<{ rootSfen: string }>(page, "book.info", {})).rootSfen.split(" ").slice(0, 3)).toEqual(
      shown.split(" ").slice(0, 3),
    );
    await apiCall(page, "book.updateSettings", { settings: { root: rootBefore } });
    expect(problems).toEqual([]);
  });

  it("steps through a record with a branch beside the book's moves", { timeout: 180_000 }, async () => {
    await page.getByTestId("tab-record").click();
    const file = path.join(web.dir, "game.kif");
    writeFileSync(file, BRANCHED_KIF);
    await page.getByTestId("record-file").setInputFiles(file);
    const moves = page.locator('[data-testid="record-moves"] button');
    await expect.poll(() => moves.count()).toBe(4);
    expect(await moves.evaluateAll((b) => b.map((x) => x.getAttribute("data-usi")))).toEqual(["7g7f", "3c3d", "2g2f", "8c8d"]);
    // At the start: the book's moves are the host's moves of the root.
    const root = await apiCall<NodeView>(page, "book.node", { line: [] });
    expect(root.moves.length).toBeGreaterThan(0);
    await expect
      .poll(async () => (await page.getByTestId("record-book-move").evaluateAll((r) => r.map((x) => x.getAttribute("data-usi")))).sort())
      .toEqual(root.moves.map((m) => m.usi).sort());
    // In the Book view's order (the book's move first), under headers.
    expect(await page.getByTestId("record-book-move").evaluateAll((r) => r.map((x) => x.getAttribute("data-usi")))).toEqual(
      sortedMoves(root.moves).map((m) => m.usi),
    );
    expect(await page.locator('[data-testid="record-book-moves"] th').allTextContents()).toEqual(["", "Move", "Engine", "Search"]);
    // A move the search has not been into shows no search value, as in the Book view (it showed the engine's there).
    const searchCells = await page.getByTestId("record-book-move").evaluateAll((r) => r.map((x) => x.children[3]?.textContent ?? ""));
    sortedMoves(root.moves).forEach((m, i) => {
      if (m.searchValue === null) expect(searchCells[i], m.usi).toBe("–");
      else expect(searchCells[i], m.usi).not.toBe("–");
    });
    // Whether each move of the record is in the book: as the host's nodes say.
    const truth: boolean[] = [];
    const line = ["7g7f", "3c3d", "2g2f", "8c8d"];
    for (let i = 0; i < line.length; i++) {
      const pos = Position.fromUsi(`startpos moves ${line.slice(0, i).join(" ")}`.trim());
      const n = await apiCall<NodeView>(page, "book.node", { sfen: pos.sfenKey() });
      truth.push(n.moves.some((m) => m.usi === line[i]));
    }
    await expect.poll(() => moves.evaluateAll((b) => b.map((x) => x.getAttribute("data-in-book")))).toEqual(truth.map(String));
    const left = truth.indexOf(false);
    if (left >= 0) expect(await page.getByTestId("record-left-book").textContent()).toContain(`${left + 1}`);
    else expect(await page.getByTestId("record-left-book").textContent()).toMatch(/stays in the book/);
    // Keys: → to ply 1, with the record's comment and its evaluation (Black's view) beside the
    // book's value there; → again to ply 2, where the record branches (2g2f or 6g6f).
    await page.getByTestId("record").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByTestId("record-comment").textContent()).toMatch(/^角道を開ける\n\*解析 0/);
    expect(await page.getByTestId("record-eval").getAttribute("data-value")).toBe("45");
    expect(await page.getByTestId("record-eval").textContent()).toMatch(/^Record's evaluation: \+45/);
    // From the side to move (White after 7g7f) the record's value turns, as the book's beside it
    // (node.side) does: the two on one scale.
    await page.getByTestId("viewpoint").click();
    await expect.poll(() => page.getByTestId("record-eval").textContent()).toMatch(/^Record's evaluation: -45/);
    await page.getByTestId("viewpoint").click();
    await expect.poll(() => page.getByTestId("record-eval").textContent()).toMatch(/^Record's evaluation: \+45/);
    await page.getByTestId("record").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByTestId("record-eval").getAttribute("data-value")).toBe("30");
    await expect.poll(() => page.getByTestId("record-ply").getAttribute("data-ply")).toBe("2");
    expect(await page.getByTestId("record-branch").evaluateAll((b) => b.map((x) => x.getAttribute("data-usi")))).toEqual(["2g2f", "6g6f"]);
    expect(await page.getByTestId("record-played").getAttribute("data-usi")).toBe("2g2f");
    await page.getByTestId("record-played-in-book").waitFor();
    await page.screenshot({ path: path.join(IMAGES, "record-en.png") });
    await lang("ja");
    await page.screenshot({ path: path.join(IMAGES, "record-ja.png") });
    await lang("en");
    // ↓ takes the other branch; the line shown follows it.
    await page.getByTestId("record").focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.getByTestId("record-played").getAttribute("data-usi")).toBe("6g6f");
    expect(await moves.evaluateAll((b) => b.map((x) => x.getAttribute("data-usi")))).toEqual(["7g7f", "3c3d", "6g6f", "8c8d"]);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByTestId("record-ply").getAttribute("data-ply")).toBe("3");
    // The variation's own comment, and none where the record has none.
    expect(await page.getByTestId("record-comment").textContent()).toBe("振り飛車含み");
    expect(await page.getByTestId("record-eval").count()).toBe(0);
    // The board shows the record's position after 7g7f 3c3d 6g6f.
    const at = Position.fromUsi("startpos moves 7g7f 3c3d 6g6f").sfenKey();
    expect(await page.locator(".record-board svg.board").getAttribute("data-sfen")).toBe(`${at} 1`);
    // ← back, and the book's moves there are the host's.
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => page.getByTestId("record-ply").getAttribute("data-ply")).toBe("2");
    // Think this position: queued in the book.
    await page.getByTestId("record-think").click();
    await page.getByTestId("record-message").waitFor();
    expect(await page.getByTestId("record-problems").count()).toBe(0);
    // A record cut at an illegal move says so, with the file and line, above the moves it kept.
    const bad = path.join(web.dir, "bad.kif");
    writeFileSync(bad, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ９九龍(11)\n   3 ２六歩(27)\n");
    await page.getByTestId("record-file").setInputFiles(bad);
    await expect.poll(() => moves.count()).toBe(1);
    expect(await page.getByTestId("record-problems").textContent()).toMatch(/could not be read.*bad\.kif:4: .*move 2/s);
    // Stepped to the end with the button (which then is disabled), ← still steps the record,
    // not the book's board beside it.
    const bookPly = await page.getByTestId("ply").textContent();
    await page.getByTestId("record-next").click();
    await expect.poll(() => page.getByTestId("record-next").isDisabled()).toBe(true);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => page.getByTestId("record-ply").getAttribute("data-ply")).toBe("0");
    expect(await page.getByTestId("ply").textContent()).toBe(bookPly);
    // The end of the book's best line is a leaf, not thought: Show in the book shows the move
    // into it, selected in its parent (the button was disabled there).
    const pv = (await apiCall<{ pv: string[] }>(page, "dig.status", {})).pv;
    expect(pv.length).toBeGreaterThan(0);
    const pvFile = path.join(web.dir, "pv.usi");
    writeFileSync(pvFile, `startpos moves ${pv.join(" ")}\n`);
    await page.getByTestId("record-file").setInputFiles(pvFile);
    await expect.poll(() => moves.count()).toBe(pv.length);
    await page.getByTestId("record-end").click();
    await expect.poll(() => page.getByTestId("record-show").isEnabled()).toBe(true);
    await page.getByTestId("record-show").click();
    await expect.poll(() => page.getByTestId("tab-book").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => page.locator('[data-testid="move-row"].selected').getAttribute("data-usi")).toBe(pv.at(-1));
    expect(await page.getByTestId("ply").textContent()).toBe(`${pv.length - 1} ply`);
    await page.getByTestId("tab-record").click();
    // Back on the record tab, the record is still open at its ply (the tab switch had lost it).
    await expect.poll(() => moves.count()).toBe(pv.length);
    expect(await page.getByTestId("record-ply").getAttribute("data-ply")).toBe(String(pv.length));
    // A file that is no record: the error names it (it stood under the record opened before).
    const junk = path.join(web.dir, "random.kif");
    writeFileSync(junk, Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256)));
    await page.getByTestId("record-file").setInputFiles(junk);
    await expect.poll(() => page.getByTestId("record-error").textContent()).toMatch(/^random\.kif: /);
    expect(problems).toEqual([]);
  });
});
