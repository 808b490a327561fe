// A book imported from another program's file and exported again comes back as it
// went in (moves in the file's order, "none", counts, ponder moves, comments; for .sbk marks,
// game counts, evaluations and the author), also after a dig added to it; positions without
// moves are not written to a .db; the minimax export uses the book's draw values.
import { describe, expect, it, vi } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { OpenBook } from "../book/open-book.js";
import { importBookFile, importDb2016 } from "../book/import.js";
import { exportBook } from "./export.js";
import { exportCommand } from "../cli/commands/export.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { parseDb2016, type Db2016Block } from "../../shared/formats/db2016.js";
import { readSbk } from "../../shared/formats/sbk.js";
import { Position } from "../../shared/rules/position.js";
import { SHOGIGUI_AUTHOR, SHOGIGUI_DESCRIPTION, shogiguiBook } from "../../shared/testing/shogigui-sbk.js";

const source = path.join(TEST_DATA, "books", "book_yaneuraou.db");

/** Blocks by position, line numbers and plies left out. */
function byPosition(blocks: readonly Db2016Block[]) {
  return new Map(
    blocks.map((b) => [b.sfen.split(" ").slice(0, 3).join(" "), { comment: b.comment, moves: b.moves.map(({ lineNo: _l, ...m }) => m) }]),
  );
}

function newBook(dir: string, settings = {}): string {
  const file = path.join(dir, "b.horu");
  OpenBook.create(file, settings).close();
  return file;
}

describe("a DB2016 book through a horu book", () => {
  it("import -> dig -> raw export keeps order, none, counts, ponder moves and comments; no position without moves is written", async () => {
    const dir = tempDir();
    const file = newBook(dir);
    const store = BookStore.open(file);
    await importDb2016(store, source);
    // The dig: a new position thought by an engine, one with no legal move left to list, and an
    // imported position thought again (its values replaced, what a person wrote kept).
    const after = Position.fromUsi("startpos moves 2g2f");
    store.thoughts.add({
      sfen: after.sfenKey(),
      keyHi: after.keyHi,
      keyLo: after.keyLo,
      candidates: [{ move: "8c8d", value: -30, depth: 20, pv: ["8c8d", "7g7f"] }],
      provenance: { kind: "engine", engine: "fairy", nodes: 1000, depth: 20, timeMs: 5 },
      thoughtAt: Date.now(),
    });
    const empty = Position.fromUsi("startpos moves 1g1f");
    store.thoughts.add({
      sfen: empty.sfenKey(),
      keyHi: empty.keyHi,
      keyLo: empty.keyLo,
      candidates: [],
      provenance: { kind: "engine", engine: "fairy", nodes: 1, depth: 1, timeMs: 1 },
      thoughtAt: Date.now(),
    });
    store.close();

    const book = OpenBook.open(file);
    const out = path.join(dir, "out.db");
    const r = await exportBook(book, { path: out, format: "db", mode: "raw" });
    book.close();
    const text = readFileSync(out, "utf8");
    const back = parseDb2016(text, { strict: true });
    expect(back.reader.noe).toBe(6);
    expect(r.positions).toBe(6);
    expect(r.dropped).toEqual(["1 position(s) without moves (a .db lists none)"]);
    expect(text).not.toContain(empty.sfenKey());
    const original = byPosition(parseDb2016(readFileSync(source, "utf8")).blocks);
    const got = byPosition(back.blocks);
    for (const [sfen, b] of original) expect(got.get(sfen), sfen).toEqual(b);
    expect(got.get(after.sfenKey())!.moves).toEqual([{ move: "8c8d", ponder: "7g7f", value: -30, depth: 20, count: null }]);
    expect(text).toContain("2b8h+ none none none 103\n");
    expect(text).toContain("2g2f 3c3d 63 27 935\n#multi line comment 1\n#multi line comment 2\n7g7f none 20 25 6\n#single line comment\n");
  });

  it("thinking an imported position again keeps its move comments and counts", async () => {
    const dir = tempDir();
    const file = newBook(dir);
    const store = BookStore.open(file);
    await importDb2016(store, source);
    const start = Position.startpos();
    store.thoughts.add({
      sfen: start.sfenKey(),
      keyHi: start.keyHi,
      keyLo: start.keyLo,
      candidates: [
        { move: "7g7f", value: 45, depth: 30, pv: ["7g7f"] },
        { move: "2g2f", value: 40, depth: 30, pv: ["2g2f", "8c8d"] },
      ],
      provenance: { kind: "engine", engine: "fairy", nodes: 1000, depth: 30, timeMs: 5 },
      thoughtAt: Date.now(),
    });
    const moves = store.thoughts.get(start.sfenKey())!.candidates;
    store.close();
    expect(moves).toEqual([
      { move: "7g7f", value: 45, depth: 30, pv: ["7g7f"], count: 6, comment: "single line comment" },
      { move: "2g2f", value: 40, depth: 30, pv: ["2g2f", "8c8d"], count: 935, comment: "multi line comment 1\nmulti line comment 2" },
    ]);
  });

  it("a header of another version is refused with the file and line, and nothing is stored (strict or not)", async () => {
    const dir = tempDir();
    const file = newBook(dir);
    const bad = path.join(dir, "v2.db");
    writeFileSync(bad, readFileSync(source, "utf8").replace("#YANEURAOU-DB2016 1.00", "#YANEURAOU-DB2016 2.00"));
    const store = BookStore.open(file);
    try {
      await expect(importDb2016(store, bad)).rejects.toThrow(
        `${bad}: refused, nothing imported: a damaged line:\n  ${bad}:1: unknown book version '#YANEURAOU-DB2016 2.00': horu reads '#YANEURAOU-DB2016 1.00' books`,
      );
      expect(store.thoughts.count()).toBe(0);
    } finally {
      store.close();
    }
  });
});

