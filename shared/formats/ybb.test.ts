import { describe, expect, it } from "vitest";
import { move16ToUsi, packSfen, readYbb, unpackSfen, usiToMove16, writeYbb, YbbError } from "./ybb.js";
import { Position } from "../rules/position.js";
import { moveToUsi } from "../rules/usi.js";
import { rng } from "../util/rng.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("YaneuraOu packed positions", () => {
  // Bytes as YaneuraOu writes them (published with ShogiHome's tests, MIT).
  it("matches YaneuraOu's bytes", () => {
    expect(hex(packSfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"))).toBe(
      "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c",
    );
    expect(hex(packSfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1"))).toBe(
      "58a4518261fd4cc4cf724a84e395088f447825c2734a8463fd4dc4c7324a8401",
    );
    expect(hex(packSfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"))).toBe(
      "59a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c",
    );
    expect(hex(packSfen("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"))).toBe(
      "582400000000000000000000000000000000104208a59432c618e79cf3787c3e",
    );
  });

  it("round-trips positions along random games (promotions, hands, both sides)", () => {
    const r = rng(14);
    for (let game = 0; game < 10; game++) {
      const pos = Position.startpos();
      for (let ply = 0; ply < 120; ply++) {
        const key = pos.sfenKey();
        expect(unpackSfen(packSfen(key))).toBe(key);
        const moves = pos.legalMoves();
        if (moves.length === 0) break;
        pos.doMove(moves[Math.floor(r() * moves.length)]!);
      }
    }
  });

  it("move16 for moves, promotions and drops", () => {
    const pos = Position.fromSfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    for (const m of pos.legalMoves()) expect(move16ToUsi(usiToMove16(moveToUsi(m))!)).toBe(moveToUsi(m));
    expect(usiToMove16("7g7f")).toBe((6 * 9 + 5) | ((6 * 9 + 6) << 7));
    expect(move16ToUsi(usiToMove16("P*5e")!)).toBe("P*5e");
    expect(usiToMove16("8h2b+")! & 0x8000).toBe(0x8000);
    expect(move16ToUsi(0)).toBeUndefined();
  });
});

describe(".ybb files", () => {
  const blocks = [
    {
      sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
      ply: 1,
      moves: [
        { move: "7g7f", value: 30, depth: 20 },
        { move: "2g2f", value: 25, depth: 18 },
      ],
    },
    { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -", ply: 2, moves: [{ move: "3c3d", value: -30, depth: 19 }] },
    {
      sfen: "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
      ply: 3,
      moves: [{ move: "8h2b+", value: 31990, depth: 5 }],
    },
  ];
  it("write then read gives the same positions, moves, values, depths and plies", () => {
    const bytes = writeYbb(blocks);
    expect(bytes.length).toBe(32 + 3 * 44 + 4 * 6);
    const back = readYbb(bytes);
    expect(back.sort((a, b) => a.ply - b.ply)).toEqual(blocks);
    expect(writeYbb(back)).toEqual(bytes);
  });
  it("damaged files give a clear error", () => {
    const bytes = writeYbb(blocks);
    expect(() => readYbb(bytes.subarray(0, 20))).toThrow(YbbError);
    const bad = bytes.slice();
    bad[0] = 0x41;
    expect(() => readYbb(bad)).toThrow(/signature/);
    expect(() => readYbb(bytes.subarray(0, bytes.length - 3))).toThrow(/record \d+: its 1 moves .* run past the end/);
    const flagged = bytes.slice();
    flagged[24] = 3;
    expect(() => readYbb(flagged)).toThrow(/unknown flags/);
    const unsorted = bytes.slice();
    unsorted.copyWithin(32, 32 + 44, 32 + 88); // record 0 := record 1
    expect(() => readYbb(unsorted)).toThrow(/not in sorted order/);
  });
});
