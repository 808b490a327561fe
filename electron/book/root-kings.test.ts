// Issue 42: a root without a king a side (none, or two black kings) is refused as a book's
// root with a clear message, by OpenBook.create / updateSettings, the web page's book.create
// and `horu dig --root`; nothing is made or changed. A book made before the check still opens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { OpenBook } from "./open-book.js";
import { HORU, tempDir } from "../testing/paths.js";
import { startWebApi, type WebApi } from "../testing/web-api.js";

const NO_KINGS = "9/9/9/9/9/9/9/9/9 b 2P 1";
const NO_BLACK_KING = "4k4/9/9/9/9/9/9/9/9 b G 1";
const TWO_BLACK_KINGS = "4k4/9/9/9/9/9/9/9/3KK4 b - 1";
const BAD: Array<[string, RegExp]> = [
  [NO_KINGS, /not a book's root: black has no king and white has no king \(a root needs one king a side\)/],
  [NO_BLACK_KING, /not a book's root: black has no king \(a root needs one king a side\)/],
  [TWO_BLACK_KINGS, /two black kings/], // the SFEN reader refuses it already
  // Black to move and mated: nothing to dig (a dig of it finished at once).
  ["8k/9/9/9/9/9/p8/gg7/K8 b - 1", /not a book's root: black, to move, has no legal move \(mated\)/],
];

let dir: string;
beforeAll(() => {
  dir = tempDir("horu-root-");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a root without one king a side", () => {
  it("OpenBook.create refuses it before a file is made; updateSettings leaves the root as it was", () => {
    for (const [root, why] of BAD) {
      const file = path.join(dir, `c-${BAD.findIndex(([r]) => r === root)}.horu`);
      expect(() => OpenBook.create(file, { root })).toThrow(why);
      expect(existsSync(file)).toBe(false);
    }
    const book = OpenBook.create(path.join(dir, "ok.horu"), { root: "4k4/9/9/9/9/9/9/9/4K4 b G 1" });
    try {
      for (const [root, why] of BAD) expect(() => book.updateSettings({ root })).toThrow(why);
      expect(book.settings.root).toBe("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    } finally {
      book.close();
    }
  });

  it("a book made with such a root before the check still opens", () => {
    const file = path.join(dir, "old.horu");
    OpenBook.create(file).close();
    const db = new Database(file);
    db.prepare("UPDATE settings SET value = ? WHERE key = 'root'").run(JSON.stringify(NO_BLACK_KING));
    db.close();
    const book = OpenBook.open(file);
    expect(book.settings.root).toBe(NO_BLACK_KING);
    book.close();
  });

  it("the page's book.create answers 400 with the message", async () => {
    const web: WebApi = await startWebApi(dir, { confine: false });
    try {
      for (const [root, why] of BAD) {
        const file = path.join(dir, "web.horu");
        const r = await web.call("book.create", { path: file, settings: { root } });
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.error).toMatch(why);
        expect(existsSync(file)).toBe(false);
      }
    } finally {
      await web.close();
    }
  });

  it("horu dig --root: exit 1 with the message, no book made and an existing book's root unchanged", () => {
    const made = path.join(dir, "dig-new.horu");
    const existing = path.join(dir, "dig-old.horu");
    OpenBook.create(existing).close();
    for (const [root, why] of BAD) {
      for (const book of [made, existing]) {
        const r = spawnSync(process.execPath, [HORU, "dig", "--book", book, "--root", root, "--positions", "1"], {
          encoding: "utf8",
          env: { ...process.env, HOME: dir },
          timeout: 60_000,
        });
        expect(r.status, r.stderr).toBe(1);
        expect(r.stderr).toMatch(why);
      }
      expect(existsSync(made)).toBe(false);
      const b = OpenBook.open(existing, {}, { readonly: true });
      expect(b.settings.root).toBe("startpos");
      b.close();
    }
  });
});
