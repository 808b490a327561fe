// High-volume mutation fuzzing of every parser that reads user files or engine output
// (DB2016, Apery .bin, SFEN, USI info/option lines and the MultiPV collector), time
// bounded and seeded: each parser runs mutated inputs for HORU_FUZZ_SECONDS (default 2)
// from a fixed seed, and the count that ran is printed per parser. A parser may report
// an error; it may not throw (SFEN: only SfenError), hang, or return nonsense shapes.
// Game records are fuzzed in fuzz.test.ts; importing fuzzed books into a book (nothing
// stored changes unless the file names it) in electron/book/import-fuzz.test.ts.
import { describe, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Db2016ByteReader, Db2016Reader, parseDb2016, writeDb2016, type Db2016OutBlock } from "./db2016.js";
import { aperyKeyOfSfen, importApery, readApery, usiToFromToPro, writeApery } from "./apery.js";
import { Position, SfenError } from "../rules/position.js";
import { scanSfen } from "../rules/sfen.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { parseInfoLine } from "../usi/info.js";
import { parseOptionLine } from "../usi/option.js";
import { MultiPvCollector } from "../usi/multipv.js";
import { rng as mulberry32 } from "../util/rng.js";
import { missing } from "../../electron/testing/missing.js";

const DATA = fileURLToPath(new URL("./testdata/", import.meta.url));
const SECONDS = Number(process.env.HORU_FUZZ_SECONDS ?? 2);
/** A single input slower than this is a hang (inputs are at most a few hundred KB). */
// A hang guard only (the suite runs on loaded machines): a parser that loops never returns.
const HANG_MS = 30_000;

const int = (r: () => number, n: number) => Math.floor(r() * n);
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[int(r, xs.length)]!;

/** Real positions: random legal walks from the start, so mutations start from valid input. */
function realPositions(n: number, seed: number): Position[] {
  const r = mulberry32(seed);
  const out: Position[] = [];
  for (let i = 0; i < n; i++) {
    const p = Position.fromSfen("startpos");
    for (let ply = int(r, 40); ply > 0; ply--) {
      const moves = p.legalMoves();
      if (!moves.length) break;
      p.doMove(pick(r, moves));
    }
    out.push(Position.fromSfen(p.toSfen()));
  }
  return out;
}
const POSITIONS = realPositions(60, 2026);

/**
 * What the byte reader (horu peta) makes of `bytes` pushed in random pieces, in the text
 * reader's terms; each block's offset must point at its SFEN text in the input.
 */
let scannedAll = 0;
function readAsBytes(bytes: Uint8Array, r: () => number, strict: boolean) {
  const blocks: Array<{ sfen: string; moves: Array<[number, number | null]> }> = [];
  const decoder = new TextDecoder();
  let scannedBlocks = 0;
  const rd = new Db2016ByteReader(
    {
      block(src, start, end, offset, _lineNo, scanned) {
        const sfen = decoder.decode(src.subarray(start, end));
        expect(decoder.decode(bytes.subarray(offset, offset + end - start))).toBe(sfen);
        if (scanned) {
          // The position the reader hands out is the one its SFEN text gives.
          const board = new Uint8Array(81);
          const hands = new Uint8Array(16);
          const scan = { side: 0 as 0 | 1, ply: 0, end: 0 };
          expect(scanSfen(src, start, end, board, 0, hands, 0, scan)).toBeNull();
          expect([Array.from(scanned.board), Array.from(scanned.hands), scanned.side]).toEqual([
            Array.from(board),
            Array.from(hands),
            scan.side,
          ]);
          scannedBlocks++;
        }
        blocks.push({ sfen, moves: [] });
      },
      move: (code, value) => blocks.at(-1)!.moves.push([code, value]),
      end() {},
    },
    { strict },
  );
  for (let at = 0; at < bytes.length;) {
    const size = 1 + int(r, r() < 0.5 ? 8 : 4096);
    rd.pushBytes(bytes.subarray(at, at + size));
    at += size;
  }
  rd.end();
  return { blocks, rd, scannedBlocks };
}

/** The text reader's blocks in the byte reader's terms (move codes, -1 for words like none). */
const asCodes = (blocks: ReturnType<typeof parseDb2016>["blocks"]) =>
  blocks.map((b) => ({ sfen: b.sfen, moves: b.moves.map((m): [number, number | null] => [parseUsiMove(m.move) ?? -1, m.value]) }));

