// How good a book is (`horu book quality`): on the positions the book would play into, its
// move and value against an oracle (a far deeper search of the same position) and against
// its own engine at the dig's limit; how long an opponent playing its own engine moves stays
// in the book; how much the root moved lately. Pure logic: the runner
// (electron/book/quality.ts) brings the book, the engine searches and the stored results.
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { BLACK } from "../rules/types.js";

/** A move with its value from the side to move. */
export interface QMove {
  move: string;
  value: number;
  /** The search depth behind the value, where the book keeps one: the minimax breaks ties by it, as the export does. */
  depth?: number;
}

/** What the quality figures need of one thought position. */
export interface QPosition {
  /** The book's moves with their minimax values (the Peta-Shock export's), any order. */
  book: readonly QMove[];
  /** The engine's own candidates at the dig's limit, best first (what the think stored). */
  raw: readonly QMove[];
  /** The moves came from an imported file, not an engine's think: a settled book plays the minimax there, as the file's own export did. */
  imported?: boolean;
}

/** A book as the figures read it: positions by their SFEN key (no move number). */
export interface QBook {
  rootSfen: string;
  lookup(sfenKey: string): QPosition | undefined;
}

/** The best of a list (the first of equal values), or undefined when empty. */
export function bestOf<M extends QMove>(moves: readonly M[]): M | undefined {
  let best: M | undefined;
  for (const m of moves) if (best === undefined || m.value > best.value) best = m;
  return best;
}

/**
 * How the book picks its move in a position. "minimax": its best by the book's minimax (what
 * the export and a match player play). "robust": the engine's own best there (its think at the
 * dig's limit) unless another move's minimax value beats that move's by more than `marginCp`:
 * a minimax over noisy values favours lines whose leaves were over-valued (the winner's curse),
 * so a small lead is not trusted.
 */
export type MoveChoice = { kind: "minimax" } | { kind: "robust"; marginCp: number };

export const MINIMAX: MoveChoice = { kind: "minimax" };

/** The book's move and value in a position under a choice rule (undefined when the book has no move). */
export function bookChoice(p: QPosition, choice: MoveChoice = MINIMAX): QMove | undefined {
  const best = bestOf(p.book);
  if (choice.kind === "minimax" || best === undefined || p.imported) return best;
  const own = p.raw[0];
  if (own === undefined) return best;
  const ownValue = p.book.find((m) => m.move === own.move)?.value ?? own.value;
  return best.value - ownValue > choice.marginCp ? best : { move: own.move, value: ownValue };
}

/** The book's line from `root`: its move by `choice` while it has the position, until a position repeats. */
export function bookLine(root: Position, lookup: (sfenKey: string) => QPosition | undefined, choice: MoveChoice): string[] {
  const pos = root.clone();
  const seen = new Set<string>();
  const line: string[] = [];
  for (let p = lookup(pos.sfenKey()); p && !seen.has(pos.sfenKey()); p = lookup(pos.sfenKey())) {
    seen.add(pos.sfenKey());
    const best = bookChoice(p, choice);
    const m = best && parseUsiMove(best.move);
    if (!m || !pos.isLegal(m)) break;
    pos.doMove(m);
    line.push(moveToUsi(m));
  }
  return line;
}

/**
 * A position's book moves as a book file lists them for `choice`: the chosen move first,
 * carrying the position's best value, then the others best first, so a player or an engine
 * that plays a book's best move plays the chosen one. `own`: the engine's own best there (its
 * stored think's first candidate). Empty when there are no moves.
 */
export function chosenFirst<M extends QMove>(moves: readonly M[], own: string | undefined, choice: MoveChoice): M[] {
  const best = bestOf(moves);
  if (best === undefined) return [];
  const chosen = bookChoice({ book: moves, raw: own === undefined ? [] : [{ move: own, value: 0 }] }, choice);
  const first = moves.find((m) => m.move === chosen?.move) ?? best;
  return [{ ...first, value: best.value }, ...moves.filter((m) => m !== first).sort((a, b) => b.value - a.value)];
}

/** Parses "minimax" or "robust" / "robust:CP" (default margin 50). */
export function parseMoveChoice(text: string): MoveChoice {
  if (text === "minimax") return MINIMAX;
  const m = /^robust(?::(\d+))?$/.exec(text);
  if (m) return { kind: "robust", marginCp: m[1] !== undefined ? Number(m[1]) : 50 };
  throw new Error(`move choice ${JSON.stringify(text)}: give minimax, robust or robust:CP`);
}

