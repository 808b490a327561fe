import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  Mt19937_64,
  aperyChildKey,
  aperyKey,
  aperyKeyOfSfen,
  exportApery,
  fromToProToUsi,
  importApery,
  readApery,
  usiToFromToPro,
  writeApery,
} from "./apery.js";
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";

const DATA = fileURLToPath(new URL("./testdata/", import.meta.url));
const BOOK = (): Uint8Array => new Uint8Array(readFileSync(DATA + "books/book_apery.bin"));

describe("mt19937_64", () => {
  test("reference outputs for the default seed 5489", () => {
    const g = new Mt19937_64();
    expect(g.next()).toBe(14514284786278117030n);
    for (let i = 2; i < 10000; i++) g.next();
    // The C++ standard's required 10000th output of std::mt19937_64.
    expect(g.next()).toBe(9981545732273789042n);
  });
});

describe("move conversion", () => {
  test("fromToPro is our Move layout, drops included", () => {
    for (const usi of ["2g2f", "8h2b+", "P*2c", "B*1d", "G*5e", "R*9i", "1a9i"]) {
      const m = usiToFromToPro(usi)!;
      expect(m).toBe(parseUsiMove(usi));
      expect(fromToProToUsi(m)).toBe(usi);
      expect(moveToUsi(m)).toBe(usi);
    }
    expect(usiToFromToPro("2g2f")).toBe(1934);
    expect(usiToFromToPro("P*2c+")).toBeUndefined();
    expect(fromToProToUsi(0)).toBeUndefined();
  });
});

describe("book_apery.bin", () => {
  test("21 records, sorted, start position key and move", () => {
    const r = readApery(BOOK());
    expect(r.records).toHaveLength(21);
    expect(r.truncatedBytes).toBe(0);
    expect(r.errors).toEqual([]);
    const key = aperyKeyOfSfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    expect(key).toBe(0xeebe8ee7e1ad7e15n);
    const start = r.records.filter((x) => x.key === key);
    expect(start).toEqual([{ key, fromToPro: 1934, count: 100, score: 30 }]);
    expect(fromToProToUsi(start[0].fromToPro)).toBe("2g2f");
  });

  test("every record is reached by walking legal moves from the start position", () => {
    const r = importApery(BOOK(), "startpos", 32);
    expect(r.records).toBe(21);
    expect(r.unreachable).toBe(0);
    expect(r.illegal).toBe(0);
    expect(r.errors).toEqual([]);
    expect(r.blocks).toHaveLength(19); // 21 records, one position holds three moves
    expect(r.blocks.reduce((a, b) => a + b.candidates.length, 0)).toBe(21);
    expect(r.blocks[0]).toEqual({
      sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
      ply: 0,
      candidates: [{ move: "2g2f", value: 30, depth: 0, count: 100 }],
    });
    const three = r.blocks.find((b) => b.candidates.length === 3)!;
    expect(three.candidates.map((c) => `${c.move} ${c.count} ${c.value}`)).toEqual(["4c4d 69 -30", "3d3e 23 -50", "2c2d 8 -100"]);
    // The walk reaches positions with pieces in hand (pawn and bishop), which pins the hand table order.
    expect(r.blocks.some((b) => /B/.test(b.sfen.split(" ")[2]))).toBe(true);
    // The blocks' keys, recomputed from their SFEN, are exactly the file's keys.
    const fileKeys = new Set(readApery(BOOK()).records.map((x) => x.key));
    const blockKeys = new Set(r.blocks.map((b) => aperyKeyOfSfen(b.sfen)));
    expect(blockKeys).toEqual(fileKeys);
    for (const b of r.blocks) {
      const p = Position.fromSfen(b.sfen);
      expect(aperyKey(p.board, p.hands, p.side)).toBe(aperyKeyOfSfen(b.sfen));
      for (const c of b.candidates) expect(p.isLegal(parseUsiMove(c.move)!)).toBe(true);
    }
    // A shallow walk leaves records unreached and says so.
    const shallow = importApery(BOOK(), "startpos", 4);
    expect(shallow.unreachable).toBeGreaterThan(0);
    expect(shallow.errors.at(-1)?.message).toMatch(/not reached/);
  });

  test(".bin -> blocks -> .bin is byte-identical", () => {
    const bytes = BOOK();
    const { blocks } = importApery(bytes, "startpos", 64);
    const out = exportApery(blocks);
    expect(out.skipped).toBe(0);
    expect(Buffer.from(out.bytes).equals(Buffer.from(bytes))).toBe(true);
    // And read -> write directly.
    expect(Buffer.from(writeApery(readApery(bytes).records)).equals(Buffer.from(bytes))).toBe(true);
  });

  test("an unsorted file is reported and still imported; onBlock streams", () => {
    const bytes = BOOK();
    const reversed = new Uint8Array(bytes.length);
    for (let i = 0; i < 21; i++) reversed.set(bytes.subarray(i * 16, i * 16 + 16), (20 - i) * 16);
    const streamed: string[] = [];
    const r = importApery(reversed, "startpos", 32, { onBlock: (b) => streamed.push(b.sfen) });
    expect(r.errors[0].message).toMatch(/not sorted/);
    expect(r.unreachable).toBe(0);
    expect(r.blocks).toEqual([]);
    expect(streamed).toHaveLength(19);
    expect(r.positions).toBe(19);
  });

  test("a truncated file keeps its whole records and reports the tail", () => {
    const bytes = BOOK().subarray(0, 16 * 5 + 7);
    const r = readApery(bytes);
    expect(r.records).toHaveLength(5);
    expect(r.truncatedBytes).toBe(7);
    expect(r.errors[0].message).toMatch(/truncated/);
  });
});

describe("incremental child key", () => {
  test("equals the full key after the move on random games (captures, promotions, drops of every piece)", () => {
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let checked = 0;
    for (let game = 0; game < 40; game++) {
      const pos = Position.startpos();
      for (let ply = 0; ply < 120; ply++) {
        const moves = pos.legalMoves();
        if (!moves.length) break;
        // Prefer captures and drops so hands fill up (gold and rook slots included).
        const pick = moves.find((m) => rand(3) === 0 && (pos.board[m & 127] !== 0 || m >> 7 >= 81)) ?? moves[rand(moves.length)];
        const predicted = aperyChildKey(pos, pick);
        pos.doMove(pick);
        expect(predicted).toBe(aperyKey(pos.board, pos.hands, pos.side));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });
});

describe("writeApery order", () => {
  test("sorted by unsigned key, a key's moves in the order given", () => {
    const recs = [
      { key: 0xffffffffffffffffn, fromToPro: 1, count: 1, score: 0 },
      { key: 5n, fromToPro: 2, count: 3, score: -7 },
      { key: 5n, fromToPro: 3, count: 9, score: 7 },
      { key: 0x8000000000000000n, fromToPro: 4, count: 1, score: 1 },
    ];
    const back = readApery(writeApery(recs)).records;
    expect(back.map((r) => r.fromToPro)).toEqual([2, 3, 4, 1]);
    expect(back[0].score).toBe(-7);
  });
});
