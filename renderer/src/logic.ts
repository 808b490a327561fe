// Pure helpers behind the views (tested without a DOM): value text and colours, the board
// model from an SFEN, move geometry for arrows, paths through a tree view, sampling.
import type { ChartSample, MoveView } from "../../shared/api/contract";
// The page and the command line hold engine option values to the same rule.
export { optionValueOk } from "../../shared/usi/option";
import { parseSfen } from "../../shared/rules/sfen";
import { signedValue } from "../../shared/util/signed";
import { VALUE_MATE, VALUE_MATE_BOUND, WHITE } from "../../shared/rules/types";

let valueLang: "en" | "ja" = "ja";
/** The language mates are written in: "mate 12" / "mated 12" in English, "詰 12" / "被詰 12" in Japanese. */
export function setValueLang(lang: "en" | "ja"): void {
  valueLang = lang;
}

/** A value for display: "+123", "-45", "0", mates as "詰 12" / "被詰 12" (plies; "mate 12" / "mated 12" in English). */
export function formatValue(v: number | null | undefined): string {
  if (v === null || v === undefined) return "–";
  if (v >= VALUE_MATE_BOUND) return `${valueLang === "en" ? "mate" : "詰"} ${VALUE_MATE - v}`;
  if (v <= -VALUE_MATE_BOUND) return `${valueLang === "en" ? "mated" : "被詰"} ${VALUE_MATE + v}`;
  return signedValue(v);
}

export type Side = "black" | "white";
/** Whose view every value is shown from: Black's, or the side to move where it is shown. */
export type Viewpoint = "black" | "mover";
export type BoundKind = "EXACT" | "LOWER" | "UPPER";

/** The side to move of an SFEN ("startpos" is Black). */
export function sideOf(sfen: string): Side {
  const p = parseSfen(sfen);
  return typeof p !== "string" && p.side === WHITE ? "white" : "black";
}

/**
 * A value as the chosen viewpoint sees it. `from` is the side whose view `v` is (the side to
 * move where it was computed); with the Black viewpoint a White value changes sign and a
 * lower bound becomes an upper one.
 */
export function viewValue(
  v: number | null | undefined,
  from: Side,
  view: Viewpoint,
  bound: BoundKind | null = null,
): { value: number | null; bound: BoundKind | null } {
  if (v === null || v === undefined) return { value: null, bound: null };
  if (view === "black" && from === "white") return { value: -v, bound: bound === "LOWER" ? "UPPER" : bound === "UPPER" ? "LOWER" : bound };
  return { value: v, bound };
}

const BOUND_MARK: Record<BoundKind, string> = { LOWER: "≥ ", UPPER: "≤ ", EXACT: "= " };

/** A value (or a bound: "≥ +30", "≤ -12", "= 0") from the chosen viewpoint. */
export function scoreText(v: number | null | undefined, from: Side, view: Viewpoint, bound: BoundKind | null = null): string {
  const r = viewValue(v, from, view, bound);
  if (r.value === null) return "–";
  return `${r.bound ? BOUND_MARK[r.bound] : ""}${formatValue(r.value)}`;
}

/** The opposite bound, for a child's bound seen from its parent (the value negated). */
export function flipBound(b: BoundKind | null): BoundKind | null {
  return b === "LOWER" ? "UPPER" : b === "UPPER" ? "LOWER" : b;
}

/** A count for display: 41.5k, 1.20M in English; by 万 and 億 in Japanese (4.2万, 1.20億), one style per language. */
export function formatCount(n: number | null | undefined, lang: "ja" | "en" = "en"): string {
  if (n === null || n === undefined) return "–";
  if (lang === "ja") {
    if (n >= 1e8) return `${(n / 1e8).toFixed(2)}億`;
    if (n >= 1e4) return `${(n / 1e4).toFixed(1)}万`;
    return String(n);
  }
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** An exact count with its thousands apart (1,000,000 is not read at a glance as 1000000 is not), the same in both languages. */
export function countText(n: number): string {
  return n.toLocaleString("en");
}

/** A size in bytes: 950 B, 41.5 KB, 1.20 MB, 3.40 GB (the same in both languages). */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} KB`;
  return `${n} B`;
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}`;
}

