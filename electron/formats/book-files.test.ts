// Round trips and conversions between the four book files (.db, .bin, .ybb, .sbk), files on
// disk; damaged files give an error naming the file, and importing one stores nothing.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bookFileKind, readBookFile, writeBookFile, openMatchBook, type BookBlock } from "./book-files.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { rng } from "../../shared/util/rng.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { BookStore } from "../store/book-store.js";
import { importBookFile } from "../book/import.js";

type Kind = "db" | "bin" | "ybb" | "sbk";
const KINDS: Kind[] = ["db", "bin", "ybb", "sbk"];

/** A book like a dug one: positions reached from the start by book moves, 1-4 legal moves each. */
function randomBook(seed: number, positions: number): BookBlock[] {
  const r = rng(seed);
  const blocks = new Map<string, BookBlock>();
  const frontier = [Position.startpos()];
  while (blocks.size < positions && frontier.length) {
    const pos = frontier.shift()!;
    const key = pos.sfenKey();
    if (blocks.has(key)) continue;
    const legal = pos.legalMoves();
    const n = Math.min(legal.length, 1 + Math.floor(r() * 4));
    const picked = new Set<number>();
    while (picked.size < n) picked.add(legal[Math.floor(r() * legal.length)]!);
    const moves = [...picked].map((m) => ({
      move: moveToUsi(m),
      value: Math.round((r() - 0.5) * 6000),
      depth: 1 + Math.floor(r() * 40),
      count: 1 + Math.floor(r() * 1000),
    }));
    blocks.set(key, { sfen: key, moves });
    for (const m of picked) {
      const c = pos.clone();
      c.doMove(m);
      frontier.push(c);
    }
  }
  return [...blocks.values()];
}

/** What every format keeps: position, move and value (a missing value as 0 where the format has no "none": .bin, .ybb). */
function core(blocks: readonly BookBlock[], noneAsZero = false): string[] {
  return blocks.flatMap((b) => b.moves.map((m) => `${b.sfen} ${m.move} ${noneAsZero ? (m.value ?? 0) : m.value}`)).sort();
}

function keeps(kind: Kind): { depth: boolean; count: boolean } {
  return { depth: kind !== "bin", count: kind !== "ybb" };
}

