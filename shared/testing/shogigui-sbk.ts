// A .sbk book built the way ShogiGUI writes one, with the published protobuf schema: no
// ShogiGUI-made file is at hand (ShogiGUI is closed source and runs on Windows only), so
// this stands in for one. As ShogiGUI does: state 0 is the start position without a
// Position field, evaluations' variations are in Japanese notation ("△７二金(61) ▲..."),
// moves carry marks (Forced/Good/Bad/Blunder) and weights, states their game counts,
// wins per side and comments, the book an author and description; a move may lead to no
// state (NextStateId -1), and a move may have no evaluation at all.
import { create, toBinary } from "@bufbuild/protobuf";
import { SBookEvalSchema, SBookMoveEvaluation, SBookMoveSchema, SBookSchema, SBookStateSchema } from "../formats/sbk/sbk_pb.js";
import { encodeSbkMove } from "../formats/sbk.js";
import { Position } from "../rules/position.js";
import { parseUsiMove } from "../rules/usi.js";

interface MoveSpec {
  usi: string;
  mark: SBookMoveEvaluation;
  weight: number;
  next: number;
}

interface EvalSpec {
  value: number;
  depth: number;
  variation: string;
  engine?: string;
}

interface StateSpec {
  id: number;
  /** The USI line from the start that reaches it. */
  line: string[];
  games: number;
  wonBlack: number;
  wonWhite: number;
  comment?: string;
  moves: MoveSpec[];
  evals: EvalSpec[];
}

const { None, Forced, Good, Bad, Blunder } = SBookMoveEvaluation;

export const SHOGIGUI_STATES: StateSpec[] = [
  {
    id: 0,
    line: [],
    games: 120,
    wonBlack: 64,
    wonWhite: 50,
    comment: "初手の定跡\n角道を開けるか飛車先を突くか",
    // A bad move listed before a better one, as its author left it.
    moves: [
      { usi: "7g7f", mark: Good, weight: 70, next: 1 },
      { usi: "5g5f", mark: Bad, weight: 5, next: 3 },
      { usi: "2g2f", mark: None, weight: 45, next: 2 },
      { usi: "1g1f", mark: Blunder, weight: 0, next: -1 },
    ],
    evals: [
      { value: 25, depth: 27, variation: "▲７六歩(77) △３四歩(33) ▲２六歩(27)", engine: "水匠5" },
      { value: -43, depth: 25, variation: "▲５六歩(57) △３四歩(33)", engine: "水匠5" },
      { value: 18, depth: 27, variation: "▲２六歩(27) △８四歩(83)", engine: "水匠5" },
    ],
  },
  {
    id: 1,
    line: ["7g7f"],
    games: 70,
    wonBlack: 40,
    wonWhite: 28,
    moves: [
      { usi: "3c3d", mark: Forced, weight: 60, next: 4 },
      { usi: "6a7b", mark: None, weight: 3, next: -1 },
      { usi: "8c8d", mark: None, weight: 7, next: -1 },
    ],
    evals: [
      { value: 5, depth: 27, variation: "△７二金(61) ▲２六歩(27)", engine: "水匠5" },
      { value: -20, depth: 26, variation: "△３四歩(33) ▲２六歩(27)" },
    ],
  },
  { id: 2, line: ["2g2f"], games: 45, wonBlack: 20, wonWhite: 22, moves: [], evals: [] },
  {
    id: 3,
    line: ["5g5f"],
    games: 5,
    wonBlack: 1,
    wonWhite: 4,
    comment: "中飛車模様",
    moves: [{ usi: "3c3d", mark: None, weight: 2, next: -1 }],
    evals: [],
  },
  {
    id: 4,
    line: ["7g7f", "3c3d"],
    games: 60,
    wonBlack: 33,
    wonWhite: 25,
    moves: [
      { usi: "8h2b+", mark: Good, weight: 1, next: -1 },
      { usi: "2g2f", mark: None, weight: 40, next: -1 },
    ],
    evals: [{ value: 30, depth: 20, variation: "▲２二角成(88) △同　銀(31)", engine: "水匠5" }],
  },
];

export const SHOGIGUI_AUTHOR = "将棋太郎";
export const SHOGIGUI_DESCRIPTION = "居飛車の定跡 (ShogiGUI)";

/** The book's bytes, states in id order. */
export function shogiguiBook(): Uint8Array {
  const states = SHOGIGUI_STATES.map((s) => {
    const pos = Position.startpos();
    for (const u of s.line) pos.doMove(parseUsiMove(u)!);
    return create(SBookStateSchema, {
      Id: s.id,
      BoardKey: BigInt(0x1234_5678_9abc + s.id * 7919),
      HandKey: s.line.length % 2,
      Games: s.games,
      WonBlack: s.wonBlack,
      WonWhite: s.wonWhite,
      ...(s.comment !== undefined ? { Comment: s.comment } : {}),
      Moves: s.moves.map((m) =>
        create(SBookMoveSchema, {
          Move: encodeSbkMove(pos, parseUsiMove(m.usi)!),
          Evaluation: m.mark,
          Weight: m.weight,
          NextStateId: m.next,
        }),
      ),
      Evals: s.evals.map((e) =>
        create(SBookEvalSchema, {
          EvaluationValue: e.value,
          Depth: e.depth,
          SelDepth: e.depth + 10,
          Nodes: 123_456_789n,
          Variation: e.variation,
          ...(e.engine !== undefined ? { EngineName: e.engine } : {}),
        }),
      ),
    });
  });
  return toBinary(SBookSchema, create(SBookSchema, { Author: SHOGIGUI_AUTHOR, Description: SHOGIGUI_DESCRIPTION, BookStates: states }));
}
