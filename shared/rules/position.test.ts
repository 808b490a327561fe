import { describe, expect, test } from "vitest";
import { Position, SfenError } from "./position.js";
import { moveToUsi, parseUsiMove } from "./usi.js";
import { samplePositions } from "../testing/random-play.js";

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

describe("SFEN", () => {
  test("start position forms", () => {
    expect(Position.startpos().toSfen()).toBe(START);
    expect(Position.fromSfen("startpos").toSfen()).toBe(START);
    expect(Position.fromSfen("sfen " + START).toSfen()).toBe(START);
    expect(Position.fromSfen(START.replace(/ 1$/, "")).toSfen(false)).toBe(START.replace(/ 1$/, ""));
    expect(Position.startpos().sfenKey()).toBe(START.replace(/ 1$/, ""));
  });

  test.each([
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L18P 1",
    "8k/9/9/9/9/9/9/9/K8 w 8P2r2b4g4s4n4l10p 57",
    "+R+B+S+N+L+P3/9/9/9/4k4/9/9/9/4K4 b - 200",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2",
  ])("round trip %s", (sfen) => {
    const pos = Position.fromSfen(sfen);
    expect(pos.toSfen()).toBe(sfen);
    expect(Position.fromSfen(pos.toSfen()).keyHi).toBe(pos.keyHi);
  });

  test("hands are normalized to RBGSNLP, black first, counts as prefixes", () => {
    const pos = Position.fromSfen("8k/9/9/9/9/9/9/9/K8 b pP2pRsG 1");
    expect(pos.sfenKey()).toBe("8k/9/9/9/9/9/9/9/K8 b RGPs3p");
    expect(pos.hands[0 * 8 + 1]).toBe(1);
    expect(pos.hands[1 * 8 + 1]).toBe(3);
  });

  test("default ply is 1, toSfen(false) drops it", () => {
    const pos = Position.fromSfen("8k/9/9/9/9/9/9/9/K8 b -");
    expect(pos.ply).toBe(1);
    expect(pos.toSfen(false)).toBe("8k/9/9/9/9/9/9/9/K8 b -");
  });

  test.each([
    ["8k/9/9/9/9/9/9/9/K8 b 19P 1", /too many pawns for black: 19/],
    ["8k/9/9/9/9/9/9/9/K8 b 10P9p 1", /too many pawns: 19/],
    ["4k4/9/9/9/9/9/9/9/K3K4 b - 1", /two black kings/],
    ["8k/9/9/9/9/9/9/9/K8 x - 1", /side to move/],
    ["8k/9/9/9/9/9/9/K8 b - 1", /9 ranks/],
    ["8k/9/9/9/9/9/9/9/K9 b - 1", /more than 9 squares/],
    ["8k/9/9/9/9/9/9/9/K7 b - 1", /8 squares, not 9/],
    ["8k/9/9/9/9/9/9/9/K7X b - 1", /unknown piece letter 'X'/],
    ["4P3k/9/9/9/9/9/9/9/K8 b - 1", /black pawn on 5a has no move/],
    ["8k/9/9/9/9/9/9/9/K3n4 b - 1", /white knight on 5i has no move/],
    ["8k/9/9/4P4/4P4/9/9/9/K8 b - 1", /two black pawns on file 5/],
    ["8k/9/9/9/9/9/9/9/K8 b - 0", /move number/],
    ["8k/9/9/9/9/9/9/9/K+G7 b - 1", /cannot be promoted/],
    ["8k/9/9/9/9/9/9/9/K8 b 0P 1", /zero count/],
    ["8k/9/9/9/9/9/9/9/K8 b 3 1", /count without a piece/],
    ["8k/8R/9/9/9/9/9/9/K8 b - 1", /white king on 1a is in check with black to move/],
    ["", /SFEN needs/],
    ["startpos moves 7g7f", /fromUsi/],
  ])("bad SFEN %j", (sfen, message) => {
    expect(() => Position.fromSfen(sfen)).toThrow(SfenError);
    expect(() => Position.fromSfen(sfen)).toThrow(message);
  });
});

