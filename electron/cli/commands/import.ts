// `horu import`: books from other tools (DB2016 .db, Apery .bin, YaneuraOu .ybb, ShogiGUI .sbk) become thought positions;
// game records become kifu seeds.
import { parseArgs } from "node:util";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError, wholeNumber, printJson, openProgress } from "../command.js";
import { BookStore, StoreFullError } from "../../store/book-store.js";
import { importAperyFile, importBookFile, importDb2016, type ImportReport } from "../../book/import.js";
import { OpenBook } from "../../book/open-book.js";
import { prepareForDigging } from "../../book/prepare.js";
import { seedBook, seedReportLines } from "../../book/seed.js";
import { checkFileOrFolder } from "../../fs/safe-file.js";
import { isSqliteFile } from "../../export/export-target.js";
import { settingsFrom } from "../../../shared/dig/settings.js";

const usage = `usage: horu import --book FILE INPUTS... [--strict] [--root SFEN] [--seed-plies N]
       [--think-plies N] [--stats] [--min-count K] [--winner-only] [--json]
       horu import --book FILE --undo

An import never overwrites a position already thought: the imported moves it does not list
join its own (the engine's moves and values stay). Each imported book is recorded; --undo
takes the newest back (positions it added go, positions it joined get their moves as they
were; a position thought again since is left as it is). A file that yields nothing (no
position, no game record) is named and the command exits 1. A book keeps what its file says:
moves in its order, "none", counts, ponder moves, comments, .sbk marks, game counts,
evaluations, the author. A book of 20,000 positions or more is then readied for digging: its
graph and the selection's bounds are saved beside it, from searches of the whole book repeated
until they settle (about 30 s at 15M positions, which the first dig would otherwise spend
while the engines wait).

Imports into the book FILE (created when missing):
  *.db         YaneuraOu DB2016 books: every position with moves becomes a thought position
               (streamed). A damaged line (malformed, a SFEN that is no position, a move
               illegal in its position) is left out, the rest imported, and each left-out
               line listed as file:line: why. --strict refuses such a file whole instead,
               naming its first damaged line (checked whole first: nothing stored). A header
               of another version is refused either way.
  *.bin        Apery/dlshogi books, walked by legal moves from --root (default: the book's
               root; "startpos moves ..." and "sfen ... moves ..." too); records no walk
               reaches are counted
  *.ybb, *.sbk YaneuraOu binary books and ShogiGUI books: read and checked whole first (a
               damaged file stores nothing and the error says where)
  other files  game records (KIF, KI2, CSA, JKF, USI lines) and folders of them: the positions
               of their first --seed-plies plies (default 32) become kifu seeds (+bonus in selection)

Game record options:
  --think-plies N  also queue the positions of the first N plies of each record to be thought:
                   \`horu dig\` thinks queued positions before it selects leaves
  --stats          store per position and move the games played and won by the mover (collection
                   statistics up to --seed-plies; added to what the book already has)
  --min-count K    seed (and queue) a line only while each move was played at least K times
                   in all the files given
  --winner-only    seed (and queue) only positions reached by a move of the side that won`;

/** How many damaged lines were left out, when any (a .db read without --strict). */
const leftOut = (r: ImportReport): string =>
  r.leftOut ? `, ${r.leftOut.toLocaleString("en")} damaged line(s) left out (--strict refuses such a file)` : "";

