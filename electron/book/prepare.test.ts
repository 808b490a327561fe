// A big book written in bulk is readied for digging: its graph snapshot and the selection's
// bounds saved beside it, so the first dig opens from the snapshot and its first selection
// goes on from the bounds (what a dig's close leaves), and hands out what a fresh search would.
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { OpenBook, SNAPSHOT_MIN_POSITIONS } from "./open-book.js";
import { prepareForDigging } from "./prepare.js";
import { boundsPath } from "./selection-bounds.js";
import { snapshotPath } from "./graph-snapshot.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { HORU, tempDir } from "../testing/paths.js";
import { firstSelection } from "../testing/first-selection.js";

describe("a book readied for digging", () => {
  it("opens from its snapshot, and its first selection goes on from the saved bounds", () => {
    const dir = tempDir();
    const big = path.join(dir, "big.horu");
    writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS, { snapshot: false });
    const cold = path.join(dir, "cold.horu");
    copyFileSync(big, cold);

    const p = prepareForDigging(big);
    expect(p).toMatchObject({ prepared: true, positions: SNAPSHOT_MIN_POSITIONS });
    // Searched until a search visited under 100,000 nodes (one, on a book this small).
    expect(p.searches.length).toBeGreaterThanOrEqual(1);
    expect(p.searches.at(-1)).toBeLessThan(100_000);
    expect(existsSync(snapshotPath(big))).toBe(true);
    expect(existsSync(boundsPath(big))).toBe(true);

    // The same book never readied: its first selection searches the whole book.
    const fresh = firstSelection(cold);
    expect(fresh.boundsRestored).toBe(false);
    const coldNodes = fresh.nodes;

    const book = OpenBook.open(big);
    try {
      expect(book.timings.from).toBe("snapshot");
      expect(book.timings.boundsRestored).toBe(true);
      const warm = book.jobs.next()!;
      expect(book.jobs.lastSelection!.stats.nodes, `cold ${coldNodes} nodes`).toBeLessThan(coldNodes / 2);
      // On a book with cycles the order of a search can change which cyclic values it trusts
      // (docs/DESIGN.md §3.6): the leaf is checked for what it must be, as after a dig's close.
      expect(book.graph.find(warm.keyHi, warm.keyLo)).toBe(-1);
      expect(warm.line.length).toBeGreaterThan(0);
      book.jobs.release(warm);
    } finally {
      book.close();
    }
  });

  it("a small book is left as it is (it opens and selects in about a second)", () => {
    const small = path.join(tempDir(), "small.horu");
    writeDigShapedBook(small, 2_000, { snapshot: false });
    expect(prepareForDigging(small)).toMatchObject({ prepared: false, positions: 2_000 });
    expect(existsSync(boundsPath(small))).toBe(false);
  });

  it("horu import readies the big book it wrote", () => {
    const dir = tempDir();
    const big = path.join(dir, "big.horu");
    writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS + 5_000, { snapshot: false });
    const db = path.join(dir, "big.db");
    execFileSync(process.execPath, [HORU, "export", "--book", big, "--out", db], { encoding: "utf8", stdio: "pipe" });
    const target = path.join(dir, "imported.horu");
    const out = execFileSync(process.execPath, [HORU, "import", "--book", target, db, "--json"], { encoding: "utf8", stdio: "pipe" });
    expect(out).toMatch(/readied [\d,]+ positions for digging/);
    const j = JSON.parse(out.trim().split("\n").pop()!) as { prepared: { prepared: boolean; positions: number } };
    expect(j.prepared.prepared).toBe(true);
    expect(j.prepared.positions).toBeGreaterThanOrEqual(SNAPSHOT_MIN_POSITIONS);
    const book = OpenBook.open(target);
    try {
      expect(book.timings.from).toBe("snapshot");
      expect(book.timings.boundsRestored).toBe(true);
      expect(book.graph.nodeCount).toBe(j.prepared.positions);
    } finally {
      book.close();
    }
  });

  it("settleBounds searches until one search visits under the given nodes, at most the given searches", () => {
    const file = path.join(tempDir(), "settle.horu");
    writeDigShapedBook(file, 5_000, { snapshot: false });
    const book = OpenBook.open(file);
    try {
      expect(book.settleBounds(0, 3)).toHaveLength(3); // never under 0 nodes: all three
      const more = book.settleBounds(Infinity, 3);
      expect(more).toHaveLength(1);
      // The bounds of the searches before are kept: the book unchanged, a new search needs few nodes.
      expect(more[0]).toBeLessThan(1_000);
    } finally {
      book.close();
    }
  });
});
