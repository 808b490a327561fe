import { describe, expect, it } from "vitest";
import {
  optionValueOk,
  addSample,
  bookMoveIndex,
  bookOrder,
  chartSeries,
  DURATION_STEPS,
  durationTick,
  countText,
  formatCount,
  lineRuns,
  flipBound,
  formatValue,
  scoreText,
  sideOf,
  viewValue,
  moveSquares,
  parseBoard,
  pickMove,
} from "./logic";
import { compact } from "./charts/Chart";
import { backoffMs } from "./host/web";

describe("renderer logic", () => {
  it("reads the start position: 40 pieces, white on top, empty hands", () => {
    const b = parseBoard("startpos")!;
    expect(b.squares.flat().filter(Boolean)).toHaveLength(40);
    expect(b.squares[0][0]).toEqual({ type: "L", black: false, promoted: false });
    expect(b.squares[8][4]).toEqual({ type: "K", black: true, promoted: false });
    expect(b.hands.black).toEqual([]);
  });

  it("reads hands with counts and promoted pieces", () => {
    const b = parseBoard("sfen 8k/9/9/9/9/9/9/9/+P7K w 2Pr 50")!;
    expect(b.hands.black).toEqual([["P", 2]]);
    expect(b.hands.white).toEqual([["R", 1]]);
    expect(b.squares[8][0]).toEqual({ type: "P", black: true, promoted: true });
    expect(b.side).toBe("white");
    expect(parseBoard("bad")).toBeNull();
  });

  it("maps gestures to moves, promotion first", () => {
    const legal = ["8h2b", "8h2b+", "P*5e"];
    expect(pickMove(legal, { file: 8, rank: 8 }, { file: 2, rank: 2 })).toBe("8h2b+");
    expect(pickMove(legal, { drop: "P" }, { file: 5, rank: 5 })).toBe("P*5e");
    expect(pickMove(legal, { file: 7, rank: 7 }, { file: 7, rank: 6 })).toBeNull();
    expect(moveSquares("P*5e")).toMatchObject({ from: null, drop: "P", to: { file: 5, rank: 5 } });
  });

  it("formats values and mates", () => {
    expect(formatValue(120)).toBe("+120");
    expect(formatValue(31990)).toBe("詰 10");
    expect(formatValue(-31995)).toBe("被詰 5");
    expect(formatValue(null)).toBe("–");
  });

  it("keeps a bounded sample history and backs off reconnects", () => {
    let s = addSample([], { t: 0, thought: 0, rootValue: 0, gap: false }, 100);
    for (let i = 1; i < 500; i++) s = addSample(s, { t: i * 1000, thought: i, rootValue: i, gap: i % 97 === 0 }, 100);
    expect(s.length).toBeLessThanOrEqual(100);
    expect(s[s.length - 1].thought).toBe(499);
    // Thinning never drops a gap, so a pause stays a break however old it is.
    expect(s.filter((x) => x.gap).map((x) => x.t)).toEqual([97, 194, 291, 388, 485].map((i) => i * 1000));
    // A point already in the history (loaded while it was on its way) is not added twice.
    expect(addSample(s, { t: 499_000, thought: 499, rootValue: 1, gap: false }, 100)).toBe(s);
    expect(backoffMs(0)).toBe(250);
    expect(backoffMs(20)).toBe(5000);
  });
});

describe("the charts' series", () => {
  it("break both lines at a gap, and a rate never reaches back across one", () => {
    const at = (t: number, thought: number, gap = false) => ({ t: t * 1000, thought, rootValue: gap ? null : thought * 10, gap });
    // Digging 0-3 s, paused (gap at 4 s), resumed at 60 s: 1 position a second each time.
    const { xs, values, rates } = chartSeries([at(0, 0), at(1, 1), at(2, 2), at(3, 3), at(4, 3, true), at(60, 3), at(61, 4), at(62, 5)]);
    // x is digging time: the 56 s paused count nothing, so the second run joins the first.
    expect(xs).toEqual([0, 1, 2, 3, 3.001, 3.002, 4.002, 5.002]);
    expect(values).toEqual([0, 10, 20, 30, null, 30, 40, 50]);
    expect(lineRuns(values)).toBe(2);
    expect(rates).toEqual([null, 3600, 3600, 3600, null, null, 3600, 3600]);
    expect(lineRuns(rates)).toBe(2);
    expect(lineRuns([null, 1, null, null, 2, 3])).toBe(2);
  });
});

