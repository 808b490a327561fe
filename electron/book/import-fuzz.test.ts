// Fuzzing the import into a book: thousands of mutated versions of the shared
// DB2016 books and book_apery.bin (bytes flipped, truncated, lines dropped or doubled,
// huge numbers, illegal moves, other encodings, stray CRs, unsorted or broken records)
// imported into a book that already holds positions. Never a throw or a hang; problems
// are reported; and a stored position changes only when the file names that position.
// Seeded, so a failure names the iteration that reproduces it. (The parsers' own fuzzing
// is shared/formats/fuzz.test.ts; this is about the book.)
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BookStore, type KeyedThought } from "../store/book-store.js";
import { OpenBook } from "./open-book.js";
import { ImportRefusedError, importAperyFile, importDb2016 } from "./import.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { Db2016Reader } from "../../shared/formats/db2016.js";
import { importApery } from "../../shared/formats/apery.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { rng } from "../../shared/util/rng.js";

const books = path.join(TEST_DATA, "books");
const DB_CASES = 1200;
const BIN_CASES = 800;

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!;

/** Well-formed USI moves, mostly illegal wherever they land. */
function randomMove(r: Rand): string {
  const sq = () => `${1 + int(r, 9)}${"abcdefghi"[int(r, 9)]}`;
  return r() < 0.2 ? `${pick(r, ["P", "L", "N", "S", "G", "B", "R"])}*${sq()}` : `${sq()}${sq()}${r() < 0.3 ? "+" : ""}`;
}

const textMutators: Array<[string, (t: string, r: Rand) => string]> = [
  [
    "flip bytes",
    (t, r) => {
      const b = Buffer.from(t, "utf8");
      for (let k = 1 + int(r, 6); k > 0 && b.length; k--) b[int(r, b.length)] = int(r, 256);
      return b.toString("latin1"); // written back as raw bytes: invalid UTF-8 included
    },
  ],
  ["truncate", (t, r) => t.slice(0, int(r, t.length + 1))],
  [
    "drop a line",
    (t, r) => {
      const l = t.split("\n");
      l.splice(int(r, l.length), 1);
      return l.join("\n");
    },
  ],
  [
    "double a line",
    (t, r) => {
      const l = t.split("\n");
      const i = int(r, l.length);
      l.splice(i, 0, l[i]!);
      return l.join("\n");
    },
  ],
  [
    "swap lines",
    (t, r) => {
      const l = t.split("\n");
      const i = int(r, l.length),
        j = int(r, l.length);
      [l[i], l[j]] = [l[j]!, l[i]!];
      return l.join("\n");
    },
  ],
  [
    "huge number",
    (t, r) => {
      const runs = [...t.matchAll(/-?\d+/g)];
      if (!runs.length) return t;
      const m = pick(r, runs);
      const huge = pick(r, ["99999999999999999999", "-9223372036854775809", "9".repeat(400), "2147483648", "-2147483649", "65536", "1e9"]);
      return t.slice(0, m.index) + huge + t.slice(m.index! + m[0].length);
    },
  ],
  [
    "illegal move",
    (t, r) => {
      const runs = [...t.matchAll(/^([1-9][a-i][1-9][a-i]\+?|[PLNSBRG]\*[1-9][a-i])/gm)];
      if (!runs.length) return t;
      const m = pick(r, runs);
      return t.slice(0, m.index) + randomMove(r) + t.slice(m.index! + m[0].length);
    },
  ],
  [
    "damage a board",
    (t, r) =>
      t.replace(/^sfen (\S+)/m, (_s, board: string) => {
        const i = int(r, board.length);
        return `sfen ${board.slice(0, i)}${pick(r, ["1", "9", "k", "K", "+", "/", "P", "x", ""])}${board.slice(i + 1)}`;
      }),
  ],
  ["stray CRs", (t, r) => t.replace(/\n/g, (nl) => (r() < 0.2 ? pick(r, ["\r", "\r\n", "\r\r\n", "\n\n"]) : nl))],
  [
    "junk line",
    (t, r) => {
      const l = t.split("\n");
      l.splice(
        int(r, l.length + 1),
        0,
        pick(r, [
          "zz99 none 1 1",
          "sfen",
          "sfen 9/9/9/9/9/9/9/9/9 b - 1",
          `${randomMove(r)} ${randomMove(r)} 1 2 3 4 5`,
          "\u0000\u0001",
          "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
          "# NOE:-5",
        ]),
      );
      return l.join("\n");
    },
  ],
];

