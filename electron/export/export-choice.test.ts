// The move a minimax export lists first: a book dug with --settle plays its engine's own best
// unless the minimax beats it by more than 50 cp (shared/book/settle.ts), so its export says
// so by default; any book can be exported with either choice.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { BookStore } from "../store/index.js";
import { exportFromStore } from "./export.js";
import { HORU, tempDir } from "../testing/paths.js";
import { writeQualityBook } from "../testing/quality-book.js";
import { parseDb2016 } from "../../shared/formats/db2016.js";
import { Position } from "../../shared/rules/position.js";
import type { MoveChoice } from "../../shared/book/quality.js";
import type { DigPolicy } from "../../shared/dig/settings.js";

/** The start position's moves as the export lists them, [move, value]. */
async function rootMoves(
  settleFactor: number,
  choice?: MoveChoice,
  o: { rootImported?: boolean; policy?: DigPolicy } = {},
): Promise<Array<[string, number | null]>> {
  const dir = tempDir();
  const file = path.join(dir, "q.horu");
  writeQualityBook(file, o);
  const store = BookStore.open(file);
  store.settings.setMany({ settleFactor, ...(o.policy ? { policy: o.policy } : {}) });
  const out = path.join(dir, "out.db");
  await exportFromStore(store, { path: out, format: "db", mode: "minimax", folder: dir, ...(choice ? { choice } : {}) }, null);
  store.close();
  const root = Position.startpos().sfenKey();
  const block = parseDb2016(readFileSync(out, "utf8")).blocks.find((b) => b.sfen.startsWith(root))!;
  return block.moves.map((m) => [m.move, m.value]);
}

describe("the export's first move", () => {
  // The hand-made book: the engine's own best at the root is 7g7f (30, no child), the minimax best 2g2f (45).
  it("is the minimax best in a book dug without --settle", async () => {
    expect((await rootMoves(0))[0]).toEqual(["2g2f", 45]);
  });

  it("is the engine's own best, with the best value, in a settled book when the minimax beats it by 50 cp or less", async () => {
    const moves = await rootMoves(8);
    expect(moves[0]).toEqual(["7g7f", 45]);
    expect(moves.slice(1).map(([m]) => m)).toEqual(["2g2f", "5g5f"]);
  });

  it("is the minimax best at an imported position of a settled book, as the file's own export listed it", async () => {
    expect((await rootMoves(8, undefined, { rootImported: true }))[0]).toEqual(["2g2f", 45]);
  });

  it("is the minimax best in a breadth-first book, whose dig never settles", async () => {
    expect((await rootMoves(8, undefined, { policy: "breadth-first" }))[0]).toEqual(["2g2f", 45]);
  });

  it("follows a choice given, over the book's own", async () => {
    expect((await rootMoves(8, { kind: "minimax" }))[0]).toEqual(["2g2f", 45]);
    expect((await rootMoves(0, { kind: "robust", marginCp: 50 }))[0]).toEqual(["7g7f", 45]);
    // A margin under the minimax's 15 cp lead keeps the minimax best.
    expect((await rootMoves(8, { kind: "robust", marginCp: 10 }))[0]).toEqual(["2g2f", 45]);
  });

  it("is chosen on the command line with --choice, refused when unreadable or beside --raw", () => {
    const dir = tempDir();
    const file = path.join(dir, "q.horu");
    writeQualityBook(file);
    const out = path.join(dir, "robust.db");
    const horu = (...args: string[]) => spawnSync(process.execPath, [HORU, "export", "--book", file, ...args], { encoding: "utf8" });
    const ok = horu("--out", out, "--choice", "robust");
    expect(ok.status, ok.stderr).toBe(0);
    const root = Position.startpos().sfenKey();
    expect(parseDb2016(readFileSync(out, "utf8")).blocks.find((b) => b.sfen.startsWith(root))!.moves[0]!.move).toBe("7g7f");
    const bad = horu("--out", path.join(dir, "bad.db"), "--choice", "best");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--choice: move choice "best": give minimax, robust or robust:CP/);
    const raw = horu("--out", path.join(dir, "raw.db"), "--raw", "--choice", "robust");
    expect(raw.status).toBe(2);
    expect(raw.stderr).toMatch(/--choice applies to --minimax/);
    expect(existsSync(path.join(dir, "bad.db")) || existsSync(path.join(dir, "raw.db"))).toBe(false);
  });
});
