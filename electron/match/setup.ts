// Building a match from user choices: player names, openings (an SFEN file, or a book's
// positions at a ply), and the printed table.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseOpenings, type Opening } from "../../shared/match/game.js";
import { formatElo, type MatchTable } from "../../shared/match/stats.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove, moveToUsi } from "../../shared/rules/usi.js";
import { decodeRecordBytes } from "../../shared/formats/encoding.js";
import { openMatchBook } from "../formats/book-files.js";
import type { MatchConfig, GameRow, MatchLimits, PlayerSpec } from "./runner.js";
import { DEFAULT_BOOK_CHOICE, type BookChoiceOptions } from "../../shared/match/book-choice.js";
import { DEFAULT_RULES, type AdjudicationRules } from "../../shared/match/game.js";
import type { SprtSpec } from "../../shared/match/stats.js";
import { reasonEnglish } from "./record.js";
import { rng } from "../../shared/util/rng.js";
import { MAX_JITTER_PCT } from "../../shared/match/jitter.js";

/** Openings from an SFEN file (`startpos moves ...` / `sfen ...` lines), moves cut to `plies`. */
export function openingsFromFile(file: string, plies?: number): Opening[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return parseOpenings(decodeRecordBytes(bytes, file).text, file, plies ?? Number.POSITIVE_INFINITY);
}

/**
 * The distinct positions a book reaches at exactly `ply` plies from the start position,
 * following every book move (breadth-first, in the book's move order), as opening lines.
 */
export function openingsFromBook(file: string, ply: number, max = 10_000): Opening[] {
  const book = openMatchBook(file);
  let frontier: { pos: Position; moves: string[] }[] = [{ pos: Position.startpos(), moves: [] }];
  for (let d = 0; d < ply && frontier.length; d++) {
    const next: typeof frontier = [];
    const seen = new Set<string>();
    for (const f of frontier) {
      for (const bm of book.lookup(f.pos.sfenKey()) ?? []) {
        const m = parseUsiMove(bm.move);
        if (m === null || !f.pos.isLegal(m)) continue;
        const child = f.pos.clone();
        child.doMove(m);
        const key = child.sfenKey();
        if (seen.has(key)) continue;
        seen.add(key);
        next.push({ pos: child, moves: [...f.moves, moveToUsi(m)] });
        if (d === ply - 1 && next.length >= max) break;
      }
      if (d === ply - 1 && next.length >= max) break;
    }
    frontier = next;
  }
  if (frontier.length === 0) throw new Error(`${file}: the book reaches no position at ply ${ply}`);
  return frontier.map((f) => ({ sfen: "startpos", moves: f.moves }));
}

/** A player's display name: the engine's file name, with the book's file name when it has one. */
export function playerName(engine: string, book: string | undefined, index: number): string {
  const e = path.basename(engine.split(/\s+/)[0] ?? engine);
  return `${index + 1}:${e}${book ? `+${path.basename(book)}` : ""}`;
}

export function formatGameLine(config: MatchConfig, row: GameRow, done: number, table: MatchTable): string {
  const names = config.players.map((p) => p.name);
  const b = names[row.black]!,
    w = names[1 - row.black]!;
  const res = row.winner === null ? "1/2-1/2" : row.winner === row.black ? "1-0" : "0-1";
  const t = table.wdl;
  return `game ${row.game + 1} (${done}/${config.games}): ${b} vs ${w} ${res} ${reasonEnglish(row.reason)}, ${row.plies} plies | ${names[0]}: +${t.wins} =${t.draws} -${t.losses}, ${table.distinctGames} distinct, Elo ${formatElo(table.elo)}`;
}

/** The table printed at the end (and by --json as figures). */
export function formatTable(config: MatchConfig, table: MatchTable): string {
  const [a, b] = config.players.map((p) => p.name);
  const t = table.wdl;
  const lines = [
    `${a} vs ${b}: ${table.games} games; ${formatLimits(config.limits)}${config.jitter ? ` +-${config.jitter.nodesPct}% (seed ${config.seed})` : ""}; ${config.openings.length} opening(s) from ${config.openingsSource}`,
    `  distinct:      ${table.distinctGames} of ${table.games} games, ${table.distinctPairs} of ${table.pairs} pairs`,
    `  W-D-L (${a}):   ${t.wins}-${t.draws}-${t.losses}`,
    `  score:         ${table.points} / ${table.games} = ${(table.score * 100).toFixed(1)}%`,
    `  Elo (95%):     ${formatElo(table.elo)}${table.elo ? ` from ${table.elo.samples} distinct ${table.pairs > 0 ? "game pairs (pentanomial)" : "games (trinomial)"}` : ""}`,
    `  pentanomial:   [${table.distinctPentanomial.join(", ")}] distinct pairs scoring 0, 0.5, 1, 1.5, 2 (all pairs: [${table.pentanomial.join(", ")}])${table.unpaired ? `, ${table.unpaired} unpaired` : ""}`,
  ];
  if (table.warning) lines.push(`  WARNING:       ${table.warning}`);
  if (table.sprt) {
    const s = table.sprt;
    const spec = config.sprt!;
    lines.push(
      `  SPRT(${spec.elo0}, ${spec.elo1}): LLR ${s.llr.toFixed(2)} [${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}] ${s.verdict === "continue" ? "undecided" : `accept ${s.verdict}`}`,
    );
  }
  if (table.perOpening.length > 1 && table.perOpening.length <= 40) {
    lines.push("  per opening (points of " + a + "):");
    for (const o of table.perOpening) {
      const op = config.openings[o.opening]!;
      const text = op.moves.length ? op.moves.slice(0, 8).join(" ") + (op.moves.length > 8 ? " ..." : "") : op.sfen;
      lines.push(`    ${String(o.opening + 1).padStart(3)}: ${o.points}/${o.games}  ${text}`);
    }
  }
  return lines.join("\n");
}