/** Arrow colour by value from the mover's view: blue when good, grey near zero, red when bad. */
export function valueColor(v: number | null): string {
  if (v === null) return "hsl(0 0% 55%)";
  const t = Math.max(-1, Math.min(1, v / 600));
  const hue = t >= 0 ? 210 : 0;
  const sat = Math.round(30 + 60 * Math.abs(t));
  return `hsl(${hue} ${sat}% 48%)`;
}

export type BoardPiece = { type: string; black: boolean; promoted: boolean };
export interface BoardModel {
  /** squares[rank 0..8][file index 0..8 for files 9..1]. */
  squares: Array<Array<BoardPiece | null>>;
  hands: { black: Array<[string, number]>; white: Array<[string, number]> };
  side: "black" | "white";
  ply: number;
}

const LETTERS = " PLNSBRGK";
/** Hand types in the usual order (R B G S N L P). */
const HAND_ORDER = [6, 5, 7, 4, 3, 2, 1];

/** The board of an SFEN ("sfen " prefix, "startpos" and ply optional); null when it cannot be read. */
export function parseBoard(sfenText: string): BoardModel | null {
  const p = parseSfen(sfenText);
  if (typeof p === "string") return null;
  const squares: BoardModel["squares"] = [];
  for (let r = 0; r < 9; r++) {
    const row: Array<BoardPiece | null> = [];
    for (let f = 8; f >= 0; f--) {
      const piece = p.board[f * 9 + r];
      const t = piece & 15;
      row.push(piece ? { type: LETTERS[t === 8 ? 8 : t & 7], black: piece >> 4 === 0, promoted: t > 8 } : null);
    }
    squares.push(row);
  }
  const hand = (c: number) =>
    HAND_ORDER.filter((t) => p.hands[c * 8 + t] > 0).map((t): [string, number] => [LETTERS[t], p.hands[c * 8 + t]]);
  return { squares, hands: { black: hand(0), white: hand(1) }, side: p.side === 0 ? "black" : "white", ply: p.ply ?? 1 };
}

const KANJI: Record<string, [string, string]> = {
  P: ["歩", "と"],
  L: ["香", "杏"],
  N: ["桂", "圭"],
  S: ["銀", "全"],
  G: ["金", "金"],
  B: ["角", "馬"],
  R: ["飛", "龍"],
  K: ["玉", "玉"],
};

export function pieceKanji(p: { type: string; promoted: boolean; black?: boolean }): string {
  if (p.type === "K") return p.black === false ? "王" : "玉";
  return KANJI[p.type]?.[p.promoted ? 1 : 0] ?? "?";
}

export interface Square {
  file: number;
  rank: number;
}
/** USI move → squares: from (null for a drop, with the dropped type) and to. */
export function moveSquares(usi: string): { from: Square | null; to: Square; drop: string | null; promote: boolean } | null {
  const drop = /^([PLNSGBR])\*([1-9])([a-i])$/.exec(usi);
  if (drop) return { from: null, to: { file: Number(drop[2]), rank: drop[3].charCodeAt(0) - 96 }, drop: drop[1], promote: false };
  const m = /^([1-9])([a-i])([1-9])([a-i])(\+?)$/.exec(usi);
  if (!m) return null;
  return {
    from: { file: Number(m[1]), rank: m[2].charCodeAt(0) - 96 },
    to: { file: Number(m[3]), rank: m[4].charCodeAt(0) - 96 },
    drop: null,
    promote: m[5] === "+",
  };
}

export function squareUsi(s: Square): string {
  return `${s.file}${String.fromCharCode(96 + s.rank)}`;
}

/**
 * The book move a board gesture means: from a square (or a hand piece) to a square.
 * Promotion wins over non-promotion when both are candidates (the usual choice).
 */
export function pickMove(candidates: string[], from: Square | { drop: string }, to: Square): string | null {
  const target = squareUsi(to);
  if ("drop" in from) return candidates.find((u) => u === `${from.drop}*${target}`) ?? null;
  const prefix = `${squareUsi(from)}${target}`;
  return candidates.find((u) => u === `${prefix}+`) ?? candidates.find((u) => u === prefix) ?? null;
}

/** A chart point (kept in the book by the host); `gap` marks a pause, stop or new run: the charts break their lines there. */
export type Sample = ChartSample;

/**
 * Appends a live sample after the history, keeping at most `max` by dropping every other old
 * one when full (never a gap), so a months-long dig keeps its whole shape in fixed memory.
 * A sample not newer than the last one (already in a history loaded meanwhile) is dropped.
 */
