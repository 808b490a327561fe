import { describe, expect, test } from "vitest";
import { Position } from "./position.js";
import { forEachUnmove, predecessor } from "./unmove.js";
import { samplePositions } from "../testing/random-play.js";
import { moveToUsi } from "./usi.js";

function checkCompleteness(parents: Position[]): number {
  let edges = 0;
  for (const parent of parents) {
    const sfen = parent.sfenKey();
    for (const m of parent.legalMoves()) {
      const to = m & 127,
        from = (m >> 7) & 127;
      const captured = from < 81 ? parent.board[to] : 0;
      const child = parent.clone();
      child.doMove(m);
      let found = 0;
      forEachUnmove(child, (hi, lo, move, cap) => {
        if (move === m && cap === captured && hi === parent.keyHi && lo === parent.keyLo) found++;
      });
      if (found !== 1) throw new Error(`${sfen}: ${moveToUsi(m)} found ${found} times among the child's unmoves`);
      const back = predecessor(child, m, captured);
      expect(back.sfenKey()).toBe(sfen);
      expect([back.keyHi, back.keyLo]).toEqual([parent.keyHi, parent.keyLo]);
      edges++;
    }
  }
  return edges;
}

describe("unmoves", () => {
  test("every legal move of random positions is found back from its child", () => {
    expect(checkCompleteness(samplePositions(45, 3))).toBeGreaterThan(2500);
  });

  test("drop-rich and promotion-rich positions", () => {
    const parents = [
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "ln2k2n1/1P5P1/2N3N2/L7L/9/9/p7p/9/4K4 b Pp 1",
      "4k4/9/9/9/4r4/9/9/9/4K4 b GSgs 1",
      "+R+B+S+N+L+P3/9/9/9/4k4/9/9/9/4K4 w rbgsnlp 1",
      "4k4/1+P5P1/2N3N2/L1S3S1L/9/9/p7p/9/4K4 b GBgb 1",
    ].map((s) => Position.fromSfen(s));
    expect(checkCompleteness(parents)).toBeGreaterThan(500);
  });

  test("reported predecessors have the claimed key", () => {
    for (const pos of samplePositions(9, 11)) {
      let n = 0;
      forEachUnmove(pos, (hi, lo, move, cap) => {
        if (n++ % 7 !== 0) return; // a sample keeps it fast
        const p = predecessor(pos, move, cap);
        expect([p.keyHi, p.keyLo]).toEqual([hi, lo]);
      });
      expect(n).toBeGreaterThan(0);
    }
  });
});