const TOKENS = [
  "",
  " ",
  "\t",
  "\r",
  "\n",
  "\0",
  "\u00ff",
  "\ufeff",
  "\ud800",
  "-",
  "+",
  "*",
  "#",
  "sfen",
  "none",
  "startpos",
  "moves",
  "multipv",
  "score",
  "cp",
  "mate",
  "lowerbound",
  "upperbound",
  "pv",
  "depth",
  "nodes",
  "info",
  "option",
  "name",
  "type",
  "spin",
  "combo",
  "var",
  "default",
  "min",
  "max",
  "check",
  "string",
  "button",
  "filename",
  "99999999999999999999",
  "-2147483649",
  "4294967296",
  "1e308",
  "NaN",
  "-0",
  "0x10",
  "7g7f",
  "P*5e",
  "8h2b+",
  "1a1a",
  "9i9i+",
  "K*5e",
  "lnsgkgsnl",
  "9/9/9",
  "b",
  "w",
];

/** Text mutations: byte-ish edits, token splices, line shuffles, truncation, repetition. */
function mutateText(s: string, r: () => number): string {
  let t = s;
  for (let k = 1 + int(r, 4); k > 0; k--) {
    const op = int(r, 9);
    const at = int(r, t.length + 1);
    if (op === 0) t = t.slice(0, at);
    else if (op === 1) t = t.slice(0, at) + String.fromCharCode(int(r, 0x3000)) + t.slice(at + 1);
    else if (op === 2) t = t.slice(0, at) + pick(r, TOKENS) + t.slice(at);
    else if (op === 3) t = t.slice(0, at) + t.slice(at + 1 + int(r, 20));
    else if (op === 4) {
      const lines = t.split("\n");
      const i = int(r, lines.length),
        j = int(r, lines.length);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      t = lines.join("\n");
    } else if (op === 5) {
      const lines = t.split("\n");
      const i = int(r, lines.length);
      lines.splice(i, 0, ...Array(1 + int(r, 3)).fill(lines[int(r, lines.length)]));
      t = lines.join("\n");
    } else if (op === 6) t = t.replace(/\d+/, pick(r, ["99999999999999999999", "-1", "0", "1e9", "4294967296", ""]));
    else if (op === 7) t = t.replace(/ /g, () => (r() < 0.1 ? pick(r, ["  ", "\t", "", " \r "]) : " "));
    else t = t.slice(0, at) + t.slice(at, at + int(r, 200)).repeat(1 + int(r, 4)) + t.slice(at);
  }
  return t;
}