describe("fromUsi", () => {
  test("forms and ply", () => {
    const a = Position.fromUsi("startpos moves 7g7f 3c3d 8h2b+");
    const b = Position.fromUsi("position startpos moves 7g7f 3c3d 8h2b+");
    const c = Position.fromUsi(`sfen ${START} moves 7g7f 3c3d 8h2b+`);
    expect(a.toSfen()).toBe("lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
    expect(b.toSfen()).toBe(a.toSfen());
    expect(c.toSfen()).toBe(a.toSfen());
    expect(Position.fromUsi("startpos").toSfen()).toBe(START);
  });
  test("illegal move names the index and text", () => {
    expect(() => Position.fromUsi("startpos moves 7g7f 7g7f")).toThrow(/move 2 "7g7f"/);
    expect(() => Position.fromUsi("startpos moves 7g7f resign")).toThrow(/move 2 "resign"/);
  });
});

describe("keys", () => {
  test("transposed move orders give equal keys, different positions differ", () => {
    const a = Position.fromUsi("startpos moves 7g7f 3c3d 2g2f 8c8d");
    const b = Position.fromUsi("startpos moves 2g2f 8c8d 7g7f 3c3d");
    const c = Position.fromUsi("startpos moves 2g2f 3c3d 7g7f 8c8d");
    expect([a.keyHi, a.keyLo]).toEqual([b.keyHi, b.keyLo]);
    expect([a.keyHi, a.keyLo]).toEqual([c.keyHi, c.keyLo]);
    expect(a.sfenKey()).toBe(b.sfenKey());
    const d = Position.fromUsi("startpos moves 2g2f 3c3d 7g7f");
    expect([a.keyHi, a.keyLo]).not.toEqual([d.keyHi, d.keyLo]);
    // Same board, other side to move.
    const e = Position.fromSfen(a.sfenKey().replace(" b ", " w "));
    expect([a.keyHi, a.keyLo]).not.toEqual([e.keyHi, e.keyLo]);
  });

  test("a drop and a capture back reach the same key as fromSfen", () => {
    const pos = Position.fromUsi("startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e");
    expect([pos.keyHi, pos.keyLo]).toEqual([Position.fromSfen(pos.toSfen()).keyHi, Position.fromSfen(pos.toSfen()).keyLo]);
  });

  test("keyAfter = key after doMove; undoMove restores everything", () => {
    const out = new Uint32Array(2);
    let checked = 0;
    for (const pos of samplePositions(60)) {
      const before = { sfen: pos.toSfen(), hi: pos.keyHi, lo: pos.keyLo, check: pos.inCheck(), ply: pos.ply };
      for (const m of pos.legalMoves()) {
        pos.keyAfter(m, out);
        const gives = pos.givesCheck(m);
        pos.doMove(m);
        expect([out[0], out[1]]).toEqual([pos.keyHi, pos.keyLo]);
        const fresh = Position.fromSfen(pos.toSfen());
        expect([fresh.keyHi, fresh.keyLo]).toEqual([pos.keyHi, pos.keyLo]);
        expect(pos.inCheck()).toBe(gives);
        expect(fresh.inCheck()).toBe(gives);
        pos.undoMove();
        checked++;
      }
      expect(pos.toSfen()).toBe(before.sfen);
      expect([pos.keyHi, pos.keyLo, pos.inCheck(), pos.ply]).toEqual([before.hi, before.lo, before.check, before.ply]);
    }
    expect(checked).toBeGreaterThan(3000);
  });
});

describe("isLegal agrees with generateLegal on every 15-bit move", () => {
  test("sample positions", () => {
    const positions = samplePositions(24, 7);
    positions.push(Position.fromSfen("8k/9/6NG1/9/9/9/9/9/4K4 b Pgs 1"));
    positions.push(Position.fromSfen("R6gk/9/7G1/9/9/9/9/9/4K4 b P 1"));
    positions.push(Position.fromSfen("4k4/9/9/9/4r4/9/9/9/4K4 b GSgs 1"));
    positions.push(Position.fromSfen("ln2k2n1/1P5P1/2N3N2/L7L/9/9/p7p/9/4K4 b Pp 1"));
    for (const pos of positions) {
      const legal = new Set(pos.legalMoves());
      expect(legal.size).toBe(pos.legalMoves().length); // no duplicates
      for (let m = 0; m < 32768; m++) {
        if (pos.isLegal(m) !== legal.has(m)) throw new Error(`${pos.toSfen()}: ${moveToUsi(m)} isLegal=${pos.isLegal(m)}`);
      }
    }
  });
  test("garbage input", () => {
    const pos = Position.startpos();
    expect(pos.isLegal(-1)).toBe(false);
    expect(pos.isLegal(1.5)).toBe(false);
    expect(pos.isLegal(40000)).toBe(false);
    expect(pos.isLegal(parseUsiMove("7g7f")!)).toBe(true);
    expect(pos.isLegal(parseUsiMove("7g7f+")!)).toBe(false);
  });
});

describe("drops", () => {
  test("pawn drop mate excluded, pawn drop check included, two pawns on a file excluded", () => {
    const mate = Position.fromSfen("8k/9/6NG1/9/9/9/9/9/4K4 b Pgs 1");
    expect(mate.legalMoves().map(moveToUsi)).not.toContain("P*1b");
    expect(mate.isLegal(parseUsiMove("P*1b")!)).toBe(false);
    const pinned = Position.fromSfen("R6gk/9/7G1/9/9/9/9/9/4K4 b P 1");
    expect(pinned.legalMoves().map(moveToUsi)).not.toContain("P*1b");
    const check = Position.fromSfen("8k/9/7G1/9/9/9/9/9/4K4 b Pgs 1");
    expect(check.legalMoves().map(moveToUsi)).toContain("P*1b");
    expect(check.givesCheck(parseUsiMove("P*1b")!)).toBe(true);
    const nifu = Position.fromSfen("8k/9/9/9/4P4/9/9/9/4K4 b P 1");
    const moves = nifu.legalMoves().map(moveToUsi);
    expect(moves.filter((m) => m.startsWith("P*5"))).toEqual([]);
    expect(moves).toContain("P*4e");
    expect(moves.filter((m) => m.startsWith("P*") && m.endsWith("a"))).toEqual([]);
  });
  test("mandatory promotion and optional non-promotions", () => {
    const pos = Position.fromSfen("4k4/9/1P5P1/9/9/9/9/9/4K4 b - 1");
    const moves = pos.legalMoves().map(moveToUsi);
    expect(moves).toContain("8c8b");
    expect(moves).toContain("8c8b+");
    const pos2 = Position.fromSfen("4k4/1P7/9/9/9/9/9/9/4K4 b - 1");
    const moves2 = pos2.legalMoves().map(moveToUsi);
    expect(moves2).toContain("8b8a+");
    expect(moves2).not.toContain("8b8a");
    const pos3 = Position.fromSfen("4k4/9/9/9/9/9/9/1B7/4K4 b - 1");
    expect(pos3.legalMoves().map(moveToUsi)).toEqual(expect.arrayContaining(["8h2b", "8h2b+", "8h3c", "8h3c+", "8h4d"]));
    expect(pos3.legalMoves().map(moveToUsi)).not.toContain("8h4d+");
  });
});

describe("repetition", () => {
  test("four-fold shuffle is a draw", () => {
    const shuffle = "5i4h 5a4b 4h5i 4b5a";
    const pos = Position.fromUsi(`sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves ${shuffle} ${shuffle}`);
    expect(pos.repetition()).toBe("none");
    expect(pos.repetitionCount()).toBe(3);
    for (const m of shuffle.split(" ")) pos.doMove(parseUsiMove(m)!);
    expect(pos.repetitionCount()).toBe(4);
    expect(pos.repetition()).toBe("draw");
    pos.undoMove();
    expect(pos.repetition()).toBe("none");
  });

  // White king 1a, black rook chasing it with a check on every move: 3e1e, then
  // the cycle 1a2a 1e2e 2a1a 2e1e brings back the position after 3e1e.
  const CHASE = "sfen 8k/9/9/9/6R2/9/9/9/4K4 b - 1 moves 3e1e";
  const CYCLE = " 1a2a 1e2e 2a1a 2e1e";
  test("perpetual check: the checked side to move wins", () => {
    const pos = Position.fromUsi(CHASE + CYCLE + CYCLE);
    expect(pos.repetition()).toBe("none");
    pos.doMove(parseUsiMove("1a2a")!);
    pos.doMove(parseUsiMove("1e2e")!);
    pos.doMove(parseUsiMove("2a1a")!);
    pos.doMove(parseUsiMove("2e1e")!);
    expect(pos.side).toBe(1);
    expect(pos.inCheck()).toBe(true);
    expect(pos.repetitionCount()).toBe(4);
    expect(pos.repetition()).toBe("win");
  });
  test("perpetual check: the checking side to move loses", () => {
    const pos = Position.fromUsi(CHASE + CYCLE + CYCLE + CYCLE + " 1a2a 1e2e 2a1a");
    expect(pos.side).toBe(0);
    expect(pos.repetitionCount()).toBe(4);
    expect(pos.repetition()).toBe("lose");
  });
  test("a shuffle that checks only sometimes is a plain draw", () => {
    // Same chase, but once the rook waits on 1d and comes back quietly while the king walks to 3a.
    const pos = Position.fromUsi(CHASE + CYCLE + CYCLE + CYCLE);
    expect(pos.repetition()).toBe("win");
    const quiet = Position.fromUsi(CHASE + " 1a2a 1e1d 2a3a 1d1e 3a2a 1e2e 2a1a 2e1e" + CYCLE + CYCLE);
    expect(quiet.repetitionCount()).toBe(4);
    expect(quiet.repetition()).toBe("draw");
  });
});
