import { describe, expect, it } from "vitest";
import { parseInfoLine } from "./info.js";
import { MultiPvCollector, applyWindow, boundWidened, collectCandidates, firstMultiPv, widenedMoves } from "./multipv.js";

const parse = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((l) => parseInfoLine(l.trim()));

// Captured from fairy-stockfish (MultiPV 4, go nodes 20000): the search stopped in
// depth 9 with only line 1 searched, as a bound; lines 2-4 are reprinted at depth 8.
const fairyStopped = `
info depth 8 seldepth 11 multipv 1 score cp 238 nodes 15695 nps 307745 tbhits 0 time 51 pv 7g7f 5a4b 4i5h 4a5b
info depth 8 seldepth 13 multipv 2 score cp 197 nodes 15695 nps 307745 tbhits 0 time 51 pv 3g3f 4a5b 7g7f 5a4b
info depth 8 seldepth 14 multipv 3 score cp 193 nodes 15695 nps 307745 tbhits 0 time 51 pv 4i5h 4a5b 7g7f 5a4b
info depth 8 seldepth 9 multipv 4 score cp 152 upperbound nodes 15695 nps 307745 tbhits 0 time 51 pv 1g1f 3c3d 7g7f
info depth 9 seldepth 16 multipv 1 score cp 216 upperbound nodes 20009 nps 294250 tbhits 0 time 68 pv 7g7f 5a4b
info depth 8 seldepth 13 multipv 2 score cp 197 nodes 20009 nps 294250 tbhits 0 time 68 pv 3g3f 4a5b 7g7f 5a4b
info depth 8 seldepth 14 multipv 3 score cp 193 nodes 20009 nps 294250 tbhits 0 time 68 pv 4i5h 4a5b 7g7f 5a4b
info depth 8 seldepth 9 multipv 4 score cp 152 nodes 20009 nps 294250 tbhits 0 time 68 pv 1g1f 3c3d 7g7f 2b8h
`;

