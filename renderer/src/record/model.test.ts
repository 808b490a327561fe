import { describe, expect, it } from "vitest";
import { branchesAt, readRecord } from "./model";
import { TWICE_BRANCHED_KIF as KIF } from "../../../shared/testing/record-kif";

describe("a record as lines", () => {
  it("lists each variation as a full line from the start, and the branches at a ply", () => {
    const r = readRecord(new TextEncoder().encode(KIF), "g.kif");
    if (typeof r === "string") throw new Error(r);
    expect(r.lines).toEqual([
      ["7g7f", "3c3d", "2g2f", "8c8d"],
      ["7g7f", "3c3d", "6g6f", "8c8d"],
      ["7g7f", "8c8d"],
    ]);
    expect(branchesAt(r.lines, 0, 0)).toEqual([{ usi: "7g7f", line: 0 }]);
    expect(branchesAt(r.lines, 0, 1).map((b) => b.usi)).toEqual(["3c3d", "8c8d"]);
    expect(branchesAt(r.lines, 1, 2)).toEqual([
      { usi: "6g6f", line: 1 },
      { usi: "2g2f", line: 0 },
    ]);
    expect(branchesAt(r.lines, 0, 4)).toEqual([]);
  });
  it("says what is wrong with a file that is no record", () => {
    expect(typeof readRecord(new TextEncoder().encode(""), "x.kif")).toBe("string");
  });
});
