import { describe, expect, it } from "vitest";
import { create, toBinary } from "@bufbuild/protobuf";
import { decodeSbkMove, encodeSbkMove, readSbk, writeSbk, SbkError } from "./sbk.js";
import { SBookSchema, SBookStateSchema, SBookMoveSchema, SBookEvalSchema, SBookMoveEvaluation } from "./sbk/sbk_pb.js";
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
const AFTER_76 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";

describe("ShogiGUI .sbk books", () => {
  it("encodes moves as ShogiGUI does and decodes them back, drops, captures and promotions included", () => {
    const pos = Position.fromUsi("startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    // Black's 7g7f from the start: colour 0, pawn (1) at bits 24+, from 7/7, to 7/6.
    const start = Position.startpos();
    expect(encodeSbkMove(start, parseUsiMove("7g7f")!)).toBe((1 << 24) | (7 << 12) | (6 << 8) | (7 << 4) | 7);
    for (const m of pos.legalMoves()) expect(decodeSbkMove(pos, encodeSbkMove(pos, m))).toBe(m);
    const drop = parseUsiMove("B*5e")!;
    expect(moveToUsi(decodeSbkMove(pos, encodeSbkMove(pos, drop))!)).toBe("B*5e");
    const white = Position.fromUsi("startpos moves 7g7f");
    const v = encodeSbkMove(white, parseUsiMove("3c3d")!);
    expect(v < 0).toBe(true); // colour bit 31
    expect(moveToUsi(decodeSbkMove(white, v)!)).toBe("3c3d");
  });

  it("round-trips positions, moves, values, depths and counts", () => {
    const blocks = [
      {
        sfen: START,
        moves: [
          { move: "7g7f", value: 40, depth: 20, count: 3 },
          { move: "2g2f", value: 35, depth: 19, count: 1 },
        ],
      },
      { sfen: AFTER_76, moves: [{ move: "3c3d", value: -40, depth: 19, count: 2 }] },
    ];
    const back = readSbk(writeSbk(blocks));
    expect(back.blocks).toEqual(blocks);
    expect(back.unplaced).toBe(0);
  });

  it("places states without a Position through the moves from state 0, and values moves from the next state", () => {
    const pos = Position.startpos();
    const req = { BoardKey: 0n, HandKey: 0, Games: 0, WonBlack: 0, WonWhite: 0 };
    const book = create(SBookSchema, {
      Author: "x",
      Description: "",
      BookStates: [
        create(SBookStateSchema, {
          ...req,
          Id: 0,
          Moves: [
            create(SBookMoveSchema, {
              Move: encodeSbkMove(pos, parseUsiMove("7g7f")!),
              Evaluation: SBookMoveEvaluation.Good,
              Weight: 5,
              NextStateId: 1,
            }),
          ],
        }),
        create(SBookStateSchema, {
          ...req,
          Id: 1,
          Evals: [create(SBookEvalSchema, { EvaluationValue: -55, Depth: 12, SelDepth: 0, Nodes: 0n, Variation: "△３四歩" })],
        }),
      ],
    });
    const r = readSbk(toBinary(SBookSchema, book));
    expect(r.blocks).toEqual([
      { sfen: START, moves: [{ move: "7g7f", value: 55, depth: 13, count: 5 }] },
      { sfen: AFTER_76, moves: [] },
    ]);
  });

  it("a file that is not an SBook gives a clear error", () => {
    expect(() => readSbk(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(SbkError);
    expect(() => readSbk(new TextEncoder().encode("#YANEURAOU-DB2016 1.00\nsfen x\n"))).toThrow(/not a ShogiGUI book/);
  });
});
