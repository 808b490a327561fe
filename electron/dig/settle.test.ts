// Super Tera-Shock with the positions the book plays into thought again deeper (`--settle F`),
// in a real dig (fairy-stockfish): after 200 positions at the book's limit a round of at most
// 25 of them is thought again at F times it, replacing their thinks; the summary counts them
// and their nodes, and `--engine-nodes` stops the dig at an engine-node budget.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { BookStore, type StoredThought } from "../store/book-store.js";
import { spawnSync } from "node:child_process";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { digInOrder, expectRefused } from "../testing/dig-in-order.js";
import { missing } from "../testing/missing.js";
import { Position } from "../../shared/rules/position.js";

const FACTOR = 4;
const NODES = 2000; // digInOrder's limit

function lastJson(out: string): { thought: number; engineNodes: number; deepThinks: number; deepNodes: number } {
  const line = out
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .at(-1)!;
  return JSON.parse(line);
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`settling the positions the book plays into (${NO_ENGINE})`, () => {
  it("thinks a round of the book's positions again at F x the limit after 200, in place", { timeout: 300_000 }, () => {
    const file = path.join(tempDir(), "settle.horu");
    const out = digInOrder(file, ["--settle", String(FACTOR), "--positions", "240", "--json"]);
    const s = lastJson(out);
    const store = BookStore.open(file, { readonly: true });
    const thought: StoredThought[] = [...store.thoughts.iterate()];
    const settings = store.settings.all();
    store.close();
    expect(settings.settleFactor).toBe(FACTOR);
    const deep = thought.filter((t) => t.provenance.kind === "engine" && t.provenance.nodes >= (FACTOR * NODES) / 2);
    // One round: the deep thinks replaced thoughts of the first 200 (the book holds fewer rows than thinks).
    expect(s.thought).toBe(240);
    expect(s.deepThinks).toBeGreaterThan(0);
    expect(s.deepThinks).toBeLessThanOrEqual(25);
    expect(deep).toHaveLength(s.deepThinks);
    expect(thought).toHaveLength(240 - s.deepThinks);
    const order = new Map(thought.map((t, i) => [t.sfen, i]));
    for (const d of deep) expect(order.get(d.sfen)!).toBeLessThan(200);
    // The root is where every game starts: the likeliest, in the first round.
    expect(deep.map((d) => d.sfen)).toContain(Position.startpos().sfenKey());
    // The summary's nodes are the engines' for the deep thinks (stored whole: nothing replaced them).
    expect(s.deepNodes).toBe(deep.reduce((a, d) => a + (d.provenance.kind === "engine" ? d.provenance.nodes : 0), 0));
    expect(out).toMatch(new RegExp(`thought again deeper: ${s.deepThinks} positions`));
  });

  it("stops at an engine-node budget", { timeout: 120_000 }, () => {
    const file = path.join(tempDir(), "budget.horu");
    const s = lastJson(digInOrder(file, ["--engine-nodes", "60000", "--json"]));
    const store = BookStore.open(file, { readonly: true });
    const stored = [...store.thoughts.iterate()].reduce((a, t) => a + (t.provenance.kind === "engine" ? t.provenance.nodes : 0), 0);
    store.close();
    expect(s.engineNodes).toBeGreaterThanOrEqual(60000);
    expect(s.engineNodes).toBe(stored); // one engine, nothing selected ahead: no think was cut off
    // It stopped at the think that crossed the budget, not later.
    expect(s.engineNodes - 60000).toBeLessThan(4 * NODES);
  });

  it("is a new book's default with deep best; a book made before keeps auto and no settling", { timeout: 120_000 }, () => {
    const dir = tempDir();
    const dig = (file: string) => {
      const r = spawnSync(
        process.execPath,
        [HORU, "dig", "--book", file, "--engine", FAIRY, "--engines", "1", "--nodes", "2000", "--positions", "2"],
        {
          encoding: "utf8",
        },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stderr;
    };
    const fresh = path.join(dir, "new.horu");
    expect(dig(fresh)).toMatch(/limit \{"nodes":2000\}, multipv deep-best, settle 8x\n/);
    const stored = BookStore.open(fresh, { readonly: true });
    expect(stored.settings.all()).toMatchObject({ multipv: "deep-best", settleFactor: 8 });
    stored.close();
    // A book whose file has no such settings (made before they existed, or by another program).
    const older = path.join(dir, "older.horu");
    BookStore.create(older).close();
    expect(dig(older)).toMatch(/limit \{"nodes":2000\}, multipv auto\n/);
  });

  it("refuses a --settle out of its range, naming it, and creates no book", () => {
    expectRefused([
      ["--settle=-1", /--settle must be a whole number >= 0, not '-1'/],
      ["--settle=65", /--settle must be at most 64, not '65'/],
    ]);
  });
});
