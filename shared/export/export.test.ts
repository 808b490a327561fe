// Hand-made books for the peta_shock export (docs/DESIGN.md §5). Every expected line below was
// derived by hand from the design's steps; the comments give the derivation. Stored
// pairs are "seen from the parent": a node whose best edge is (v, d) stores (-v, d + 1).
import { describe, expect, it } from "vitest";
import { parseDb2016, writeDb2016 } from "../formats/db2016.js";
import { Position } from "../rules/position.js";
import { better, exportPetaShock, readSfenRecord, type ExportOptions } from "./export.js";

/** Runs the export on DB2016 text and returns the written text. */
function peta(lines: string[], opts: ExportOptions = {}) {
  const { blocks } = parseDb2016(lines.join("\n"), { strict: true });
  const { blocks: out, counts } = exportPetaShock(blocks, opts);
  return { text: normalizeTies(writeDb2016(out, { presorted: true })), counts };
}

/** The order of moves with identical (value, depth) is not specified: sort those by move text. */
function normalizeTies(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let run: string[] = [];
  const key = (l: string) => l.split(" ").slice(2).join(" ");
  const flush = () => {
    out.push(...run.sort());
    run = [];
  };
  for (const l of lines) {
    if (run.length > 0 && (l.startsWith("sfen ") || key(l) !== key(run[0]))) flush();
    if (l.startsWith("sfen ") || l.startsWith("#") || l === "") out.push(l);
    else run.push(l);
  }
  flush();
  return out.join("\n");
}

const HEADER = "#YANEURAOU-DB2016 1.00";

// Kings and one black pawn; the pawn keeps positions from being their own colour-flipped twins.
const R = "4k4/9/9/9/9/9/P8/9/4K4 b - 1"; // root
const A = "4k4/9/9/9/9/9/P8/4K4/9 w - 2"; // R 5i5h
const C = "4k4/9/9/9/9/P8/9/9/4K4 w - 2"; // R 9g9f
const A2 = "9/4k4/9/9/9/9/P8/4K4/9 b - 3"; // R 5i5h 5a5b
const C2 = "9/4k4/9/9/9/P8/9/9/4K4 b - 3"; // R 9g9f 5a5b
const T = "9/4k4/9/9/9/P8/9/4K4/9 w - 4"; // both of the above, then the other move: a transposition

describe("comparator (step 3)", () => {
  it("higher value; on equal values 9997 is worst; win fast, lose slow", () => {
    expect(better(1, 50, 0, 1)).toBe(true);
    expect(better(0, 5, 0, 9997)).toBe(true);
    expect(better(0, 9997, 0, 5)).toBe(false);
    expect(better(-5, 9999, -5, 9997)).toBe(true);
    expect(better(5, 1, 5, 3)).toBe(true);
    expect(better(0, 1, 0, 3)).toBe(true);
    expect(better(-5, 3, -5, 1)).toBe(true);
    expect(better(5, 3, 5, 3)).toBe(false);
  });
});

describe("SFEN records", () => {
  it("readSfenRecord gives the position's key and its flipped twin's key", () => {
    const key = new Uint32Array(4);
    const rec = new Uint8Array(96 * 2);
    for (const sfen of [
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "4k4/9/9/9/9/9/P8/9/4K4 b 2P",
      "8k/6R2/9/9/9/9/9/9/K8 w 18p 1",
      Position.fromUsi("startpos moves 7g7f 3c3d 8h2b+ 4a3b").toSfen(true), // a horse, a bishop in hand
    ]) {
      const pos = Position.fromSfen(sfen);
      const twin = pos.flipped();
      expect(readSfenRecord(sfen, rec, 96, key)).toBe(true);
      expect([...key]).toEqual([pos.keyHi >>> 0, pos.keyLo >>> 0, twin.keyHi >>> 0, twin.keyLo >>> 0]);
      expect([...rec.subarray(96, 96 + 81)]).toEqual([...pos.board]);
      expect(rec[96 + 88]).toBe(pos.side);
      expect([...rec.subarray(96 + 81, 96 + 88)]).toEqual([...pos.hands.subarray(1, 8)]);
      expect([...rec.subarray(96 + 89, 96 + 96)]).toEqual([...pos.hands.subarray(9, 16)]);
    }
    for (const bad of [
      "",
      "9/9/9 b -",
      "9/9/9/9/9/9/9/9/9 x -",
      "9/9/9/9/9/9/9/9/8 b -",
      "+k8/9/9/9/9/9/9/9/9 b -",
      "9/9/9/9/9/9/9/9/9 b 2",
      "9/9/9/9/9/9/9/9/9 b 19P",
      "9/9/9/9/9/9/9/9/9 b -P",
    ]) {
      expect(readSfenRecord(bad, rec, 0, key)).toBe(false);
    }
  });
});

