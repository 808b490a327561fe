// Super Tera-Shock with its first plies dug breadth first (`--breadth-plies`), in a real dig
// (fairy-stockfish): checked against the book it stored by a walk over positions (not the
// graph the dig walks): every position within the window up to the given ply is thought
// first, level by level, and the selection then goes deeper along the book's lines.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { BookStore, type StoredThought } from "../store/book-store.js";
import { NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { digInOrder, expectRefused } from "../testing/dig-in-order.js";
import { missing } from "../testing/missing.js";
import { walkWindow } from "../testing/window-walk.js";

const WINDOW = 40;
const PLIES = 2;

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`tera-shock after breadth-first plies (${NO_ENGINE})`, () => {
  it("thinks every position within the window up to --breadth-plies first, then digs deeper", { timeout: 240_000 }, () => {
    const file = path.join(tempDir(), "bp.horu");
    const out = digInOrder(file, ["--window", String(WINDOW), "--breadth-plies", String(PLIES), "--positions", "45"]);
    expect(out).toMatch(/positions thought: 45 \(failed 0\)/);

    const store = BookStore.open(file, { readonly: true });
    const thought: StoredThought[] = [...store.thoughts.iterate()];
    const settings = store.settings.all();
    store.close();
    expect(settings.policy).toBe("tera-shock");
    expect(settings.breadthPlies).toBe(PLIES);

    const { ply, unthought } = walkWindow(thought, WINDOW);
    const left = [...unthought].filter(([d]) => d <= PLIES).flatMap(([, keys]) => [...keys]);
    expect(left, "left unthought within the breadth-first plies").toEqual([]);
    const near = [...ply.values()].filter((d) => d <= PLIES).length;
    expect(near).toBeLessThan(45); // the selection had positions left to dig below them
    // The first `near` thoughts are those positions, level by level.
    const first = thought.slice(0, near).map((t) => ply.get(t.sfen));
    for (const d of first) expect(d).toBeLessThanOrEqual(PLIES);
    for (let i = 1; i < first.length; i++) expect(first[i]!, `position ${i}`).toBeGreaterThanOrEqual(first[i - 1]!);
    // Then Super Tera-Shock selection: deeper than the breadth-first plies, along the book's lines.
    const after = thought.slice(near).map((t) => ply.get(t.sfen) ?? Infinity);
    expect(Math.max(...after)).toBeGreaterThan(PLIES + 1);
  });

  it("refuses a --breadth-plies out of its range, naming it, and creates no book", () => {
    expectRefused([
      ["--breadth-plies=-1", /--breadth-plies must be a whole number >= 0, not '-1'/],
      ["--breadth-plies=65", /--breadth-plies must be at most 64, not '65'/],
    ]);
  });
});
