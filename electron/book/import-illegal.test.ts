// Imports report every illegal listed move with file, line, move and why, and keep the rest
// (a DB2016 book's illegal moves were once stored and reported as "0 problem(s)").
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "./open-book.js";
import { importDb2016 } from "./import.js";
import { BookStore } from "../store/book-store.js";
import { tempDir } from "../testing/paths.js";

describe("importing a DB2016 book with illegal moves", () => {
  it("lists each illegal move (file, line, move, why), keeps the legal ones, and stores no illegal move", async () => {
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
    const r = await importDb2016(store, src);
    store.close();
    expect(r.positions).toBe(1);
    expect(r.errorCount).toBe(4);
    expect(r.errors).toEqual([
      `${src}:4: move 7g7e is illegal in lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -: that piece cannot move so (or the move would leave the king in check, or is an illegal pawn drop); left out`,
      `${src}:5: move 5e5d is illegal in lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -: no piece on 5e; left out`,
      `${src}:6: move 3c3d is illegal in lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -: the piece on 3c is not black's; left out`,
      `${src}:7: move P*5e is illegal in lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -: black has no P in hand; left out`,
    ]);
    const book = OpenBook.open(file, {}, { readonly: true });
    try {
      const stored = book.store.getPosition("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -");
      expect(stored?.candidates.map((c) => c.move)).toEqual(["7g7f", "2g2f"]);
    } finally {
      book.close();
    }
  });
});