export interface PlayerOptions {
  engine: string;
  options?: Record<string, string | number | boolean>;
  name?: string;
  book?: string;
  bookChoice?: Partial<BookChoiceOptions>;
}

export interface MatchOptions {
  players: [PlayerOptions, PlayerOptions];
  /** An SFEN file (cut to openingPlies), or a book's positions at openingPly; default the start position. */
  openings?: string;
  openingPlies?: number;
  openingsBook?: string;
  openingPly?: number;
  games?: number;
  limits?: MatchLimits;
  concurrency?: number;
  rules?: Partial<AdjudicationRules>;
  record?: "csa" | "kif";
  sprt?: SprtSpec;
  seed?: number;
  /** Each move's node limit drawn within +-this percent of --nodes (seeded by `seed`). */
  jitterPct?: number;
  /** Openings in an order shuffled by `seed` (a collection's first lines are not a sample of it). */
  shuffleOpenings?: boolean;
  /** Milliseconds a move may run past its time before it is lost on time. */
  graceMs?: number;
}

/** A complete match from the user's choices: books opened (a bad one fails here), openings resolved. */
export function buildMatchConfig(o: MatchOptions): MatchConfig {
  const players = o.players.map((p, i): PlayerSpec => {
    if (p.book) openMatchBook(p.book); // the file's own error now, not in the middle of the match
    return {
      name: p.name?.trim() || playerName(p.engine, p.book, i),
      engine: p.engine,
      options: p.options ?? {},
      book: p.book ? path.resolve(p.book) : undefined,
      bookChoice: { ...DEFAULT_BOOK_CHOICE, ...p.bookChoice },
    };
  }) as [PlayerSpec, PlayerSpec];
  if (players[0].name === players[1].name) players[1].name += "'";
  let openings: Opening[];
  let openingsSource: string;
  if (o.openings && o.openingsBook) throw new Error("give openings from a file or from a book, not both");
  if (o.openings) {
    openings = openingsFromFile(o.openings, o.openingPlies);
    openingsSource = `${path.resolve(o.openings)}${o.openingPlies !== undefined ? ` (first ${o.openingPlies} plies)` : ""}`;
  } else if (o.openingsBook) {
    if (o.openingPly === undefined) throw new Error("openings from a book need the ply");
    openings = openingsFromBook(o.openingsBook, o.openingPly);
    openingsSource = `${path.resolve(o.openingsBook)} at ply ${o.openingPly}`;
  } else {
    openings = [{ sfen: "startpos", moves: [] }];
    openingsSource = "the start position";
  }
  const seed = o.seed ?? 1;
  if (o.shuffleOpenings && openings.length > 1) {
    const random = rng(seed ^ 0x5bd1e995);
    for (let i = openings.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [openings[i], openings[j]] = [openings[j]!, openings[i]!];
    }
    openingsSource += ` (shuffled, seed ${seed})`;
  }
  const limits: MatchLimits = o.limits ?? { kind: "nodes", nodes: 100_000 };
  if (o.jitterPct !== undefined && o.jitterPct > 0) {
    if (limits.kind !== "nodes") throw new Error("the jitter varies node limits: give --nodes with --jitter");
    if (!(o.jitterPct <= MAX_JITTER_PCT)) throw new Error(`the jitter must be at most ${MAX_JITTER_PCT}%, not ${o.jitterPct}%`);
  }
  let games = o.games ?? openings.length * 2;
  games += games & 1;
  return {
    version: 1,
    players,
    openings,
    openingsSource,
    games,
    limits,
    concurrency: Math.max(1, o.concurrency ?? 1),
    rules: { ...DEFAULT_RULES, ...o.rules },
    record: o.record ?? "csa",
    sprt: o.sprt,
    seed,
    ...(o.jitterPct ? { jitter: { nodesPct: o.jitterPct } } : {}),
    ...(o.graceMs !== undefined ? { graceMs: o.graceMs } : {}),
  };
}

/** The limits in words, for the table and the UI. */
export function formatLimits(l: MatchLimits): string {
  switch (l.kind) {
    case "nodes":
      return `${l.nodes.toLocaleString("en")} nodes/move`;
    case "movetime":
      return `${l.ms} ms/move`;
    case "clock":
      return `${l.timeMs / 1000} s${l.byoyomiMs ? ` + ${l.byoyomiMs / 1000} s byoyomi` : ""}${l.incMs ? ` + ${l.incMs / 1000} s/move` : ""}`;
  }
}
