import { describe, expect, it } from "vitest";
import { branchesAt, commentEval, readRecord, recordProblemJa } from "./model";
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
  it("says where a line was cut at an illegal move (the pane once showed the cut line as the whole record)", () => {
    const kif = `手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ９九龍(11)
   3 ２六歩(27)
`;
    const r = readRecord(new TextEncoder().encode(kif), "bad.kif");
    if (typeof r === "string") throw new Error(r);
    expect(r.lines).toEqual([["7g7f"]]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/^bad\.kif:4: .*main line move 2 .* is illegal/);
    const good = readRecord(new TextEncoder().encode(KIF), "g.kif");
    if (typeof good === "string") throw new Error(good);
    expect(good.problems).toEqual([]);
  });
  it("says what is wrong with a file that is no record", () => {
    expect(typeof readRecord(new TextEncoder().encode(""), "x.kif")).toBe("string");
  });
  it("keeps the comments of the main line and of the variations, by the moves that reach them", () => {
    const kif = `手合割：平手
*対局前のコメント
手数----指手---------消費時間--
   1 ７六歩(77)
*角道を開ける
**解析 0 ○ 時間 00:01.0 深さ 20 評価値 45 読み筋 △３四歩
   2 ３四歩(33)
   3 ２六歩(27)

変化：3手
   3 ６六歩(67)
*#評価値=-30
`;
    const r = readRecord(new TextEncoder().encode(kif), "c.kif");
    if (typeof r === "string") throw new Error(r);
    expect(r.notes.get("")).toBe("対局前のコメント");
    expect(r.notes.get("7g7f")).toMatch(/^角道を開ける\n\*解析 0/);
    expect(commentEval(r.notes.get("7g7f"))).toBe(45);
    expect(r.notes.has("7g7f 3c3d")).toBe(false);
    expect(commentEval(r.notes.get("7g7f 3c3d 6g6f"))).toBe(-30);
    expect(commentEval("no value here")).toBeNull();
  });
  it("reads the CSA analysis line's value ('** 50 7g7f 3c3d, as Floodgate and ShogiGUI write it)", () => {
    const csa = "V2.2\nPI\n+\n+7776FU\n'** 50 -3334FU +2726FU\n-3334FU\n'** -120\n";
    const r = readRecord(new TextEncoder().encode(csa), "g.csa");
    if (typeof r === "string") throw new Error(r);
    expect(commentEval(r.notes.get("7g7f"))).toBe(50);
    expect(commentEval(r.notes.get("7g7f 3c3d"))).toBe(-120);
    // A comment that only starts with a number and a star is not taken for one in a sentence.
    expect(commentEval("*5筋を狙う")).toBeNull();
  });
});

describe("recordProblemJa", () => {
  it("says the reader's common problems in Japanese, keeping the place, move and position", () => {
    const bad = readRecord(
      new TextEncoder().encode("手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ９九龍(11)\n"),
      "bad.kif",
    );
    if (typeof bad === "string") throw new Error(bad);
    expect(bad.problems.length).toBeGreaterThan(0);
    for (const p of bad.problems) {
      const ja = recordProblemJa(p);
      expect(ja).toMatch(/^bad\.kif:4: /);
      expect(ja).not.toMatch(/[a-z]{4,} [a-z]{3,}/); // no English sentence left
    }
    const junk = readRecord(
      new Uint8Array(600).map((_, i) => (i * 37) % 256),
      "r.kif",
    );
    expect(typeof junk).toBe("string");
    expect(recordProblemJa(junk as string)).toMatch(
      /^棋譜ではありません: テキストではなくバイナリデータです \(制御文字 \d+ 個、最初の 0x[0-9a-f]+ は \d+ 文字目\)$/,
    );
  });
});