export const moveChoiceName = (c: MoveChoice): string => (c.kind === "minimax" ? "minimax" : `robust:${c.marginCp}`);

export interface PlayedOptions {
  /** An opponent's likely replies: its engine's candidates within this many cp of its best. */
  replyWindowCp: number;
  /** At most this many replies per position (best first). */
  maxReplies: number;
  /** Stop a line at this many plies from the root. */
  maxPly: number;
  /** Leave out positions reached with a lower probability than this. */
  minReach: number;
  /** How the book picks its move (default minimax). */
  choice?: MoveChoice;
}

export const DEFAULT_PLAYED: PlayedOptions = { replyWindowCp: 50, maxReplies: 3, maxPly: 40, minReach: 0.002 };

/** A position the book would play into: the book's side is to move there. */
export interface PlayedPosition {
  sfen: string;
  /** Plies from the root (the shortest way there along the walk). */
  ply: number;
  /** 0 black, 1 white: the side the book plays (to move here). */
  side: 0 | 1;
  /** The chance of getting here when the opponent picks among its likely replies uniformly (summed over ways). */
  reach: number;
  /** The book's move here (its minimax best) and its value. */
  bookMove: string;
  bookValue: number;
  /** The dig's own think of the position (MultiPV, at the dig's limit): its best candidate and value. */
  thinkMove: string;
  thinkValue: number;
  /**
   * The engine alone at the dig's limit, as a player would search it (one line): filled in by
   * withEngineAlone from such searches; the think's until then.
   */
  engineMove: string;
  engineValue: number;
}

/** The sample with the engine alone's move and value from `search` (single-line searches at the dig's limit), where it has one. */
export function withEngineAlone(sample: readonly PlayedPosition[], search: (sfen: string) => OracleResult | undefined): PlayedPosition[] {
  return sample.map((p) => {
    const r = search(p.sfen);
    return r ? { ...p, engineMove: r.move, engineValue: r.value } : p;
  });
}

/** The opponent's likely replies in a position: the raw candidates within the window of the best. */
export function likelyReplies(p: QPosition, opts: Pick<PlayedOptions, "replyWindowCp" | "maxReplies">): QMove[] {
  const raw = [...p.raw].sort((a, b) => b.value - a.value);
  if (raw.length === 0) return [];
  const top = raw[0]!.value;
  return raw.filter((m) => m.value >= top - opts.replyWindowCp).slice(0, Math.max(1, opts.maxReplies));
}

function childOf(pos: Position, move: string): Position | null {
  const m = parseUsiMove(move);
  if (m === null || !pos.isLegal(m)) return null;
  const c = pos.clone();
  c.doMove(m);
  return c;
}

/**
 * The positions the book would play into, for each side it may play: from the root, the book's
 * side plays its best move and the opponent each of its likely replies (equally likely), while
 * the position is in the book. Each position comes once, with its shortest ply and the summed
 * chance of reaching it (a transposition adds up).
 */
export function playedPositions(book: QBook, rootPos: Position, opts: PlayedOptions = DEFAULT_PLAYED): PlayedPosition[] {
  const out = new Map<string, PlayedPosition>();
  for (const side of [0, 1] as const) {
    // Level by level, so a position's chance adds up before its children are visited.
    let level = new Map<string, { pos: Position; reach: number }>([[rootPos.sfenKey(), { pos: rootPos, reach: 1 }]]);
    for (let ply = 0; ply <= opts.maxPly && level.size > 0; ply++) {
      const next = new Map<string, { pos: Position; reach: number }>();
      const add = (pos: Position, reach: number): void => {
        const k = pos.sfenKey();
        const e = next.get(k);
        if (e) e.reach += reach;
        else next.set(k, { pos, reach });
      };
      for (const [key, { pos, reach }] of level) {
        if (reach < opts.minReach) continue;
        const p = book.lookup(key);
        if (!p) continue;
        const toMove = pos.side === BLACK ? 0 : 1;
        if (toMove === side) {
          const b = bookChoice(p, opts.choice);
          const e = p.raw[0];
          if (!b || !e) continue;
          const seen = out.get(key);
          if (seen) seen.reach += reach;
          else
            out.set(key, {
              sfen: key,
              ply,
              side,
              reach,
              bookMove: b.move,
              bookValue: b.value,
              thinkMove: e.move,
              thinkValue: e.value,
              engineMove: e.move,
              engineValue: e.value,
            });
          if (ply < opts.maxPly) {
            const c = childOf(pos, b.move);
            if (c) add(c, reach);
          }
        } else if (ply < opts.maxPly) {
          const replies = likelyReplies(p, opts);
          for (const r of replies) {
            const c = childOf(pos, r.move);
            if (c) add(c, reach / replies.length);
          }
        }
      }
      level = next;
    }
  }
  return [...out.values()];
}

