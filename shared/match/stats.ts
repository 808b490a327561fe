// Match statistics a tester can trust: W/D/L and score, an Elo estimate with a 95%
// interval from game pairs (pentanomial: the two games of one opening with colours
// swapped are one sample, which removes most of the opening's own bias from the
// variance), the trinomial interval for games without a partner, and a sequential
// probability ratio test (the generalized SPRT of the normal approximation, as used by
// chess engine testing frameworks) on the same pair scores.

/** Results from the first player's view. */
export interface Wdl {
  wins: number;
  draws: number;
  losses: number;
}

/** Counts of game pairs by the first player's pair score: 0, 0.5, 1, 1.5, 2 points. */
export type Pentanomial = [number, number, number, number, number];

export interface EloEstimate {
  /** Mean score per game in [0, 1]. */
  score: number;
  elo: number;
  /** The 95% interval of the Elo difference; +-Infinity when a bound reaches 0 or 1. */
  low: number;
  high: number;
  /** Samples the estimate rests on (pairs for the pentanomial, games for the trinomial). */
  samples: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** The logistic Elo difference of a mean score (+-Infinity at 1 and 0). */
export function eloOfScore(score: number): number {
  if (score <= 0) return Number.NEGATIVE_INFINITY;
  if (score >= 1) return Number.POSITIVE_INFINITY;
  return -400 * Math.log10(1 / score - 1) + 0; // + 0: no "-0"
}

/** The mean score of a logistic Elo difference. */
export function scoreOfElo(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/** Mean and variance of one sample drawn from a distribution over `values` with counts `counts`. */
function meanVariance(values: readonly number[], counts: readonly number[]): { n: number; mean: number; variance: number } {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    n += counts[i]!;
    sum += counts[i]! * values[i]!;
  }
  if (n === 0) return { n: 0, mean: 0.5, variance: 0 };
  const mean = sum / n;
  let v = 0;
  for (let i = 0; i < values.length; i++) v += counts[i]! * (values[i]! - mean) ** 2;
  return { n, mean, variance: v / n };
}

function estimate(values: readonly number[], counts: readonly number[]): EloEstimate | undefined {
  const { n, mean, variance } = meanVariance(values, counts);
  if (n === 0) return undefined;
  const half = Z95 * Math.sqrt(variance / n);
  return { score: mean, elo: eloOfScore(mean), low: eloOfScore(mean - half), high: eloOfScore(mean + half), samples: n };
}

const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1];

/** Elo with a 95% interval from game pairs (each pair's mean score is one sample). */
export function pentanomialElo(p: Pentanomial): EloEstimate | undefined {
  return estimate(PAIR_SCORES, p);
}

/** Elo with a 95% interval from single games (W/D/L), for when games are not paired. */
export function trinomialElo(r: Wdl): EloEstimate | undefined {
  return estimate([1, 0.5, 0], [r.wins, r.draws, r.losses]);
}

export interface SprtSpec {
  /** H0: the Elo difference is elo0; H1: it is elo1 (logistic Elo). */
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

export interface SprtState {
  llr: number;
  /** Accept H0 at or below this, H1 at or above upper. */
  lower: number;
  upper: number;
  verdict: "H0" | "H1" | "continue";
}

/** The stopping bounds of an SPRT: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
export function sprtBounds(spec: SprtSpec): { lower: number; upper: number } {
  return { lower: Math.log(spec.beta / (1 - spec.alpha)), upper: Math.log((1 - spec.beta) / spec.alpha) };
}

/**
 * The log-likelihood ratio of H1 against H0 from pair scores, in the normal approximation
 * (generalized SPRT): N (s1 - s0) (2 mean - s0 - s1) / (2 variance), with s0, s1 the
 * mean scores of elo0 and elo1 and mean, variance those of one pair's score.
 */
export function sprt(p: Pentanomial, spec: SprtSpec): SprtState {
  const { lower, upper } = sprtBounds(spec);
  const { n, mean, variance } = meanVariance(PAIR_SCORES, p);
  let llr = 0;
  if (n > 0 && variance > 0) {
    const s0 = scoreOfElo(spec.elo0);
    const s1 = scoreOfElo(spec.elo1);
    llr = (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
  }
  return { llr, lower, upper, verdict: llr >= upper ? "H1" : llr <= lower ? "H0" : "continue" };
}

/** One finished game as the statistics need it. */
export interface ScoredGame {
  /** Games 2k and 2k+1 share an opening with colours swapped. */
  index: number;
  /** The first player's points: 1, 0.5 or 0. */
  score: number;
  opening: number;
}

export interface MatchTable {
  games: number;
  wdl: Wdl;
  /** Points of the first player, and its share of the points. */
  points: number;
  score: number;
  pentanomial: Pentanomial;
  /** Games whose partner has not finished (counted in W/D/L, not in the pentanomial). */
  unpaired: number;
  elo?: EloEstimate;
  sprt?: SprtState;
  perOpening: { opening: number; games: number; points: number }[];
}

/** The table of a match from its finished games (any order, any subset). */
export function matchTable(games: readonly ScoredGame[], spec?: SprtSpec): MatchTable {
  const wdl: Wdl = { wins: 0, draws: 0, losses: 0 };
  const pent: Pentanomial = [0, 0, 0, 0, 0];
  const byIndex = new Map<number, ScoredGame>();
  const byOpening = new Map<number, { games: number; points: number }>();
  let points = 0;
  for (const g of games) {
    if (g.score === 1) wdl.wins++;
    else if (g.score === 0) wdl.losses++;
    else wdl.draws++;
    points += g.score;
    byIndex.set(g.index, g);
    const o = byOpening.get(g.opening) ?? { games: 0, points: 0 };
    o.games++;
    o.points += g.score;
    byOpening.set(g.opening, o);
  }
  let unpaired = 0;
  for (const g of byIndex.values()) {
    const partner = byIndex.get(g.index ^ 1);
    if (!partner) unpaired++;
    else if ((g.index & 1) === 0) pent[Math.round((g.score + partner.score) * 2)]!++;
  }
  const pairs = pent.reduce((a, b) => a + b, 0);
  const n = games.length;
  return {
    games: n,
    wdl,
    points,
    score: n ? points / n : 0,
    pentanomial: pent,
    unpaired,
    // Pairs when there are any; single games only before the first pair is complete.
    elo: pairs > 0 ? pentanomialElo(pent) : trinomialElo(wdl),
    sprt: spec ? sprt(pent, spec) : undefined,
    perOpening: [...byOpening.entries()].sort((a, b) => a[0] - b[0]).map(([opening, o]) => ({ opening, ...o })),
  };
}

/** "+12.3 [-5.1, +29.8]" for an estimate (Elo rounded to 0.1; "inf" for unbounded ends). */
export function formatElo(e: EloEstimate | undefined): string {
  if (!e) return "-";
  const f = (x: number) =>
    x === Number.POSITIVE_INFINITY ? "+inf" : x === Number.NEGATIVE_INFINITY ? "-inf" : `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
  return `${f(e.elo)} [${f(e.low)}, ${f(e.high)}]`;
}
