// The settle rounds as the dig's hand-out order sees them (electron/book/settle-jobs.ts): a
// round only after 200 positions thought at the book's limit, the positions the book plays
// into first (likeliest, then nearest the root), at the setting's multiple of the limit, an
// imported position never, and the book's move there by the settled choice. Real SQLite files.
import { afterEach, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "./open-book.js";
import { tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import type { Candidate, Provenance } from "../../shared/book/records.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const at = (...moves: string[]) => Position.fromUsi(moves.length ? `startpos moves ${moves.join(" ")}` : "startpos");
const cands = (...moves: Array<[string, number]>): Candidate[] => moves.map(([move, value]) => ({ move, value, depth: 10, pv: [move] }));
const engine: Provenance = { kind: "engine", engine: "test", nodes: 1000, depth: 10, timeMs: 1 };

function put(book: OpenBook, p: Position, c: Candidate[], provenance: Provenance = engine): void {
  book.jobs.addResult({ sfen: p.sfenKey(), keyHi: p.keyHi, keyLo: p.keyLo, line: [], rootValue: null }, c, provenance);
}

describe("settle rounds", () => {
  it("come after 200 ordinary positions, likeliest first, at F x the limit, never an imported position", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const book = OpenBook.create(path.join(dir, "s.horu"), { limit: { nodes: 1000 }, settleFactor: 4 });
    // The root is an imported position: black's book plays 7g7f (no child: the engine's own best too).
    put(book, at(), cands(["7g7f", 20], ["2g2f", 10]), { kind: "import", file: "some.db" });
    // After 7g7f white's engine likes 3c3d and 8c8d (within 50 cp), then black's book moves there.
    put(book, at("7g7f"), cands(["3c3d", -20], ["8c8d", -30], ["1c1d", -200]));
    put(book, at("7g7f", "3c3d"), cands(["2g2f", 25]));
    put(book, at("7g7f", "8c8d"), cands(["2g2f", 30]));
    // Fill up to 200 ordinary positions with others (two plies of other first moves).
    let n = 4; // every result taken at the book's limit counts, the root's too
    for (const first of ["2g2f", "5g5f", "1g1f", "9g9f", "3g3f", "6g6f", "4g4f", "8g8f"]) {
      const p1 = at(first);
      for (const second of p1.legalMoves().map(moveToUsi)) {
        if (n >= 199) break;
        put(book, at(first, second), cands(["4i5h", 0]));
        n++;
      }
    }
    expect(n).toBe(199);
    // One short of a round: selection's leaf, not a deep think.
    const before = book.jobs.next()!;
    expect(before.limit).toBeUndefined();
    book.jobs.release(before);
    put(book, at("2g2f"), cands(["8c8d", 0]));
    // The round is worked out on its own thread (settle-thread.ts): the dig selects meanwhile.
    const meanwhile = book.jobs.next()!;
    expect(meanwhile.limit).toBeUndefined();
    book.jobs.release(meanwhile);
    await book.jobs.settle.ready();
    // The round: the positions each side's book plays into, all reached in half the games:
    // white's two after black's likely 7g7f and 2g2f (ply 1), then black's two after 7g7f and
    // white's likely replies (ply 2). Not the imported root.
    const deep = [book.jobs.next()!, book.jobs.next()!, book.jobs.next()!, book.jobs.next()!];
    expect(deep.map((j) => j.limit)).toEqual(Array(4).fill({ nodes: 4000 }));
    // Each finds the move the book will play there with one line (think-spec.ts).
    expect(deep.every((j) => j.oneLineBest === true)).toBe(true);
    expect(before.oneLineBest).toBeUndefined();
    const sorted = (xs: string[]) => [...xs].sort();
    expect(sorted(deep.slice(0, 2).map((j) => j.sfen))).toEqual(sorted([at("7g7f").sfenKey(), at("2g2f").sfenKey()]));
    expect(sorted(deep.slice(2).map((j) => j.sfen))).toEqual(sorted([at("7g7f", "3c3d").sfenKey(), at("7g7f", "8c8d").sfenKey()]));
    expect(deep.find((j) => j.sfen === at("7g7f", "3c3d").sfenKey())!.line).toEqual(["7g7f", "3c3d"]);
    // The imported root was not among them, and the round is over: selection goes on.
    const next = book.jobs.next();
    expect(next?.limit).toBeUndefined();
    // The round's thread also found the book's line by the moves it plays: a view past its
    // limit shows it without computing the book (black's 7g7f, white's likeliest reply, black's 2g2f).
    book.jobs.viewComputeMax = 0;
    expect(book.bookLine()).toEqual(["7g7f", "3c3d", "2g2f"]);
    book.close();
  });
});

describe("settle rounds on a big book", () => {
  it("stop once the book holds more positions than their size, said once in the book's log", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const book = OpenBook.create(path.join(dir, "b.horu"), { limit: { nodes: 1000 }, settleFactor: 4 });
    // The rule of a 250,000-position book on one of 150: a round would compute the whole book's minimax.
    book.jobs.settle.options = { ...book.jobs.settle.options, maxPositions: 150 };
    put(book, at(), cands(["7g7f", 20], ["2g2f", 10]));
    let n = 1;
    for (const first of ["7g7f", "2g2f", "5g5f", "1g1f", "9g9f", "3g3f", "6g6f", "4g4f", "8g8f"]) {
      if (n >= 200) break;
      const p1 = at(first);
      put(book, p1, cands(["3c3d", 0]));
      n++;
      for (const second of p1.legalMoves().map(moveToUsi)) {
        if (n >= 200) break;
        put(book, at(first, second), cands(["4i5h", 0]));
        n++;
      }
    }
    expect(book.store.thoughts.count()).toBe(200);
    for (let i = 0; i < 3; i++) {
      const job = book.jobs.next()!;
      expect(job.limit).toBeUndefined();
      book.jobs.release(job);
    }
    const said = book.store.log.recent(50).filter((e) => e.event === "settle");
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toMatch(/^no more settle rounds: the book holds 200 positions, more than 150;/);
    // Under the size, the same book has its round.
    book.jobs.settle.options = { ...book.jobs.settle.options, maxPositions: 250_000 };
    book.close();
    const again = OpenBook.open(path.join(dir, "b.horu"));
    put(again, at("7g7f", "3c3d"), cands(["2g2f", 20]));
    again.jobs.settle.options = { ...again.jobs.settle.options, every: 1 };
    again.jobs.release(again.jobs.next()!); // starts the round's thread
    await again.jobs.settle.ready();
    expect(again.jobs.next()!.limit).toEqual({ nodes: 4000 });
    again.close();
  });
});

