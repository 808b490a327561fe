// Collection statistics (docs/DESIGN.md §11.0) from `horu import --stats`: stored with the
// book and shown by the host service's book.node beside the engine values; the seeding
// filters (--min-count, --winner-only) on the command line.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { HostService } from "./service.js";
import { parseCall } from "../../shared/api/contract.js";
import { BookStore } from "../store/book-store.js";
import { OpenBook } from "../book/open-book.js";
import { importDb2016 } from "../book/import.js";
import { HORU, TEST_DATA, tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { missing } from "../testing/missing.js";

/** Three games: black opens 2g2f twice and wins both, 7g7f once and loses. */
function writeGames(dir: string): void {
  mkdirSync(dir);
  const game = (moves: string) => `V2.2\nN+a\nN-b\nPI\n+\n${moves.split(" ").join("\n")}\n%TORYO\n`;
  writeFileSync(path.join(dir, "g1.csa"), game("+2726FU -8384FU +7776FU"));
  writeFileSync(path.join(dir, "g2.csa"), game("+2726FU -3334FU +7776FU"));
  writeFileSync(path.join(dir, "g3.csa"), game("+7776FU -3334FU"));
}

const horu = (...args: string[]) =>
  JSON.parse(
    execFileSync(process.execPath, [HORU, ...args], { encoding: "utf8" })
      .trim()
      .split("\n")
      .pop()!,
  );
const db = path.join(TEST_DATA, "books", "book_yaneuraou.db");

describe.skipIf(missing(existsSync(db), db))("collection statistics", () => {
  it("import --stats stores games and wins per position and move; book.node shows them", async () => {
    const dir = tempDir();
    const games = path.join(dir, "games");
    writeGames(games);
    const file = path.join(dir, "b.horu");
    OpenBook.create(file).close();
    const store = BookStore.open(file);
    await importDb2016(store, db); // gives the start position its moves (2g2f, 7g7f, ...)
    store.close();

    const r = horu("import", "--book", file, games, "--stats", "--json");
    expect(r.seeds.statsMoves).toBe(7);

    const s = new HostService();
    try {
      await s.call("book.open", parseCall("book.open", { path: file }).args as never);
      const root = await s.call("book.node", parseCall("book.node", { line: [] }).args as never);
      const byMove = new Map(root.moves.map((m) => [m.usi, m]));
      expect(byMove.get("2g2f")).toMatchObject({ games: 2, wins: 2 });
      expect(byMove.get("7g7f")).toMatchObject({ games: 1, wins: 0 });
      expect(byMove.get("5g5f")).toMatchObject({ games: null, wins: null });
    } finally {
      await s.call("book.close", parseCall("book.close", {}).args as never);
    }

    // Statistics add up: importing the same games again doubles them.
    horu("import", "--book", file, games, "--stats", "--json");
    const again = BookStore.open(file, { readonly: true });
    expect(again.moveStats.get(Position.startpos().sfenKey())).toEqual([
      { move: "2g2f", games: 4, wins: 4, draws: 0 },
      { move: "7g7f", games: 2, wins: 0, draws: 0 },
    ]);
    again.close();
  });

  it("--min-count and --winner-only filter what is seeded and queued", () => {
    const dir = tempDir();
    const games = path.join(dir, "games");
    writeGames(games);
    const seeds = (...extra: string[]) => {
      const file = path.join(dir, `${extra.join("") || "plain"}.horu`);
      const r = horu("import", "--book", file, games, "--think-plies", "4", "--json", ...extra).seeds;
      return [r.positions, r.queued];
    };
    // All: start, 2g2f, 7g7f, 2g2f 8c8d, 2g2f 3c3d, 7g7f 3c3d, and the two 2g2f x 7g7f positions.
    expect(seeds()).toEqual([8, 8]);
    // Only 2g2f was played twice: the start position and the one after it.
    expect(seeds("--min-count", "2")).toEqual([2, 2]);
    // Black won every game: positions after black's moves (and the start position).
    expect(seeds("--winner-only")).toEqual([5, 5]);
  });

  it("--winner-only counts each record's own seeds: a position another record seeded is not this one's", () => {
    const dir = tempDir();
    const games = path.join(dir, "games");
    mkdirSync(games);
    const game = (moves: string) => `V2.2\nN+a\nN-b\nPI\n+\n${moves.split(" ").join("\n")}\n%TORYO\n`;
    // White wins g3: it seeds the start and the position after its own 3c3d, not the one after
    // black's 7g7f, which g4 (black wins) seeds. g3's record said 3 seeded where its file said 2.
    writeFileSync(path.join(games, "g3.csa"), game("+7776FU -3334FU"));
    writeFileSync(path.join(games, "g4.csa"), game("+7776FU -8384FU +2726FU"));
    const r = horu("import", "--book", path.join(dir, "w.horu"), games, "--winner-only", "--json").seeds;
    const files = r.files as Array<{ file: string; positions: number; perRecord: Array<{ seeded: number; added: number }> }>;
    expect(files.map((f) => [path.basename(f.file), f.positions, f.perRecord[0]!.seeded])).toEqual([
      ["g3.csa", 2, 2],
      ["g4.csa", 3, 3],
    ]);
    expect(files.reduce((a, f) => a + f.perRecord[0]!.added, 0)).toBe(r.added);
    expect(JSON.stringify(r)).not.toContain("gameSeeded");
  });
});