export function addSample(samples: Sample[], s: Sample, max = 2200): Sample[] {
  const last = samples[samples.length - 1];
  if (last && s.t <= last.t) return samples;
  const next = samples.length >= max ? samples.filter((x, i) => x.gap || i % 2 === 0 || i >= samples.length - 50) : samples.slice();
  next.push(s);
  return next;
}

/**
 * The charts' series from the samples: x is digging time in seconds (the time between a
 * run's samples; a pause, a stop or the time between runs counts nothing, so runs join up
 * instead of each being a spike at the right edge of a wall-clock axis), the root value as
 * given, and positions per hour over a sliding window of up to 10 samples. A gap is null in
 * both series (uPlot breaks the line there; it sits a millisecond after the run it ends), and
 * a rate never reaches back across one.
 */
export function chartSeries(samples: Sample[]): { xs: number[]; values: Array<number | null>; rates: Array<number | null> } {
  let since = 0;
  const rates = samples.map((s, i) => {
    if (s.gap) {
      since = i + 1;
      return null;
    }
    return i <= since ? null : rate(samples[Math.max(since, i - 10)], s);
  });
  return { xs: diggingSeconds(samples), values: samples.map((s) => (s.gap ? null : s.rootValue)), rates };
}

/** Each sample's digging time in seconds: wall-clock steps within a run, a millisecond across a gap (x stays increasing). */
export function diggingSeconds(samples: Sample[]): number[] {
  const xs: number[] = [];
  let x = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i],
      prev = samples[i - 1];
    if (prev) x += prev.gap || s.gap ? 0.001 : Math.max(0.001, (s.t - prev.t) / 1000);
    xs.push(x);
  }
  return xs;
}

/** Digging-time increments for the x axis's ticks (seconds): 1 s up to 100 days, each a round step. */
export const DURATION_STEPS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 432000, 864000, 1728000, 4320000,
  8640000,
];

/**
 * A digging-time tick label, down to the tick step's unit so neighbouring ticks always differ:
 * "45s", "2m30s", "1h05m", "3d04h"; in Japanese "45秒", "2分30秒", "1時間5分", "3日4時間".
 */
export function durationTick(sec: number, step: number, lang: "ja" | "en" = "en"): string {
  const s = Math.round(sec);
  const d = Math.floor(s / 86400),
    h = Math.floor((s % 86400) / 3600),
    m = Math.floor((s % 3600) / 60),
    r = s % 60;
  const ja = lang === "ja";
  const two = (n: number) => (ja ? String(n) : String(n).padStart(2, "0"));
  const parts: string[] = [];
  const unit = { d: ja ? "日" : "d", h: ja ? "時間" : "h", m: ja ? "分" : "m", s: ja ? "秒" : "s" };
  if (s === 0) return ja ? "0秒" : "0s";
  if (step >= 86400) return `${d}${unit.d}`;
  if (step >= 3600) return d ? `${d}${unit.d}${two(h)}${unit.h}` : `${h}${unit.h}`;
  if (step >= 60) {
    if (d) parts.push(`${d}${unit.d}`);
    if (d || h) parts.push(`${d ? two(h) : h}${unit.h}`, `${two(m)}${unit.m}`);
    else parts.push(`${m}${unit.m}`);
    return parts.join("");
  }
  if (h || d) return `${d ? `${d}${unit.d}` : ""}${d ? two(h) : h}${unit.h}${two(m)}${unit.m}${two(r)}${unit.s}`;
  return m ? `${m}${unit.m}${two(r)}${unit.s}` : `${r}${unit.s}`;
}

/** How many separate lines a series draws (runs of non-null points), for tests and the chart's data attributes. */
export function lineRuns(ys: Array<number | null>): number {
  let runs = 0;
  for (let i = 0; i < ys.length; i++) if (ys[i] !== null && (i === 0 || ys[i - 1] === null)) runs++;
  return runs;
}

/** Throughput between two samples in positions per hour. */
export function rate(a: Sample, b: Sample): number {
  const dt = b.t - a.t;
  return dt > 0 ? ((b.thought - a.thought) * 3_600_000) / dt : 0;
}