/** Ply bands of the report: [from, to] inclusive. */
export const DEFAULT_BANDS: ReadonlyArray<readonly [number, number]> = [
  [0, 1],
  [2, 3],
  [4, 7],
  [8, 15],
  [16, 1024],
];

export const bandName = (b: readonly [number, number]): string => (b[1] >= 1024 ? `${b[0]}+` : `${b[0]}-${b[1]}`);

/** Up to `perBand` positions of each band, the likeliest first (ties by ply, then SFEN, so the sample is fixed). */
export function samplePositions(
  played: readonly PlayedPosition[],
  perBand: number,
  bands: ReadonlyArray<readonly [number, number]> = DEFAULT_BANDS,
): PlayedPosition[] {
  const out: PlayedPosition[] = [];
  for (const b of bands) {
    const inBand = played.filter((p) => p.ply >= b[0] && p.ply <= b[1]);
    inBand.sort((x, y) => y.reach - x.reach || x.ply - y.ply || (x.sfen < y.sfen ? -1 : x.sfen > y.sfen ? 1 : 0));
    out.push(...inBand.slice(0, perBand));
  }
  return out;
}

/** An oracle's answer for one position: its best move and value there (from the side to move). */
export interface OracleResult {
  move: string;
  value: number;
  depth?: number;
}

/** The positions whose oracle results the figures need: each sampled position, and the positions after its book and engine moves when they are not the oracle's best. */
export function oracleNeeds(
  sample: readonly PlayedPosition[],
  oracle: (sfen: string) => OracleResult | undefined,
): { sfen: string; first: boolean }[] {
  const need: { sfen: string; first: boolean }[] = [];
  const seen = new Set<string>();
  const push = (sfen: string, first: boolean): void => {
    if (seen.has(sfen) || oracle(sfen)) return;
    seen.add(sfen);
    need.push({ sfen, first });
  };
  for (const p of sample) {
    const o = oracle(p.sfen);
    if (!o) {
      push(p.sfen, true);
      continue;
    }
    const pos = Position.fromSfen(p.sfen);
    for (const mv of [p.bookMove, p.engineMove, p.thinkMove])
      if (mv !== o.move) {
        const c = childOf(pos, mv);
        if (c) push(c.sfenKey(), false);
      }
  }
  return need;
}

/** Values beyond this (mates, won positions) are clipped in the value figures, so one mate score does not make the mean. */
export const VALUE_CLIP = 2000;
const clip = (v: number): number => Math.max(-VALUE_CLIP, Math.min(VALUE_CLIP, v));

/** One sampled position scored against the oracle. */
export interface ScoredPosition extends PlayedPosition {
  oracleMove: string;
  oracleValue: number;
  /** The oracle's value of the book's / the engine's move (minus its value of the position after it). */
  bookMoveOracle: number;
  engineMoveOracle: number;
  thinkMoveOracle: number;
}

/** Scores the sample against the oracle; a position whose answers are not all there yet is left out. */
export function scorePositions(sample: readonly PlayedPosition[], oracle: (sfen: string) => OracleResult | undefined): ScoredPosition[] {
  const out: ScoredPosition[] = [];
  for (const p of sample) {
    const o = oracle(p.sfen);
    if (!o) continue;
    const pos = Position.fromSfen(p.sfen);
    const valueOf = (mv: string): number | undefined => {
      if (mv === o.move) return o.value;
      const c = childOf(pos, mv);
      const r = c ? oracle(c.sfenKey()) : undefined;
      return r ? -r.value : undefined;
    };
    const b = valueOf(p.bookMove);
    const e = valueOf(p.engineMove);
    const t = valueOf(p.thinkMove);
    if (b === undefined || e === undefined || t === undefined) continue;
    out.push({ ...p, oracleMove: o.move, oracleValue: o.value, bookMoveOracle: b, engineMoveOracle: e, thinkMoveOracle: t });
  }
  return out;
}

/** A figure with its 95% interval. */
export interface Estimate {
  n: number;
  value: number;
  lo: number;
  hi: number;
}

/** A proportion k/n with its Wilson 95% interval. */
export function proportion(k: number, n: number): Estimate {
  if (n === 0) return { n, value: NaN, lo: NaN, hi: NaN };
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { n, value: p, lo: Math.max(0, c - h), hi: Math.min(1, c + h) };
}