describe("a ShogiGUI book through a horu book", () => {
  it("import -> raw and minimax export to .sbk keep order, marks, weights, games, wins, comments, evaluations and the author", async () => {
    const dir = tempDir();
    const sbk = path.join(dir, "shogigui.sbk");
    writeFileSync(sbk, shogiguiBook());
    const file = newBook(dir);
    const store = BookStore.open(file);
    const rep = importBookFile(store, sbk, "sbk");
    expect(rep.errorCount).toBe(0);
    // A move without an evaluation is stored as having none (0 for the graph), not as a 0 the file gave.
    const start = store.thoughts.get(Position.startpos().sfenKey())!;
    expect(start.candidates.map((c) => [c.move, c.value, c.noValue ?? false, c.mark ?? 0])).toEqual([
      ["7g7f", 25, false, 2],
      ["5g5f", -43, false, 3],
      ["2g2f", 18, false, 0],
      ["1g1f", 0, true, 4],
    ]);
    store.close();

    const original = readSbk(shogiguiBook());
    const book = OpenBook.open(file);
    const raw = path.join(dir, "raw.sbk");
    expect((await exportBook(book, { path: raw, format: "sbk", mode: "raw" })).dropped).toEqual([]);
    const bin = await exportBook(book, { path: path.join(dir, "raw.bin"), format: "bin", mode: "raw" });
    expect(bin.dropped).toEqual([
      "6 ponder move(s) (.db and .sbk evaluations keep them)",
      "2 position comment(s) (.db and .sbk keep them)",
      "5 ShogiGUI mark(s) (only .sbk keeps them)",
      "5 .sbk state(s)' games, wins and evaluations (only .sbk keeps them)",
      `the author '${SHOGIGUI_AUTHOR}' (only .sbk keeps it)`,
      "4 missing value(s) or depth(s) written as 0 (.db and .sbk keep 'none')",
      "6 depth(s) (.bin has none)",
    ]);
    const minimax = path.join(dir, "minimax.sbk");
    await exportBook(book, { path: minimax, format: "sbk", mode: "minimax" });
    book.close();

    const back = readSbk(readFileSync(raw));
    expect(back.author).toBe(SHOGIGUI_AUTHOR);
    expect(back.description).toBe(SHOGIGUI_DESCRIPTION);
    const sorted = <T extends { sfen: string }>(bs: T[]) => [...bs].sort((a, b) => (a.sfen < b.sfen ? -1 : 1));
    expect(sorted(back.blocks)).toEqual(sorted(original.blocks));

    // The minimax export keeps the states, marks and comments; its values are the minimax's.
    const mm = readSbk(readFileSync(minimax));
    expect(mm.author).toBe(SHOGIGUI_AUTHOR);
    const mmStart = mm.blocks.find((b) => b.sfen === Position.startpos().sfenKey())!;
    // ShogiGUI's evaluations come back as written; a move they do not account for gets the minimax's (1g1f: a leaf, 0 by peta_shock's rule).
    const { evals, ...counts } = mmStart.state!;
    const { evals: origEvals, ...origCounts } = original.blocks[0]!.state!;
    expect(counts).toEqual(origCounts);
    expect(evals.slice(0, origEvals.length)).toEqual(origEvals);
    expect(evals.slice(origEvals.length).map((e) => e.variation)).toEqual(["▲１六歩(17)"]);
    expect(mmStart.comment).toBe(original.blocks[0]!.comment);
    expect(new Map(mmStart.moves.map((m) => [m.move, m.mark]))).toEqual(new Map(original.blocks[0]!.moves.map((m) => [m.move, m.mark])));
  });

  it("a ShogiGUI book with a damaged move is refused with the file and state, and nothing is stored", async () => {
    const dir = tempDir();
    const bytes = shogiguiBook();
    // Flip bytes until the book still parses but a move is no longer legal.
    const sbk = path.join(dir, "flipped.sbk");
    const { fromBinary, toBinary } = await import("@bufbuild/protobuf");
    const { SBookSchema } = await import("../../shared/formats/sbk/sbk_pb.js");
    const b = fromBinary(SBookSchema, bytes);
    b.BookStates[0]!.Moves[2]!.Move ^= 0x0300;
    writeFileSync(sbk, toBinary(SBookSchema, b));
    const file = newBook(dir);
    const store = BookStore.open(file);
    try {
      expect(() => importBookFile(store, sbk, "sbk")).toThrow(new RegExp(`^${sbk}: state 0 move 3: 0x[0-9a-f]{8} is not a legal move`));
      expect(store.thoughts.count()).toBe(0);
    } finally {
      store.close();
    }
  });
});

