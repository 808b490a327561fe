import { describe, expect, it } from "vitest";
import type { Candidate } from "../../../shared/book/records.js";
import { thinkMultiPv, type Pass, type Searcher } from "./widen.js";

const cand = (move: string, value: number): Candidate => ({ move, value, depth: 5, pv: [move] });
const startMoves = ["7g7f", "2g2f", "6i7h", "5g5f", "3g3f", "1g1f", "9g9f"];

/**
 * An engine that answers each search with the start position's first `k` moves, each 10 cp
 * below the one before (all inside the window), and takes `timeMs(k)` of its own time.
 */
function scripted(timeMs: (k: number) => number): { searcher: Searcher; asked: number[] } {
  const asked: number[] = [];
  const searcher: Searcher = {
    search: async (k: number): Promise<Pass> => {
      asked.push(k);
      const all = startMoves.slice(0, k).map((m, i) => cand(m, 50 - 10 * i));
      return { all, status: "ok", bestmove: all[0]!.move, nodes: 1000, depth: 5, lines: all.length, timeMs: timeMs(k) };
    },
    stopRequested: () => false,
    hasMultiPv: true,
  };
  return { searcher, asked };
}

const LIMIT = { kind: "nodes", nodes: 10_000 } as const;
const AUTO = { dynamic: { start: 4, widenBy: 0, withinCp: 300 } };

describe("the time of a position's searches after the first (laterTimeMs)", () => {
  it("is zero for one search, and the widening search's time when auto widens", async () => {
    const one = await thinkMultiPv(scripted(() => 40).searcher, "startpos", LIMIT, { fixed: 4 }, 300, 30);
    expect(one).toMatchObject({ passes: 1, timeMs: 40, laterTimeMs: 0 });
    const { searcher, asked } = scripted((k) => (k === 4 ? 40 : 7));
    const wide = await thinkMultiPv(searcher, "startpos", LIMIT, AUTO, 300, 30);
    expect(asked).toEqual([4, 30]);
    expect(wide).toMatchObject({ passes: 2, timeMs: 47, laterTimeMs: 7 });
  });

  it("counts deep best's search of the other moves, all of it, as later", async () => {
    const { searcher, asked } = scripted((k) => (k === 1 ? 40 : k === 4 ? 10 : 3));
    const r = await thinkMultiPv(searcher, "startpos", LIMIT, { deepBest: { others: AUTO.dynamic, share: 0.25 } }, 300, 30);
    expect(asked).toEqual([1, 4, 30]);
    expect(r).toMatchObject({ passes: 3, timeMs: 53, laterTimeMs: 13 });
  });
});
