// The host service behind the UI contract (shared/api/contract.ts): one open book, its dig,
// engines, seeding and export. Transports (Electron IPC, `horu web`, a worker thread) only
// validate calls with parseCall and hand them to `call`; events go to every listener.
// HostService keeps the open book and wires the parts together: the call table (built once),
// the dig session (dig-session.ts), the book views (book-views.ts), uploads (uploads.ts),
// imports (imports.ts) and backups (backups.ts).
// Kept as one file over 600 lines: the call table, every method of the contract against its
// handler, is read as one list; the work behind each handler lives in the files named above.

import { existsSync, writeFileSync, readFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { checkFileOrFolder } from "../fs/safe-file.js";
import { userError } from "../../shared/api/contract.js";
import type {
  BookInfo,
  DigStatus,
  EngineConfigView,
  EngineInput,
  EngineTestResult,
  EnginesFoundView,
  HostEvent,
  ImportReportView,
  Method,
  ParsedArgs,
  Result,
  SeedReportView,
} from "../../shared/api/contract.js";
import { OpenBook, SNAPSHOT_MIN_POSITIONS, lineTo, type OpenProgress } from "../book/open-book.js";
import { BookLockedError } from "../store/book-store.js";
import { backupInto, beforeRestoreFile, isBeforeRestore, listBackups } from "../book/backup.js";
import { MatchController } from "../match/controller.js";
import type { Dig, DigEvent } from "../dig/dig.js";
import { seedReportView } from "../book/seed.js";
import { seedInThread } from "../book/seed-thread.js";
import { exportBook } from "../export/export.js";
import { planExportTarget } from "../export/export-target.js";
import { EngineOptionError, UsiEngine, type UsiEngineOptions } from "../engines/usi/engine.js";
import { QualitySession } from "./quality-session.js";
import { AnalysisSession } from "./analysis-session.js";
import { parseCommandLine } from "../engines/argv.js";
import { EngineLibrary, bookEngineView } from "../engines/library.js";
import { builtinCandidates, chooseEngines, detectedCandidates, specFromConfig } from "../engines/choose.js";
import { isBuiltinCommand } from "../engines/builtin.js";
import { configDir, documentsDir } from "../engines/places.js";
import { userErrorIfCorrectable } from "./errors.js";
import { sameFile } from "../paths/same-file.js";
import { Confinement } from "./confine.js";
import { DigSession } from "./dig-session.js";
import { banPage, bookInfo, graphNodeViews, nodeView } from "./book-views.js";
import { Uploads, withUploadedRecords } from "./uploads.js";
import { asUploadReports, checkImportPaths, importBookFiles } from "./imports.js";
import { BackupTimer, backupDir, backupView, checkBackup, swapInBackup } from "./backups.js";

const RECENT_MAX = 10;
/** How often a read-only window looks for what the digging process committed. */
const FOLLOW_EVERY_MS = 1000;

export interface ServiceOptions {
  /** Where the list of recent books is kept (a JSON file); none when omitted. */
  recentFile?: string;
  /** The config folder holding the engine library (default: the platform's, or $HORU_CONFIG_DIR). */
  configDir?: string;
  /** Where the first run's book goes (default: the documents folder, or $HORU_DOCUMENTS_DIR). */
  documentsDir?: string;
  /**
   * `horu web` without --allow-server-paths (confine.ts, docs/SECURITY.md): only engines
   * horu already runs, exports and backups only into the book's folder, only the book's own
   * backups restored. Off for the desktop app and the CLI.
   */
  confine?: boolean;
  /** The confined page's folder before any book is open (horu web --book's folder); else the working folder. */
  folder?: string;
}

/** The call table: one handler per method of the contract (a missing or extra one is a type error). */
export type Routes = { [K in Method]: (args: ParsedArgs<K>) => Promise<Result<K>> | Result<K> };

export class HostService {
  private book: OpenBook | null = null;
  private readonly listeners = new Set<(e: HostEvent) => void>();
  private recent: string[] = [];
  readonly library: EngineLibrary;
  private followTimer: ReturnType<typeof setInterval> | null = null;
  private readonly emitter = (e: HostEvent): void => this.emit(e);
  private readonly session = new DigSession(this.emitter, () => this.book);
  private readonly backups = new BackupTimer(this.emitter, () => this.confined !== null);
  /** Live analysis (検討), in its own engine process. */
  readonly analysis = new AnalysisSession((e) => this.emit(e));
  private readonly quality = new QualitySession((e) => this.emit(e));
  private readonly match = new MatchController((status) => this.emit({ type: "match.status", status }));
  /** Book files coming up from a browser in pieces, each in a private temporary folder. */
  private readonly uploads = new Uploads();
  private readonly routes: Routes;
  /** Set when the calls come from a page that may not name files or commands (options.confine). */
  private readonly confined: Confinement | null;

  constructor(private readonly options: ServiceOptions = {}) {
    this.library = new EngineLibrary(options.configDir ?? configDir());
    this.confined = options.confine ? new Confinement(this.library) : null;
    try {
      if (options.recentFile && existsSync(options.recentFile)) {
        const list: unknown = JSON.parse(readFileSync(options.recentFile, "utf8"));
        if (Array.isArray(list)) this.recent = list.filter((x): x is string => typeof x === "string").slice(0, RECENT_MAX);
      }
    } catch {
      // a damaged recent list is just forgotten
    }
    this.routes = this.makeRoutes();
  }

  onEvent(listener: (e: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: HostEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // one listener's failure must not stop the others
      }
    }
  }

  /** Runs a call whose arguments were validated by parseCall. */
  async call<M extends Method>(method: M, args: ParsedArgs<M>): Promise<Result<M>> {
    const handler = this.routes[method] as (args: ParsedArgs<M>) => Promise<Result<M>> | Result<M>;
    try {
      return await handler(args);
    } catch (e) {
      throw userErrorIfCorrectable(e);
    }
  }

  private makeRoutes(): Routes {
    return {
      "book.create": (x) => {
        this.notAttached("book.create");
        // Confined: only in the open book's folder (else the one horu web started in), relative names read from it.
        const file = this.confined ? this.confined.bookInFolder("book.create", this.pageFolder(), x.path) : x.path;
        return this.openBook(OpenBook.create(file, x.settings ?? {}));
      },
      "book.open": (x) => {
        if (!existsSync(x.path)) throw userError(`${x.path} does not exist`, { key: "missingFile", params: { path: x.path } });
        // The book this host already holds: nothing to open (opening it again would find our own lock).
        if (this.book && sameFile(this.book.store.path, x.path)) {
          const info = bookInfo(this.book);
          this.emit({ type: "book.changed", info });
          return info;
        }
        this.notAttached("book.open");
        return this.openBook(openOrFollow(x.path, this.opening(x.path)));
      },
      "book.close": async () => {
        this.notAttached("book.close");
        await this.closeBook();
        return null;
      },
      "book.info": () => (this.book ? bookInfo(this.book) : null),
      "book.recent": () => this.recent,
      "book.updateSettings": (x) => {
        // Applied to the open book, digging, paused or idle: nothing is reopened.
        const book = this.requireWritable();
        book.updateSettings(x.settings);
        const info = bookInfo(book);
        this.emit({ type: "book.changed", info });
        return info;
      },
      "book.node": (x) => nodeView(this.requireBook(), "sfen" in x ? { sfen: x.sfen } : { line: x.line }),
      "book.graph": (x) => {
        const book = this.requireBook();
        return graphNodeViews(book, x.sfens);
      },
      "book.lineTo": (x) => lineTo(this.requireBook(), x.sfen),
      "book.bans": (x) => banPage(this.requireBook(), x.offset, x.limit),
      "book.thinkNow": (x) =>
        this.edited(() => (x.deeper ? this.requireWritable().edits.thinkDeeper(x.sfen) : this.requireWritable().edits.thinkNow(x.sfen))),
      "book.addMove": (x) => this.edited(() => this.requireWritable().edits.addMove(x.sfen, x.move)),
      "book.retry": (x) => this.edited(() => this.requireWritable().edits.retry(x.sfen)),
      "book.unban": (x) => this.edited(() => this.requireWritable().edits.unban(x.sfen, x.move)),
      "book.prune": (x) => {
        const book = this.requireWritable();
        if (this.session.digging) throw userError("stop the dig before pruning", { key: "stopDigFirst" });
        const r = book.edits.prune(x.sfen);
        void this.openBook(this.reopen(book));
        return r;
      },
      "book.undoImport": async () => {
        const book = this.requireWritable();
        if (this.session.digging) throw userError("stop the dig before undoing an import", { key: "stopDigFirst" });
        const r = book.store.imports.undo();
        // The graph cannot drop nodes: rebuilt from the store, as after an import.
        await this.openBook(this.reopen(book));
        return r;
      },
      "book.undoPrune": () => {
        if (this.session.digging) throw userError("stop the dig before undoing a prune", { key: "stopDigFirst" });
        return this.edited(() => this.requireWritable().edits.undoPrune());
      },
      "book.comment": (x) => {
        this.requireWritable().edits.comment(x.sfen, x.text);
        return null;
      },
      "book.import": (x) => this.importBooks(x.paths, x.strict),
      "upload.begin": (x) => {
        this.requireWritable();
        return this.uploads.begin(x.name, x.size);
      },
      "upload.chunk": (x) => this.uploads.chunk(x.id, x.offset, x.base64),
      "upload.abort": (x) => {
        this.uploads.drop(x.id);
        return null;
      },
      "book.importUpload": async (x) => {
        const up = this.uploads.take(x.id);
        try {
          return asUploadReports(await this.importBooks([up.file], x.strict), up);
        } finally {
          this.uploads.drop(x.id);
        }
      },

      "backup.now": async (x) => {
        const book = this.requireBook();
        const dir =
          x.dir === undefined
            ? this.backupFolder(book)
            : (this.confined?.folderIsBookFolder("backup.now", book.store.path, x.dir) ?? x.dir);
        this.rateLimitBackup();
        const file = await backupInto(book.store, dir);
        return backupView(file);
      },
      "backup.list": () => {
        const book = this.requireBook();
        const folder = this.backupFolder(book);
        const files = listBackups(folder, book.store.path);
        // A restore keeps the book as it was beside it, also when backups go elsewhere: listed too, to undo it.
        const beside = path.dirname(path.resolve(book.store.path));
        if (path.resolve(folder) !== beside) files.push(...listBackups(beside, book.store.path).filter(isBeforeRestore));
        files.sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
        return files.map(backupView).reverse();
      },
      "backup.schedule": (x) => {
        const book = this.requireWritable();
        const schedule = x.schedule ? { ...x.schedule } : undefined;
        // Confined: stored as the book's folder itself, so no later reading of a relative name can differ.
        if (schedule?.dir)
          schedule.dir = this.confined?.folderIsBookFolder("backup.schedule", book.store.path, schedule.dir) ?? schedule.dir;
        book.store.settings.set("backupSchedule", schedule);
        this.backups.start(book);
        const info = bookInfo(book);
        this.emit({ type: "book.changed", info });
        return info;
      },
      "backup.restore": (x) => {
        this.notAttached("backup.restore");
        return this.restore(x.path);
      },

      // The engine library is the app's, not the book's: every book digs with the same engines.
      "engines.list": () => this.library.list(),
      "engines.add": (x) => {
        const e = engineRecord(x);
        this.confined?.engine("engines.add", e);
        this.confined?.engineOptions("engines.add", e);
        checkOptionLines(e.options);
        specFromConfig(e); // a path that does not exist is refused here, not at the first dig
        return this.library.add(e);
      },
      "engines.update": (x) => {
        const e = engineRecord(x);
        this.confined?.engine("engines.update", e);
        this.confined?.engineOptions("engines.update", e);
        checkOptionLines(e.options);
        if (!this.library.list().some((k) => k.id === x.id))
          throw userError(`engines.update: there is no engine ${x.id} in the library`, { key: "unknownEngine", params: { id: x.id } });
        return this.library.update({ id: x.id, ...e });
      },
      "engines.remove": (x) => {
        if (!this.library.list().some((k) => k.id === x.id))
          throw userError(`engines.remove: there is no engine ${x.id} in the library`, { key: "unknownEngine", params: { id: x.id } });
        this.library.remove(x.id);
        return null;
      },
      "engines.test": (x) => {
        let spec: UsiEngineOptions;
        try {
          // A refused command line is the test's answer, shown where the engine's own error would be.
          this.confined?.engine("engines.test", engineRecord(x));
          this.confined?.engineOptions("engines.test", engineRecord(x));
          checkOptionLines(engineRecord(x).options);
          spec = specFromConfig(engineRecord(x));
        } catch (e) {
          const k = (e as { key?: unknown; params?: unknown } | null) ?? {};
          return {
            ok: false,
            error: e instanceof Error ? e.message : String(e),
            stderr: [],
            ...(typeof k.key === "string" ? { key: k.key, params: k.params as Record<string, string> } : {}),
          };
        }
        return testEngine(spec);
      },
      "engines.found": () => this.enginesFound(),
      "engines.ofBook": () => (this.book ? this.library.notInLibrary(this.book.store.engines.list()).map(bookEngineView) : []),
      "book.quickStart": (x) => {
        this.notAttached("book.quickStart");
        return this.quickStart(x.path, x.processes);
      },

      "dig.start": (x) => this.startDig(x.processes, x.positions, x.seconds),
      "dig.pause": () => {
        this.session.pause();
        return this.status();
      },
      "dig.resume": () => {
        this.session.resume();
        return this.status();
      },
      "dig.stop": async () => {
        await this.stopDig();
        return this.status();
      },
      "dig.status": () => this.status(),
      "dig.history": () => this.book?.store.chart.all() ?? [],

      "seed.paths": (x) => {
        this.requireWritable();
        return this.seed(x.paths, x.plies, x.thinkPlies);
      },
      "seed.upload": (x) => {
        this.requireWritable();
        // Stored and reported under the names the user picked, not the temporary files' paths.
        return withUploadedRecords(x.files, (paths) =>
          this.seed(
            paths,
            x.plies,
            x.thinkPlies,
            x.files.map((f) => f.name),
          ),
        );
      },

      // Only engines of the library: the page names one by its id, never a command line.
      "analysis.start": (x) => {
        const e = this.library.get(x.engineId);
        if (!e) throw userError(`no engine ${x.engineId} in the library`, { key: "engineNotInLibrary", params: { id: x.engineId } });
        return this.analysis.start(e.id, specFromConfig(e), x.sfen, x.multipv);
      },
      "analysis.stop": async () => {
        await this.analysis.stop();
        return null;
      },
      // Only engines of the library, as for analysis; without one, the figures the book keeps.
      "quality.start": (x) => {
        const book = this.requireBook();
        let spec = null;
        if (x.engineId !== undefined) {
          const e = this.library.get(x.engineId);
          if (!e) throw userError(`no engine ${x.engineId} in the library`, { key: "engineNotInLibrary", params: { id: x.engineId } });
          spec = specFromConfig(e);
        }
        return this.quality.start(book.store.path, spec, x.processes, x);
      },
      "quality.stop": () => this.quality.stop(),
      "quality.status": () => this.quality.status(),
      "match.start": (x) => this.match.start(x),
      "match.open": (x) => this.match.open(x.dir),
      "match.stop": () => this.match.stop(),
      "match.status": () => this.match.status(),
      "export.plan": (x) => {
        const book = this.requireBook();
        // Confined: a path outside the book's folder is refused before anything looks at it.
        this.confined?.fileInBookFolder("export.plan", book.store.path, x.path);
        return planExportTarget(x.path, path.dirname(book.store.path), book.store.path);
      },
      "export.run": (x) => {
        const book = this.requireBook();
        const folder = path.dirname(book.store.path);
        this.confined?.fileInBookFolder("export.run", book.store.path, x.path);
        return exportBook(book, { ...x, folder, overwriteHint: "confirm replacing it" }, (done, total) =>
          this.emit({ type: "export.progress", done, total }),
        );
      },
    };
  }

  // --- Book ------------------------------------------------------------------------

  private requireBook(): OpenBook {
    if (!this.book) throw userError("no book is open: create or open one first", { key: "noBookOpen" });
    return this.book;
  }

  /** The open book, refusing when this window only follows it (another process writes). */
  private requireWritable(): OpenBook {
    const book = this.requireBook();
    if (book.store.readonly) {
      const h = book.store.lockHolder();
      throw h
        ? userError(`read-only: pid ${h.pid} on ${h.host} is writing this book; stop that process to change it here`, {
            key: "readOnlyHeld",
            params: {
              pid: h.pid,
              host: h.host,
            },
          })
        : userError("read-only: this book was opened while another process was writing it; open it again to write", { key: "readOnly" });
    }
    return book;
  }

  /** Runs an edit and tells every window that the book changed (counts, queue, bans). */
  private edited<T>(fn: () => T): T {
    const r = fn();
    if (this.book) this.emit({ type: "book.changed", info: bookInfo(this.book) });
    return r;
  }

  // --- Following a book another process writes -------------------------------------

  private startFollowing(book: OpenBook): void {
    this.stopFollowing();
    if (!book.store.readonly) return;
    let statusAt = 0;
    this.followTimer = setInterval(() => {
      if (this.book !== book) return this.stopFollowing();
      try {
        const before = book.graph.generation;
        book.follower.follow();
        if (book.graph.generation !== before) {
          this.emit({ type: "book.changed", info: bookInfo(book) });
          // The status carries the plain book value, a full search: not more than every 5 s.
          if (Date.now() - statusAt >= 5000) {
            statusAt = Date.now();
            this.emit({ type: "dig.status", status: this.status() });
          }
        }
      } catch (e) {
        this.session.fail(e instanceof Error ? e.message : String(e));
      }
    }, FOLLOW_EVERY_MS);
  }

  private stopFollowing(): void {
    if (this.followTimer) clearInterval(this.followTimer);
    this.followTimer = null;
  }

  // --- Backups, imports ------------------------------------------------------------

  /** Replaces the open book by a backup, keeping the book as it was beside it (backups.ts). */
  private async restore(from: string): Promise<BookInfo> {
    return this.exclusive("restore", () => this.restoreNow(from));
  }

  private async restoreNow(from: string): Promise<BookInfo> {
    const book = this.requireWritable();
    const file = book.store.path;
    this.confined?.ownBackup(file, from);
    checkBackup(from, file);
    // The book as it was, copied by the live connection (SQLite's backup): it holds everything
    // acknowledged, whether in the book file or still in its -wal (which another process
    // following the book may keep from being checkpointed).
    // The dig and the schedule stop first: nothing is acknowledged after this copy.
    await this.session.end();
    await this.backups.stop();
    const kept = beforeRestoreFile(file, new Date());
    await book.store.backup(kept);
    book.store.checkpoint();
    await this.closeBook();
    swapInBackup(from, file);
    const info = await this.openBook(OpenBook.open(file, {}, { onProgress: this.opening(file) }));
    this.book?.store.log.add("info", "restore", `restored from ${from}; the book before is kept as ${kept}`);
    return info;
  }

  private async importBooks(paths: string[], strict = false): Promise<ImportReportView[]> {
    const book = this.requireWritable();
    if (this.session.digging) throw userError("stop the dig before importing a book", { key: "stopDigFirst" });
    return this.exclusive("import", async () => {
      checkImportPaths(paths);
      try {
        return await importBookFiles(book, paths, this.emitter, { strict });
      } finally {
        // The graph is rebuilt from the store, whatever part of the import was stored.
        await this.openBook(this.reopen(book));
      }
    });
  }

  /** The long write that runs now (an import, a restore): another is refused with 409 (key bookBusy), never run beside it. */
  private busy: string | null = null;
  private async exclusive<T>(what: string, run: () => Promise<T>): Promise<T> {
    if (this.busy)
      throw userError(`the book is busy with ${this.busy === "import" ? "an import" : "a restore"}: try again when it is done`, {
        key: "bookBusy",
        params: { what: this.busy },
      });
    this.busy = what;
    try {
      return await run();
    } finally {
      this.busy = null;
    }
  }

  private async openBook(book: OpenBook): Promise<BookInfo> {
    if (this.book && this.book !== book) await this.closeBook();
    // A finished dig's figures belong to the book as it was (before an import, a new root):
    // the status now previews the book as opened.
    if (!this.session.digging) await this.session.end();
    // The selection's parent lists come with the graph snapshot; without one (a rebuilt graph,
    // an older snapshot) they are built in one pass over the graph at the first change (a dig's
    // first hand-out, a followed book's first new position): 0.3 s at 1M positions, 7 s at 15M
    // (2 shared cores), during which no call is answered. Built here instead, while the open is
    // being waited for anyway (shown as linking moves on a big book).
    const linking = book.graph.pHead === null && book.graph.nodeCount >= SNAPSHOT_MIN_POSITIONS ? this.opening(book.store.path) : null;
    linking?.({ phase: "links", done: 0, total: book.graph.nodeCount });
    book.graph.ensureParents();
    linking?.({ phase: "links", done: book.graph.nodeCount, total: book.graph.nodeCount });
    this.book = book;
    this.homeFolder ??= path.dirname(path.resolve(book.store.path));
    this.startFollowing(book);
    this.backups.start(book);
    this.recent = [book.store.path, ...this.recent.filter((p) => p !== book.store.path)].slice(0, RECENT_MAX);
    if (this.options.recentFile) {
      try {
        mkdirSync(path.dirname(this.options.recentFile), { recursive: true });
        writeFileSync(this.options.recentFile, JSON.stringify(this.recent));
      } catch {
        // the recent list is a convenience; failing to save it must not fail the open
      }
    }
    const info = bookInfo(book);
    this.emit({ type: "book.changed", info });
    this.emit({ type: "dig.status", status: this.status() });
    return info;
  }

  /** The folder a confined page may create books in: the open (or last opened) book's, else the one horu web started in. */
  private pageFolder(): string {
    return this.book
      ? path.dirname(path.resolve(this.book.store.path))
      : (this.homeFolder ?? this.options.folder ?? this.options.documentsDir ?? documentsDir());
  }

  /** The folder of the first book this host opened (horu web --book): where a confined page creates books once none is open. */
  private homeFolder: string | null = null;
  private lastBackups: number[] = [];
  /** backup.now from a page: at most BACKUP_BURST full copies a minute (each is the whole book). */
  private rateLimitBackup(): void {
    if (!this.confined) return;
    const now = Date.now();
    this.lastBackups = this.lastBackups.filter((t) => now - t < 60_000);
    if (this.lastBackups.length >= BACKUP_BURST)
      throw userError(`backup.now: at most ${BACKUP_BURST} backups a minute; wait a little`, { key: "backupRateLimited" });
    this.lastBackups.push(now);
  }

  /** Where the book's backups go and are listed: the schedule's folder, but never outside the book's folder when confined. */
  private backupFolder(book: OpenBook): string {
    return this.confined ? path.dirname(book.store.path) : backupDir(book);
  }

  private enginesFound(): EnginesFoundView {
    const state = this.library.load();
    const limit = this.book?.settings.limit;
    const choice = chooseEngines({ library: this.library, limit });
    return {
      libraryFile: this.library.file,
      libraryProblem: state.problem,
      detected: detectedCandidates(),
      builtin: builtinCandidates(),
      choice: { source: choice.source, names: choice.configs.map((c) => c.name), why: choice.why, warnings: choice.warnings },
      newBookPath: this.newBookPath(),
    };
  }

  /** horu-YYYY-MM-DD.horu in the documents folder; -2, -3... when that name is taken. */
  private newBookPath(): string {
    const dir = this.options.documentsDir ?? documentsDir();
    const d = new Date();
    const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    for (let i = 1; ; i++) {
      const file = path.join(dir, `horu-${date}${i > 1 ? `-${i}` : ""}.horu`);
      if (!existsSync(file)) return file;
    }
  }

  /** The first run's one action: create a book (documents folder, dated name) and dig it with the best engine found. */
  private async quickStart(file: string | undefined, processes: number | undefined): Promise<{ info: BookInfo; status: DigStatus }> {
    if (this.session.digging) throw userError("already digging: stop the dig first", { key: "stopDigFirst" });
    // Confined: the new book goes into the page's folder like book.create's (with no book open: the documents folder).
    const target = this.confined
      ? this.confined.bookInFolder("book.quickStart", this.pageFolder(), file ?? path.basename(this.newBookPath()))
      : (file ?? this.newBookPath());
    if (existsSync(target)) throw userError(`${target} already exists: open it instead`, { key: "exists", params: { path: target } });
    mkdirSync(path.dirname(target), { recursive: true });
    const info = await this.openBook(OpenBook.create(target, {}));
    const status = await this.startDig(processes ?? 1);
    return { info, status };
  }

  private reopen(book: OpenBook): OpenBook {
    const file = book.store.path;
    this.stopFollowing();
    book.close();
    this.book = null;
    return OpenBook.open(file, {}, { onProgress: this.opening(file) });
  }

  /** Progress of a book being opened, for the UI (a big book's first open rebuilds its graph). */
  private opening(file: string): (p: OpenProgress) => void {
    return (p) => this.emit({ type: "book.opening", path: file, phase: p.phase, done: p.done, total: p.total });
  }

  /** Ends a match played here (its games in progress are replayed when it is opened again). */
  async closeMatch(): Promise<void> {
    await this.match.close();
  }

  async closeBook(): Promise<void> {
    this.uploads.dropAll();
    await this.analysis.stop();
    await this.quality.close();
    await this.session.end();
    this.stopFollowing();
    await this.backups.stop();
    this.book?.close();
    this.book = null;
    this.emit({ type: "book.changed", info: null });
  }

  // --- Dig ---------------------------------------------------------------------------

  private async startDig(processes: number, positions?: number, seconds?: number): Promise<DigStatus> {
    const book = this.requireWritable();
    return this.session.start(book, this.library, processes, positions, seconds);
  }

  /**
   * Serves a dig this process runs (`horu dig --web`): windows see it live and may pause,
   * resume or stop it. Returns the listener the dig's events must go to.
   */
  attach(book: OpenBook, dig: Dig, run: Promise<unknown>): (e: DigEvent) => void {
    this.book = book;
    this.attached = true;
    const listener = this.session.attach(dig, run);
    this.emit({ type: "book.changed", info: bookInfo(book) });
    return listener;
  }

  /** Serving `horu dig --web`: the book is the command's, which ends with its dig. */
  private attached = false;

  /**
   * Under `horu dig --web` the page may not close or replace the dig's book: the command ends
   * with it (a restore there stopped the dig, restored nothing and the page lost its server).
   */
  private notAttached(method: string): void {
    if (this.attached)
      throw userError(
        `${method}: this page serves horu dig --web, which owns ${this.book?.store.path ?? "its book"}: stop that dig (Ctrl-C where it runs), then open the book with horu web to do this`,
        { key: "digOwnsBook", params: { method } },
      );
  }

  async stopDig(): Promise<void> {
    await this.session.stop();
  }

  /** The dig's status (dig-session.ts): counters while digging, the book's value when idle. */
  status(): DigStatus {
    const s = this.session.status();
    // Before Start: which engines a dig would use, chosen as dig.start chooses them (after a
    // dig too: the library may have changed since that dig chose its engines).
    if ((s.state === "idle" || s.state === "stopped") && this.book && !this.book.store.readonly) {
      try {
        const c = chooseEngines({ library: this.library, limit: this.book.settings.limit });
        return { ...s, choice: { source: c.source, names: c.configs.map((x) => x.name), why: c.why, warnings: c.warnings } };
      } catch {
        return s; // said at Start, as before
      }
    }
    return s;
  }

  /** Seeds the open book: the records are read and planned on a thread of their own (seed-thread.ts), so other calls answer meanwhile. */
  private async seed(paths: string[], plies?: number, thinkPlies?: number, sources?: string[]): Promise<SeedReportView> {
    const book = this.requireWritable();
    // A FIFO named (or linked) would block the seeding thread until someone writes to it: refused at once.
    for (const p of paths) checkFileOrFolder(p);
    // Game statistics too, so the book's 対局数 (games) column counts the seeded games.
    const report = await seedInThread(book, paths, { plies, thinkPlies, storeStats: true, sources }, () => this.book === book);
    return seedReportView(report);
  }
}

