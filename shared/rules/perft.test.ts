import { describe, expect, test } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { Position, perft, perftDivide } from "./position.js";
import { STEP } from "./tables.js";
import { BLACK, PAWN, makeDrop } from "./types.js";
import { missing } from "../../electron/testing/missing.js";

describe("perft from the start position", () => {
  const start = Position.startpos();
  test.each([
    [1, 30],
    [2, 900],
    [3, 25470],
    [4, 719731],
  ])("depth %i = %i", (depth, expected) => {
    expect(perft(start, depth)).toBe(expected);
  });
  test("divide sums to the total", () => {
    const parts = perftDivide(start, 2);
    expect(parts.length).toBe(30);
    expect(parts.reduce((s, p) => s + p.count, 0)).toBe(900);
    expect(parts.find((p) => p.move === "7g7f")?.count).toBe(30);
  });
});

/**
 * Counts leaf moves that are pawn-drop mates (the generator excludes them). Fairy-stockfish's
 * perft lists such drops (it rejects them at search time instead), so its count is ours plus this.
 * Found the slow way: make every otherwise-legal pawn drop in front of the enemy king and
 * look for a reply.
 */
function pawnDropMatesAtLeaves(pos: Position, depth: number): number {
  if (depth === 0) return 0;
  if (depth === 1) {
    const them = pos.side ^ 1;
    const ksq = pos.kingSquare(them as 0 | 1);
    if (ksq < 0 || pos.hands[pos.side * 8 + PAWN] === 0) return 0;
    const sq = STEP[ksq * 8 + (pos.side === BLACK ? 4 : 0)];
    if (sq < 0 || pos.board[sq] !== 0) return 0;
    const file = Math.floor(sq / 9) * 9;
    for (let s = file; s < file + 9; s++) if (pos.board[s] === ((pos.side << 4) | PAWN)) return 0;
    const m = makeDrop(PAWN, sq);
    const child = pos.clone();
    child.doMove(m);
    // Own king left in check would make it illegal for another reason.
    if (Position.fromParts(child.board, child.hands, pos.side).inCheck()) return 0;
    return child.legalMoves().length === 0 ? 1 : 0;
  }
  let total = 0;
  for (const m of pos.legalMoves()) {
    pos.doMove(m);
    total += pawnDropMatesAtLeaves(pos, depth - 1);
    pos.undoMove();
  }
  return total;
}

// Expected counts are fairy-stockfish's `go perft N` (11.1, UCI_Variant shogi), recorded as
// literals; `pdm` marks positions where its count includes leaf pawn-drop mates.
const CASES: Array<{ name: string; sfen: string; counts: number[]; pdm?: boolean }> = [
  {
    name: "drop-rich middle game (many pieces in hand, promoted pawn, pins)",
    sfen: "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    counts: [207, 28684, 4809015],
  },
  {
    name: "pawn drop 1b would be mate (knight covers 2a): excluded",
    sfen: "8k/9/6NG1/9/9/9/9/9/4K4 b Pgs 1",
    counts: [81, 11729, 234286],
    pdm: true,
  },
  {
    name: "pawn drop 1b checks but the king escapes to 2a: included",
    sfen: "8k/9/7G1/9/9/9/9/9/4K4 b Pgs 1",
    counts: [81, 12113, 230437],
  },
  {
    name: "pawn drop mate where the only capturer is pinned",
    sfen: "R6gk/9/7G1/9/9/9/9/9/4K4 b P 1",
    counts: [111, 162, 12120],
    pdm: true,
  },
  {
    name: "dead-piece rules: pawns, lances, knights near the last ranks",
    sfen: "ln2k2n1/1P5P1/2N3N2/L7L/9/9/p7p/9/4K4 b Pp 1",
    counts: [70, 4178, 161313],
  },
  {
    name: "check by a rook: evasions and interposing drops",
    sfen: "4k4/9/9/9/4r4/9/9/9/4K4 b GSgs 1",
    counts: [10, 1754, 185639],
  },
];

describe("perft against fairy-stockfish counts", () => {
  for (const c of CASES) {
    test(c.name, () => {
      const pos = Position.fromSfen(c.sfen);
      const twin = pos.flipped();
      const maxDepth = c.counts[2] > 1_000_000 ? 2 : 3; // keep the unit test fast
      for (let d = 1; d <= maxDepth; d++) {
        const correction = c.pdm ? pawnDropMatesAtLeaves(pos, d) : 0;
        expect(perft(pos, d) + correction, `depth ${d}`).toBe(c.counts[d - 1]);
        expect(perft(twin, d), `twin depth ${d}`).toBe(perft(pos, d));
      }
    });
  }
  test("pawn-drop-mate positions really contain a leaf pawn-drop mate", () => {
    expect(pawnDropMatesAtLeaves(Position.fromSfen(CASES[1].sfen), 1)).toBe(1);
    expect(pawnDropMatesAtLeaves(Position.fromSfen(CASES[3].sfen), 1)).toBe(1);
  });
});

const FAIRY = "/usr/games/fairy-stockfish";
describe.skipIf(missing(existsSync(FAIRY), "/usr/games/fairy-stockfish"))("perft against a live fairy-stockfish", () => {
  test("depth 2 of every case", () => {
    for (const c of CASES) {
      const out = execFileSync(FAIRY, [], {
        input: `usi\nsetoption name UCI_Variant value shogi\nposition sfen ${c.sfen}\ngo perft 2\nquit\n`,
        encoding: "utf8",
      });
      const m = /Nodes searched: (\d+)/.exec(out);
      expect(m).not.toBeNull();
      const pos = Position.fromSfen(c.sfen);
      expect(perft(pos, 2) + (c.pdm ? pawnDropMatesAtLeaves(pos, 2) : 0)).toBe(Number(m![1]));
    }
  });
});