describe("book files: round trips and conversions", () => {
  const dir = tempDir();
  const book = randomBook(14, 150);

  it("each format round-trips positions, moves and values, and what else it holds", () => {
    for (const kind of KINDS) {
      const file = path.join(dir, `rt.${kind}`);
      writeBookFile(file, book);
      expect(bookFileKind(file)).toBe(kind);
      const back = readBookFile(file);
      expect(back.length, kind).toBe(book.length);
      expect(core(back), kind).toEqual(core(book));
      const bySfen = new Map(back.map((b) => [b.sfen, b]));
      for (const b of book) {
        for (const m of b.moves) {
          const got = bySfen.get(b.sfen)!.moves.find((x) => x.move === m.move)!;
          if (keeps(kind).depth) expect(got.depth, `${kind} depth`).toBe(m.depth);
          if (keeps(kind).count) expect(got.count, `${kind} count`).toBe(m.count);
        }
      }
    }
  });

  it("every conversion between two formats keeps positions, moves and values", () => {
    for (const a of KINDS) {
      for (const b of KINDS) {
        const fa = path.join(dir, `c-${a}-${b}.${a}`);
        const fb = path.join(dir, `c-${a}-${b}.${b}`);
        writeBookFile(fa, book);
        writeBookFile(fb, readBookFile(fa));
        const back = readBookFile(fb);
        expect(core(back), `${a} -> ${b}`).toEqual(core(book));
        if (keeps(a).depth && keeps(b).depth)
          expect(
            back.flatMap((x) => x.moves.map((m) => m.depth)).every((d) => (d ?? 0) > 0),
            `${a} -> ${b} depth`,
          ).toBe(true);
      }
    }
  });

  it("a real YaneuraOu book converts to the other three and back to the same moves and values", () => {
    const src = path.join(TEST_DATA, "books", "book_yaneuraou.db");
    const original = readBookFile(src);
    expect(original.length).toBe(5);
    for (const kind of ["ybb", "sbk"] as const) {
      const f = path.join(dir, `real.${kind}`);
      writeBookFile(f, original);
      // .sbk keeps "none" (a move without an evaluation); .ybb has no place for it and writes 0.
      expect(core(readBookFile(f)), kind).toEqual(core(original, kind === "ybb"));
    }
    // The .bin keeps what is reachable from the start position (all but one block here).
    const bin = path.join(dir, "real.bin");
    writeBookFile(bin, original);
    const reached = new Set(readBookFile(bin).map((b) => b.sfen));
    expect(reached.has("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")).toBe(true);
    expect(core(readBookFile(bin))).toEqual(
      core(
        original.filter((b) => reached.has(b.sfen)),
        true,
      ),
    );
  });

  it("a match book answers by position, whatever the format", () => {
    for (const kind of KINDS) {
      const mb = openMatchBook(path.join(dir, `rt.${kind}`));
      expect(mb.positions).toBe(book.length);
      const start = mb.lookup(Position.startpos().sfenKey())!;
      expect(start.map((m) => m.move).sort()).toEqual(book[0]!.moves.map((m) => m.move).sort());
    }
  });

  it("every flipped bit of a .ybb's positions and moves is refused with the file and record, or reads as another legal book", () => {
    const good = readFileSync(path.join(dir, "rt.ybb"));
    const flipped = path.join(dir, "flipped.ybb");
    const count = Number(good.readBigUInt64LE(16));
    const movesAt = 32 + count * 44;
    let refused = 0;
    const messages = new Set<string>();
    // Every bit of record 3's packed position, and of the first 40 bytes of moves.
    const bits = [
      ...Array.from({ length: 256 }, (_, i) => (32 + 3 * 44) * 8 + i),
      ...Array.from({ length: 320 }, (_, i) => movesAt * 8 + i),
    ];
    for (const bit of bits) {
      const bytes = Buffer.from(good);
      bytes[bit >> 3]! ^= 1 << (bit & 7);
      writeFileSync(flipped, bytes);
      try {
        readBookFile(flipped);
      } catch (e) {
        refused++;
        const m = String(e);
        expect(m).toMatch(/flipped\.ybb: record \d+/);
        messages.add(
          m
            .replace(/^.*record \d+( move \d+)?( \(offset \d+\))?: /, "")
            .replace(/ in .*$/, "")
            .replace(/\d+/g, "N"),
        );
      }
    }
    expect(refused).toBeGreaterThan(bits.length / 4);
    // Damage of both kinds is caught: a position that is not one, and a move that is not legal.
    expect([...messages].some((m) => /not a legal move|not a move/.test(m))).toBe(true);
    expect([...messages].some((m) => /golds|pieces|king|packed|order|pawn|square/.test(m))).toBe(true);
  });

  it("damaged files give an error naming the file; importing one stores nothing", () => {
    const good = path.join(dir, "rt.ybb");
    const bytes = readFileSync(good);
    const cut = path.join(dir, "cut.ybb");
    writeFileSync(cut, bytes.subarray(0, bytes.length - 5));
    expect(() => readBookFile(cut)).toThrow(/cut\.ybb: record \d+: .* run past the end/);
    const noSig = path.join(dir, "nosig.ybb");
    writeFileSync(noSig, Buffer.from("hello, not a book at all, really"));
    expect(() => bookFileKind(noSig)).toThrow(/nosig\.ybb: not a YaneuraOu binary book/);
    const sbk = path.join(dir, "bad.sbk");
    writeFileSync(sbk, Buffer.from([0x1a, 0xff, 0xff, 0xff, 0x0f, 0x01]));
    expect(() => readBookFile(sbk)).toThrow(/bad\.sbk: not a ShogiGUI book/);
    const db = path.join(dir, "bad.db");
    writeFileSync(db, "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none abc 0\n");
    expect(() => readBookFile(db)).toThrow(/bad\.db: line 3: value is not an integer/);

    const store = BookStore.create(path.join(dir, "kept.horu"));
    try {
      importBookFile(store, path.join(dir, "rt.sbk"), "sbk");
      const before = store.thoughts.count();
      expect(before).toBe(book.length);
      expect(() => importBookFile(store, cut, "ybb")).toThrow(/cut\.ybb/);
      expect(() => importBookFile(store, sbk, "sbk")).toThrow(/bad\.sbk/);
      expect(store.thoughts.count()).toBe(before);
      expect(store.integrityCheck()).toBe("ok");
    } finally {
      store.close();
    }
    // The horu book itself reads as a book (its minimax values) and converts.
    const horu = path.join(dir, "kept.horu");
    expect(bookFileKind(horu)).toBe("horu");
    const fromHoru = readBookFile(horu);
    expect(fromHoru.length).toBe(book.length);
    writeBookFile(path.join(dir, "from-horu.ybb"), fromHoru);
    expect(readBookFile(path.join(dir, "from-horu.ybb")).length).toBe(book.length);
  });
});
