// `horu bench scale`, briefly, on an empty book and a small dig-shaped one: it digs each with
// real engines, prints every figure the issue asks for, and opens the big book again to show
// the first selection after a reopen (times are only printed, never asserted).
import { describe, expect, it } from "vitest";
import path from "node:path";
import { writeDigShapedBook } from "./books/dig-shaped-book.js";
import { benchScale } from "./scale.js";
import { SNAPSHOT_MIN_POSITIONS } from "../book/open-book.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`horu bench scale (${NO_ENGINE})`, () => {
  it(
    "prints rate, ratio, first selection, selection p50/p99, selecting per position, CPU shares and RSS, each dig's second half, and a reopen",
    { timeout: 240_000 },
    async () => {
      const book = path.join(tempDir("horu-bench-scale-test-"), "big.horu");
      writeDigShapedBook(book, SNAPSHOT_MIN_POSITIONS);
      const lines: string[] = [];
      const rows = await benchScale({
        horu: HORU,
        engine: FAIRY,
        cases: [{ label: "empty" }, { label: "big", book }],
        seconds: 4,
        nodes: 2000,
        print: (l) => lines.push(l),
      });
      // The empty book runs again at the end (its rate spreads between runs), and the ratios are given against both.
      expect(rows.map((r) => r.label)).toEqual(["empty", "big", "empty, again"]);
      const mean = (rows[0].rate + rows[2].rate) / 2;
      expect(lines.find((l) => l.startsWith("ratios against the mean"))).toContain(`big ${(rows[1].rate / mean).toFixed(3)}x`);
      for (const r of rows) {
        expect(r.thought).toBeGreaterThan(0);
        // The CPU selecting is part of what the process spent while it dug (not wall time, which grows when the engines hold the cores).
        expect(r.selectCpuMsPerPosition).toBeLessThanOrEqual(r.horuCpuMsPerPosition);
        // A share of the engines' span, read from the dig's summary.
        expect(r.waitingShare).toBeGreaterThanOrEqual(0);
        expect(r.waitingShare).toBeLessThanOrEqual(1);
      }
      expect(rows[1].selectCpuMsPerPosition).toBeGreaterThan(0);
      // Each dig's second half alone: part of what the whole dig thought, with its own line and ratios.
      for (const r of rows) {
        expect(r.secondHalf, r.label).not.toBeNull();
        expect(r.secondHalf!.thought).toBeGreaterThan(0);
        expect(r.secondHalf!.thought).toBeLessThan(r.thought);
        expect(r.secondHalf!.selectCpuMsPerPosition).toBeLessThanOrEqual(r.secondHalf!.horuCpuMsPerPosition);
        expect(r.secondHalf!.waitingShare).toBeGreaterThanOrEqual(0);
        expect(r.secondHalf!.waitingShare).toBeLessThanOrEqual(1);
      }
      expect(lines.find((l) => l.startsWith("big, second half: "))).toContain(`${rows[1].secondHalf!.thought} positions`);
      expect(lines.find((l) => l.startsWith("big, second half: "))).toContain(
        `engines waiting for a position ${(rows[1].secondHalf!.waitingShare * 100).toFixed(1)}%`,
      );
      const halfMean = (rows[0].secondHalf!.rate + rows[2].secondHalf!.rate) / 2;
      expect(lines.find((l) => l.startsWith("second halves against the mean"))).toContain(
        `big ${(rows[1].secondHalf!.rate / halfMean).toFixed(3)}x`,
      );
      const big = lines.find((l) => l.startsWith("big: "))!;
      for (const what of [
        "/s (",
        "x empty)",
        "first selection",
        "selection p50",
        "ms CPU/position",
        "of the engines' CPU per position",
        "waiting for a position",
        "peak RSS",
      ])
        expect(big, what).toContain(what);
      // The dig closed the book with nothing in flight: the reopen goes on from its bounds.
      expect(lines.find((l) => l.startsWith("big, opened again"))).toContain("bounds from the last close taken");
    },
  );
});
