import { describe, expect, it } from "vitest";
import { benchExport, makeSyntheticBook, runExportBench } from "./export.js";

describe("export benchmark", () => {
  it("makes a book of the asked size with transpositions, and reports figures", () => {
    const book = makeSyntheticBook(400, 7);
    expect(book.sfens).toHaveLength(400);
    expect(new Set(book.sfens.map((s) => s.split(" ").slice(0, 3).join(" "))).size).toBe(400);
    const r = runExportBench(book);
    expect(r.positions).toBe(400);
    // A tree of 400 nodes has 399 internal edges; more means transpositions (or cycles).
    expect(r.internalEdges).toBeGreaterThan(399);
    const lines = benchExport([300]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^export 300 positions, .* positions\/s/);
  });
});