/** A mean with its normal 95% interval (and the sample's standard deviation). */
export function mean(xs: readonly number[]): Estimate & { sd: number } {
  const n = xs.length;
  if (n === 0) return { n, value: NaN, lo: NaN, hi: NaN, sd: NaN };
  const m = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) * (b - m), 0) / (n - 1)) : 0;
  const h = n > 1 ? (1.96 * sd) / Math.sqrt(n) : NaN;
  return { n, value: m, lo: m - h, hi: m + h, sd };
}

/** The accuracy figures of one player (the book, or the engine alone) on a set of positions. */
export interface Accuracy {
  /** Its move is the oracle's best. */
  best: Estimate;
  /** Its move is within `nearCp` of the oracle's best, by the oracle's values. */
  near: Estimate;
  /** Its value of the position minus the oracle's (clipped to +-VALUE_CLIP): mean, interval, spread. */
  valueError: Estimate & { sd: number };
  /** The oracle's value of its move below the oracle's best (cp lost, >= 0). */
  loss: Estimate & { sd: number };
}

export interface BandFigures {
  band: string;
  /** Positions of the band the book would play into, and how many of them were scored. */
  played: number;
  book: Accuracy;
  /** The engine alone at the dig's limit (one line, as a player searches). */
  engine: Accuracy;
  /** The dig's own think (MultiPV at the same limit: less deep per line). */
  think: Accuracy;
  /** Book minus engine alone, per position (paired): best-move agreement and cp lost. */
  gainBest: Estimate;
  gainLoss: Estimate;
}

type Who = "book" | "engine" | "think";
function accuracy(ps: readonly ScoredPosition[], who: Who, nearCp: number): Accuracy {
  const mv = (p: ScoredPosition) => (who === "book" ? p.bookMove : who === "engine" ? p.engineMove : p.thinkMove);
  const val = (p: ScoredPosition) => (who === "book" ? p.bookValue : who === "engine" ? p.engineValue : p.thinkValue);
  const mo = (p: ScoredPosition) => (who === "book" ? p.bookMoveOracle : who === "engine" ? p.engineMoveOracle : p.thinkMoveOracle);
  const lossOf = (p: ScoredPosition) => (mv(p) === p.oracleMove ? 0 : Math.max(0, clip(p.oracleValue) - clip(mo(p))));
  return {
    best: proportion(ps.filter((p) => mv(p) === p.oracleMove).length, ps.length),
    near: proportion(ps.filter((p) => lossOf(p) <= nearCp).length, ps.length),
    valueError: mean(ps.map((p) => clip(val(p)) - clip(p.oracleValue))),
    loss: mean(ps.map(lossOf)),
  };
}

/** The figures by ply band, and over all bands ("all"). */
export function accuracyByBand(
  played: readonly PlayedPosition[],
  scored: readonly ScoredPosition[],
  nearCp = 50,
  bands: ReadonlyArray<readonly [number, number]> = DEFAULT_BANDS,
): BandFigures[] {
  const rows: BandFigures[] = [];
  const one = (name: string, inBand: (ply: number) => boolean): BandFigures => {
    const ps = scored.filter((p) => inBand(p.ply));
    const lossB = (p: ScoredPosition) => (p.bookMove === p.oracleMove ? 0 : Math.max(0, clip(p.oracleValue) - clip(p.bookMoveOracle)));
    const lossE = (p: ScoredPosition) => (p.engineMove === p.oracleMove ? 0 : Math.max(0, clip(p.oracleValue) - clip(p.engineMoveOracle)));
    return {
      band: name,
      played: played.filter((p) => inBand(p.ply)).length,
      book: accuracy(ps, "book", nearCp),
      engine: accuracy(ps, "engine", nearCp),
      think: accuracy(ps, "think", nearCp),
      gainBest: mean(ps.map((p) => Number(p.bookMove === p.oracleMove) - Number(p.engineMove === p.oracleMove))),
      gainLoss: mean(ps.map((p) => lossE(p) - lossB(p))),
    };
  };
  for (const b of bands) rows.push(one(bandName(b), (ply) => ply >= b[0] && ply <= b[1]));
  rows.push(one("all", () => true));
  return rows;
}

/** One simulated opening: the plies played from the root while the book's side still had a book move. */
export interface CoverageRun {
  side: 0 | 1;
  /** Plies from the root until the book's side, to move, found no book move (or the cap). */
  plies: number;
  /** Book moves the book's side played. */
  bookMoves: number;
}

