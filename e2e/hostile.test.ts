// End to end: what a careless or hostile user does through
// `horu web` in chromium (and `horu select` beside it) gets the right answer, and both books
// survive every case (integrity_check ok, every stored position still there).
//
// Two servers run in one browser: A digs with fairy-stockfish and has no --allow-server-paths;
// B is idle and has it (folder seeding by path needs it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ALLOW_SERVER_PATHS, ARTIFACTS, ensureRenderer, launchBrowser, spawnHoru, startHoru, type Horu } from "./harness";
import { addLibraryEngine, ENGINE, haveChromium } from "./testing/fixture";
import { assertIntact, makeBook } from "./books";
import { OpenBook } from "../electron/book/open-book";
import { Position } from "../shared/rules/position";
import { parseUsiMove } from "../shared/rules/usi";

interface Answer {
  method: string;
  status: number;
  body: { error?: string; code?: string; key?: string };
}

describe.skipIf((!haveChromium || !existsSync(ENGINE)) && !process.env.CI)(
  "a hostile user through horu web: refused clearly, the books survive",
  () => {
    let dir: string;
    let bookA: string, bookB: string;
    let sfensA: string[], sfensB: string[];
    let horuA: Horu, horuB: Horu;
    let browser: Browser;
    let context: BrowserContext;
    let a: Page, b: Page;
    const answers: Answer[] = [];
    const text = async (page: Page, id: string) => (await page.getByTestId(id).first().textContent())?.trim() ?? "";
    /** Positions the running dig has thought, as the server reports it to the page. */
    const thought = () =>
      a.evaluate(() =>
        fetch("/api/call", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"method":"dig.status","args":{}}' })
          .then((r) => r.json())
          .then((b: { result: { thought: number } }) => b.result.thought),
      );

    /** Every /api/call answer a page gets, with the method it was for. */
    function record(page: Page): void {
      page.on("response", async (r) => {
        if (!r.url().endsWith("/api/call")) return;
        const method = (JSON.parse(r.request().postData() ?? "{}") as { method?: string }).method ?? "?";
        answers.push({ method, status: r.status(), body: await r.json().catch(() => ({})) });
      });
    }
    /** The latest answer for `method`, once there is one newer than `since`. */
    async function answerTo(method: string, since: number): Promise<Answer> {
      await expect
        .poll(() => answers.slice(since).some((x) => x.method === method), {
          // 20 s was too short beside a loaded machine's matches (load 11): no answer at all came in it.
          timeout: 60_000,
          message: `no answer to ${method}; answers since: ${JSON.stringify(answers.slice(since))}`,
        })
        .toBe(true);
      return answers
        .slice(since)
        .filter((x) => x.method === method)
        .at(-1)!;
    }
    const tab = async (page: Page, name: string) => page.getByTestId(`tab-${name}`).click();

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), "horu-e2e-hostile-"));
      bookA = path.join(dir, "a.horu");
      bookB = path.join(dir, "b.horu");
      sfensA = makeBook(bookA, 20, { limit: { nodes: 3000 } });
      // The engine is in the user's library (an engine a book carries asks for approval first).
      addLibraryEngine(dir);
      sfensB = makeBook(bookB, 12);
      await ensureRenderer();
      horuA = await startHoru({ HOME: dir }, ["--book", bookA]);
      horuB = await startHoru({ HOME: dir }, ["--book", bookB, ALLOW_SERVER_PATHS]);
      browser = await launchBrowser();
      // One browser profile for both servers: they share its cookie jar, as two tabs would.
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      a = await context.newPage();
      b = await context.newPage();
      record(a);
      record(b);
      for (const [page, horu] of [
        [a, horuA],
        [b, horuB],
      ] as const) {
        await page.goto(horu.url);
        await page.getByTestId("lang").click();
        await page.getByTestId("book-path").waitFor();
      }
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await horuA?.stop();
      await horuB?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("two horu web servers in one browser both stay logged in", { timeout: 60_000 }, async () => {
      // Logged in to B after A: A's page, opened again without its token, still gets in (its own cookie), and so does B's.
      for (const [page, horu, book] of [
        [a, horuA, bookA],
        [b, horuB, bookB],
      ] as const) {
        const bare = new URL(horu.url);
        bare.search = "";
        await page.goto(bare.toString());
        await expect.poll(() => text(page, "book-path"), { timeout: 30_000 }).toBe(book);
        const status = await page.evaluate(() =>
          fetch("/api/call", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: '{"method":"book.info","args":{}}',
          }).then((r) => r.status),
        );
        expect(status).toBe(200);
      }
      const cookies = (await context.cookies()).map((c) => c.name).sort();
      expect(cookies).toEqual([`horu_token_${new URL(horuA.url).port}`, `horu_token_${new URL(horuB.url).port}`].sort());
    });

    it(
      "a mistake is a 4xx with its message (a missing file, a bad SFEN); reopening the book this process holds just shows it",
      { timeout: 60_000 },
      async () => {
        let since = answers.length;
        const missing = path.join(dir, "no", "such.horu");
        await a.getByTestId("book-path-input").fill(missing);
        await a.getByTestId("book-open").click();
        await expect.poll(() => text(a, "error")).toContain(`${missing} does not exist`);
        expect((await answerTo("book.open", since)).status).toBe(400);
        // A bad SFEN: the settings form says so in place and does not send it; sent anyway, it is a 400 that names it.
        await a.getByTestId("set-root").fill("not a position");
        expect(await a.getByTestId("settings-save").isDisabled()).toBe(true);
        await a.getByTestId("set-root").fill("startpos");
        const bad = await a.evaluate(() =>
          fetch("/api/call", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ method: "book.graph", args: { sfens: ["lnsgkgsnl/9/9 x 1"] } }),
          }).then(async (r) => ({ status: r.status, body: await r.json() })),
        );
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ code: "user", error: expect.stringContaining("not a position: lnsgkgsnl/9/9 x 1") });
        // The open book, opened again: no "another process" with our own pid, the same book on screen.
        since = answers.length;
        await a.getByTestId("book-path-input").fill(bookA);
        await a.getByTestId("book-open").click();
        expect((await answerTo("book.open", since)).status).toBe(200);
        await expect.poll(() => a.getByTestId("error").count()).toBe(0);
        expect(await text(a, "book-path")).toBe(bookA);
        expect(await a.getByTestId("read-only").count()).toBe(0);
        assertIntact(bookA, sfensA);
      },
    );

    it(
      "files named by their path on the server: without --allow-server-paths the fields are off with the reason, and a call is refused (403, keyed)",
      { timeout: 60_000 },
      async () => {
        await tab(a, "tools");
        await a.getByTestId("server-paths-off").waitFor();
        expect(await text(a, "server-paths-off")).toContain("--allow-server-paths");
        for (const [input, run] of [
          ["import-path", "import-path-run"],
          ["seed-folder-path", "seed-folder-run"],
          ["restore-path", null],
        ] as const) {
          expect(await a.getByTestId(input).isDisabled(), input).toBe(true);
          if (run) expect(await a.getByTestId(run).isDisabled(), run).toBe(true);
        }
        await tab(a, "match");
        expect(await a.getByTestId("server-paths-off").count()).toBe(1);
        expect(await a.getByTestId("match-dir").isDisabled()).toBe(true);
        expect(await a.getByTestId("match-open-dir").isDisabled()).toBe(true);
        // Sent anyway (not through the page's fields), the server refuses it with its key.
        for (const [method, args] of [
          ["book.import", { paths: ["/etc/passwd"] }],
          ["seed.paths", { paths: ["/etc"] }],
        ] as const) {
          const r = await a.evaluate(
            ({ method, args }) =>
              fetch("/api/call", {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ method, args }),
              }).then(async (res) => ({ status: res.status, body: (await res.json()) as { key?: string } })),
            { method, args },
          );
          expect(r.status, method).toBe(403);
          expect(r.body.key).toBe("serverPathsOff");
        }
        // The server that allows them: the fields are on.
        await tab(b, "tools");
        expect(await b.getByTestId("import-path").isDisabled()).toBe(false);
        expect(await b.getByTestId("server-paths-off").count()).toBe(0);
        await a.screenshot({ path: path.join(ARTIFACTS, "hostile-server-paths.png") });
        assertIntact(bookA, sfensA);
      },
    );

    it(
      "junk records are named as not game records, a huge upload is refused with its limit, and the dig goes on",
      { timeout: 120_000 },
      async () => {
        await tab(a, "dig");
        await a.getByTestId("dig-start").click();
        await a.getByTestId("dig-state").waitFor();
        await expect
          .poll(() => a.getByTestId("dig-state").getAttribute("data-state"), {
            timeout: 30_000,
            message: (await a.getByTestId("error").count()) ? await text(a, "error") : "no error",
          })
          .toBe("digging");
        await expect.poll(thought, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
        const junk = path.join(dir, "junk");
        mkdirSync(junk);
        writeFileSync(path.join(junk, "junk.csa"), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
        writeFileSync(path.join(junk, "passwd"), readFileSync("/etc/passwd"));
        // 20 MiB of junk named .kif: refused by its size before it is parsed (the old reader took 5 s and blocked the dig).
        writeFileSync(path.join(junk, "big.kif"), Buffer.alloc(20 * 1024 * 1024, "junk line\n"));
        await tab(a, "seed");
        const since = answers.length;
        await a.getByTestId("seed-input").setInputFiles(["junk.csa", "passwd", "big.kif"].map((f) => path.join(junk, f)));
        expect((await answerTo("seed.upload", since)).status).toBe(200);
        await expect.poll(() => a.getByTestId("seed-file").count(), { timeout: 60_000 }).toBe(3);
        const rows = await a.getByTestId("seed-file").allTextContents();
        for (const name of ["junk.csa", "passwd", "big.kif"])
          expect(
            rows.find((r) => r.includes(name)),
            name,
          ).toMatch(/not a game record/);
        expect(rows.find((r) => r.includes("big.kif"))).toContain("at most 8 MiB");
        expect(await text(a, "seed-positions")).toBe("0");
        const afterJunk = await thought();
        // 40 MiB at once: refused before a byte is sent, with the limit in the message.
        writeFileSync(path.join(junk, "huge.kif"), Buffer.alloc(40 * 1024 * 1024, "x"));
        const before = answers.length;
        await a.getByTestId("seed-input").setInputFiles(path.join(junk, "huge.kif"));
        await expect.poll(() => text(a, "error")).toMatch(/40\.0 MiB: .*\(32 MiB\)/);
        expect(answers.slice(before).some((x) => x.method === "seed.upload")).toBe(false);
        await a.screenshot({ path: path.join(ARTIFACTS, "hostile-junk.png") });
        // The dig was never held up: results keep coming.
        await tab(a, "dig");
        await expect.poll(thought, { timeout: 60_000 }).toBeGreaterThanOrEqual(afterJunk + 2);
        expect(await a.getByTestId("dig-state").getAttribute("data-state")).toBe("digging");
        await a.getByTestId("dig-stop").click();
        await expect.poll(() => a.getByTestId("dig-state").getAttribute("data-state"), { timeout: 30_000 }).toBe("stopped");
        assertIntact(bookA, sfensA);
      },
    );

    it("seeding a folder (allowed on B) goes past a broken link, with a warning", { timeout: 60_000 }, async () => {
      const records = path.join(dir, "records");
      mkdirSync(records);
      writeFileSync(path.join(records, "a-game.sfen"), "startpos moves 7g7f 3c3d 2g2f 8c8d\n");
      symlinkSync(path.join(dir, "gone.kif"), path.join(records, "b-broken.kif"));
      writeFileSync(path.join(records, "c-game.sfen"), "startpos moves 2g2f 8c8d 7g7f\n");
      await tab(b, "tools");
      const since = answers.length;
      await b.getByTestId("seed-folder-path").fill(records);
      await b.getByTestId("seed-folder-run").click();
      expect((await answerTo("seed.paths", since)).status).toBe(200);
      await expect.poll(() => b.getByTestId("seed-file").count(), { timeout: 30_000 }).toBe(3);
      const rows = await b.getByTestId("seed-file").allTextContents();
      expect(rows.find((r) => r.includes("b-broken.kif"))).toContain("skipped: a broken link");
      expect(Number(await text(b, "seed-positions"))).toBeGreaterThan(0);
      expect(rows.filter((r) => r.includes("game.sfen"))).toHaveLength(2);
      assertIntact(bookB, sfensB);
    });

    it(
      "an uploaded DB2016 book with illegal moves: strict (the dialog's box) refuses it naming the first; else the rest stored and each left-out line (file, line, move, why) listed in the page",
      { timeout: 60_000 },
      async () => {
        const pos = Position.startpos();
        // Three plies no grown book reaches (it thinks the first legal moves): White to move.
        for (const m of ["9g9f", "1c1d", "1g1f"]) pos.doMove(parseUsiMove(m)!);
        const sfen = pos.sfenKey();
        expect(sfensB).not.toContain(sfen);
        const src = path.join(dir, "illegal.db");
        writeFileSync(
          src,
          [
            "#YANEURAOU-DB2016 1.00",
            `sfen ${sfen} 2`,
            "3c3d none 50 10 1",
            "3c3b none 40 10 1",
            "5e5d none 30 10 1",
            "P*5e none 10 10 1",
            "8c8d none 0 10 1",
            "",
          ].join("\n"),
        );
        const storedMoves = () => {
          const stored = OpenBook.open(bookB, {}, { readonly: true });
          try {
            return stored.store.thoughts.get(sfen)?.candidates.map((c) => c.move);
          } finally {
            stored.close();
          }
        };
        const illegalAt = (line: number, move: string) =>
          new RegExp(`illegal\\.db:${line}: move ${move.replace("*", "\\*")} is illegal in ${sfen.replace(/[+/]/g, (c) => `\\${c}`)}: `);
        await tab(b, "tools");

        // Strict: refused whole, naming the first damaged line; nothing stored.
        await b.getByTestId("import-strict").check();
        let since = answers.length;
        await b.getByTestId("import-input").setInputFiles(src);
        expect((await answerTo("book.importUpload", since)).status).toBe(400);
        await expect.poll(() => b.getByTestId("error").count(), { timeout: 30_000 }).toBe(1);
        const message = await text(b, "error");
        expect(message).toContain(
          "Not imported, the file is damaged (nothing of it was stored): illegal.db: refused, nothing imported: a damaged line:",
        );
        expect(message).toMatch(illegalAt(4, "3c3b"));
        expect(message).not.toMatch(illegalAt(5, "5e5d"));
        expect(message).not.toContain(tmpdir() + "/horu-import-");
        await b.getByTestId("error").click(); // dismissed: the next tests start without it
        assertIntact(bookB, sfensB);
        expect(storedMoves()).toBeUndefined();

        // Not strict: the legal moves stored, the three illegal lines listed in the report.
        await b.getByTestId("import-strict").uncheck();
        since = answers.length;
        await b.getByTestId("import-input").setInputFiles(src);
        expect((await answerTo("book.importUpload", since)).status).toBe(200);
        await b.getByTestId("import-report").waitFor();
        const listed = await b.getByTestId("import-errors").first().textContent();
        expect(listed).toContain("3 lines left out");
        for (const [line, move] of [
          [4, "3c3b"],
          [5, "5e5d"],
          [6, "P*5e"],
        ] as const)
          expect(listed).toMatch(illegalAt(line, move));
        expect(listed).not.toContain(tmpdir());
        assertIntact(bookB, sfensB);
        expect(storedMoves()).toEqual(["3c3d", "8c8d"]);
      },
    );

    it(
      "horu select --json beside the server gives each leaf's value, the bans with reasons, nodes searched and cyclic values trusted",
      { timeout: 60_000 },
      async () => {
        // An eval limit of 1 cp puts the leaves the book prefers beyond it: selection bans them, with the reason.
        await tab(b, "dig");
        await b.getByTestId("set-evalLimit").fill("1");
        await b.getByTestId("settings-save").click();
        await expect.poll(() => b.getByTestId("settings-save").isDisabled()).toBe(true);
        const select = spawnHoru("select", ["--book", bookB, "--count", "1", "--json"]);
        await new Promise((r) => (select.proc.exitCode !== null ? r(null) : select.proc.once("exit", r)));
        expect(select.proc.exitCode, select.output()).toBe(0);
        const json = JSON.parse(select.output().trim().split("\n").at(-1)!) as {
          leaves: Array<{
            leafValue: number | null;
            bans: Array<{ move: string; reason: string; line: string[] }>;
            nodes: number;
            searches: number;
            cyclicTrusted: number;
          }>;
        };
        expect(json.leaves).toHaveLength(1);
        const [leaf] = json.leaves;
        expect(typeof leaf.leafValue).toBe("number");
        expect(leaf.nodes).toBeGreaterThan(0);
        expect(leaf.searches).toBe(1 + leaf.bans.length);
        expect(leaf.cyclicTrusted).toBeGreaterThanOrEqual(0);
        expect(leaf.bans.some((x) => x.reason === "limit")).toBe(true);
        for (const ban of leaf.bans) expect(Array.isArray(ban.line)).toBe(true);
        assertIntact(bookB, sfensB);
      },
    );

    it(
      "through the real server without --allow-server-paths: no command line, no write outside the book's folder, no NUL path, no 500; an import keeps the engine's moves",
      { timeout: 120_000 },
      async () => {
        const api = (method: string, args: unknown) =>
          a.evaluate(
            ([m, x]) =>
              fetch("/api/call", {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ method: m, args: x }),
              }).then(async (r) => ({ status: r.status, body: (await r.json()) as { result?: unknown; error?: string; key?: string } })),
            [method, args] as const,
          );
        const refused = async (method: string, args: unknown, message: RegExp) => {
          const r = await api(method, args);
          expect(r.status, `${method}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
          expect(r.status, method).toBeLessThan(500);
          expect(r.body.error, method).toMatch(message);
        };
        const elsewhere = mkdtempSync(path.join(tmpdir(), "horu-e2e-elsewhere-"));
        // Item 3: engines, exports, backups, restore.
        await refused("engines.add", { commandLine: "head -2 /etc/shadow" }, /runs only the engines in the library/);
        const test = await api("engines.test", { commandLine: "head -2 /etc/shadow" });
        expect(test.body.result).toMatchObject({ ok: false, key: "serverEnginesOff", stderr: [] });
        await refused("export.plan", { path: "/etc/shadow" }, /writes only into the book's folder/);
        await refused(
          "export.run",
          { path: path.join(elsewhere, "x.db"), format: "db", mode: "raw" },
          /writes only into the book's folder/,
        );
        await refused("backup.now", { dir: elsewhere }, /writes only into the book's folder/);
        await refused("backup.schedule", { schedule: { everyMinutes: 60, keep: 2, dir: elsewhere } }, /writes only into the book's folder/);
        const own = (await api("backup.now", {})).body.result as { path: string };
        const copy = path.join(elsewhere, path.basename(own.path));
        writeFileSync(copy, readFileSync(own.path));
        await refused("backup.restore", { path: copy }, /--allow-server-paths/);
        expect(readdirSync(elsewhere)).toEqual([path.basename(own.path)]);
        // Item 4: a NUL byte in a path.
        await refused("book.create", { path: path.join(dir, "other.sqlite\u0000.horu") }, /control character/);
        // Item 6: sane limits.
        await refused("backup.schedule", { schedule: { everyMinutes: 1e-300, keep: 2, dir: null } }, /at most every 5 minutes/);
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) ids.push(((await api("upload.begin", { name: `${i}.db`, size: 1 })).body.result as { id: string }).id);
        await refused("upload.begin", { name: "ninth.db", size: 1 }, /8 uploads are open already/);
        for (const id of ids) await api("upload.abort", { id });
        // Items 7 and 8: the user's mistakes and bad input.
        const root = Position.startpos().sfenKey();
        await refused("book.addMove", { sfen: root, move: "7g7e" }, /not a legal move/);
        await refused("book.prune", { sfen: root }, /the root cannot be pruned/);
        await refused("upload.begin", { name: "..", size: 1 }, /is not a file name/);
        await refused("book.thinkNow", { sfen: "9/9/9/9/9/9/9/9/9 b - 1" }, /has no king/);
        const far = Position.fromUsi("startpos moves 5i6h 5a4b 6h7h 4b3b 7h6h").sfenKey(); // kings' walks: not in this book
        await refused("book.comment", { sfen: far, text: "x" }, /is not a position of this book/);
        await refused("book.node", { sfen: `${root} 12345678901234567890` }, /move number must be a positive integer up to 1000000/);
        // Item 5: a .db of the start position with one move leaves the root's engine moves as they were.
        const before = OpenBook.open(bookA, {}, { readonly: true });
        const rootBefore = before.store.thoughts.get(root)!;
        before.close();
        expect(rootBefore.provenance.kind).toBe("engine");
        const src = path.join(dir, "one-move.db");
        writeFileSync(src, ["#YANEURAOU-DB2016 1.00", `sfen ${root} 1`, "7g7f none 0 0 1", ""].join("\n"));
        await tab(a, "tools");
        const since = answers.length;
        await a.getByTestId("import-input").setInputFiles(src);
        expect((await answerTo("book.importUpload", since)).status).toBe(200);
        await a.getByTestId("import-report").waitFor({ timeout: 30_000 });
        const after = OpenBook.open(bookA, {}, { readonly: true });
        try {
          const rootAfter = after.store.thoughts.get(root)!;
          expect(rootAfter.provenance).toEqual(rootBefore.provenance);
          expect(rootAfter.candidates.slice(0, rootBefore.candidates.length)).toEqual(rootBefore.candidates);
        } finally {
          after.close();
        }
        await a.getByTestId("import-undo").click();
        await expect.poll(() => a.getByTestId("import-undo").count()).toBe(0);
        rmSync(elsewhere, { recursive: true, force: true });
        assertIntact(bookA, sfensA);
      },
    );

    it("no answer in all of this was a server fault (5xx)", () => {
      expect(answers.length).toBeGreaterThan(10);
      expect(answers.filter((x) => x.status >= 500)).toEqual([]);
    });
  },
);