/** Opens a book for writing; when another process holds its writer lock, read-only (this window follows that dig). */
function openOrFollow(file: string, onProgress: (p: OpenProgress) => void): OpenBook {
  try {
    return OpenBook.open(file, {}, { onProgress });
  } catch (e) {
    if (e instanceof BookLockedError) return OpenBook.open(file, {}, { readonly: true, onProgress });
    throw e;
  }
}

/** An option's name or value with a line break would reach the engine as another command: refused (protocol.ts refuses it again). */
const BACKUP_BURST = 6;

function checkOptionLines(options: Record<string, string | number | boolean> | undefined): void {
  for (const [name, value] of Object.entries(options ?? {}))
    if (/[\r\n\0]/.test(name) || (typeof value === "string" && /[\r\n\0]/.test(value)))
      throw userError(`the engine option ${JSON.stringify(name.slice(0, 80))} has a line break in its name or value`, {
        key: "engineOptionLineBreak",
        params: { name: name.slice(0, 80) },
      });
}

function engineRecord(x: EngineInput): Omit<EngineConfigView, "id"> {
  const [command, ...args] = isBuiltinCommand(x.commandLine.trim()) ? [x.commandLine.trim()] : parseCommandLine(x.commandLine);
  if (!command) throw userError("the engine command line is empty", { key: "engineCommandEmpty" });
  const name =
    x.name ||
    (isBuiltinCommand(command) ? (builtinCandidates().find((b) => b.commandLine === command)?.name ?? command) : path.basename(command));
  return { name, command, args, cwd: x.cwd ?? null, options: x.options ?? {}, enabled: x.enabled ?? true };
}

async function testEngine(spec: UsiEngineOptions): Promise<EngineTestResult> {
  const stderr: string[] = [];
  const engine = new UsiEngine({ ...spec, log: (l) => l.stream === "stderr" && stderr.push(l.line) });
  try {
    const h = await engine.start();
    return { ok: true, idName: h.idName, idAuthor: h.idAuthor, options: h.options, stderr };
  } catch (e) {
    // An option value the engine does not take: the engine's options still come, so the form shows what it takes.
    const options = e instanceof EngineOptionError ? engine.handshake.options : undefined;
    return { ok: false, error: e instanceof Error ? e.message : String(e), stderr, ...(options ? { options } : {}) };
  } finally {
    await engine.quit().catch(() => engine.kill());
  }
}
