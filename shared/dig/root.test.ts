// A root as the settings, the command line and the set-up board take it.
import { describe, expect, it } from "vitest";
import { parseNewRoot, parseRoot } from "./root.js";
import { Position } from "../rules/position.js";

const AFTER = Position.fromUsi("startpos moves 7g7f 3c3d").sfenKey();
const START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

describe("parseRoot", () => {
  it("reads every form the root field's help names, bare SFEN with moves included", () => {
    for (const text of [
      "startpos moves 7g7f 3c3d",
      `sfen ${START_SFEN} moves 7g7f 3c3d`,
      `position sfen ${START_SFEN} moves 7g7f 3c3d`,
      `${START_SFEN} moves 7g7f 3c3d`,
      `  ${START_SFEN} moves 7g7f 3c3d  `,
    ])
      expect(parseRoot(text).sfenKey(), text).toBe(AFTER);
    expect(parseRoot(START_SFEN).sfenKey()).toBe(Position.fromUsi("startpos").sfenKey());
  });

  it("names an illegal move after a bare SFEN, and refuses a mated root", () => {
    expect(() => parseRoot(`${START_SFEN} moves 7g7f 7g7f`)).toThrow(/move 2 "7g7f" is illegal/);
    expect(() => parseNewRoot("sfen 4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1")).toThrow(/mated/);
  });
});
