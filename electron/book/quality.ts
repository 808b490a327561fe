// `horu book quality`: how good a book is, measured (shared/book/quality.ts has the figures).
// Reads the book (its minimax values and the engine's own candidates), searches what it
// needs with the engines it is given (an oracle far deeper than the dig's limit, and an
// opponent's replies for coverage), keeps every search in the book (schema v8) so a second
// run only adds, and reports by ply band with intervals.
import { BookStore } from "../store/index.js";
import { QualitySearches } from "../store/quality-store.js";
import { UsiEngine, type UsiEngineOptions } from "../engines/usi/engine.js";
import { minimaxMoves } from "./book-minimax.js";
import { settingsFrom } from "../../shared/dig/settings.js";
import { parseRoot } from "../../shared/dig/root.js";
import {
  accuracyByBand,
  bestOf,
  bookChoice,
  coverageFigures,
  DEFAULT_PLAYED,
  oracleNeeds,
  playedPositions,
  samplePositions,
  scorePositions,
  simulateCoverage,
  stabilityFigures,
  type CoverageFigures,
  type OracleResult,
  type MoveChoice,
  moveChoiceName,
  type PlayedOptions,
  type QBook,
  type QMove,
  type QPosition,
  type QualityProgress,
  type QualityReport,
  type RootPoint,
  withEngineAlone,
} from "../../shared/book/quality.js";
import { rng } from "../../shared/util/rng.js";
import { playChoice } from "../../shared/book/settle.js";

export interface QualityOptions {
  book: string;
  /** One entry per engine process to use (at most these run at once). */
  engines: UsiEngineOptions[];
  /** The oracle's node limit (default: oracleFactor x the dig's). */
  oracleNodes?: number;
  /** Default 30. */
  oracleFactor?: number;
  /** Positions sampled per ply band (default 20). */
  perBand?: number;
  played?: Partial<PlayedOptions>;
  /** How the book picks its move (default minimax: what the export and a match player play). */
  choice?: MoveChoice;
  /** A move within this many cp of the oracle's best counts as near (default 50). */
  nearCp?: number;
  /** Simulated openings per side for coverage (default 8; 0: none). */
  coverageRuns?: number;
  /** The opponent's node limit in the coverage runs (default: the dig's), varied by +-coverageJitterPct. */
  coverageNodes?: number;
  coverageJitterPct?: number;
  /** Stability over the last N positions thought (default 200; 0: none), at `stabilityPoints` points. */
  stabilityLast?: number;
  stabilityPoints?: number;
  /** Do not search: report from what the book keeps. */
  noSearch?: boolean;
  onProgress?: (p: QualityProgress) => void;
  signal?: AbortSignal;
}

interface LoadedBook {
  q: QBook;
  root: string;
  digNodes: number | null;
  /** Thoughts in id order (for the stability points). */
  order: { sfen: string; moves: QMove[] }[];
  draw: { drawBlack: number; drawWhite: number };
  /** How the book's games pick its move (a settled book's "robust", else the minimax). */
  choice: MoveChoice;
}

/** The minimax of the thoughts in `order` (all of them, or the first so many for a stability point). */
const minimax = (order: readonly { sfen: string; moves: readonly QMove[] }[], draw: { drawBlack: number; drawWhite: number }) =>
  minimaxMoves(
    order.map((t) => [t.sfen, t.moves] as const),
    draw,
  );

/** A book as the figures read it: its minimax (the Peta-Shock export's values) and the engine's own candidates. */
export function loadQualityBook(file: string): LoadedBook {
  const store = BookStore.open(file, { readonly: true });
  try {
    const { settings } = settingsFrom(store.settings.all());
    const order: { sfen: string; moves: QMove[]; imported: boolean }[] = [];
    for (const t of store.thoughts.iterate())
      order.push({
        sfen: t.sfen,
        moves: t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
        imported: t.provenance.kind === "import",
      });
    const draw = { drawBlack: settings.drawBlack, drawWhite: settings.drawWhite };
    const mm = minimax(order, draw);
    const map = new Map<string, QPosition>();
    for (const t of order) map.set(t.sfen, { book: mm.get(t.sfen) ?? [], raw: t.moves, ...(t.imported ? { imported: true } : {}) });
    const root = parseRoot(settings.root).sfenKey();
    return {
      q: { rootSfen: root, lookup: (k) => map.get(k) },
      root: settings.root,
      digNodes: "nodes" in settings.limit ? settings.limit.nodes : null,
      order,
      draw,
      choice: playChoice(settings),
    };
  } finally {
    store.close();
  }
}

