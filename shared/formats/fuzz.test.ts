// Mutated records and books never make the top-level readers throw or hang; they come
// back with errors. Seeded PRNG, fixed counts, so a failure replays exactly.
import { describe, expect, test } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Encoding from "encoding-japanese";
import { parseRecordFile, type ParsedFile } from "./kifu.js";
import { decodeRecordBytes } from "./encoding.js";
import { seedFromFiles } from "./seed.js";
import { importApery, readApery } from "./apery.js";
import { Position } from "../rules/position.js";
import { parseUsiMove } from "../rules/usi.js";
import { rng as mulberry32 } from "../util/rng.js";
import { randomGameLines } from "../testing/random-play.js";

const DATA = fileURLToPath(new URL("./testdata/", import.meta.url));

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const BUILT_IN: { name: string; bytes: Uint8Array }[] = [
  { name: "a.csa", bytes: utf8("V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT1\n-3334FU\n'** 30\n+8822UM\n-3122GI\n%TORYO\n") },
  {
    name: "b.kif",
    bytes: utf8(
      "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\n\n変化：3手\n   3 ２六歩(27)\n",
    ),
  },
  { name: "c.ki2", bytes: utf8("手合割：平手\n▲７六歩 △３四歩 ▲２二角成 △同　銀\nまで4手で先手の勝ち\n") },
  {
    name: "d.sfen",
    bytes: utf8("startpos moves 7g7f 3c3d 8h2b+ 3a2b\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d\n"),
  },
];

function sources(): { name: string; bytes: Uint8Array }[] {
  const out = [...BUILT_IN];
  for (const f of readdirSync(DATA + "kifu"))
    if (!f.startsWith("LICENSE")) out.push({ name: f, bytes: new Uint8Array(readFileSync(DATA + "kifu/" + f)) });
  out.push({ name: "root_sfens.txt", bytes: new Uint8Array(readFileSync(DATA + "positions/root_sfens.txt")) });
  // 60 `startpos moves` lines: the USI-line path without a long parse per mutation.
  out.push({ name: "collection_head.sfen", bytes: utf8(randomGameLines(60, 24, 5)) });
  return out;
}

type Mutator = (b: Uint8Array, r: () => number) => Uint8Array;
const int = (r: () => number, n: number): number => Math.floor(r() * n);
const text = (b: Uint8Array): string => decodeRecordBytes(b).text;
const sjis = (s: string): Uint8Array => new Uint8Array(Encoding.convert(Encoding.stringToCode(s), { to: "SJIS", from: "UNICODE" }));
const euc = (s: string): Uint8Array => new Uint8Array(Encoding.convert(Encoding.stringToCode(s), { to: "EUCJP", from: "UNICODE" }));

const MUTATORS: { [name: string]: Mutator } = {
  truncate: (b, r) => b.slice(0, int(r, b.length + 1)),
  flipBytes: (b, r) => {
    const c = b.slice();
    for (let i = 1 + int(r, 10); i > 0 && c.length; i--) c[int(r, c.length)] ^= 1 << int(r, 8);
    return c;
  },
  randomBytes: (b, r) => {
    const c = b.slice();
    for (let i = 1 + int(r, 20); i > 0 && c.length; i--) c[int(r, c.length)] = int(r, 256);
    return c;
  },
  wrongEncoding: (b, r) => {
    const t = text(b);
    const choice = int(r, 4);
    if (choice === 0) return sjis(t);
    if (choice === 1) return euc(t);
    if (choice === 2) return utf8("#KIF version=2.0 encoding=Shift_JIS\n" + t); // a lying header on UTF-8
    return sjis("'encoding=UTF-8\n" + t);
  },
  hugeNumbers: (b, r) => {
    const huge = ["99999999999999999999", "4294967296", "-2147483649", "1e308", "00000000000000000001", String(Number.MAX_SAFE_INTEGER)];
    return utf8(text(b).replace(/\d+/g, (m) => (r() < 0.3 ? huge[int(r, huge.length)] : m)));
  },
  illegalMoves: (b, r) => {
    const sq = (): string => `${1 + int(r, 9)}${"abcdefghi"[int(r, 9)]}`;
    const t = text(b)
      // USI tokens
      .replace(/\b[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]/g, (m) => (r() < 0.15 ? (r() < 0.5 ? sq() + sq() : "K*" + sq()) : m))
      // CSA moves
      .replace(/([+-])(\d{4})([A-Z]{2})/g, (m, s) =>
        r() < 0.15 ? `${s}${int(r, 10)}${int(r, 10)}${int(r, 10)}${int(r, 10)}${["FU", "OU", "HI", "TO", "XX"][int(r, 5)]}` : m,
      )
      // KIF source squares
      .replace(/\((\d\d)\)/g, (m) => (r() < 0.15 ? `(${int(r, 100)})` : m));
    return utf8(t);
  },
  spliceLines: (b, r) => {
    const lines = text(b).split("\n");
    const op = int(r, 3);
    const i = int(r, lines.length);
    if (op === 0) lines.splice(i, 1 + int(r, 5));
    else if (op === 1) lines.splice(i, 0, ...lines.slice(int(r, lines.length), int(r, lines.length) + 3));
    else lines.reverse();
    return utf8(lines.join(r() < 0.5 ? "\n" : "\r\n"));
  },
  binaryJunk: (_b, r) => {
    const c = new Uint8Array(int(r, 600));
    for (let i = 0; i < c.length; i++) c[i] = int(r, 256);
    return c;
  },
};