describe("MultiPvCollector", () => {
  it("takes the last complete exact set (fairy-stockfish stopped mid-iteration)", () => {
    const c = collectCandidates(parse(fairyStopped), 4);
    expect(c.map((x) => [x.move, x.value, x.depth])).toEqual([
      ["7g7f", 238, 8],
      ["3g3f", 197, 8],
      ["4i5h", 193, 8],
      ["1g1f", 152, 8],
    ]);
    expect(c[3]!.pv).toEqual(["1g1f", "3c3d", "7g7f", "2b8h"]);
  });

  it("discards an incomplete deeper iteration even when its lines are exact", () => {
    const lines = parse(`
      info depth 5 multipv 1 score cp 100 pv 7g7f 3c3d
      info depth 5 multipv 2 score cp 50 pv 2g2f 8c8d
      info depth 6 multipv 1 score cp 300 pv 5g5f
    `);
    expect(collectCandidates(lines, 2).map((c) => [c.move, c.value])).toEqual([
      ["7g7f", 100],
      ["2g2f", 50],
    ]);
  });

  it("prefers the last finished iteration over a stop report with reordered moves", () => {
    // The stop block reprints lines 2-3 from depth 5 after line 1 of depth 6 moved a root move up.
    const lines = parse(`
      info depth 5 multipv 1 score cp 100 pv 7g7f
      info depth 5 multipv 2 score cp 90 pv 2g2f
      info depth 5 multipv 3 score cp 80 pv 5g5f
      info depth 6 multipv 1 score cp 95 pv 5g5f
      info depth 5 multipv 2 score cp 100 pv 7g7f
      info depth 5 multipv 3 score cp 90 pv 2g2f
    `);
    expect(collectCandidates(lines, 3).map((c) => [c.move, c.value, c.depth])).toEqual([
      ["7g7f", 100, 5],
      ["2g2f", 90, 5],
      ["5g5f", 80, 5],
    ]);
  });

  it("uses what it has when the engine prints fewer lines than asked", () => {
    const lines = parse(`
      info depth 3 multipv 1 score mate 1 pv G*5b
      info depth 3 multipv 2 score mate 3 pv 5i4i 5a6a G*6b
    `);
    const col = new MultiPvCollector(8);
    for (const l of lines) col.add(l);
    expect(col.distinctLines).toBe(2);
    expect(col.result().map((c) => c.value)).toEqual([31999, 31997]);
    expect(col.result(1).map((c) => c.value)).toEqual([31999]);
  });

  it("applies the window and sorts best first", () => {
    const lines = parse(`
      info depth 2 multipv 1 score cp 100 pv 7g7f
      info depth 2 multipv 2 score cp 120 pv 2g2f
      info depth 2 multipv 3 score cp -150 pv 5g5f
      info depth 2 multipv 4 score cp -250 pv 9g9f
    `);
    expect(collectCandidates(lines, 4, 300).map((c) => c.move)).toEqual(["2g2f", "7g7f", "5g5f"]);
    expect(collectCandidates(lines, 4, 0).map((c) => c.move)).toEqual(["2g2f"]);
    expect(applyWindow([], 5)).toEqual([]);
  });

  it("keeps a widening search's new moves within the window plus its margin of that search's best", () => {
    const wide = [150, 100, 0, -120, -160, -300].map((value, i) => ({ move: `m${i}`, value, depth: 5, pv: [`m${i}`] }));
    const known = new Set(["m0"]);
    expect(widenedMoves(wide, known, 300, 0).map((c) => c.move)).toEqual(["m1", "m2", "m3"]);
    expect(widenedMoves(wide, known, 300, 100).map((c) => c.move)).toEqual(["m1", "m2", "m3", "m4"]);
    // A negative margin never narrows the window itself.
    expect(widenedMoves(wide, known, 300, -50).map((c) => c.move)).toEqual(["m1", "m2", "m3"]);
    expect(widenedMoves([], known, 300, 100)).toEqual([]);
  });

  it("bounds a widened move one below the first search's last line, leaves mates and lower values, and needs k lines", () => {
    const c = (move: string, value: number, depth: number) => ({ move, value, depth, pv: [move] });
    const first = [c("7g7f", 210, 10), c("7i7h", 179, 10), c("3i4h", 160, 10), c("2g2f", 150, 10)];
    const widened = [c("6i6h", 180, 6), c("4i4h", 149, 6), c("1g1f", 120, 6), c("G*5b", 31999, 6)];
    expect(boundWidened(widened, first, 4).map((x) => [x.move, x.value, x.depth])).toEqual([
      ["6i6h", 149, 6],
      ["4i4h", 149, 6],
      ["1g1f", 120, 6],
      ["G*5b", 31999, 6],
    ]);
    // Fewer lines than asked for: the first search did not bound the rest.
    expect(boundWidened(widened, first.slice(0, 3), 4)).toEqual(widened);
  });

  it("treats lines without multipv as line 1 and ignores unusable lines", () => {
    const lines = parse(`
      info depth 1 score cp 10 pv 7g7f
      info depth 2 score cp 20 pv 2g2f
      info currmove 5g5f
      info depth 3 score cp 90 lowerbound pv 5g5f
      info depth 3 multipv 7 score cp 999 pv 1g1f
      info string hello
      info depth 3 score cp 5
    `);
    lines.push(null);
    expect(collectCandidates(lines, 1).map((c) => [c.move, c.value])).toEqual([["2g2f", 20]]);
    expect(collectCandidates([], 4)).toEqual([]);
  });

  it("falls back to each line's latest value when depths never line up", () => {
    const lines = parse(`
      info depth 4 multipv 1 score cp 30 pv 7g7f
      info depth 3 multipv 2 score cp 10 pv 2g2f
    `);
    expect(collectCandidates(lines, 2).map((c) => c.move)).toEqual(["7g7f", "2g2f"]);
  });

  it("keys gpsusi-style lines by root move", () => {
    // Captured from gpsusi with MultiPVWidth 300 (no multipv field).
    const lines = parse(`
      info depth 5 seldepth 9 time 662 score cp 43 nodes 396858 nps 598785 pv 2g2f 3c3d 7g7f
      info depth 5 seldepth 9 time 714 score cp 39 nodes 420500 nps 588223 pv 7g7f 8c8d 7i6h
      info depth 6 seldepth 10 time 672 score cp 37 nodes 387911 nps 576425 pv 2g2f 3c3d 7g7f 4c4d
      info depth 6 seldepth 10 time 749 score cp 37 nodes 434140 nps 579359 pv 7g7f 3c3d 2g2f
      info depth 6 seldepth 10 time 1420 score cp -171 nodes 845050 nps 594907 pv 8g8f 8c8d 6i7h
      info depth 4 seldepth 8 time 100 score cp 80 nodes 1000 pv 9g9f
    `);
    const c = collectCandidates(lines, 32, 300, { keyByMove: true });
    expect(c.map((x) => [x.move, x.value])).toEqual([
      ["2g2f", 37],
      ["7g7f", 37],
      ["8g8f", -171],
    ]);
  });
});

describe("firstMultiPv: the first search's MultiPV from the parent's spread", () => {
  const rule = { narrow: 2, wide: 8 };
  it("starts at the default without a parent", () => {
    expect(firstMultiPv(undefined, 4, 300, rule)).toBe(4);
    expect(firstMultiPv([], 4, 300, rule)).toBe(4);
  });
  it("starts narrow when one parent move dominated (none other within the window), whatever the order", () => {
    expect(firstMultiPv([120], 4, 300, rule)).toBe(2);
    expect(firstMultiPv([-500, 250, -60], 4, 300, rule)).toBe(2);
    expect(firstMultiPv([250, -51], 4, 300, rule)).toBe(2); // 301 behind
    expect(firstMultiPv([250, -50], 4, 300, rule)).toBe(4); // exactly at the window: close
    expect(firstMultiPv([120], 1, 300, rule)).toBe(1); // never wider than a narrower default
  });
  it("starts with as many lines as the parent had within the window, between the default and the wide bound", () => {
    expect(firstMultiPv([100, 90, 80], 4, 300, rule)).toBe(4);
    expect(firstMultiPv([100, 90, 80, 70, 60, 50, -300], 4, 300, rule)).toBe(6);
    expect(
      firstMultiPv(
        Array.from({ length: 30 }, (_, i) => 100 - i * 5),
        4,
        300,
        rule,
      ),
    ).toBe(8);
    // Only the moves within withinCp count, not every listed one.
    expect(firstMultiPv([0, -10, -20, -20, -20, -400, -400, -400, -400], 4, 100, rule)).toBe(5);
  });
});