describe("the minimax export values draws with the book's draw values", () => {
  const CYCLE = [
    "#YANEURAOU-DB2016 1.00",
    "sfen 4k4/9/9/9/9/9/P8/9/4K4 b - 1",
    "5i5h none 0",
    "9g9f none -100",
    "sfen 4k4/9/9/9/9/9/P8/4K4/9 w - 2",
    "5a5b none 0",
    "5a4a none -100",
    "sfen 9/4k4/9/9/9/9/P8/4K4/9 b - 3",
    "5h5i none 0",
    "9g9f none -100",
    "sfen 9/4k4/9/9/9/9/P8/9/4K4 w - 4",
    "5b5a none 0",
    "5b4b none -100",
  ].join("\n");

  it("the GUI's export and `horu export --minimax` use them; --draw-black/--draw-white override them", async () => {
    const dir = tempDir();
    const cycle = path.join(dir, "cycle.db");
    writeFileSync(cycle, CYCLE + "\n");
    const file = newBook(dir, { root: "sfen 4k4/9/9/9/9/9/P8/9/4K4 b - 1", drawBlack: -50, drawWhite: 30 });
    const store = BookStore.open(file);
    await importDb2016(store, cycle);
    store.close();

    const book = OpenBook.open(file);
    const gui = path.join(dir, "gui.db");
    await exportBook(book, { path: gui, format: "db", mode: "minimax" });
    book.close();
    // The draw by repetition is worth -50 to black (as `horu peta --draw-black -50 --draw-white 30` writes it).
    expect(readFileSync(gui, "utf8")).toContain("5i5h none -50 9999");

    const quiet = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const cli = path.join(dir, "cli.db");
      expect(await exportCommand.run(["--book", file, "--out", cli])).toBe(0);
      expect(readFileSync(cli, "utf8")).toBe(readFileSync(gui, "utf8"));
      const level = path.join(dir, "level.db");
      expect(await exportCommand.run(["--book", file, "--out", level, "--draw-black", "0", "--draw-white", "0"])).toBe(0);
      expect(readFileSync(level, "utf8")).toContain("5i5h none 0 9999");
    } finally {
      quiet.mockRestore();
    }
  });
});