describe("digging-time ticks", () => {
  it("are labelled down to the step's unit, so neighbouring ticks always differ", () => {
    expect([0, 15, 30, 45].map((s) => durationTick(s, 15))).toEqual(["0s", "15s", "30s", "45s"]);
    expect([60, 90, 120].map((s) => durationTick(s, 30))).toEqual(["1m00s", "1m30s", "2m00s"]);
    expect([3600, 3900].map((s) => durationTick(s, 300))).toEqual(["1h00m", "1h05m"]);
    expect([86400, 97200].map((s) => durationTick(s, 10800))).toEqual(["1d00h", "1d03h"]);
    expect([300, 3900].map((s) => durationTick(s, 300, "ja"))).toEqual(["5分", "1時間5分"]);
    expect(durationTick(90, 30, "ja")).toBe("1分30秒");
    // Every step of the axis, over spans from seconds to weeks: no two ticks read the same.
    for (const step of DURATION_STEPS) {
      const ticks = Array.from({ length: 8 }, (_, i) => durationTick(step * (i + 3), step));
      expect(new Set(ticks).size, `step ${step}: ${ticks.join(" ")}`).toBe(ticks.length);
    }
  });

  it("counts in one style per language", () => {
    expect(countText(1_000_000)).toBe("1,000,000");
    expect(countText(999)).toBe("999");
    expect(formatCount(41_500)).toBe("41.5k");
    expect(formatCount(41_500, "ja")).toBe("4.2万");
    expect(formatCount(123_000_000, "ja")).toBe("1.23億");
    expect(formatCount(950, "ja")).toBe("950");
  });
});

describe("one scale for every number", () => {
  it("shows values from Black's side or the side to move, bounds turning over with the sign", () => {
    expect(scoreText(120, "black", "black")).toBe("+120");
    expect(scoreText(120, "white", "black")).toBe("-120");
    expect(scoreText(120, "white", "mover")).toBe("+120");
    expect(scoreText(30, "white", "black", "LOWER")).toBe("≤ -30");
    expect(scoreText(30, "white", "mover", "LOWER")).toBe("≥ +30");
    expect(scoreText(-5, "black", "black", "UPPER")).toBe("≤ -5");
    expect(scoreText(0, "white", "black", "EXACT")).toBe("= 0");
    expect(scoreText(31990, "white", "black")).toBe("被詰 10");
    expect(scoreText(31990, "white", "mover", "EXACT")).toBe("= 詰 10");
    expect(scoreText(null, "black", "black")).toBe("–");
    expect(viewValue(7, "white", "black", "UPPER")).toEqual({ value: -7, bound: "LOWER" });
    expect(flipBound("LOWER")).toBe("UPPER");
    expect(sideOf("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2")).toBe("white");
    expect(sideOf("startpos")).toBe("black");
  });
});

describe("chart labels", () => {
  it("count labels are compact, by k and M in English and by 万 and 億 in Japanese", () => {
    expect([950, 12_000, 120_000, 1_500_000].map((v) => compact(v))).toEqual(["950", "12k", "120k", "1.5M"]);
    expect([950, 12_000, 120_000, 1_500_000, 150_000_000].map((v) => compact(v, "ja"))).toEqual(["950", "1.2万", "12万", "150万", "1.5億"]);
  });
});

describe("book order and the book move", () => {
  const v = (value: number | null, bound: "EXACT" | "LOWER" | "UPPER" | null, leaf = false, absent = false) => ({
    value,
    bound,
    leaf,
    absent,
  });
  it("orders by value, exact before a bound of the same number, banned last", () => {
    const moves = [v(10, null, true), v(null, null), v(50, "UPPER"), v(50, "EXACT"), v(99, null, true, true)];
    expect(bookOrder(moves)).toEqual([3, 2, 0, 1, 4]);
  });
  it("marks the best move only when the values prove it, or when the best line says so", () => {
    const usis = ["a", "b", "c"];
    expect(bookMoveIndex([v(10, "UPPER"), v(30, "EXACT"), v(5, null, true)], usis)).toBe(1);
    // A lower bound elsewhere could be higher: nothing is claimed.
    expect(bookMoveIndex([v(10, "LOWER"), v(30, "EXACT"), v(5, null, true)], usis)).toBeNull();
    // A thought move without a searched value: unknown.
    expect(bookMoveIndex([v(10, null), v(30, "EXACT"), v(5, null, true)], usis)).toBeNull();
    // The best line's next move decides.
    expect(bookMoveIndex([v(10, "LOWER"), v(30, "EXACT"), v(5, null, true)], usis, "a")).toBe(0);
    // Banned or in-flight moves are left out, as the selection leaves them out.
    expect(bookMoveIndex([v(90, null, true, true), { ...v(80, null, true), away: true }, v(5, null, true)], usis)).toBe(2);
  });
});

describe("an engine option's value", () => {
  it("is taken when a spin's value is a whole number within its range, a check's true or false (the shared rule)", () => {
    const hash = { name: "Hash", type: "spin", default: 16, min: 1, max: 131072 } as const;
    expect([undefined, 1, 131072, "64"].map((v) => optionValueOk(hash, v))).toEqual([true, true, true, true]);
    expect([0, -5, 999999, 1.5, "x"].map((v) => optionValueOk(hash, v))).toEqual([false, false, false, false, false]);
    expect(optionValueOk({ name: "Ponder", type: "check", default: false }, true)).toBe(true);
    expect(optionValueOk({ name: "Ponder", type: "check", default: false }, "yes")).toBe(false);
  });
});