/** Bytes to base64 in chunks (String.fromCharCode on a whole large file would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** A move's book value and bound from the mover's side, as the Book table and the Tree order moves. */
export interface ValuedMove {
  value: number | null;
  bound: BoundKind | null;
  /** Banned: ordered last. */
  absent: boolean;
  /** In flight or given up: the selection leaves it out for now (ordered by its value still). */
  away?: boolean;
  /** A leaf (its position not thought): its value is the engine's, exact. */
  leaf: boolean;
}

/** The order key: best first, moves without a value after those with one, absent moves last. */
export function orderScore(m: ValuedMove): number {
  if (m.absent) return -Infinity;
  return m.value === null ? -40000 : m.value;
}

/**
 * Indices of `moves` in book order (best first), the same order the Tree draws: the moves the
 * selection sees by value (an exact value before a bound of the same number), then those being
 * thought or given up (their value is pending), then banned ones; otherwise as listed. `first`
 * (the book move, when known) comes first.
 */
export function bookOrder(moves: readonly ValuedMove[], first?: number): number[] {
  const exact = (m: ValuedMove) => (m.bound === "EXACT" || (m.leaf && m.value !== null) ? 1 : 0);
  const group = (m: ValuedMove) => (m.absent ? 2 : m.away ? 1 : 0);
  const order = moves
    .map((_, i) => i)
    .sort((a, b) => group(moves[a]) - group(moves[b]) || orderScore(moves[b]) - orderScore(moves[a]) || exact(moves[b]) - exact(moves[a]));
  // The book move leads: a child's searched value may be a transposition's bound from another
  // path, so values alone can put another move level with it or above.
  return first === undefined || first < 0 ? order : [first, ...order.filter((i) => i !== first)];
}

/**
 * The book's minimax move among `moves` (an index), when the values prove it: its value is
 * exact and every other present move's value is exact or an upper bound no higher. That holds
 * at every position of the best line (all moves searched there); elsewhere the search may
 * have cut moves off, and then no move is claimed. `pvMove` (the best line's next move, when
 * the position is on it) decides outright.
 */
export function bookMoveIndex(moves: readonly ValuedMove[], usis: readonly string[], pvMove?: string): number | null {
  if (pvMove !== undefined) {
    const i = usis.indexOf(pvMove);
    if (i >= 0 && !moves[i].absent) return i;
  }
  const order = bookOrder(moves).filter((i) => !moves[i].absent && !moves[i].away);
  const best = order[0];
  if (best === undefined) return null;
  const b = moves[best];
  const isExact = (m: ValuedMove) => m.value !== null && (m.bound === "EXACT" || (m.leaf && m.bound === null));
  if (!isExact(b)) return null;
  for (const i of order.slice(1)) {
    const m = moves[i];
    if (m.value === null || !(isExact(m) || m.bound === "UPPER") || m.value > b.value!) return null;
  }
  return best;
}

/** A Book-table row's value and bound from the mover's side: the search's, else the engine's, else its own think's. */
export function moveValued(m: MoveView): ValuedMove {
  const value = m.searchValue ?? m.engineValue ?? m.childValue;
  return {
    value,
    bound: m.searchValue !== null ? m.searchBound : null,
    absent: m.state === "banned",
    away: m.state === "in-flight" || m.state === "failed",
    leaf: !m.thought || m.state === "mate",
  };
}

/**
 * The node's moves in book order (the Tree's), the book move first: a mating move, else the
 * best line's next move (`pvMove`, when the node is on it), else the move the values prove best.
 */
export function sortedMoves(moves: readonly MoveView[], pvMove?: string): MoveView[] {
  const valued = moves.map(moveValued);
  const at = bookMoveOf(moves, pvMove);
  return bookOrder(valued, at ?? undefined).map((i) => moves[i]);
}

/** The index of the book move among a node's moves (see sortedMoves), or null when none is known. */
export function bookMoveOf(moves: readonly MoveView[], pvMove?: string): number | null {
  const mate = moves.findIndex((m) => m.state === "mate");
  if (mate >= 0) return mate;
  return bookMoveIndex(
    moves.map(moveValued),
    moves.map((m) => m.usi),
    pvMove,
  );
}

/** The best line's move from the position `line` reaches, when that position is on the line. */
export function pvMoveAt(pv: readonly string[] | undefined, line: readonly string[]): string | undefined {
  return pv && pv.length > line.length && line.every((m, i) => pv[i] === m) ? pv[line.length] : undefined;
}
