// Seeding tells the truth: per record, what it seeded, what was new, what the
// bonus reaches on the book's moves and where the record leaves them; junk and broken links
// in a folder are reported and skipped while the other files are seeded; think-first-N-plies
// queues the record's positions so they enter the book.
import { describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "./open-book.js";
import { seedBook, seedFiles } from "./seed.js";
import { growBook } from "../testing/grow.js";
import { writeTranspositionBook } from "../testing/transposition-book.js";
import { tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";

/** Lance handicap (香落ち): white's 1a lance is gone. */
const HANDICAP = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

describe("seeding tells the truth", () => {
  it("per record: seeded, new, on the book's moves, where it leaves them; junk and broken links are skipped with a reason", () => {
    const dir = tempDir();
    const book = OpenBook.create(path.join(dir, "b.horu"));
    try {
      growBook(book, 1); // the root, with its first 4 legal moves listed
      const root = Position.fromSfen(book.root.sfenKey());
      const legal = root.legalMoves().map(moveToUsi);
      const listed = legal[0]!,
        unlisted = legal[10]!;
      const after = root.clone();
      after.doMove(root.legalMoves()[0]!);
      const reply = moveToUsi(after.legalMoves()[0]!);
      const records = path.join(dir, "records");
      mkdirSync(records);
      writeFileSync(
        path.join(records, "a.sfen"),
        `startpos moves ${listed} ${reply}\nstartpos moves ${unlisted}\nstartpos moves ${legal[2]}\nsfen ${HANDICAP} moves 3c3d\n`,
      );
      writeFileSync(path.join(records, "junk.csa"), "this is not a record\n");
      symlinkSync(path.join(records, "gone.kif"), path.join(records, "broken.kif"));
      writeFileSync(path.join(records, "friend.db"), "#YANEURAOU-DB2016 1.00\n");
      const r = seedBook(book, [records], { plies: 8 });
      const byName = new Map(r.files.map((f) => [path.basename(f.file), f]));
      const a = byName.get("a.sfen")!;
      expect(a.records).toBe(4);
      // Record 1: startpos (root), after the listed move (a leaf child of the root: on the book's
      // moves), after the reply (not: the child is not thought, so nothing lists the reply).
      // The dig stops following it at ply 1: the listed move's child is not thought; it is the
      // root's best listed move (40 cp), so 0 cp below the best.
      const rootSfen = root.sfenKey();
      expect(a.perRecord[0]).toEqual({
        record: 1,
        line: 1,
        seeded: 3,
        added: 3,
        onBook: 2,
        start: "root",
        plies: 2,
        stopsAt: { ply: 1, move: listed, before: rootSfen, gapCp: 0, reason: "book-ends" },
      });
      // Record 2: the start position again (not new), an unlisted move: no value to compare.
      expect(a.perRecord[1]).toEqual({
        record: 2,
        line: 2,
        seeded: 2,
        added: 1,
        onBook: 1,
        start: "root",
        plies: 1,
        stopsAt: { ply: 1, move: unlisted, before: rootSfen, gapCp: null, reason: "not-listed" },
      });
      // Record 3: the third listed move (10 cp) is 30 cp below the best (40).
      expect(a.perRecord[2]).toMatchObject({
        record: 3,
        start: "root",
        stopsAt: { ply: 1, move: legal[2], gapCp: 30, reason: "book-ends" },
      });
      // Record 4: a handicap game (no lance): outside the book, said so.
      expect(a.perRecord[3]).toMatchObject({ record: 4, start: "outside", stopsAt: null, onBook: 0 });
      expect(a.perRecord[3]!.joinsAt).toBeUndefined();
      expect(byName.get("junk.csa")).toMatchObject({ records: 0, errors: [{ message: expect.stringMatching(/^not a game record/) }] });
      expect(byName.get("broken.kif")).toMatchObject({
        records: 0,
        errors: [{ message: expect.stringMatching(/skipped: a broken link/) }],
      });
      // A book in the folder is not a record: named, with how to import it, not passed over.
      expect(byName.get("friend.db")).toMatchObject({
        records: 0,
        errors: [{ message: expect.stringMatching(/skipped: a book, not a game record \(name the file itself/) }],
      });
      // Counts: the summary is the records' sum and the book's real change.
      expect(r.added).toBe(7); // record 1: 3, record 2: 1, record 3: 1, record 4: 2
      expect(r.added).toBe(a.perRecord.reduce((n, x) => n + x.added, 0));
      expect(a.added).toBe(r.added);
      expect(r.kifuAfter - r.kifuBefore).toBe(r.added);
      expect(r.kifuAfter).toBe(book.graph.kifu.size);

      // Seeding the same positions again (from another file: another source row) adds none.
      writeFileSync(path.join(dir, "again.sfen"), `startpos moves ${listed} ${reply}\n`);
      const again = seedBook(book, [path.join(dir, "again.sfen")], { plies: 8, storeStats: true });
      expect(again.added).toBe(0);
      expect(again.kifuAfter).toBe(again.kifuBefore);
      expect(again.files[0]!.perRecord[0]!.added).toBe(0);
      // Game statistics are stored: the move's 対局数 is counted.
      expect(again.statsGames).toBe(1);
      expect(book.store.moveStats.get(rootSfen)).toEqual([{ move: listed, games: 1, wins: 0, draws: 0 }]);

      // Thinking the first plies queues them, so a dig thinks them before selecting.
      const lines = seedFiles(book, [path.join(records, "a.sfen")], { plies: 8, thinkPlies: 2 });
      expect(lines.join("\n")).toMatch(
        /record 1 \(line 1\): 3 seeded \(0 new to the kifu set\), 2 on moves the book has; the book ends at ply 1 \(\w+\), 0 cp below the book's best: the dig goes on there/,
      );
      expect(lines.at(-1)).toMatch(/queued \d+ positions to think first/);
      const queued = book.store.queue.peek(10).map((q) => q.sfen);
      expect(queued.length).toBeGreaterThanOrEqual(2);
      // The record's unlisted line is one selection would never reach; the queue hands it out.
      after.undoMove();
      after.doMove(root.legalMoves()[10]!);
      expect(queued).toContain(after.sfenKey());
      const job = book.jobs.next();
      expect(queued).toContain(job!.sfen);
    } finally {
      book.close();
    }
  });

  it("names the ply where the record's move falls below the book's best by minimax, and a cut by the plies limit", () => {
    const dir = tempDir();
    const file = path.join(dir, "t.horu");
    writeTranspositionBook(file);
    // A small bonus: 7g7f's 8c8d (listed -60, the book's best 3c3d -50 by minimax) is outside it.
    const book = OpenBook.open(file, { kifuBonus: 5 });
    try {
      const moves = "7g7f 8c8d 2g2f 3c3d 2f2e 2b3c 3i4h 8d8e 6i7h 4a3b";
      writeFileSync(
        path.join(dir, "r.sfen"),
        `startpos moves ${moves}
`,
      );
      const r = seedBook(book, [path.join(dir, "r.sfen")], { plies: 4 });
      const rec = r.files[0]!.perRecord[0]!;
      const at7g7f = Position.startpos();
      at7g7f.doMove(at7g7f.legalMoves().find((m) => moveToUsi(m) === "7g7f")!);
      expect(rec.stopsAt).toEqual({ ply: 2, move: "8c8d", before: at7g7f.sfenKey(), gapCp: 10, reason: "below-best" });
      expect(rec).toMatchObject({ plies: 10, cutAt: 4 });
      expect(seedFiles(book, [path.join(dir, "r.sfen")], { plies: 4 }).join("\n")).toMatch(
        /seeded the first 4 of 10 plies \(seeding goes 4 plies deep: --seed-plies\); the dig leaves the record at ply 2 \(8c8d\): 10 cp below the book's best by minimax/,
      );
    } finally {
      book.close();
    }
  });
});