/** Runs `one` on generated inputs until the time budget is spent; returns how many ran. */
function fuzz(name: string, seed: number, one: (r: () => number, i: number) => void): number {
  const r = mulberry32(seed);
  const end = performance.now() + SECONDS * 1000;
  let i = 0,
    slowest = 0;
  while (performance.now() < end || i < 200) {
    const t = performance.now();
    try {
      one(r, i);
    } catch (e) {
      throw new Error(`${name}: input #${i} (seed ${seed}) threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, {
        cause: e,
      });
    }
    const ms = performance.now() - t;
    slowest = Math.max(slowest, ms);
    if (ms > HANG_MS) throw new Error(`${name}: input #${i} (seed ${seed}) took ${ms.toFixed(0)} ms`);
    i++;
  }
  console.log(`fuzz ${name}: ${i.toLocaleString("en")} inputs in ${SECONDS} s, none threw or hung (slowest ${slowest.toFixed(1)} ms)`);
  return i;
}

describe("parser fuzzing (seeded, time-bounded)", () => {
  test("DB2016: parseDb2016 and the streaming Db2016Reader", () => {
    const r0 = mulberry32(1);
    const blocks: Db2016OutBlock[] = POSITIONS.map((p) => ({
      sfen: p.sfenKey(),
      moves: p
        .legalMoves()
        .slice(0, 1 + int(r0, 6))
        .map((m, k) => ({
          move: moveToUsi(m),
          ponder: k % 2 ? "none" : moveToUsi(m),
          value: int(r0, 2000) - 1000,
          depth: int(r0, 40),
          count: int(r0, 50),
        })),
    }));
    const seeds = [writeDb2016(blocks)];
    for (const f of ["book_yaneuraou.db", "book_yaneuraou-crlf.db", "book_yaneuraou-bom-crlf.db", "book_yaneuraou-no-header.db"]) {
      if (!missing(existsSync(DATA + "books/" + f), DATA + "books/" + f)) seeds.push(readFileSync(DATA + "books/" + f, "utf8"));
    }
    const n = fuzz("DB2016", 16, (r, i) => {
      const text = mutateText(pick(r, seeds), r);
      const strict = i % 5 === 0;
      let res: ReturnType<typeof parseDb2016> | null = null;
      try {
        res = parseDb2016(text, { strict });
      } catch (e) {
        // Strict mode stops at the first problem with a Db2016Error; nothing else may escape.
        if (!(strict && e instanceof Error && e.name === "Db2016Error")) throw e;
      }
      if (res) {
        for (const b of res.blocks) {
          expect(typeof b.sfen).toBe("string");
          for (const m of b.moves) expect(typeof m.move).toBe("string");
        }
        expect(res.reader.errorCount).toBeGreaterThanOrEqual(res.errors.length);
      }
      // The byte reader (horu peta) agrees with the text reader on everything, whatever the pieces.
      const normal = new TextDecoder().decode(new TextEncoder().encode(text));
      let want: ReturnType<typeof parseDb2016> | Error;
      try {
        want = parseDb2016(normal, { strict });
      } catch (e) {
        want = e as Error;
      }
      let got: ReturnType<typeof readAsBytes> | Error;
      try {
        got = readAsBytes(new TextEncoder().encode(normal), r, strict);
      } catch (e) {
        got = e as Error;
      }
      if (want instanceof Error || got instanceof Error) {
        expect(got instanceof Error ? got.message : "no error").toBe(want instanceof Error ? want.message : "no error");
      } else {
        expect(got.blocks).toEqual(asCodes(want.blocks));
        scannedAll += got.scannedBlocks;
        expect(got.rd.errors).toEqual(want.errors);
        expect([got.rd.blockCount, got.rd.moveCount, got.rd.errorCount, got.rd.header, got.rd.noe]).toEqual([
          want.reader.blockCount,
          want.reader.moveCount,
          want.reader.errorCount,
          want.reader.header,
          want.reader.noe,
        ]);
      }
      // The streaming reader (what horu import uses) on the same lines agrees on the block count.
      if (!strict && res) {
        let count = 0;
        const rd = new Db2016Reader(() => count++);
        text.split("\n").forEach((l, k) => rd.push(l, k + 1));
        rd.end();
        expect(count).toBe(res.blocks.length);
      }
    });
    expect(n).toBeGreaterThanOrEqual(200);
    expect(scannedAll).toBeGreaterThan(0);
  });

  test("Apery .bin: readApery and importApery (the walk from the root)", () => {
    const recs = POSITIONS.flatMap((p) =>
      p
        .legalMoves()
        .slice(0, 3)
        .map((m) => ({ key: aperyKeyOfSfen(p.sfenKey())!, fromToPro: usiToFromToPro(moveToUsi(m))!, count: 1, score: 10 })),
    );
    recs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const built = writeApery(recs);
    const seeds: Uint8Array[] = [];
    if (built && built.length) seeds.push(built);
    if (!missing(existsSync(DATA + "books/book_apery.bin"), DATA + "books/book_apery.bin"))
      seeds.push(new Uint8Array(readFileSync(DATA + "books/book_apery.bin")));
    if (!seeds.length) seeds.push(new Uint8Array(160));
    const n = fuzz("Apery .bin", 17, (r) => {
      const src = pick(r, seeds);
      let b: Uint8Array;
      const op = int(r, 4);
      if (op === 0) b = src.slice(0, int(r, src.length + 1));
      else if (op === 1) {
        b = src.slice();
        for (let k = 1 + int(r, 16); k > 0 && b.length; k--) b[int(r, b.length)] = int(r, 256);
      } else if (op === 2) {
        // Records duplicated / reordered (the format is sorted by key).
        const recsN = Math.floor(src.length / 16);
        b = new Uint8Array(16 * (1 + int(r, 2 * recsN + 1)));
        for (let k = 0; k < b.length / 16 && recsN > 0; k++) {
          const from = 16 * int(r, recsN);
          b.set(src.subarray(from, from + 16), 16 * k);
        }
      } else {
        b = new Uint8Array(int(r, 400));
        for (let k = 0; k < b.length; k++) b[k] = int(r, 256);
      }
      const read = readApery(b);
      expect(read.records.length).toBe(Math.floor(b.length / 16));
      const imp = importApery(b, r() < 0.9 ? "startpos" : mutateText("startpos", r), 16);
      expect(imp.records).toBeLessThanOrEqual(read.records.length);
      for (const blk of imp.blocks) Position.fromSfen(blk.sfen); // every block is a real position
    });
    expect(n).toBeGreaterThanOrEqual(200);
  });

  test("SFEN: Position.fromSfen throws SfenError only, and what it accepts round-trips", () => {
    const seeds = POSITIONS.map((p) => p.toSfen());
    if (!missing(existsSync(DATA + "positions/root_sfens.txt"), DATA + "positions/root_sfens.txt")) {
      for (const l of readFileSync(DATA + "positions/root_sfens.txt", "utf8").split("\n"))
        if (l && !l.startsWith("#")) seeds.push(l.replace(/^sfen /, ""));
    }
    let accepted = 0;
    const n = fuzz("SFEN", 18, (r) => {
      const text = mutateText(pick(r, seeds), r);
      let p: Position;
      try {
        p = Position.fromSfen(text);
      } catch (e) {
        if (e instanceof SfenError) return;
        throw e;
      }
      accepted++;
      // An accepted position is one the rules core can work with: its SFEN reads back the same.
      expect(Position.fromSfen(p.toSfen()).sfenKey()).toBe(p.sfenKey());
      p.legalMoves();
    });
    console.log(`fuzz SFEN: ${accepted.toLocaleString("en")} of the mutated SFENs were still positions`);
    expect(n).toBeGreaterThanOrEqual(200);
  });

  test("USI engine output: parseInfoLine, parseOptionLine and MultiPvCollector", () => {
    const infoSeeds = [
      "info depth 12 seldepth 18 multipv 1 score cp 45 nodes 120000 nps 800000 time 150 pv 7g7f 3c3d 2g2f",
      "info depth 12 seldepth 18 multipv 2 score cp -30 lowerbound nodes 120000 pv 2g2f 8c8d",
      "info depth 30 multipv 3 score mate -7 pv 8h2b+ 3a2b B*4e",
      "info depth 5 score mate + pv 5e5d",
      "info string book hit 7g7f",
      "info depth 1 currmove 7g7f currmovenumber 1 hashfull 12",
    ];
    const optionSeeds = [
      "option name USI_Hash type spin default 256 min 1 max 33554432",
      "option name BookFile type combo default standard_book.db var no_book var standard_book.db var user_book1.db",
      "option name USI_OwnBook type check default true",
      "option name Eval Dir type string default <empty>",
      "option name Clear Hash type button",
      "option name EvalFile type filename default nn.bin",
    ];
    const infos = fuzz("USI info lines", 19, (r) => {
      const info = parseInfoLine(mutateText(pick(r, infoSeeds), r));
      if (info?.pv) for (const m of info.pv) expect(typeof m).toBe("string");
      if (info?.value !== undefined) expect(Number.isFinite(info.value)).toBe(true);
    });
    const options = fuzz("USI option lines", 20, (r) => {
      const o = parseOptionLine(mutateText(pick(r, optionSeeds), r));
      if (o) expect(typeof o.name).toBe("string");
    });
    // The collector over whole mutated searches (iterations of k lines, bound lines, garbage).
    const searches = fuzz("MultiPV collector (mutated searches)", 21, (r) => {
      const k = 1 + int(r, 6);
      const c = new MultiPvCollector(k, { keyByMove: r() < 0.2 });
      for (let d = 1, lines = 0; d <= 1 + int(r, 8) && lines < 400; d++) {
        for (let i = 1; i <= k; i++, lines++) {
          let line = `info depth ${d} multipv ${i} score cp ${int(r, 600) - 300} nodes ${d * 1000} pv ${pick(r, ["7g7f", "2g2f", "5g5f", "6i7h", "P*5e"])} 3c3d`;
          if (r() < 0.3) line = mutateText(line, r);
          c.add(parseInfoLine(line));
        }
      }
      const res = c.result(int(r, 400));
      for (const x of res) {
        expect(Number.isFinite(x.value)).toBe(true);
        expect(Array.isArray(x.pv)).toBe(true);
      }
      expect(res.length).toBeLessThanOrEqual(Math.max(k, c.distinctLines));
    });
    expect(Math.min(infos, options, searches)).toBeGreaterThanOrEqual(200);
  });
});
