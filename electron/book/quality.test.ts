// `horu book quality`'s runner on a hand-made book in a real file, with the real engine: what
// it plays into, that the searches are kept in the book (schema v8) so a second run only adds,
// and the DB2016 file written with a move-choice rule.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { BookStore } from "../store/index.js";
import { Position } from "../../shared/rules/position.js";
import { engineFromCommandLine } from "../engines/command-line.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { bookQuality, formatQualityReport } from "./quality.js";
import { writeQualityBook as writeBook } from "../testing/quality-book.js";
import { choiceBlocks, exportWithChoice } from "./quality-export.js";

const at = (moves: string): Position => Position.fromUsi(`startpos${moves ? ` moves ${moves}` : ""}`);

const dir = tempDir("horu-quality-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveFairy)(`book quality with the real engine (${NO_ENGINE})`, () => {
  it("measures the book, keeps its searches and reuses them", async () => {
    const file = path.join(dir, "q.horu");
    writeBook(file);
    const engines = [{ ...engineFromCommandLine(FAIRY, { Threads: 1, USI_Hash: 16 }), name: "fairy" }];
    const first = await bookQuality({ book: file, engines, oracleNodes: 3000, coverageRuns: 2, coverageNodes: 500 });
    expect(first.positions).toBe(4);
    expect(first.digNodes).toBe(1000);
    expect(first.rootNow).toEqual({ move: "2g2f", value: 45 });
    // Black plays into the root, 2g2f 8c8d and 2g2f 3c3d; white into 2g2f (black's likely replies 7g7f, 2g2f; only 2g2f is in the book).
    expect(first.played).toBe(4);
    expect(first.scored).toBe(4);
    expect(first.searched).toBeGreaterThanOrEqual(4);
    const all = first.bands.find((b) => b.band === "all")!;
    expect(all.book.best.n).toBe(4);
    expect(first.coverage!.map((c) => c.plies.n)).toEqual([2, 2]);
    // Black's book: 2g2f at the root, then (8c8d / 3c3d by the engine) at most one book move more.
    expect(first.coverage![0]!.bookMoves.value).toBeGreaterThanOrEqual(1);
    expect(formatQualityReport(first)).toContain("positions the book plays into (its move: minimax): 4");
    const db = new Database(file, { readonly: true });
    const kept = (db.prepare("SELECT count(*) AS n FROM quality_searches").get() as { n: number }).n;
    db.close();
    expect(kept).toBe(first.searched);

    const again = await bookQuality({ book: file, engines, oracleNodes: 3000, coverageRuns: 2, coverageNodes: 500 });
    expect(again.searched).toBe(0);
    expect(again.reused).toBe(4);
    expect(first.reused).toBe(0);
    expect(JSON.stringify(again.bands)).toBe(JSON.stringify(first.bands));

    // The engine's own move (7g7f, 30) unless the minimax beats it by more than 50: 2g2f's 45 does not.
    const robust = await bookQuality({ book: file, engines, oracleNodes: 3000, coverageRuns: 0, choice: { kind: "robust", marginCp: 50 } });
    expect(robust.choice).toBe("robust:50");
    expect(robust.rootNow?.move).toBe("7g7f");
  }, 120_000);
});

describe("a book written with a move-choice rule", () => {
  it("puts the chosen move first with the best value", () => {
    const p = {
      sfen: at("").sfenKey(),
      book: [
        { move: "2g2f", value: 45 },
        { move: "7g7f", value: 30 },
      ],
      raw: [
        { move: "7g7f", value: 30 },
        { move: "2g2f", value: 20 },
      ],
    };
    expect(choiceBlocks([p], { kind: "minimax" })[0]!.moves).toEqual([
      { move: "2g2f", value: 45 },
      { move: "7g7f", value: 30 },
    ]);
    expect(choiceBlocks([p], { kind: "robust", marginCp: 20 })[0]!.moves).toEqual([
      { move: "7g7f", value: 45 },
      { move: "2g2f", value: 45 },
    ]);
    expect(choiceBlocks([p], { kind: "robust", marginCp: 10 })[0]!.moves[0]!.move).toBe("2g2f");
  });

  it("writes a DB2016 file", () => {
    const file = path.join(dir, "w.horu");
    writeBook(file);
    BookStore.open(file).close();
    const out = path.join(dir, "w.db");
    expect(exportWithChoice(file, out, { kind: "robust", marginCp: 50 })).toBe(4);
    const text = readFileSync(out, "utf8");
    expect(text.startsWith("#YANEURAOU-DB2016 1.00\n# NOE:4\n")).toBe(true);
    expect(text).toContain(`sfen ${at("").sfenKey()}\n7g7f none 45 0\n`);
  });
});
