// Seeding a book from game records: positions of their first plies get the kifu bonus in
// selection (docs/DESIGN.md §3.2). Files or folders; every file gets a report line.
import { readdirSync, statSync } from "node:fs";
import { readRegular } from "../fs/safe-file.js";
import path from "node:path";
import { seedFromParsed, type SeedFileReport, type SeedOptions } from "../../shared/formats/seed.js";
import { parseRecordFile, type ParsedFile } from "../../shared/formats/kifu.js";
import { CollectionStats, gameEdges } from "../../shared/formats/stats.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import { Position } from "../../shared/rules/position.js";
import { thoughtParents } from "../../shared/book/link.js";
import type { MoveStatsRow, QueuedPosition } from "../store/book-store.js";
import type { OpenBook } from "./open-book.js";
import type { SeedRecordView, SeedReportView } from "../../shared/api/contract.js";

const RECORD_EXTENSIONS = new Set([".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".sfen", ".usi", ".txt", ".jkf", ".json", ".usen"]);
/** Books, not game records: a folder's are named in the report, not passed over in silence. */
const BOOK_EXTENSIONS = new Set([".db", ".bin", ".ybb", ".sbk", ".horu"]);

/** The record files named: files as given, folders walked for known record extensions. */
export function recordFiles(inputs: readonly string[]): { files: string[]; skipped: Array<{ file: string; reason: string }> } {
  const out: string[] = [];
  const skipped: Array<{ file: string; reason: string }> = [];
  // One unreadable entry (a broken link, a folder without permission) is skipped with a warning.
  const walk = (p: string, top: boolean) => {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (top || RECORD_EXTENSIONS.has(path.extname(p).toLowerCase()) || code !== "ENOENT") {
        skipped.push({
          file: p,
          reason: code === "ENOENT" ? "skipped: a broken link or a file that vanished" : `skipped: cannot read it (${code ?? String(e)})`,
        });
      } else skipped.push({ file: p, reason: "skipped: a broken link" });
      return;
    }
    if (st.isDirectory()) {
      let names: string[];
      try {
        names = readdirSync(p).sort();
      } catch (e) {
        skipped.push({ file: p, reason: `skipped: cannot list the folder (${(e as NodeJS.ErrnoException).code ?? String(e)})` });
        return;
      }
      for (const name of names) walk(path.join(p, name), false);
    } else if (!st.isFile()) {
      // A FIFO would block the reader (and the server with it) until someone writes to it.
      if (top || RECORD_EXTENSIONS.has(path.extname(p).toLowerCase()))
        skipped.push({ file: p, reason: "skipped: not a regular file (a FIFO, device or socket)" });
    } else if (top || RECORD_EXTENSIONS.has(path.extname(p).toLowerCase())) out.push(p);
    else if (BOOK_EXTENSIONS.has(path.extname(p).toLowerCase()))
      skipped.push({ file: p, reason: "skipped: a book, not a game record (name the file itself to import it as a book)" });
  };
  for (const p of inputs) walk(p, true);
  return { files: out, skipped };
}

/** A record file's bytes, or the reason it could not be read (the others go on). */
function readRecord(name: string, maxPly: number): ParsedFile {
  try {
    // Checked again on the descriptor: the name may have become a FIFO since the folder was listed.
    return parseRecordFile(readRegular(name), name, { maxPly });
  } catch (e) {
    const why = (e as { key?: string }).key === "notRegularFile" ? "not a regular file" : ((e as NodeJS.ErrnoException).code ?? String(e));
    return {
      file: name,
      format: "unknown",
      encoding: "utf-8",
      games: [],
      errors: [{ file: name, message: `cannot read it (${why})` }],
    };
  }
}

/** What seeding did: the UI's view (shared/api/contract.ts), with each file's filter counts and errors' files. */
export interface SeedReport extends Omit<SeedReportView, "files"> {
  files: Array<SeedFileReport & { perRecord: SeedRecordView[]; added: number }>;
}

/** The UI's view of a seed report. */
export function seedReportView({ files, ...r }: SeedReport): SeedReportView {
  return { ...r, files: files.map(({ filtered: _, errors, ...f }) => ({ ...f, errors: errors.map(({ file: _file, ...e }) => e) })) };
}

export interface SeedBookOptions extends SeedOptions {
  /**
   * Also queue the positions of the first N plies of each record to be thought ahead of
   * selection (the old `makebook think`), under the same filters as the seeds.
   */
  thinkPlies?: number;
  /** Store per position and move the games played and won (collection statistics, up to `plies`). */
  storeStats?: boolean;
  /**
   * The name each input goes by, in the order of the inputs (an upload's original file name,
   * not the temporary file it was written to): stored as the seeds' source and in the report.
   */
  sources?: string[];
}

/**
 * What a seed will store, worked out without writing: the files parsed, the seeds keyed, the
 * queue and statistics rows, the reports. It reads the book (its graph and root) only, so it
 * can run on another thread with its own read-only copy of the book (seed-worker.ts).
 */
export interface SeedPlan {
  rows: QueuedPosition[];
  queue: QueuedPosition[] | null;
  statRows: MoveStatsRow[] | null;
  statsGames: number;
  files: SeedReport["files"];
}

/** Parses the files and plans their seeds (see SeedPlan): nothing is written. */
export function planSeed(book: OpenBook, inputs: readonly string[], options: SeedBookOptions = {}): SeedPlan {
  const { files: names, skipped } = recordFiles(inputs);
  const plies = options.plies ?? 32;
  const thinkPlies = options.thinkPlies ?? 0;
  const files = names.map((name) => readRecord(name, Math.max(plies, thinkPlies)));
  // One collection over all files, shared by the filters and the stored statistics.
  let stats = options.stats;
  if (!stats && (options.storeStats || (options.minCount ?? 0) > 1)) {
    stats = new CollectionStats({ maxPly: plies });
    for (const f of files) stats.addGames(f.games);
  }
  const shownAs = new Map(inputs.map((p, i) => [p, options.sources?.[i] ?? p]));
  const nameOf = (file: string) => shownAs.get(file) ?? file;
  const source = names.length === 1 ? nameOf(names[0]!) : `${names.length} files`;
  const keyed = (seeds: Map<string, number>): QueuedPosition[] => {
    const rows: QueuedPosition[] = [];
    for (const [sfen, ply] of seeds) {
      const pos = Position.fromSfen(sfen);
      rows.push({ sfen, keyHi: pos.keyHi, keyLo: pos.keyLo, source, ply });
    }
    return rows;
  };

  const result = seedFromParsed(files, { ...options, plies, stats });
  const counted = new Set<string>(); // new positions already counted for an earlier record
  const perRecord = files.map((f, i) => recordReports(book, f, result.reports[i]!.gameSeeded, result.seeds, plies, counted));
  for (const r of result.reports) {
    r.file = nameOf(r.file);
    delete r.gameSeeded; // used above; no part of the report
  }
  const rows = keyed(result.seeds);
  // Shallow plies first, so the queue thinks the records breadth-first.
  const queue =
    thinkPlies > 0 ? keyed(seedFromParsed(files, { ...options, plies: thinkPlies, stats }).seeds).sort((a, b) => a.ply - b.ply) : null;

  let statRows: MoveStatsRow[] | null = null;
  let statsGames = 0;
  if (options.storeStats && stats) {
    statRows = [];
    const seen = new Set<string>();
    for (const f of files) {
      for (const g of f.games) {
        for (const sfen of g.positions) {
          if (seen.has(sfen)) continue;
          seen.add(sfen);
          const moves = stats.movesOf(sfen);
          if (!moves.length) continue;
          const pos = Position.fromSfen(sfen);
          for (const { move, stat } of moves)
            statRows.push({ sfen, keyHi: pos.keyHi, keyLo: pos.keyLo, move, games: stat.played, wins: stat.wins, draws: stat.draws });
        }
      }
    }
    statsGames = files.reduce((n, f) => n + f.games.length, 0);
  }
  const reports: SeedReport["files"] = result.reports.map((r, i) => {
    const recs = perRecord[i] ?? [];
    return { ...r, perRecord: recs, added: recs.reduce((n, x) => n + x.added, 0) };
  });
  for (const s of skipped)
    reports.push({
      file: s.file,
      format: "unknown",
      encoding: "utf-8",
      records: 0,
      positions: 0,
      filtered: 0,
      errors: [{ file: s.file, message: s.reason }],
      perRecord: [],
      added: 0,
    });
  return { rows, queue, statRows, statsGames, files: reports };
}

/** Stores a plan's seeds, queue and statistics, and marks the seeds in the graph. */
export function applySeed(book: OpenBook, plan: SeedPlan, t0 = performance.now()): SeedReport {
  const kifuBefore = book.graph.kifu.size;
  book.store.seeds.add(plan.rows); // rows are per source: a position seeded again from another file is a new row, not a new position
  // New positions, as the book counts them (its kifu set): what the report calls added.
  const graph = book.graph;
  const added = graph.addKifuMany(
    plan.rows.map((r) => ({ keyHi: r.keyHi, keyLo: r.keyLo, parents: () => thoughtParents(graph, Position.fromSfen(r.sfen)) })),
  );
  const queuedNew = plan.queue ? book.store.queue.add(plan.queue) : 0;
  if (plan.statRows) book.store.moveStats.add(plan.statRows);
  return {
    files: plan.files,
    positions: plan.rows.length,
    added,
    kifuBefore,
    kifuAfter: book.graph.kifu.size,
    bonusCp: book.graph.kifuBonus,
    queued: plan.queue?.length ?? 0,
    queuedNew,
    statsMoves: plan.statRows?.length ?? 0,
    statsGames: plan.statsGames,
    ms: performance.now() - t0,
  };
}

/** Parses the files, stores their positions as kifu seeds and marks them in the graph. */
export function seedBook(book: OpenBook, inputs: readonly string[], options: SeedBookOptions = {}): SeedReport {
  const t0 = performance.now();
  return applySeed(book, planSeed(book, inputs, options), t0);
}

/**
 * Per record of a file: seeded, new to the kifu set, reachable by the bonus now, where it starts
 * and where the dig stops following it. Run before the seeds are added; `counted` holds the new
 * positions already counted for earlier records (of any file), so the records' sum is the run's.
 */
function recordReports(
  book: OpenBook,
  f: ParsedFile,
  gameSeeded: Set<string>[] | undefined,
  seeds: Map<string, number>,
  plies: number,
  counted: Set<string>,
): SeedRecordView[] {
  const g = book.graph;
  const keyOf = (sfen: string) => Position.fromSfen(sfen);
  const nodeOf = (sfen: string): number => {
    const p = keyOf(sfen);
    return g.find(p.keyHi, p.keyLo);
  };
  const rootKey = book.root.sfenKey();
  const minimax = bookMinimax(book);
  const bonus = book.settings.kifuBonus;
  return f.games.map((game, i) => {
    // Its own seeds where a filter chose them per record; else its positions within the plies.
    const own = gameSeeded?.[i];
    const mine = new Set<string>();
    for (let k = 0; k < game.positions.length; k++)
      if (game.plies[k] <= plies && (own ? own.has(game.positions[k]) : seeds.has(game.positions[k]))) mine.add(game.positions[k]);
    const first = game.positions[0];
    const start: SeedRecordView["start"] = first === rootKey ? "root" : first !== undefined && nodeOf(first) >= 0 ? "book" : "outside";
    const reached = new Set<string>();
    if (start !== "outside" && mine.has(first)) reached.add(first);
    let joinsAt: number | undefined;
    let stopsAt: SeedRecordView["stopsAt"] = null;
    for (const e of gameEdges(game)) {
      if (e.ply >= plies) continue;
      const node = nodeOf(e.before);
      if (node < 0) continue;
      if (start === "outside" && e.line === 0 && joinsAt === undefined) joinsAt = e.ply;
      const edge = minimax(node, e.move);
      if (e.line === 0 && stopsAt === null) {
        const where = { ply: e.ply + 1, move: e.move, before: e.before };
        const gap = edge && edge.value !== null && edge.best !== null ? edge.best - edge.value : null;
        if (edge === null) stopsAt = { ...where, gapCp: null, reason: "not-listed" };
        else if (gap !== null && gap > bonus) stopsAt = { ...where, gapCp: gap, reason: "below-best" };
        else if (edge.child < 0) stopsAt = { ...where, gapCp: gap, reason: "book-ends" };
      }
      if (!edge) continue;
      const p = keyOf(e.before);
      p.doMove(parseUsiMove(e.move)!);
      const child = p.sfenKey();
      if (mine.has(child)) reached.add(child);
    }
    let added = 0;
    for (const sfen of mine) {
      const p = keyOf(sfen);
      if (!g.kifu.has(p.keyHi, p.keyLo) && !counted.has(sfen)) {
        added++;
        counted.add(sfen);
      }
    }
    return {
      record: i + 1,
      ...(game.line !== undefined ? { line: game.line } : {}),
      seeded: mine.size,
      added,
      onBook: reached.size,
      start,
      ...(joinsAt !== undefined ? { joinsAt } : {}),
      plies: game.moves.length,
      ...(game.moves.length > plies ? { cutAt: plies } : {}),
      stopsAt,
    };
  });
}

/**
 * A move's value against the book's best at a thought position, both by minimax as selection
 * sees the book (its bounds, from one search of the whole book; a move whose child has no
 * bound, or is not thought, counts with the engine's value): the listed values alone said a
 * record's move was 0 cp below the best where, by minimax, it was hundreds below.
 * Returns null when the book does not list the move.
 */
function bookMinimax(book: OpenBook): (node: number, usi: string) => { child: number; value: number | null; best: number | null } | null {
  book.preview();
  const g = book.graph;
  const valueOf = (child: number, listed: number | null): number | null => {
    const b = child >= 0 ? book.selector.bound(child) : undefined;
    return b ? -b.value : listed;
  };
  return (node, usi) => {
    const m = parseUsiMove(usi);
    let found: { child: number; value: number | null } | null = null;
    let best: number | null = null;
    g.forEachEdge(node, (move, child, listed) => {
      const value = valueOf(child, listed);
      if (value !== null && (best === null || value > best)) best = value;
      if (move === m) found = { child, value };
    });
    return found ? { ...(found as { child: number; value: number | null }), best } : null;
  };
}

/** Records listed per file on the command line (--json lists them all). */
const RECORDS_SHOWN = 20;

/** The report lines of one file: its counts and errors, then what each record did. */
export function seedReportLines(f: SeedReport["files"][number]): string[] {
  const errors = f.errors.length
    ? `; ${f.errors.length} error(s): ${f.errors
        .slice(0, 3)
        .map((e) => (e.line ? `line ${e.line}: ` : "") + e.message)
        .join("; ")}`
    : "";
  // A file read as no record has no text encoding worth naming (binary data decoded as Shift_JIS said "unknown (shift_jis)").
  const kind = f.format === "unknown" ? "format unknown" : `${f.format} (${f.encoding})`;
  const lines = [`${f.file}: ${kind}, ${f.records} record(s), ${f.positions} position(s) seeded${errors}`];
  for (const r of f.perRecord.slice(0, RECORDS_SHOWN)) {
    const outside =
      r.start === "outside"
        ? r.joinsAt !== undefined
          ? `; starts outside the book, meets it at ply ${r.joinsAt}`
          : "; starts outside the book (handicap or another start position): the dig never reaches it"
        : "";
    const s = r.stopsAt;
    const stops = !s
      ? ""
      : s.reason === "not-listed"
        ? `; the dig stops at ply ${s.ply} (${s.move}): the engine did not list the move`
        : s.reason === "below-best"
          ? `; the dig leaves the record at ply ${s.ply} (${s.move}): ${s.gapCp} cp below the book's best by minimax, more than the kifu bonus`
          : `; the book ends at ply ${s.ply} (${s.move}), ${s.gapCp ?? 0} cp below the book's best: the dig goes on there`;
    const cut =
      r.cutAt !== undefined ? `; seeded the first ${r.cutAt} of ${r.plies} plies (seeding goes ${r.cutAt} plies deep: --seed-plies)` : "";
    lines.push(
      `  record ${r.record}${r.line !== undefined ? ` (line ${r.line})` : ""}: ${r.seeded} seeded (${r.added} new to the kifu set), ${r.onBook} on moves the book has${cut}${outside}${stops}`,
    );
  }
  if (f.perRecord.length > RECORDS_SHOWN)
    lines.push(`  ... and ${f.perRecord.length - RECORDS_SHOWN} more records (--json lists them all)`);
  return lines;
}

/** Report lines for the command line. */
export function seedFiles(book: OpenBook, inputs: readonly string[], options: SeedBookOptions = {}): string[] {
  const r = seedBook(book, inputs, options);
  const lines = r.files.flatMap(seedReportLines);
  const queued = options.thinkPlies
    ? `; queued ${r.queued.toLocaleString("en")} positions to think first (${r.queuedNew.toLocaleString("en")} new)`
    : "";
  lines.push(
    `seeded ${r.positions.toLocaleString("en")} positions (${r.added.toLocaleString("en")} new: the book's kifu positions ${r.kifuBefore.toLocaleString("en")} -> ${r.kifuAfter.toLocaleString("en")})${queued} in ${(r.ms / 1000).toFixed(2)} s; a move into a seeded position gets +${r.bonusCp} cp in selection`,
  );
  return lines;
}