/** Whatever comes back is consistent: listed main-line positions replay legally. */
function checkShape(res: ParsedFile, name: string, replay: boolean): void {
  expect(res.file).toBe(name);
  expect(Array.isArray(res.games) && Array.isArray(res.errors)).toBe(true);
  if (res.games.length === 0) expect(res.errors.length, `${name}: no games and no errors`).toBeGreaterThan(0);
  for (const e of res.errors) {
    expect(e.file).toBe(name);
    expect(typeof e.message).toBe("string");
  }
  for (const g of res.games) {
    expect(g.positions.length).toBe(g.plies.length);
    if (!replay) continue;
    const pos = Position.fromSfen(g.start);
    expect(g.positions[0]).toBe(pos.sfenKey());
    for (const m of g.moves) {
      const mv = parseUsiMove(m);
      expect(mv !== null && pos.isLegal(mv), `${name}: listed move ${m} is illegal`).toBe(true);
      pos.doMove(mv!);
    }
  }
}

describe("fuzz", () => {
  test("mutated game records: no throw, no hang, errors reported", () => {
    const r = mulberry32(20240611);
    const src = sources();
    const names = Object.keys(MUTATORS);
    const N = 2000;
    let maxMs = 0;
    let withErrors = 0;
    const batch: { name: string; bytes: Uint8Array }[] = [];
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const s = src[int(r, src.length)];
      const mut = names[int(r, names.length)];
      let bytes = MUTATORS[mut](s.bytes, r);
      if (r() < 0.2) bytes = MUTATORS[names[int(r, names.length)]](bytes, r);
      const name = `${mut}#${i}-${s.name}`;
      const t = performance.now();
      let res: ParsedFile;
      try {
        res = parseRecordFile(bytes, name);
      } catch (e) {
        throw new Error(`parseRecordFile threw on ${name}: ${e instanceof Error ? e.stack : String(e)}`, { cause: e });
      }
      const ms = performance.now() - t;
      if (ms > maxMs) maxMs = ms;
      // No time is asserted (speed belongs to benchmarks): a parse that hangs fails on the test's own timeout.
      if (res.errors.length) withErrors++;
      checkShape(res, name, i % 4 === 0);
      if (i % 50 === 0) batch.push({ name, bytes });
    }
    console.log(
      `fuzz: ${N} mutated records in ${(performance.now() - t0).toFixed(0)} ms, slowest ${maxMs.toFixed(1)} ms, ${withErrors} with errors`,
    );
    expect(withErrors).toBeGreaterThan(N / 10);
    const seeded = seedFromFiles(batch);
    expect(seeded.reports).toHaveLength(batch.length);
  });

  test("random bytes never break decoding", () => {
    const r = mulberry32(7);
    for (let i = 0; i < 500; i++) {
      const b = new Uint8Array(int(r, 300));
      for (let j = 0; j < b.length; j++) b[j] = r() < 0.5 ? int(r, 256) : 0x80 + int(r, 128);
      const d = decodeRecordBytes(b, i % 2 ? "x.kif" : undefined);
      expect(["utf-8", "shift_jis", "euc-jp"]).toContain(d.encoding);
      expect(typeof d.text).toBe("string");
    }
  });

  test("mutated Apery books: no throw, truncation and damage reported", () => {
    const r = mulberry32(99);
    const book = new Uint8Array(readFileSync(DATA + "books/book_apery.bin"));
    let reported = 0;
    for (let i = 0; i < 400; i++) {
      let b: Uint8Array;
      const op = int(r, 3);
      if (op === 0) b = book.slice(0, int(r, book.length + 1));
      else if (op === 1) {
        b = book.slice();
        for (let k = 1 + int(r, 8); k > 0; k--) b[int(r, b.length)] = int(r, 256);
      } else {
        b = new Uint8Array(int(r, 100));
        for (let k = 0; k < b.length; k++) b[k] = int(r, 256);
      }
      const read = readApery(b);
      expect(read.records.length).toBe(Math.floor(b.length / 16));
      if (b.length % 16) expect(read.errors.some((e) => /truncated/.test(e.message))).toBe(true);
      const imp = importApery(b, "startpos", 24);
      expect(imp.records).toBe(read.records.length);
      expect(imp.unreachable + imp.blocks.reduce((a, x) => a + x.candidates.length, 0) + imp.illegal).toBeGreaterThanOrEqual(imp.records);
      if (imp.errors.length) reported++;
    }
    expect(reported).toBeGreaterThan(100);
    // A bad root is an error, not an exception.
    expect(importApery(book, "not an sfen", 4).errors[0].message).toMatch(/root/);
  });
});