/**
 * How long an opponent playing its own engine moves stays in the book: the book's side plays
 * its best move, the opponent `reply(sfen, run)` (its engine at some limit, varied by run),
 * until the book's side has no move in the book. `runs` openings per side.
 */
export async function simulateCoverage(
  book: QBook,
  rootPos: Position,
  runs: number,
  reply: (sfen: string, run: number) => Promise<string | undefined>,
  maxPly = 256,
  choice: MoveChoice = MINIMAX,
): Promise<CoverageRun[]> {
  const out: CoverageRun[] = [];
  for (const side of [0, 1] as const)
    for (let run = 0; run < runs; run++) {
      const pos = rootPos.clone();
      let bookMoves = 0;
      let ply = 0;
      for (; ply < maxPly; ply++) {
        const toMove = pos.side === BLACK ? 0 : 1;
        let mv: string | undefined;
        if (toMove === side) {
          const p = book.lookup(pos.sfenKey());
          mv = p ? bookChoice(p, choice)?.move : undefined;
          if (mv === undefined) break;
          bookMoves++;
        } else {
          mv = await reply(pos.sfenKey(), run);
          if (mv === undefined) break;
        }
        const m = parseUsiMove(mv);
        if (m === null || !pos.isLegal(m)) break;
        pos.doMove(m);
      }
      out.push({ side, plies: ply, bookMoves });
    }
  return out;
}

export interface CoverageFigures {
  side: "black" | "white";
  plies: Estimate & { sd: number };
  bookMoves: Estimate & { sd: number };
}

export function coverageFigures(runs: readonly CoverageRun[]): CoverageFigures[] {
  return ([0, 1] as const).map((s) => {
    const r = runs.filter((x) => x.side === s);
    return { side: s === 0 ? "black" : "white", plies: mean(r.map((x) => x.plies)), bookMoves: mean(r.map((x) => x.bookMoves)) };
  });
}

/** The root at one point of the book's growth. */
export interface RootPoint {
  /** Positions thought when it was taken. */
  thought: number;
  value: number;
  move: string;
}

export interface StabilityFigures {
  points: number;
  /** Positions thought over the points. */
  span: number;
  valueMin: number;
  valueMax: number;
  /** Last value minus first. */
  valueDrift: number;
  /** Times the best move changed from one point to the next. */
  moveChanges: number;
  /** The best moves seen, with how many points each was best at, the last first. */
  moves: { move: string; points: number }[];
}

export function stabilityFigures(points: readonly RootPoint[]): StabilityFigures | undefined {
  if (points.length === 0) return undefined;
  const ps = [...points].sort((a, b) => a.thought - b.thought);
  const counts = new Map<string, number>();
  let changes = 0;
  ps.forEach((p, i) => {
    counts.set(p.move, (counts.get(p.move) ?? 0) + 1);
    if (i > 0 && p.move !== ps[i - 1]!.move) changes++;
  });
  const last = ps[ps.length - 1]!;
  const moves = [...counts].map(([move, n]) => ({ move, points: n }));
  moves.sort((a, b) => Number(b.move === last.move) - Number(a.move === last.move) || b.points - a.points);
  return {
    points: ps.length,
    span: last.thought - ps[0]!.thought,
    valueMin: Math.min(...ps.map((p) => p.value)),
    valueMax: Math.max(...ps.map((p) => p.value)),
    valueDrift: last.value - ps[0]!.value,
    moveChanges: changes,
    moves,
  };
}

/** The move a line of USI moves ends in, for reporting. */
export const usiOf = moveToUsi;

/** What `horu book quality` (and the UI's Quality view) reports of a book. */
export interface QualityReport {
  book: string;
  /** The book's move choice measured ("minimax" or "robust:CP"). */
  choice: string;
  positions: number;
  root: string;
  digNodes: number | null;
  oracleNodes: number;
  engine: string;
  /** Searches run now, and those found kept from earlier runs. */
  searched: number;
  reused: number;
  kept: string;
  played: number;
  sampled: number;
  scored: number;
  bands: BandFigures[];
  coverage: CoverageFigures[] | null;
  coverageNodes: number | null;
  stability: StabilityFigures | null;
  rootNow: { move: string; value: number } | null;
}

/** Where a quality run is: positions sampled of those played into, then searches done of those needed. */
export interface QualityProgress {
  phase: "sample" | "engine" | "oracle" | "coverage";
  done: number;
  total: number;
  /** The searches' node limit (0 for "sample"). */
  nodes: number;
}