/** The root's best move and value after each of the last `last` positions' `points` checkpoints (a replay of the book's growth). */
export function stabilityPointsOf(b: LoadedBook, last: number, points: number): RootPoint[] {
  const n = b.order.length;
  if (n === 0 || last <= 0 || points <= 0) return [];
  const from = Math.max(1, n - last);
  const out: RootPoint[] = [];
  for (let i = 0; i < points; i++) {
    const upto = points === 1 ? n : Math.round(from + ((n - from) * i) / (points - 1));
    const mm = minimax(b.order.slice(0, upto), b.draw);
    const best = bestOf(mm.get(b.q.rootSfen) ?? []);
    if (best) out.push({ thought: upto, value: best.value, move: best.move });
  }
  return out;
}

/** A small pool: each engine takes the next job when it is free. */
async function runJobs<T>(
  engines: UsiEngine[],
  jobs: readonly T[],
  work: (e: UsiEngine, job: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  await Promise.all(
    engines.map(async (e) => {
      while (next < jobs.length && !signal?.aborted) {
        const j = jobs[next++]!;
        await work(e, j);
      }
    }),
  );
}

export async function bookQuality(o: QualityOptions): Promise<QualityReport> {
  const say = o.onProgress ?? (() => {});
  // First: a book at an older schema is brought to v8 here (a read-only open needs it).
  const kept = QualitySearches.open(o.book, { readonly: o.noSearch === true });
  let b: LoadedBook;
  try {
    b = loadQualityBook(o.book);
  } catch (e) {
    kept.close();
    throw e;
  }
  const rootPos = parseRoot(b.root);
  const oracleNodes = o.oracleNodes ?? (o.oracleFactor ?? 30) * (b.digNodes ?? 100_000);
  const choice = o.choice ?? o.played?.choice ?? b.choice;
  const played = playedPositions(b.q, rootPos, { ...DEFAULT_PLAYED, ...o.played, choice });
  let sample = samplePositions(played, o.perBand ?? 20);
  say({ phase: "sample", done: sample.length, total: played.length, nodes: 0 });

  const engines: UsiEngine[] = [];
  let searched = 0;
  let reused: number;
  let engineName = o.engines[0]?.name ?? "engine";
  try {
    if (!o.noSearch) {
      for (const spec of o.engines) {
        const e = new UsiEngine({ ...spec, timeouts: { thinkMs: 3_600_000, usiokMs: 60_000, readyokMs: 60_000, ...spec.timeouts } });
        await e.start();
        engines.push(e);
      }
      engineName = engines[0]!.handshake.idName || engineName;
    } else {
      // Without searching: the kept searches of the engine named, else of the engine with most of them.
      engineName = o.engines[0]?.name ?? kept.engines()[0] ?? engineName;
    }
    const search = async (e: UsiEngine, sfen: string, nodes: number): Promise<OracleResult> => {
      const had = kept.get(sfen, engineName, nodes);
      if (had) return had;
      const r = await e.think(sfen, { kind: "nodes", nodes }, { fixed: 1 });
      const c = r.candidates[0];
      const res: OracleResult =
        c !== undefined
          ? { move: c.move, value: c.value, depth: c.depth }
          : { move: r.status === "win" ? "win" : "resign", value: r.status === "win" ? 32000 : -32000, depth: r.depth };
      kept.put({ sfen, engine: engineName, nodes, move: res.move, value: res.value, depth: res.depth ?? 0 });
      searched++;
      return res;
    };
    const oracle = (sfen: string): OracleResult | undefined => kept.get(sfen, engineName, oracleNodes);
    /** Searches every position of `need` at `nodes` on the engines, saying how far it got. */
    const searchAll = async (phase: "engine" | "oracle", need: readonly { sfen: string }[], nodes: number): Promise<void> => {
      let done = 0;
      if (need.length > 0) say({ phase, done, total: need.length, nodes });
      await runJobs(
        engines,
        need,
        async (e, p) => {
          await search(e, p.sfen, nodes);
          say({ phase, done: ++done, total: need.length, nodes });
        },
        o.signal,
      );
    };

    // The engine alone at the dig's limit, one line, as a player searches.
    const engineNodes = b.digNodes ?? 100_000;
    if (!o.noSearch)
      await searchAll(
        "engine",
        sample.filter((p) => !kept.get(p.sfen, engineName, engineNodes)),
        engineNodes,
      );
    sample = withEngineAlone(sample, (sfen) => kept.get(sfen, engineName, engineNodes));

    // Accuracy: the sampled positions, then the positions after moves that are not the oracle's best.
    reused = sample.filter((p) => oracle(p.sfen)).length;
    for (let round = 0; round < 2 && !o.noSearch; round++) {
      const need = oracleNeeds(sample, oracle);
      if (need.length === 0) break;
      await searchAll("oracle", need, oracleNodes);
    }
    const scored = scorePositions(sample, oracle);
    const bands = accuracyByBand(played, scored, o.nearCp ?? 50);

    // Coverage: simulated openings, the opponent's engine at a jittered limit.
    let coverage: CoverageFigures[] | null = null;
    const coverageNodes = o.coverageNodes ?? b.digNodes ?? 100_000;
    const runs = o.coverageRuns ?? 8;
    // Coverage needs the opponent's replies searched now (a kept reply at each jittered limit is rare).
    if (runs > 0 && !o.signal?.aborted && engines.length > 0) {
      const pct = o.coverageJitterPct ?? 10;
      const limitOf = (run: number): number => {
        const r = rng(0x51ed + run)();
        return Math.max(1, Math.round(coverageNodes * (1 + (pct / 100) * (2 * r - 1))));
      };
      // The runs go side by side, one engine each in turn.
      let finished = 0;
      say({ phase: "coverage", done: 0, total: runs, nodes: coverageNodes });
      const results = await Promise.all(
        Array.from({ length: Math.max(1, engines.length) }, async (_, w) => {
          const mine: number[] = [];
          for (let run = w; run < runs; run += Math.max(1, engines.length)) mine.push(run);
          const out = [];
          for (const run of mine) {
            const one = await simulateCoverage(
              b.q,
              rootPos,
              1,
              async (sfen) => {
                const r = await search(engines[w]!, sfen, limitOf(run));
                return r.move === "resign" || r.move === "win" ? undefined : r.move;
              },
              256,
              choice,
            );
            out.push(...one);
            say({ phase: "coverage", done: ++finished, total: runs, nodes: coverageNodes });
          }
          return out;
        }),
      );
      coverage = coverageFigures(results.flat());
    }

    const stability = stabilityFigures(stabilityPointsOf(b, o.stabilityLast ?? 200, o.stabilityPoints ?? 5)) ?? null;
    const rootP = b.q.lookup(b.q.rootSfen);
    const rootBest = rootP ? bookChoice(rootP, choice) : undefined;
    return {
      book: o.book,
      choice: moveChoiceName(choice),
      positions: b.order.length,
      root: b.root,
      digNodes: b.digNodes,
      oracleNodes,
      engine: engineName,
      searched,
      reused,
      kept: kept.notKept ?? "in the book",
      played: played.length,
      sampled: sample.length,
      scored: scored.length,
      bands,
      coverage,
      coverageNodes: coverage ? coverageNodes : null,
      stability,
      rootNow: rootBest ? { move: rootBest.move, value: rootBest.value } : null,
    };
  } finally {
    kept.close();
    await Promise.all(engines.map((e) => e.quit().catch(() => e.kill())));
  }
}

const pct = (e: { value: number; lo: number; hi: number }): string =>
  Number.isNaN(e.value) ? "-" : `${(100 * e.value).toFixed(0)}% [${(100 * e.lo).toFixed(0)}, ${(100 * e.hi).toFixed(0)}]`;
const cp = (e: { value: number; lo: number; hi: number; sd?: number }): string =>
  Number.isNaN(e.value)
    ? "-"
    : `${e.value >= 0 ? "+" : ""}${e.value.toFixed(0)} [${Number.isNaN(e.lo) ? "-" : e.lo.toFixed(0)}, ${Number.isNaN(e.hi) ? "-" : e.hi.toFixed(0)}]${e.sd !== undefined && !Number.isNaN(e.sd) ? ` sd ${e.sd.toFixed(0)}` : ""}`;

/** The report as the command prints it. */
export function formatQualityReport(r: QualityReport): string {
  const lines: string[] = [];
  lines.push(
    `${r.book}: ${r.positions.toLocaleString("en-US")} positions, root ${r.root}${r.digNodes ? `, dug at ${r.digNodes.toLocaleString("en-US")} nodes` : ""}`,
  );
  lines.push(
    `oracle: ${r.engine} at ${r.oracleNodes.toLocaleString("en-US")} nodes; ${r.searched} searches now; ${r.reused} sampled positions had an oracle result from earlier runs (searches kept ${r.kept})`,
  );
  lines.push(`positions the book plays into (its move: ${r.choice}): ${r.played}; sampled ${r.sampled}, scored ${r.scored}`);
  lines.push("");
  lines.push(
    "accuracy (95% intervals): book | engine alone at the dig's limit (one line) | the dig's own think (MultiPV) | book - engine alone",
  );
  lines.push(
    "plies  n    best move       within 50 cp    cp lost         value - oracle | best move       within 50 cp    cp lost | best move       cp lost | best move      cp lost",
  );
  for (const b of r.bands) {
    if (b.book.best.n === 0 && b.band !== "all") continue;
    const noSd = (e: { value: number; lo: number; hi: number }) => cp({ value: e.value, lo: e.lo, hi: e.hi });
    const points = (e: { value: number; lo: number; hi: number }) =>
      Number.isNaN(e.value)
        ? "-"
        : `${e.value >= 0 ? "+" : ""}${(100 * e.value).toFixed(0)} [${Number.isNaN(e.lo) ? "-" : (100 * e.lo).toFixed(0)}, ${Number.isNaN(e.hi) ? "-" : (100 * e.hi).toFixed(0)}]`;
    lines.push(
      [
        b.band.padEnd(6),
        String(b.book.best.n).padEnd(4),
        pct(b.book.best).padEnd(15),
        pct(b.book.near).padEnd(15),
        noSd(b.book.loss).padEnd(15),
        cp(b.book.valueError).padEnd(14),
        "|",
        pct(b.engine.best).padEnd(15),
        pct(b.engine.near).padEnd(15),
        noSd(b.engine.loss).padEnd(7),
        "|",
        pct(b.think.best).padEnd(15),
        noSd(b.think.loss).padEnd(7),
        "|",
        `${points(b.gainBest)} pts`.padEnd(14),
        noSd({ value: -b.gainLoss.value, lo: -b.gainLoss.hi, hi: -b.gainLoss.lo }),
      ].join(" "),
    );
  }
  if (r.coverage) {
    lines.push("");
    lines.push(`coverage: an opponent playing its engine at ${r.coverageNodes?.toLocaleString("en-US")} nodes (+-10%)`);
    for (const c of r.coverage)
      lines.push(`  book as ${c.side}: ${cp(c.plies)} plies in book, ${cp(c.bookMoves)} book moves (${c.plies.n} openings)`);
  }
  if (r.stability) {
    const s = r.stability;
    lines.push("");
    lines.push(
      `stability over the last ${s.span} positions (${s.points} points): root value ${s.valueMin}..${s.valueMax} (drift ${s.valueDrift >= 0 ? "+" : ""}${s.valueDrift}), best move changed ${s.moveChanges} times: ${s.moves.map((m) => `${m.move} (${m.points})`).join(", ")}`,
    );
  }
  if (r.rootNow) lines.push(`root now: ${r.rootNow.move} ${r.rootNow.value}`);
  return lines.join("\n");
}

/** A progress report as the command prints it. */
export function progressLine(p: QualityProgress): string {
  const n = p.nodes.toLocaleString("en-US");
  switch (p.phase) {
    case "sample":
      return `${p.total} positions the book plays into, ${p.done} sampled`;
    case "engine":
      return `engine alone (${n} nodes): ${p.done}/${p.total}`;
    case "oracle":
      return `oracle (${n} nodes): ${p.done}/${p.total}`;
    case "coverage":
      return `coverage (${n} nodes): ${p.done}/${p.total} runs`;
  }
}
