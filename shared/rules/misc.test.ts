import { describe, expect, test } from "vitest";
import { Position } from "./position.js";
import { moveToUsi, parseUsiMove, parseUsiSquare, squareToUsi } from "./usi.js";
import { samplePositions } from "../testing/random-play.js";
import { makeDrop, makeMove, GOLD } from "./types.js";

describe("usi text", () => {
  test("squares", () => {
    expect(squareToUsi(60)).toBe("7g");
    expect(squareToUsi(0)).toBe("1a");
    expect(squareToUsi(80)).toBe("9i");
    expect(parseUsiSquare("7g")).toBe(60);
    for (let sq = 0; sq < 81; sq++) expect(parseUsiSquare(squareToUsi(sq))).toBe(sq);
    expect(parseUsiSquare("0a")).toBeNull();
    expect(parseUsiSquare("1j")).toBeNull();
  });
  test("moves", () => {
    expect(parseUsiMove("7g7f")).toBe(makeMove(60, 59));
    expect(parseUsiMove("8h2b+")).toBe(makeMove(70, 10, true));
    expect(parseUsiMove("G*5e")).toBe(makeDrop(GOLD, 40));
    for (const text of ["7g7f", "8h2b+", "P*5e", "R*1a", "G*9i"]) expect(moveToUsi(parseUsiMove(text)!)).toBe(text);
    for (const bad of ["resign", "none", "win", "", "7g7g", "7g7f=", "K*5e", "p*5e", "P*5j", "7g7", "7g7f++", "+7g7f"]) {
      expect(parseUsiMove(bad)).toBeNull();
    }
    expect(moveToUsi(0)).toBe("none");
  });
});

describe("declaration win (27-point rule)", () => {
  const WIN = "GGSS+P+P+P+P1/+R+B2K4/9/9/9/9/9/9/4k4 b R4LP 1";
  test("black with 28 points, 10 pieces in camp, king in camp", () => {
    expect(Position.fromSfen(WIN).declarationWin()).toBe(true);
  });
  test("black with 27 points is short; white needs only 27", () => {
    const p27 = Position.fromSfen(WIN.replace("R4LP", "R4L"));
    expect(p27.declarationWin()).toBe(false);
    expect(p27.flipped().declarationWin()).toBe(true);
    expect(Position.fromSfen(WIN).flipped().declarationWin()).toBe(true);
  });
  test("fails in check, with 9 pieces in camp, or with the king outside", () => {
    expect(Position.fromSfen("GGSS+P+P+P+P1/+R+B2K4/4g4/9/9/9/9/9/4k4 b R4LP 1").declarationWin()).toBe(false);
    expect(Position.fromSfen("GGSS+P+P+P2/+R+B2K4/9/9/9/9/9/9/4k4 b R4L2P 1").declarationWin()).toBe(false);
    expect(Position.fromSfen("GGSS+P+P+P+P1/+R+B7/9/4K4/9/9/9/9/4k4 b R4LP 1").declarationWin()).toBe(false);
    expect(Position.fromSfen(WIN.replace(" b ", " w ")).declarationWin()).toBe(false);
  });
});

describe("mate in one", () => {
  test("gold drop on the head of the king", () => {
    const pos = Position.fromSfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    expect(moveToUsi(pos.mateInOne())).toBe("G*5b");
    expect(pos.toSfen()).toBe("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
  });
  test("a tsume with a board move", () => {
    // 3-piece corner: dragon slides to 1b, supported by the gold on 2c.
    const pos = Position.fromSfen("8k/9/7G1/9/9/9/9/+R8/4K4 b - 1");
    const m = pos.mateInOne();
    expect(m).not.toBe(0);
    pos.doMove(m);
    expect(pos.legalMoves()).toEqual([]);
    expect(pos.inCheck()).toBe(true);
  });
  test("no mate: 0; pawn-drop mate does not count", () => {
    expect(Position.startpos().mateInOne()).toBe(0);
    expect(Position.fromSfen("8k/9/6NG1/9/9/9/9/9/4K4 b P 1").mateInOne()).toBe(0);
  });
});

describe("flipped twin", () => {
  test("twice flipped is the original; twin of startpos is startpos with white to move", () => {
    for (const pos of samplePositions(30, 5)) {
      expect(pos.flipped().flipped().sfenKey()).toBe(pos.sfenKey());
      const twin = pos.flipped();
      expect(twin.side).toBe(pos.side ^ 1);
      expect(twin.legalMoves().length).toBe(pos.legalMoves().length);
      expect(twin.inCheck()).toBe(pos.inCheck());
    }
    expect(Position.startpos().flipped().sfenKey()).toBe("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -");
  });
  test("hands swap", () => {
    expect(Position.fromSfen("8k/9/9/9/9/9/9/9/K8 b R2p 1").flipped().sfenKey()).toBe("8k/9/9/9/9/9/9/9/K8 w 2Pr");
  });
});
