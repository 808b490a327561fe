// A DB2016 book listing an illegal move: the move is left out and listed with file, line, move
// and why, the rest stored (as YaneuraOu reads such a book); strict refuses the whole file,
// naming the first (its illegal moves were once stored and reported as "0 problem(s)").
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "./open-book.js";
import { ImportRefusedError, importDb2016 } from "./import.js";
import { bookRows } from "../testing/intact.js";
import { BookStore } from "../store/book-store.js";
import { tempDir } from "../testing/paths.js";

describe("importing a DB2016 book with illegal moves", () => {
  it("lists each illegal move (file, line, move, why) and stores the legal ones; strict stores nothing", async () => {
    const dir = tempDir();
    const src = path.join(dir, "bad.db");
    writeFileSync(
      src,
      [
        "#YANEURAOU-DB2016 1.00",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "7g7f 3c3d 50 10 1",
        "7g7e none 40 10 1", // a pawn cannot move two squares
        "5e5d none 30 10 1", // no piece there
        "3c3d none 20 10 1", // white's pawn
        "P*5e none 10 10 1", // nothing in hand
        "2g2f none 0 10 1",
        "",
      ].join("\n"),
    );
    const file = path.join(dir, "b.horu");
    OpenBook.create(file).close();
    const store = BookStore.open(file);
    const before = bookRows(file);
    const err = (await importDb2016(store, src, { strict: true }).catch((e: unknown) => e)) as ImportRefusedError;
    expect(bookRows(file)).toBe(before);
    expect(err).toBeInstanceOf(ImportRefusedError);
    const start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    const cannot = "that piece cannot move so (or the move would leave the king in check, or is an illegal pawn drop)";
    expect(err.problems).toEqual([`${src}:4: move 7g7e is illegal in ${start}: ${cannot}`]);
    expect(err.message).toContain(`${src}: refused, nothing imported: a damaged line:`);

    const r = await importDb2016(store, src);
    expect(r.errors).toEqual([
      `${src}:4: move 7g7e is illegal in ${start}: ${cannot}; the line left out`,
      `${src}:5: move 5e5d is illegal in ${start}: no piece on 5e; the line left out`,
      `${src}:6: move 3c3d is illegal in ${start}: the piece on 3c is not black's; the line left out`,
      `${src}:7: move P*5e is illegal in ${start}: black has no P in hand; the line left out`,
    ]);
    expect(r).toMatchObject({ positions: 1, moves: 2, errorCount: 4, leftOut: 4 });
    expect(store.thoughts.get(start)!.candidates.map((c) => c.move)).toEqual(["7g7f", "2g2f"]);
    store.close();
  });
});