/** Text encodings other than UTF-8 for the whole file (the reader takes UTF-8 only). */
const encodings: Array<[string, (t: string) => Buffer]> = [
  ["utf-16le", (t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, "utf16le")])],
  ["latin1 with high bytes", (t) => Buffer.from(t.replace(/#/g, "\u00e9\u00a9\u00ff"), "latin1")],
];

const binMutators: Array<[string, (b: Buffer, r: Rand) => Buffer]> = [
  [
    "flip bytes",
    (b, r) => {
      const c = Buffer.from(b);
      for (let k = 1 + int(r, 6); k > 0 && c.length; k--) c[int(r, c.length)] = int(r, 256);
      return c;
    },
  ],
  ["truncate", (b, r) => b.subarray(0, int(r, b.length + 1))],
  ["cut mid-record", (b, r) => (b.length < 16 ? b : b.subarray(0, 16 * int(r, Math.floor(b.length / 16)) + 1 + int(r, 15)))],
  [
    "swap records",
    (b, r) => {
      const c = Buffer.from(b);
      const n = Math.floor(c.length / 16),
        i = int(r, n),
        j = int(r, n);
      if (n === 0) return c;
      const t = Buffer.from(c.subarray(i * 16, i * 16 + 16));
      c.copy(c, i * 16, j * 16, j * 16 + 16);
      t.copy(c, j * 16);
      return c;
    },
  ],
  [
    "double a record",
    (b, r) => {
      const i = int(r, Math.floor(b.length / 16));
      if (b.length < 16) return b;
      return Buffer.concat([b.subarray(0, i * 16 + 16), b.subarray(i * 16)]);
    },
  ],
  [
    "huge score or count",
    (b, r) => {
      const c = Buffer.from(b);
      const i = int(r, Math.floor(c.length / 16));
      if (c.length < 16) return c;
      if (r() < 0.5) c.writeInt32LE(pick(r, [0x7fffffff, -0x80000000, 32001, -32001]), i * 16 + 12);
      else c.writeUInt16LE(pick(r, [0xffff, 0]), i * 16 + 10);
      return c;
    },
  ],
  [
    "random move16",
    (b, r) => {
      const c = Buffer.from(b);
      if (c.length >= 16) c.writeUInt16LE(int(r, 0x10000), int(r, Math.floor(c.length / 16)) * 16 + 8);
      return c;
    },
  ],
  ["append junk", (b, r) => Buffer.concat([b, Buffer.from(Array.from({ length: 1 + int(r, 40) }, () => int(r, 256)))])],
  ["empty", () => Buffer.alloc(0)],
];

/** The normalized SFENs a DB2016 file names, read the way importDb2016 reads it (UTF-8, readline's line breaks). */
function namedByDb(bytes: Buffer): Set<string> {
  const names = new Set<string>();
  const reader = new Db2016Reader((b) => {
    try {
      names.add(Position.fromSfen(b.sfen).sfenKey());
    } catch {
      // not a position: the import reports it and stores nothing
    }
  });
  bytes
    .toString("utf8")
    .split(/\r\n|\r|\n/)
    .forEach((line, i) => reader.push(line, i + 1));
  reader.end();
  return names;
}

const snapshot = (store: BookStore) =>
  new Map([...store.thoughts.iterate()].map((t) => [t.sfen, JSON.stringify([t.candidates, t.provenance, t.thoughtAt])]));

/** Positions of random games, so the book holds more than the files name. */
function randomThoughts(r: Rand, n: number): KeyedThought[] {
  const out: KeyedThought[] = [];
  const legal = new Uint16Array(600);
  while (out.length < n) {
    const pos = Position.startpos();
    for (let ply = 0; ply < 12 && out.length < n; ply++) {
      const k = pos.generateLegal(legal);
      const moves = Array.from(legal.subarray(0, Math.min(k, 3)), (m) => moveToUsi(m));
      if (ply > 2)
        out.push({
          sfen: pos.sfenKey(),
          keyHi: pos.keyHi,
          keyLo: pos.keyLo,
          thoughtAt: 7,
          provenance: { kind: "engine", engine: "e", nodes: 1, depth: 1, timeMs: 1 },
          candidates: moves.map((move, i) => ({ move, value: 10 - i, depth: 3, pv: [move] })),
        });
      pos.doMove(legal[int(r, k)]!);
    }
  }
  return out;
}

describe("importing mutated books into a book that holds positions", () => {
  it(
    `${DB_CASES} DB2016 and ${BIN_CASES} Apery mutations: damaged lines left out (strict: the file refused) with their places, unnamed positions untouched`,
    { timeout: 300_000 },
    async () => {
      const r = rng(20240604);
      const dir = tempDir("horu-import-fuzz-");
      const file = path.join(dir, "b.horu");
      OpenBook.create(file).close();
      const store = BookStore.open(file);
      try {
        // The book: the shared books themselves (so mutations hit stored positions) plus random positions.
        await importDb2016(store, path.join(books, "book_yaneuraou.db"));
        importAperyFile(store, path.join(books, "book_apery.bin"));
        store.thoughts.addBatch(randomThoughts(r, 60));
        let before = snapshot(store);
        expect(before.size).toBeGreaterThan(70);

        const dbSources = readdirSync(books)
          .filter((n) => n.endsWith(".db"))
          .map((n) => readFileSync(path.join(books, n), "utf8"));
        const bin = readFileSync(path.join(books, "book_apery.bin"));
        const check = (i: string, names: Set<string>) => {
          const after = snapshot(store);
          for (const [sfen, v] of before) if (!names.has(sfen)) expect(after.get(sfen), `${i}: ${sfen} changed or vanished`).toBe(v);
          for (const sfen of after.keys()) if (!before.has(sfen)) expect(names.has(sfen), `${i}: ${sfen} appeared unnamed`).toBe(true);
          before = after;
        };

        const mutant = path.join(dir, "m.db");
        let reported = 0;
        for (let i = 0; i < DB_CASES; i++) {
          let text = pick(r, dbSources);
          const used: string[] = [];
          for (let k = 1 + int(r, 3); k > 0; k--) {
            const [name, f] = pick(r, textMutators);
            used.push(name);
            text = f(text, r);
          }
          let bytes: Buffer = Buffer.from(text, used.includes("flip bytes") ? "latin1" : "utf8");
          if (r() < 0.05) {
            const [name, enc] = pick(r, encodings);
            used.push(name);
            bytes = enc(text);
          }
          writeFileSync(mutant, bytes);
          const label = `db case ${i} (${used.join(", ")})`;
          const strict = r() < 0.1;
          let rep;
          let refused = false;
          try {
            rep = await importDb2016(store, mutant, { strict });
          } catch (e) {
            // A damaged file is refused whole, naming the file and the damaged lines; nothing of it is stored.
            refused = true;
            expect(e, `${label}: ${String(e)}`).toBeInstanceOf(ImportRefusedError);
            const err = e as ImportRefusedError;
            expect(err.problems.length, label).toBeGreaterThan(0);
            expect(err.problems.length, label).toBe(1);
            for (const p of err.problems) expect(p, label).toMatch(new RegExp(`^${mutant.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+: `));
            reported++;
          }
          // Not strict: damaged lines are left out and listed with their place, the rest stored.
          if (rep) expect(rep.errors.length, label).toBe(Math.min(rep.errorCount, 10_000));
          if (rep?.leftOut) reported++;
          for (const p of rep?.errors ?? [])
            expect(p, label).toMatch(new RegExp(`^${mutant.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+: `));
          check(label, refused ? new Set() : namedByDb(bytes));
        }
        expect(reported).toBeGreaterThan(DB_CASES / 4);

        const binFile = path.join(dir, "m.bin");
        for (let i = 0; i < BIN_CASES; i++) {
          let bytes: Buffer = bin;
          const used: string[] = [];
          for (let k = 1 + int(r, 2); k > 0; k--) {
            const [name, f] = pick(r, binMutators);
            used.push(name);
            bytes = f(bytes, r);
          }
          writeFileSync(binFile, bytes);
          const label = `bin case ${i} (${used.join(", ")})`;
          // A damaged file (cut short, or a record whose move is not legal) is refused whole, naming the file and the place.
          let refused = false;
          try {
            importAperyFile(store, binFile);
          } catch (e) {
            refused = true;
            expect(String(e), label).toMatch(
              new RegExp(`${binFile}: (truncated at offset \\d+|record \\d+ \\(offset \\d+\\): move 0x[0-9a-f]+ is not a legal move)`),
            );
            expect(String(e), label).toContain("nothing imported");
          }
          const walked = importApery(bytes);
          expect(refused, label).toBe(bytes.length % 16 !== 0 || walked.illegal > 0);
          check(label, refused ? new Set() : new Set(walked.blocks.map((b) => b.sfen)));
        }
        expect(store.integrityCheck()).toBe("ok");
      } finally {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