describe("peta_shock export on hand-made books", () => {
  const book1 = [
    HEADER,
    `sfen ${R}`,
    "5i5h none 10 30", // internal edge to A: its own value is dropped
    "9g9f none 20",
    "5i4h none 5", // leaf
    `sfen ${A}`,
    "5a5b none -30",
    "5a4a none -5",
    `sfen ${C}`,
    "5a5b none -40",
    "5a4a", // no value: 0
    `sfen ${A2}`,
    "9g9f none 100",
    "5h4h none -40000", // clamped to -32000
    `sfen ${C2}`,
    "5i5h none 200",
    `sfen ${T}`,
    "5b5c none -5 10",
    "5b6b none -7 8",
    "5b5c none 99", // duplicate: the first line is kept
    "none none 3",
    "resign",
    "5b5c+ none -6", // well-formed but illegal: an ordinary leaf
  ];

  it("transposition, leaves, clamping, duplicates, the value-1 rule", () => {
    // T: leaves (-5,0) (-7,0) (-6,0); best (-5,0), stores (5,1).
    // A2: 9g9f -> T (5,1), leaf 5h4h (-32000,0); stores (-5,2). C2: 5i5h -> T (5,1); stores (-5,2).
    // A: 5a5b -> A2 (-5,2) and leaf 5a4a (-5,0): lose slow, depth 2 is best; stores (5,3);
    //    5a4a ties the best value at another depth: written -6.
    // C: 5a5b -> C2 (-5,2), leaf 5a4a (0,0): best (0,0); stores (0,1).
    // R: 5i5h -> A (5,3), 9g9f -> C (0,1), leaf 5i4h (5,0): win fast, (5,0) first; 5i5h written 4.
    const { text, counts } = peta(book1);
    expect(text).toBe(
      [
        HEADER,
        "# NOE:6",
        `sfen ${A}`,
        "5a5b none -5 2",
        "5a4a none -6 0",
        `sfen ${R}`,
        "5i4h none 5 0",
        "5i5h none 4 3",
        "9g9f none 0 1",
        `sfen ${C}`,
        "5a4a none 0 0",
        "5a5b none -5 2",
        `sfen ${A2}`,
        "9g9f none 5 1",
        "5h4h none -32000 0",
        `sfen ${T}`,
        "5b5c none -5 0",
        "5b5c+ none -6 0",
        "5b6b none -7 0",
        `sfen ${C2}`,
        "5i5h none 5 1",
        "",
      ].join("\n"),
    );
    // Passes: T 1; A2, C2 2 (their child comes later); A, C 3; R 4.
    expect(counts).toMatchObject({ blocks: 6, written: 6, absent: 0, settled: 6, settlePasses: 4, loopNodes: 0 });
    expect(counts).toMatchObject({ internalEdges: 6, leafEdges: 7, ignoredMoves: 3, writtenMoves: 13 });
  });

  it("shrink keeps the best value's moves, then applies value-1", () => {
    const { text } = peta(book1, { shrink: true });
    expect(text).toBe(
      [
        HEADER,
        "# NOE:6",
        `sfen ${A}`,
        "5a5b none -5 2",
        "5a4a none -6 0",
        `sfen ${R}`,
        "5i4h none 5 0",
        "5i5h none 4 3",
        `sfen ${C}`,
        "5a4a none 0 0",
        `sfen ${A2}`,
        "9g9f none 5 1",
        `sfen ${T}`,
        "5b5c none -5 0",
        `sfen ${C2}`,
        "5i5h none 5 1",
        "",
      ].join("\n"),
    );
  });

  // A 4-ply cycle of king moves: R -5i5h-> A -5a5b-> A2 -5h5i-> P3 -5b5a-> R.
  const P3 = "9/4k4/9/9/9/9/P8/9/4K4 w - 4";
  const cycle = [
    HEADER,
    `sfen ${R}`,
    "5i5h none 0",
    "9g9f none -100",
    `sfen ${A}`,
    "5a5b none 0",
    "5a4a none -100",
    `sfen ${A2}`,
    "5h5i none 0",
    "9g9f none -100",
    `sfen ${P3}`,
    "5b5a none 0",
    "5b4b none -100",
  ];

  it("a cycle both sides prefer is a draw at depth 9999", () => {
    // Nothing settles; no node is in check. Start values (0,9999) everywhere; in round 1
    // every node's best is its cycle move (0,9999) over the -100 leaf, stores (0, 9999):
    // nothing changes, propagation stops after one round.
    const { text, counts } = peta(cycle);
    expect(text).toBe(
      [
        HEADER,
        "# NOE:4",
        `sfen ${A}`,
        "5a5b none 0 9999",
        "5a4a none -100 0",
        `sfen ${R}`,
        "5i5h none 0 9999",
        "9g9f none -100 0",
        `sfen ${A2}`,
        "5h5i none 0 9999",
        "9g9f none -100 0",
        `sfen ${P3}`,
        "5b5a none 0 9999",
        "5b4b none -100 0",
        "",
      ].join("\n"),
    );
    expect(counts).toMatchObject({ settled: 0, loopNodes: 0, rounds: [1] });
  });

  it("per-side draw values change the drawn cycle's values", () => {
    // Owner black, draw worth -50 to black: black nodes (R, A2) store +50 seen from their
    // white parents, white nodes (A, P3) store -50; stable in round 1. Black's moves read
    // this pass: the cycle move is -50 for black.
    // Owner white, draw worth +30 to white: white nodes' cycle moves read +30.
    const { text, counts } = peta(cycle, { drawBlack: -50, drawWhite: 30 });
    expect(text).toBe(
      [
        HEADER,
        "# NOE:4",
        `sfen ${A}`,
        "5a5b none 30 9999",
        "5a4a none -100 0",
        `sfen ${R}`,
        "5i5h none -50 9999",
        "9g9f none -100 0",
        `sfen ${A2}`,
        "5h5i none -50 9999",
        "9g9f none -100 0",
        `sfen ${P3}`,
        "5b5a none 30 9999",
        "5b4b none -100 0",
        "",
      ].join("\n"),
    );
    expect(counts.rounds).toEqual([1, 1]);
    // Both 0 is exactly the plain export.
    expect(peta(cycle, { drawBlack: 0, drawWhite: 0 }).text).toBe(peta(cycle).text);
  });

  it("perpetual check: loop nodes, 9997 and 9998", () => {
    // Black rook checks the white king on 1a/1b from 3a/3b; black king far away on 9i.
    const B0 = "8k/6R2/9/9/9/9/9/9/K8 b - 1";
    const W1 = "6R1k/9/9/9/9/9/9/9/K8 w - 2"; // in check
    const B2 = "6R2/8k/9/9/9/9/9/9/K8 b - 3";
    const W3 = "9/6R1k/9/9/9/9/9/9/K8 w - 4"; // in check
    const { text, counts } = peta([
      HEADER,
      `sfen ${B0}`,
      "3b3a none 500",
      "9i9h none 100",
      `sfen ${W1}`,
      "1a1b none -300",
      "1a2b none -200",
      `sfen ${B2}`,
      "3a3b none 400",
      "9i9h none 50",
      `sfen ${W3}`,
      "1b1a none -300",
      "1b1c none -250",
    ]);
    // Step 5: W1 and W3 (in check) reach each other in two plies: survivors; B0 and B2
    // lie between them. All four are loop nodes: start W1, W3 (-32000,9999), B0, B2
    // (+32000,9999). Propagation (a) has nothing to do: one round of (b), fresh searches:
    //  B0: B0>W1>B2>W3>B0 on path, not in check: (+32000,9998) for W3, whose leaf is -250:
    //      W3 gives (-32000,9999); B2 takes its leaf (50,0) -> (-50,1); W1 (-50,1) over -200
    //      -> (50,2); B0 leaf (100,0) over (50,2) -> B0 stores (-100,1).
    //  W1: ...>B0>W1 on path, in check: (-32000,9997) for B0, whose leaf 100 wins -> (-100,1);
    //      W3 -> (100,2); B2 (100,2) over 50 -> (-100,3); W1 -> stores (100,4).
    //  B2: ...>W1>B2 on path: (+32000,9998) for W1 -> W1 gives (-32000,9999); B0 (-100,1);
    //      W3 (100,2); B2 stores (-100,3).
    //  W3: ...>B2>W3 on path, in check: (-32000,9997) for B2 -> B2 takes leaf (-50,1);
    //      W1 (50,2); B0 (-100,1); W3 stores (100,2).
    // Writing: a move into a loop node in check gets depth 9997: B0's 3b3a is (100,9997),
    // worse than the leaf (100,0) at equal value, so written 99. B2's 3a3b is (100,9997).
    expect(text).toBe(
      [
        HEADER,
        "# NOE:4",
        `sfen ${W1}`,
        "1a1b none -100 3",
        "1a2b none -200 0",
        `sfen ${B2}`,
        "3a3b none 100 9997",
        "9i9h none 50 0",
        `sfen ${B0}`,
        "9i9h none 100 0",
        "3b3a none 99 9997",
        `sfen ${W3}`,
        "1b1a none -100 1",
        "1b1c none -250 0",
        "",
      ].join("\n"),
    );
    expect(counts).toMatchObject({ settled: 0, loopNodes: 4, rounds: [1] });
  });

  it("empty entries: absent without edges (cascading), a node when a legal move reaches a node", () => {
    const D = A2; // R 5i5h 5a5b, written with no move lines
    const X = "9/4k4/9/9/9/9/P8/5K3/9 w - 4"; // D 5h4h
    const { text, counts } = peta([
      HEADER,
      `sfen ${R}`,
      "5i5h none 30",
      "9g9f none 10",
      "5i4h none -20",
      `sfen ${A}`, // no lines, but 5a5b reaches D: a node
      `sfen ${C}`,
      "none none 5", // no usable lines; its only edge is unlisted 5a5b to C2
      "resign",
      `sfen ${C2}`, // no lines and no legal move reaches a node: absent
      `sfen ${D}`, // no lines; 5h4h reaches X
      `sfen ${X}`,
      "5b5c none 40",
      "5b4b none -60",
    ]);
    // C2 absent -> C loses its unlisted edge, has none left: absent -> R keeps its listed
    // 9g9f as a leaf (10,0). X: best (40,0) stores (-40,1); D (40,2); A (-40,3).
    // R: leaf 9g9f (10,0), leaf 5i4h (-20,0), 5i5h -> A (-40,3).
    expect(text).toBe(
      [
        HEADER,
        "# NOE:4",
        `sfen ${A}`,
        "5a5b none 40 2",
        `sfen ${R}`,
        "9g9f none 10 0",
        "5i4h none -20 0",
        "5i5h none -40 3",
        `sfen ${D}`,
        "5h4h none -40 1",
        `sfen ${X}`,
        "5b5c none 40 0",
        "5b4b none -60 0",
        "",
      ].join("\n"),
    );
    expect(counts).toMatchObject({ blocks: 6, absent: 2, written: 4 });
  });

  it("duplicate blocks and a colour-flipped twin: moves lead to the last of them", () => {
    const A8 = "4k4/9/9/9/9/9/P8/4K4/9 w - 8"; // A again
    const TW = "9/4k4/8p/9/9/9/9/9/4K4 b - 5"; // A's colour-flipped twin
    const { text } = peta([
      HEADER,
      `sfen ${R}`,
      "5i5h none 0",
      "9g9f none -10",
      `sfen ${A}`,
      "5a5b none 100",
      `sfen ${A8}`,
      "5a4a none -70",
      `sfen ${TW}`,
      "5i4i none 33",
    ]);
    // Each block is written from its own lines. A, A8 and TW share one key; TW is last, so
    // R's 5i5h leads to TW: best (33,0), stored (-33,1). R: leaf 9g9f (-10,0) is best.
    expect(text).toBe(
      [
        HEADER,
        "# NOE:4",
        `sfen ${A}`,
        "5a5b none 100 0",
        `sfen ${A8}`,
        "5a4a none -70 0",
        `sfen ${R}`,
        "9g9f none -10 0",
        "5i5h none -33 1",
        `sfen ${TW}`,
        "5i4i none 33 0",
        "",
      ].join("\n"),
    );
  });
});