describe("a settled book's line from the root", () => {
  it("follows the moves it plays (its own best within 50 cp of the minimax's), the minimax's when not settled", () => {
    const dir = tempDir();
    dirs.push(dir);
    for (const settleFactor of [8, 0]) {
      const book = OpenBook.create(path.join(dir, `l${settleFactor}.horu`), { limit: { nodes: 1000 }, settleFactor });
      // The engine likes 7g7f (20) over 2g2f (10); below, 2g2f's line is worth 40 cp more by the
      // minimax (60 against 20): a lead the settled book does not trust, the minimax plays.
      put(book, at(), cands(["7g7f", 20], ["2g2f", 10]));
      put(book, at("7g7f"), cands(["3c3d", -20]));
      put(book, at("2g2f"), cands(["8c8d", -60]));
      put(book, at("7g7f", "3c3d"), cands(["2g2f", 20]));
      put(book, at("2g2f", "8c8d"), cands(["7g7f", 60]));
      expect(book.bookLine().slice(0, 2)).toEqual(settleFactor > 0 ? ["7g7f", "3c3d"] : ["2g2f", "8c8d"]);
      // A result that makes 2g2f's lead more than 50 cp: the settled line turns to it too.
      put(book, at("2g2f", "8c8d"), cands(["7g7f", 90]));
      expect(book.bookLine().slice(0, 2)).toEqual(["2g2f", "8c8d"]);
      book.close();
    }
  });

  it("is the minimax's on a book past 10,000 positions, where a view does not compute the book", () => {
    const dir = tempDir();
    dirs.push(dir);
    const book = OpenBook.create(path.join(dir, "big.horu"), { limit: { nodes: 1000 }, settleFactor: 8 });
    put(book, at(), cands(["7g7f", 20], ["2g2f", 10]));
    put(book, at("7g7f"), cands(["3c3d", -20]));
    put(book, at("2g2f"), cands(["8c8d", -60]));
    put(book, at("7g7f", "3c3d"), cands(["2g2f", 20]));
    put(book, at("2g2f", "8c8d"), cands(["7g7f", 60]));
    expect(book.jobs.viewComputeMax).toBe(10_000);
    // The same rule on five positions: no minimax computed, the selection's line.
    book.jobs.viewComputeMax = 4;
    expect(book.bookLine().slice(0, 2)).toEqual(["2g2f", "8c8d"]);
    book.jobs.viewComputeMax = 10_000;
    expect(book.bookLine().slice(0, 2)).toEqual(["7g7f", "3c3d"]);
    // Once computed, a view past the limit shows that line (until a settle round computes again).
    book.jobs.viewComputeMax = 4;
    expect(book.bookLine().slice(0, 2)).toEqual(["7g7f", "3c3d"]);
    book.close();
  });
});
