// Match statistics a tester can trust: W/D/L and score, an Elo estimate with a 95%
// interval from game pairs (pentanomial: the two games of one opening with colours
// swapped are one sample, which removes most of the opening's own bias from the
// variance), the trinomial interval for games without a partner, and a sequential
// probability ratio test (the generalized SPRT of the normal approximation, as used by
// chess engine testing frameworks) on the same pair scores.
//
// A deterministic engine at a fixed limit replays the same game from the same opening, so
// a match can hold many copies of few games. Copies add no information: the interval and
// the SPRT use each distinct game pair once (a pair is its two games' move sequences), and
// no interval is given when the distinct pairs cannot support one (too few, or all alike).

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
  /** The 95% interval of the Elo difference; +-Infinity when a bound reaches 0 or 1. Null: no interval (see `why`). */
  low: number | null;
  high: number | null;
  /** Samples the estimate rests on (pairs for the pentanomial, games for the trinomial). */
  samples: number;
  /** Why there is no interval (too few samples, or every sample scored the same); null when there is one. */
  why: string | null;
}

/** Fewer samples than this give no interval: the normal approximation means nothing on a handful. */
export const MIN_INTERVAL_SAMPLES = 10;

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

function estimate(values: readonly number[], counts: readonly number[], unit: string): EloEstimate | undefined {
  const { n, mean, variance } = meanVariance(values, counts);
  if (n === 0) return undefined;
  const point = { score: mean, elo: eloOfScore(mean), samples: n };
  // A zero-width interval would claim certainty the games do not give.
  if (n < MIN_INTERVAL_SAMPLES)
    return { ...point, low: null, high: null, why: `too few distinct ${unit} (${n} < ${MIN_INTERVAL_SAMPLES})` };
  if (variance === 0) return { ...point, low: null, high: null, why: `all ${n} distinct ${unit} scored the same` };
  const half = Z95 * Math.sqrt(variance / n);
  return { ...point, low: eloOfScore(mean - half), high: eloOfScore(mean + half), why: null };
}

const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1];

/** Elo with a 95% interval from game pairs (each pair's mean score is one sample). */
export function pentanomialElo(p: Pentanomial): EloEstimate | undefined {
  return estimate(PAIR_SCORES, p, "pairs");
}

/** Elo with a 95% interval from single games (W/D/L), for when games are not paired. */
export function trinomialElo(r: Wdl): EloEstimate | undefined {
  return estimate([1, 0.5, 0], [r.wins, r.draws, r.losses], "games");
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
  /** What makes the game itself: its opening and every move. Games with the same key are copies; absent: counted as distinct. */
  key?: string;
}

export interface MatchTable {
  games: number;
  /** Games whose move sequence no earlier game had. */
  distinctGames: number;
  wdl: Wdl;
  /** Points of the first player, and its share of the points. */
  points: number;
  score: number;
  /** Every complete pair, copies included (what was played). */
  pentanomial: Pentanomial;
  /** Each distinct pair once: what the interval and the SPRT rest on. */
  distinctPentanomial: Pentanomial;
  pairs: number;
  distinctPairs: number;
  /** Games whose partner has not finished (counted in W/D/L, not in the pentanomial). */
  unpaired: number;
  /** From the distinct pairs (the distinct single games before the first pair is complete). */
  elo?: EloEstimate;
  sprt?: SprtState;
  /** Set when most games are copies of others: the figures describe few games. */
  warning: string | null;
  perOpening: { opening: number; games: number; points: number }[];
}

/** The table of a match from its finished games (any order, any subset). */
export function matchTable(games: readonly ScoredGame[], spec?: SprtSpec): MatchTable {
  const wdl: Wdl = { wins: 0, draws: 0, losses: 0 };
  const distinctWdl: Wdl = { wins: 0, draws: 0, losses: 0 };
  const pent: Pentanomial = [0, 0, 0, 0, 0];
  const distinctPent: Pentanomial = [0, 0, 0, 0, 0];
  const byIndex = new Map<number, ScoredGame>();
  const byOpening = new Map<number, { games: number; points: number }>();
  const gameKeys = new Set<string>();
  const pairKeys = new Set<string>();
  let distinctGames = 0;
  let points = 0;
  // In game order, so "the first of its copies" does not depend on the order rows were stored.
  for (const g of [...games].sort((a, b) => a.index - b.index)) {
    if (g.score === 1) wdl.wins++;
    else if (g.score === 0) wdl.losses++;
    else wdl.draws++;
    points += g.score;
    if (g.key === undefined || !gameKeys.has(g.key)) {
      if (g.key !== undefined) gameKeys.add(g.key);
      distinctGames++;
      if (g.score === 1) distinctWdl.wins++;
      else if (g.score === 0) distinctWdl.losses++;
      else distinctWdl.draws++;
    }
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
    else if ((g.index & 1) === 0) {
      const cell = Math.round((g.score + partner.score) * 2);
      pent[cell]!++;
      const key = g.key !== undefined && partner.key !== undefined ? `${g.key}\n${partner.key}` : undefined;
      if (key === undefined || !pairKeys.has(key)) {
        if (key !== undefined) pairKeys.add(key);
        distinctPent[cell]!++;
      }
    }
  }
  const pairs = pent.reduce((a, b) => a + b, 0);
  const distinctPairs = distinctPent.reduce((a, b) => a + b, 0);
  const n = games.length;
  return {
    games: n,
    distinctGames,
    wdl,
    points,
    score: n ? points / n : 0,
    pentanomial: pent,
    distinctPentanomial: distinctPent,
    pairs,
    distinctPairs,
    unpaired,
    // Distinct pairs when there are any; distinct single games only before the first pair is complete.
    elo: pairs > 0 ? pentanomialElo(distinctPent) : trinomialElo(distinctWdl),
    sprt: spec ? sprt(distinctPent, spec) : undefined,
    warning:
      n > 0 && distinctGames * 2 < n
        ? `most games repeat: only ${distinctGames} of ${n} games and ${distinctPairs} of ${pairs} pairs are distinct (vary the games: --jitter, more openings)`
        : null,
    perOpening: [...byOpening.entries()].sort((a, b) => a[0] - b[0]).map(([opening, o]) => ({ opening, ...o })),
  };
}

/** "+12.3 [-5.1, +29.8]" for an estimate (Elo rounded to 0.1; "inf" for unbounded ends); "+12.3 (no interval: why)" without one. */
export function formatElo(e: EloEstimate | undefined): string {
  if (!e) return "-";
  const f = (x: number) =>
    x === Number.POSITIVE_INFINITY ? "+inf" : x === Number.NEGATIVE_INFINITY ? "-inf" : `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
  if (e.low === null || e.high === null) return `${f(e.elo)} (no interval: ${e.why ?? "none"})`;
  return `${f(e.elo)} [${f(e.low)}, ${f(e.high)}]`;
}
