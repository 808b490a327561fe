import { describe, expect, it } from "vitest";
import { firstMoveOf, kifLineText, kifMoveText } from "./ja-move.js";
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";

const at = (line: string) => Position.fromUsi(`startpos${line ? " moves " + line : ""}`);
const first = (pos: Position, text: string, previous: number | null = null) => {
  const m = firstMoveOf(pos, text, previous);
  return m === null ? null : moveToUsi(m);
};

describe("Japanese notation of .sbk variations", () => {
  it("reads KIF moves with their origin, KI2 moves without it, promotions, drops and 同", () => {
    expect(first(at("7g7f"), "△７二金(61) ▲２六歩(27)")).toBe("6a7b");
    expect(first(at(""), "▲７六歩(77)")).toBe("7g7f");
    expect(first(at(""), "▲７六歩")).toBe("7g7f");
    expect(first(at(""), "☗2六歩")).toBe("2g2f");
    expect(first(at("7g7f 3c3d"), "▲２二角成(88)")).toBe("8h2b+");
    expect(first(at("7g7f 3c3d"), "▲２二角不成(88)")).toBe("8h2b");
    const afterTrade = at("7g7f 3c3d 8h2b+ 3a2b");
    expect(first(afterTrade, "▲５五角打")).toBe("B*5e");
    expect(first(afterTrade, "▲５五角")).toBe("B*5e"); // only the hand's bishop can get there
    const afterTake = at("7g7f 3c3d 8h2b+");
    expect(first(afterTake, "△同　銀(31)", parseUsiMove("8h2b+")! & 127)).toBe("3a2b");
    expect(first(afterTake, "△同銀", parseUsiMove("8h2b+")! & 127)).toBe("3a2b");
    expect(first(afterTake, "△同　銀")).toBeNull(); // no previous square known
    // USI is read too; what is not a legal move there, or is ambiguous, is no move.
    expect(first(at(""), "2g2f 8c8d")).toBe("2g2f");
    expect(first(at(""), "▲７五歩(77)")).toBeNull();
    expect(first(at(""), "▲５八金")).toBeNull(); // 6i5h and 4i5h both reach 5h: ambiguous without 右/左 origin
    expect(first(at(""), "投了")).toBeNull();
  });

  it("writes KIF moves with the mover's mark, and reads back what it writes", () => {
    const pos = at("7g7f 3c3d 8h2b+ 3a2b");
    expect(kifMoveText(pos, parseUsiMove("B*5e")!)).toBe("▲５五角打");
    expect(kifLineText(at(""), ["7g7f", "3c3d", "8h2b+", "3a2b"])).toBe("▲７六歩(77) △３四歩(33) ▲２二角成(88) △２二銀(31)");
    for (const line of ["", "7g7f", "7g7f 3c3d", "7g7f 3c3d 8h2b+ 3a2b"]) {
      const p = at(line);
      for (const m of p.legalMoves()) expect(firstMoveOf(p, kifMoveText(p, m))).toBe(m);
    }
  });
});