export const importCommand: Command = {
  name: "import",
  summary: "import DB2016 / Apery / .ybb / .sbk books and game records into a book",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        book: { type: "string" },
        strict: { type: "boolean" },
        root: { type: "string" },
        "seed-plies": { type: "string" },
        json: { type: "boolean" },
        "think-plies": { type: "string" },
        stats: { type: "boolean" },
        "min-count": { type: "string" },
        "winner-only": { type: "boolean" },
        undo: { type: "boolean" },
      },
    });
    if (values.undo) {
      if (!values.book) throw new UsageError("--book FILE is required");
      if (positionals.length) throw new UsageError("--undo takes no files: it takes back the newest import");
      const store = BookStore.open(values.book, { writer: "horu import" });
      try {
        const r = store.imports.undo();
        if (!r) {
          process.stdout.write(`${values.book}: no import to undo\n`);
          return 1;
        }
        process.stdout.write(
          `undid the import of ${r.file}: ${r.removed} position(s) removed, ${r.restored} given their moves as they were, ${r.kept} thought again since and kept\n`,
        );
        if (values.json) printJson(r);
        return 0;
      } finally {
        store.close();
      }
    }
    const whole = (name: string, min: number) => wholeNumber(name, values[name as keyof typeof values] as string | undefined, min);
    const thinkPlies = whole("think-plies", 1);
    const minCount = whole("min-count", 1);
    if (!values.book) throw new UsageError("--book FILE is required");
    if (positionals.length === 0) throw new UsageError("name at least one file to import");
    for (const p of positionals) if (!existsSync(p)) throw new UsageError(`${p} does not exist`);
    // A FIFO (or a link to one) would block the import until someone writes to it: refused at once.
    for (const p of positionals) checkFileOrFolder(p);
    const plies = whole("seed-plies", 1) ?? 32;

    // An SQLite file (a horu book, whatever its name) goes with the books, to be refused in words
    // that say what it is: read as a game record it was "binary data, not text".
    const books = positionals.filter((p) => statSync(p).isFile() && (/\.(db|bin|ybb|sbk)$/i.test(p) || isSqliteFile(p)));
    const records = positionals.filter((p) => !books.includes(p));
    if (!records.length && (thinkPlies !== undefined || values.stats || minCount !== undefined || values["winner-only"])) {
      throw new UsageError("--think-plies, --stats, --min-count and --winner-only apply to game records; none were named");
    }
    const created = !existsSync(values.book);
    if (created) OpenBook.create(values.book, values.root ? { root: values.root } : {}).close();

    const reports: ImportReport[] = [];
    /** Files refused whole (damaged): named at the end, the others imported. */
    const refused: string[] = [];
    /** Files that yielded nothing: named, and the command fails. */
    const empty: string[] = [];
    if (books.length) {
      const store = BookStore.open(values.book, { writer: "horu import" });
      const book = values.book;
      let current = "";
      let batchBefore: number | undefined;
      // Ctrl-C part way through a big book: the chunks stored so far stay, recorded as the
      // file's import; say so and how to take them back (it ended silently with half a book in).
      /** What of the file being imported went in when the import stopped part way (Ctrl-C, a full disk). */
      const stoppedAt = (why: string): string => {
        const newest = store.imports.list()[0];
        const part = newest && newest.batch !== batchBefore ? newest.positions : 0;
        return (
          `${why} while importing ${current}: ` +
          (part > 0
            ? `${part.toLocaleString("en")} position(s) of it went in and stay in ${book} as its import; \`horu import --book ${book} --undo\` takes them back`
            : `nothing of it went in`) +
          (reports.length ? ` (imported whole before it: ${reports.map((r) => r.file).join(", ")})` : "")
        );
      };
      const interrupted = (signal: NodeJS.Signals) => {
        process.stderr.write(`\nhoru import: ${stoppedAt(signal === "SIGINT" ? "interrupted" : signal)}\n`);
        store.close();
        process.exit(130);
      };
      const onSignal = ["SIGINT", "SIGTERM", "SIGHUP"].map((sig) => {
        const listener = () => interrupted(sig as NodeJS.Signals);
        process.on(sig, listener);
        return [sig, listener] as const;
      });
      try {
        for (const file of books) {
          current = file;
          batchBefore = store.imports.list()[0]?.batch;
          // An SQLite file is no .bin/.ybb/.sbk whatever its name: the DB2016 reader refuses it by what it is.
          const ext = isSqliteFile(file) ? ".db" : path.extname(file).toLowerCase();
          let r: ImportReport;
          try {
            r =
              ext === ".bin"
                ? importAperyFile(store, file, values.root ?? settingsFrom(store.settings.all()).settings.root)
                : ext === ".ybb" || ext === ".sbk"
                  ? importBookFile(store, file, ext === ".ybb" ? "ybb" : "sbk")
                  : await importDb2016(store, file, { strict: values.strict });
          } catch (e) {
            // A full disk stops the import: said with what of the file went in (it said "the last
            // result was not stored (earlier results are intact)", a dig's words).
            if (e instanceof StoreFullError) throw new Error(stoppedAt(`${book}: the disk is full`), { cause: e });
            // A damaged file stores nothing and is named; the other files still go in. What is
            // not about the file (a damaged book) stops the import.
            if ((e as { code?: unknown }).code !== undefined || !(e instanceof Error) || !e.message.startsWith(file)) throw e;
            refused.push(file);
            process.stderr.write(`horu import: ${e.message}\n`);
            continue;
          }
          reports.push(r);
          const extra = r.unreachable !== undefined ? `, ${r.unreachable} record(s) unreachable from the root` : "";
          process.stdout.write(
            `${file}: ${r.positions.toLocaleString("en")} positions, ${r.moves.toLocaleString("en")} moves imported in ${(r.ms / 1000).toFixed(2)} s${extra} (${r.added.toLocaleString("en")} new, ${r.joined.toLocaleString("en")} thought positions joined, their own moves kept); ${r.errorCount} problem(s)${leftOut(r)}\n`,
          );
          if (r.positions === 0) {
            empty.push(file);
            process.stdout.write(`  ${file}: nothing imported: no position read from it (is it a ${ext} book?)\n`);
          }
          for (const e of r.errors) process.stdout.write(`  ${e}\n`);
          if (r.errorCount > r.errors.length) process.stdout.write(`  ... and ${r.errorCount - r.errors.length} more\n`);
        }
      } finally {
        for (const [sig, listener] of onSignal) process.off(sig, listener);
        store.close();
      }
    }
    let seeded: ReturnType<typeof seedBook> | null = null;
    if (records.length) {
      const book = OpenBook.open(values.book, {}, { onProgress: openProgress() });
      try {
        seeded = seedBook(book, records, { plies, thinkPlies, storeStats: values.stats, minCount, winnerOnly: values["winner-only"] });
        for (const f of seeded.files) for (const line of seedReportLines(f)) process.stdout.write(line + "\n");
        for (const f of seeded.files) if (f.records === 0 && positionals.includes(f.file)) empty.push(f.file);
        const extra = [
          thinkPlies
            ? `; queued ${seeded.queued.toLocaleString("en")} positions to think (${seeded.queuedNew.toLocaleString("en")} new)`
            : "",
          values.stats ? `; statistics for ${seeded.statsMoves.toLocaleString("en")} (position, move) pairs` : "",
        ].join("");
        process.stdout.write(
          `seeded ${seeded.positions.toLocaleString("en")} positions (${seeded.added.toLocaleString("en")} new)${extra} in ${(seeded.ms / 1000).toFixed(2)} s\n`,
        );
      } finally {
        book.close();
      }
    }
    // A book this command made, into which nothing went (every file refused or empty), goes again:
    // a typo or a wrong file left an empty book behind, listed beside the real ones.
    if (created && reports.every((r) => r.positions === 0) && (seeded === null || seeded.positions === 0)) {
      OpenBook.removeNew(values.book);
      process.stderr.write(`horu import: ${values.book} not kept: nothing went into the book just created\n`);
      return 1;
    }
    // A big book is readied for digging as a dig's close leaves one (graph snapshot, selection's
    // bounds): else the first dig rebuilds the graph and searches the whole book while the engines wait.
    const prepared =
      reports.length || seeded ? prepareForDigging(values.book, { writer: "horu import", onProgress: openProgress() }) : null;
    if (prepared?.prepared)
      process.stdout.write(
        `readied ${prepared.positions.toLocaleString("en")} positions for digging in ${(prepared.ms / 1000).toFixed(1)} s (graph saved, the selection's bounds from ${prepared.searches.length} search(es) of the whole book until they settled, ${(prepared.searchMs / 1000).toFixed(1)} s)\n`,
      );
    if (values.json)
      printJson({
        books: reports,
        prepared,
        seeds: seeded && {
          positions: seeded.positions,
          added: seeded.added,
          queued: seeded.queued,
          queuedNew: seeded.queuedNew,
          statsMoves: seeded.statsMoves,
          ms: seeded.ms,
          files: seeded.files,
        },
      });
    // One file named: its own refusal said it all.
    if (refused.length && positionals.length > 1)
      process.stderr.write(
        `horu import: refused ${refused.join(", ")} (nothing of ${refused.length === 1 ? "it" : "them"} stored)${reports.length || seeded ? "; the other files went in as listed above" : ""}\n`,
      );
    if (empty.length) process.stderr.write(`horu import: nothing came from ${empty.join(", ")}\n`);
    return refused.length || empty.length ? 1 : 0;
  },
};
