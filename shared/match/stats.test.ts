import { describe, expect, it } from "vitest";
import { eloOfScore, formatElo, matchTable, pentanomialElo, scoreOfElo, sprt, sprtBounds, trinomialElo } from "./stats.js";

// Expected figures were computed independently (Python, the textbook formulas).
describe("match statistics", () => {
  it("Elo of a score and back", () => {
    expect(eloOfScore(0.75)).toBeCloseTo(190.8485, 3); // 400 log10(3)
    expect(eloOfScore(0.5)).toBe(0);
    expect(scoreOfElo(eloOfScore(0.3))).toBeCloseTo(0.3, 12);
    expect(eloOfScore(1)).toBe(Number.POSITIVE_INFINITY);
  });

  it("pentanomial interval of a symmetric distribution", () => {
    const e = pentanomialElo([1, 4, 10, 4, 1])!;
    expect(e.score).toBe(0.5);
    expect(e.elo).toBe(0);
    expect(e.low).toBeCloseTo(-68.98875, 4);
    expect(e.high).toBeCloseTo(68.98875, 4);
    expect(e.samples).toBe(20);
  });

  it("pentanomial interval of a skewed distribution", () => {
    const e = pentanomialElo([3, 10, 40, 30, 17])!;
    expect(e.score).toBeCloseTo(0.62, 12);
    expect(e.elo).toBeCloseTo(85.04324, 4);
    expect(e.low).toBeCloseTo(50.20454, 4);
    expect(e.high).toBeCloseTo(121.65009, 4);
  });

  it("trinomial interval", () => {
    const e = trinomialElo({ wins: 60, draws: 20, losses: 20 })!;
    expect(e.elo).toBeCloseTo(147.19071, 4);
    expect(e.low).toBeCloseTo(86.22502, 4);
    expect(e.high).toBeCloseTo(218.25178, 4);
  });

  it("SPRT bounds and log-likelihood ratio", () => {
    const b = sprtBounds({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
    expect(b.upper).toBeCloseTo(2.944439, 5);
    expect(b.lower).toBeCloseTo(-2.944439, 5);
    const s = sprt([3, 10, 40, 30, 17], { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
    expect(s.llr).toBeCloseTo(2.67816, 4);
    expect(s.verdict).toBe("continue");
    expect(sprt([0, 0, 50, 20, 30], { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }).verdict).toBe("H1");
    expect(sprt([30, 20, 50, 0, 0], { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }).verdict).toBe("H0");
  });

  it("a table pairs games 2k and 2k+1 and counts unpaired games apart", () => {
    const t = matchTable([
      { index: 0, score: 1, opening: 0 },
      { index: 1, score: 0.5, opening: 0 }, // pair 0: 1.5 points
      { index: 2, score: 0, opening: 1 },
      { index: 3, score: 0, opening: 1 }, // pair 1: 0 points
      { index: 5, score: 1, opening: 2 }, // partner 4 not finished
    ]);
    expect(t.wdl).toEqual({ wins: 2, draws: 1, losses: 2 });
    expect(t.pentanomial).toEqual([1, 0, 0, 1, 0]);
    expect(t.unpaired).toBe(1);
    expect(t.points).toBe(2.5);
    expect(t.elo!.samples).toBe(2);
    expect(t.perOpening).toEqual([
      { opening: 0, games: 2, points: 1.5 },
      { opening: 1, games: 2, points: 0 },
      { opening: 2, games: 1, points: 1 },
    ]);
    expect(formatElo(pentanomialElo([0, 0, 0, 0, 2]))).toBe("+inf (no interval: too few distinct pairs (2 < 10))");
  });

  it("never gives a zero-width interval: too few pairs, or every pair alike", () => {
    for (const p of [
      [0, 0, 2, 0, 0],
      [0, 0, 0, 0, 9],
      [0, 0, 50, 0, 0],
      [0, 0, 0, 0, 40],
    ] as const) {
      const e = pentanomialElo([...p])!;
      expect(e.low, String(p)).toBeNull();
      expect(e.high).toBeNull();
      expect(formatElo(e)).toMatch(/no interval: (too few distinct pairs|all \d+ distinct pairs scored the same)/);
    }
    expect(pentanomialElo([0, 0, 50, 0, 0])!.why).toBe("all 50 distinct pairs scored the same");
    expect(pentanomialElo([0, 0, 9, 0, 0])!.why).toBe("too few distinct pairs (9 < 10)");
    // Ten pairs of which one differs: an interval, and not of zero width.
    const e = pentanomialElo([0, 0, 9, 1, 0])!;
    expect(e.low).not.toBeNull();
    expect(e.high! - e.low!).toBeGreaterThan(0);
  });

  it("counts distinct games and pairs, and the interval rests on the distinct pairs only", () => {
    // 40 games from one opening: pair A (win, draw) played 15 times, pair B (loss, loss) 4
    // times, and one pair C (win, win): 3 distinct pairs of 20, 6 distinct games of 40.
    const games = [];
    const pairs = [...Array(15).fill(["a1", 1, "a2", 0.5]), ...Array(4).fill(["b1", 0, "b2", 0]), ["c1", 1, "c2", 1]] as [
      string,
      number,
      string,
      number,
    ][];
    for (const [i, [k0, s0, k1, s1]] of pairs.entries()) {
      games.push({ index: 2 * i, score: s0, opening: 0, key: k0 });
      games.push({ index: 2 * i + 1, score: s1, opening: 0, key: k1 });
    }
    const t = matchTable(games);
    expect(t.games).toBe(40);
    expect(t.distinctGames).toBe(6);
    expect(t.pairs).toBe(20);
    expect(t.distinctPairs).toBe(3);
    expect(t.pentanomial).toEqual([4, 0, 0, 15, 1]);
    expect(t.distinctPentanomial).toEqual([1, 0, 0, 1, 1]);
    // The estimate is from the 3 distinct pairs: too few for an interval.
    expect(t.elo!.samples).toBe(3);
    expect(t.elo!.score).toBeCloseTo((0 + 0.75 + 1) / 3, 12);
    expect(t.elo!.low).toBeNull();
    expect(t.warning).toMatch(/most games repeat: only 6 of 40 games and 3 of 20 pairs are distinct/);
    // The same games all different: 20 distinct pairs, an interval, no warning.
    const all = matchTable(games.map((g) => ({ ...g, key: `${g.key}-${g.index}` })));
    expect(all.distinctGames).toBe(40);
    expect(all.distinctPairs).toBe(20);
    expect(all.distinctPentanomial).toEqual(all.pentanomial);
    expect(all.elo!.samples).toBe(20);
    expect(all.elo!.low).toBeCloseTo(pentanomialElo([4, 0, 0, 15, 1])!.low!, 12);
    expect(all.warning).toBeNull();
    // Games without a key (rows of older horu) count as distinct.
    expect(matchTable(games.map((g) => ({ ...g, key: undefined }))).distinctGames).toBe(40);
    // A pair whose games are copies of other games, but in a new combination, is a new pair.
    const mixed = matchTable([
      { index: 0, score: 1, opening: 0, key: "x" },
      { index: 1, score: 0, opening: 0, key: "y" },
      { index: 2, score: 1, opening: 0, key: "x" },
      { index: 3, score: 1, opening: 0, key: "z" },
    ]);
    expect(mixed.distinctGames).toBe(3);
    expect(mixed.distinctPairs).toBe(2);
  });
});
