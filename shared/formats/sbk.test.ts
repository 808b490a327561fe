import { describe, expect, it } from "vitest";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { decodeSbkMove, encodeSbkMove, readSbk, writeSbk, SbkError } from "./sbk.js";
import { SBookSchema, SBookStateSchema, SBookMoveSchema, SBookEvalSchema, SBookMoveEvaluation } from "./sbk/sbk_pb.js";
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { SHOGIGUI_AUTHOR, SHOGIGUI_DESCRIPTION, shogiguiBook } from "../testing/shogigui-sbk.js";

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

  it("round-trips positions, moves in their order, values, depths (none included) and counts", () => {
    const blocks = [
      {
        sfen: START,
        moves: [
          { move: "2g2f", value: 35, depth: 19, count: 1 },
          { move: "7g7f", value: 40, depth: 20, count: 3 },
          { move: "5g5f", value: null, depth: null, count: 0 },
        ],
      },
      { sfen: AFTER_76, moves: [{ move: "3c3d", value: -40, depth: 19, count: 2 }] },
    ];
    const bytes = writeSbk(blocks);
    const back = readSbk(bytes);
    expect(back.blocks.map(({ state: _s, ...b }) => b)).toEqual(blocks);
    expect(back.unplaced).toBe(0);
    // One evaluation per valued move, none for 5g5f, and none made up under the name "horu".
    const states = fromBinary(SBookSchema, bytes).BookStates;
    expect(states[0]!.Evals.map((e) => e.Variation)).toEqual(["▲２六歩(27)", "▲７六歩(77)"]);
    expect(states[0]!.Evals.every((e) => !e.EngineName)).toBe(true);
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
    expect(r.blocks.map(({ state: _s, ...b }) => b)).toEqual([
      { sfen: START, moves: [{ move: "7g7f", value: 55, depth: 13, count: 5, mark: SBookMoveEvaluation.Good }] },
      { sfen: AFTER_76, moves: [] },
    ]);
  });

  it("a file that is not an SBook gives a clear error", () => {
    expect(() => readSbk(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(SbkError);
    expect(() => readSbk(new TextEncoder().encode("#YANEURAOU-DB2016 1.00\nsfen x\n"))).toThrow(/not a ShogiGUI book/);
  });
});

describe("a book as ShogiGUI writes it (Japanese-notation variations, marks, game counts, author)", () => {
  const bytes = shogiguiBook();
  const read = readSbk(bytes);
  const at = (line: string) => read.blocks.find((b) => b.sfen === Position.fromUsi(`startpos${line ? " moves " + line : ""}`).sfenKey())!;

  it("attaches each evaluation to the move its Japanese-notation variation starts with", () => {
    expect(read.problems).toEqual([]);
    expect(read.author).toBe(SHOGIGUI_AUTHOR);
    expect(read.description).toBe(SHOGIGUI_DESCRIPTION);
    const { Good, Bad, Blunder, Forced } = SBookMoveEvaluation;
    // In the file's order; 1g1f has no evaluation anywhere: none, not 0.
    expect(at("").moves).toEqual([
      { move: "7g7f", value: 25, depth: 27, count: 70, mark: Good, ponder: "3c3d" },
      { move: "5g5f", value: -43, depth: 25, count: 5, mark: Bad, ponder: "3c3d" },
      { move: "2g2f", value: 18, depth: 27, count: 45, ponder: "8c8d" },
      { move: "1g1f", value: null, depth: null, count: 0, mark: Blunder },
    ]);
    // "△７二金(61)" is 6a7b: 5 at depth 27 (the example).
    expect(at("7g7f").moves).toEqual([
      { move: "3c3d", value: -20, depth: 26, count: 60, mark: Forced, ponder: "2g2f" },
      { move: "6a7b", value: 5, depth: 27, count: 3, ponder: "2g2f" },
      { move: "8c8d", value: null, depth: null, count: 7 },
    ]);
    // A promotion, and "同\u3000銀" (same square, silver) as the reply.
    expect(at("7g7f 3c3d").moves[0]).toEqual({ move: "8h2b+", value: 30, depth: 20, count: 1, mark: Good, ponder: "3a2b" });
    expect(at("").comment).toBe("初手の定跡\n角道を開けるか飛車先を突くか");
    expect(at("").state).toMatchObject({ games: 120, wonBlack: 64, wonWhite: 50 });
    expect(at("").state!.evals[0]).toEqual({
      value: 25,
      depth: 27,
      selDepth: 37,
      nodes: "123456789",
      variation: "▲７六歩(77) △３四歩(33) ▲２六歩(27)",
      engine: "水匠5",
    });
  });

  it(".sbk -> .sbk keeps everything: order, marks, weights, games, wins, comments, evaluations, keys, author", () => {
    const again = writeSbk(read.blocks, { author: read.author, description: read.description });
    const back = readSbk(again);
    expect(back.blocks).toEqual(read.blocks);
    expect(back.author).toBe(SHOGIGUI_AUTHOR);
    expect(back.description).toBe(SHOGIGUI_DESCRIPTION);
    // No evaluation was added: each state has exactly the ones ShogiGUI wrote.
    const evalsOf = (b: Uint8Array) => fromBinary(SBookSchema, b).BookStates.map((s) => s.Evals.length);
    expect(evalsOf(again).reduce((a, n) => a + n, 0)).toBe(evalsOf(bytes).reduce((a, n) => a + n, 0));
  });

  it("a move that is not legal in its state is refused with the state and move", () => {
    const book = fromBinary(SBookSchema, bytes);
    book.BookStates[1]!.Moves[1]!.Move ^= 0x0100; // a flipped bit: another destination rank
    expect(() => readSbk(toBinary(SBookSchema, book))).toThrow(/^state 1 move 2: 0x[0-9a-f]{8} is not a legal move in /);
  });
});
