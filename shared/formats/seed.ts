// The kifu seed set (docs/DESIGN.md §3.2): positions of the first N plies of each game record,
// all branches, which get the selection bonus. Optional filters use collection
// statistics, like the floodgate frequency / win-rate books.
import { parseRecordFile, type ParseError, type ParsedFile, type RecordFormat } from "./kifu.js";
import { CollectionStats, gameEdges } from "./stats.js";
import type { TextEncodingName } from "./encoding.js";

export interface SeedOptions {
  /** Positions up to this ply (moves from each game's start) are seeded. Default 32. */
  plies?: number;
  /**
   * Follow a line only while each move was played at least this many times in the
   * whole collection (all files given together); the first rarer move ends the line.
   */
  minCount?: number;
  /**
   * Seed only positions reached by a move of the side that won that line (the loser's
   * replies are walked through but their children are not seeded). Lines without a
   * result seed nothing beyond the start position.
   */
  winnerOnly?: boolean;
  /** Statistics to filter with; built from the given files when a filter needs them. */
  stats?: CollectionStats;
}

export interface SeedFileReport {
  file: string;
  format: RecordFormat | "unknown";
  encoding: TextEncodingName;
  records: number;
  /** Distinct positions this file seeded (counted within the file). */
  positions: number;
  /**
   * With a filter (winner only, a minimum count), each record's own seeded positions: another
   * record's seeding a position this one reached but left out does not make it this one's.
   */
  gameSeeded?: Set<string>[];
  /** Positions in reach that a filter left out (per file, with repeats). */
  filtered: number;
  errors: ParseError[];
}

export interface SeedResult {
  /** sfenKey -> lowest ply at which a record reached it. */
  seeds: Map<string, number>;
  reports: SeedFileReport[];
}

/** Seeds from already parsed files (parse them with `maxPly >= plies`). */
export function seedFromParsed(files: readonly ParsedFile[], options: SeedOptions = {}): SeedResult {
  const plies = options.plies ?? 32;
  const minCount = options.minCount ?? 0;
  const winnerOnly = options.winnerOnly ?? false;
  let stats = options.stats;
  if (!stats && minCount > 1) {
    stats = new CollectionStats({ maxPly: plies });
    for (const f of files) stats.addGames(f.games);
  }
  const seeds = new Map<string, number>();
  const reports: SeedFileReport[] = [];
  const add = (key: string, ply: number, mine: Set<string>): void => {
    mine.add(key);
    const old = seeds.get(key);
    if (old === undefined || ply < old) seeds.set(key, ply);
  };
  for (const f of files) {
    const mine = new Set<string>();
    const filters = minCount > 1 || winnerOnly;
    const gameSeeded: Set<string>[] | undefined = filters ? [] : undefined;
    let filtered = 0;
    for (const g of f.games) {
      if (!filters) {
        if (g.positions.length) add(g.positions[0], 0, mine);
        // Fast path: every listed position up to the ply limit.
        for (let i = 0; i < g.positions.length; i++) if (g.plies[i] <= plies) add(g.positions[i], g.plies[i], mine);
        continue;
      }
      const own = new Set<string>();
      gameSeeded!.push(own);
      const seed = (key: string, ply: number) => {
        own.add(key);
        add(key, ply, mine);
      };
      if (g.positions.length) seed(g.positions[0], 0);
      // Filtered: walk the edges; a line stops at its first rare move.
      const onPath = new Set<string>([g.positions[0]]);
      const stopped = new Set<number>();
      for (const e of gameEdges(g)) {
        if (e.ply >= plies || stopped.has(e.line)) continue;
        if (!onPath.has(e.before)) {
          stopped.add(e.line);
          continue;
        }
        const child = childOf(g, e);
        if (child === undefined) continue;
        if (minCount > 1 && (stats?.played(e.before, e.move) ?? 0) < minCount) {
          stopped.add(e.line);
          filtered++;
          continue;
        }
        onPath.add(child);
        if (winnerOnly && e.result !== e.mover) {
          filtered++;
          continue;
        }
        seed(child, e.ply + 1);
      }
    }
    reports.push({
      file: f.file,
      format: f.format,
      encoding: f.encoding,
      records: f.games.length,
      positions: mine.size,
      ...(gameSeeded ? { gameSeeded } : {}),
      filtered,
      errors: f.errors,
    });
  }
  return { seeds, reports };
}

/** The listed position after an edge's move, if listed. */
function childOf(g: ParsedFile["games"][number], e: ReturnType<typeof gameEdges>[number]): string | undefined {
  if (e.line === 0) {
    // Main-line entries come first: entry i is the position at ply i.
    const mainEnd = g.variations.length ? g.variations[0].offset : g.positions.length;
    return e.ply + 1 < mainEnd ? g.positions[e.ply + 1] : undefined;
  }
  const v = g.variations[e.line - 1];
  const i = v.offset + (e.ply - v.startPly);
  const end = e.line < g.variations.length ? g.variations[e.line].offset : g.positions.length;
  return i < end ? g.positions[i] : undefined;
}

/** Parses and seeds in one step; never throws. */
export function seedFromFiles(
  inputs: readonly { name: string; bytes: Uint8Array }[],
  options: SeedOptions = {},
): SeedResult & { files: ParsedFile[] } {
  const plies = options.plies ?? 32;
  const files = inputs.map((i) => parseRecordFile(i.bytes, i.name, { maxPly: plies }));
  return { ...seedFromParsed(files, options), files };
}
