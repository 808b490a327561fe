// The host service behind the UI contract (shared/api/contract.ts): one open book, its dig,
// engines, seeding and export. Transports (Electron IPC, `horu web`, a worker thread) only
// validate calls with parseCall and hand them to `call`; events go to every listener.

import {
  existsSync,
  statSync,
  mkdtempSync,
  writeFileSync,
  rmSync,
  readFileSync,
  copyFileSync,
  renameSync,
  mkdirSync,
  openSync,
  writeSync,
  closeSync,
  statfsSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { SEED_UPLOAD_MAX_BYTES, UPLOAD_CHUNK_BYTES, userError } from "../../shared/api/contract.js";
import type {
  BanPage,
  BanView,
  BookInfo,
  DigStatus,
  EngineConfigView,
  EngineInput,
  EngineTestResult,
  EnginesFoundView,
  EngineChoiceView,
  HostEvent,
  LogView,
  Method,
  MoveView,
  NodeView,
  ParsedArgs,
  Result,
  SeedReportView,
  TreeView,
  BoundName,
  MoveState,
  GraphNodeView,
  GraphEdgeView,
  GraphNodeState,
} from "../../shared/api/contract.js";
import { OpenBook, lineTo, type OpenProgress } from "../book/open-book.js";
import { BookLockedError } from "../store/book-store.js";
import { BackupSchedule, backupInto, listBackups, backupFileName } from "../book/backup.js";
import { importDb2016, importAperyFile } from "../book/import.js";
import { MatchController } from "../match/controller.js";
import type { BackupSchedule as BackupScheduleView, BackupView, ImportReportView } from "../../shared/api/contract.js";
import { Dig, type DigEvent } from "../dig/dig.js";
import { seedBook } from "../book/seed.js";
import { exportBook } from "../export/export.js";
import { planExportTarget } from "../export/export-target.js";
import { BookOpenError } from "../store/errors.js";
import { SfenError } from "../../shared/rules/position.js";
import { Db2016Error } from "../../shared/formats/db2016.js";
import { UsiEngine, parseCommandLine, type UsiEngineOptions } from "../engines/usi/engine.js";
import { EngineLibrary } from "../engines/library.js";
import { builtinCandidates, chooseEngines, detectedCandidates, specFromConfig } from "../engines/choose.js";
import { isBuiltinCommand } from "../engines/builtin.js";
import { configDir, documentsDir } from "../engines/places.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../shared/rules/usi.js";
import { kifMove } from "../../shared/formats/notation.js";
import { BOUND_EXACT, BOUND_LOWER } from "../../shared/book/select.js";
import { EDGE_KIFU } from "../../shared/book/graph.js";
import { thoughtParentPositions, thoughtParents } from "../../shared/book/link.js";
import type { UsiInfo } from "../../shared/usi/info.js";

const RECENT_MAX = 10;
const INFO_EVERY_MS = 200;
/** How often a read-only window looks for what the digging process committed. */
const FOLLOW_EVERY_MS = 1000;

/** An error the UI translates by its key (the message is the English text). */
export function keyed(key: string, message: string, params?: Record<string, string | number>): Error {
  // Every keyed message is one the user can act on: code "user" (HTTP 400 in web mode).
  return Object.assign(new Error(message), { key, code: "user", ...(params ? { params } : {}) });
}

export interface ServiceOptions {
  /** Where the list of recent books is kept (a JSON file); none when omitted. */
  recentFile?: string;
  /** The config folder holding the engine library (default: the platform's, or $HORU_CONFIG_DIR). */
  configDir?: string;
  /** Where the first run's book goes (default: the documents folder, or $HORU_DOCUMENTS_DIR). */
  documentsDir?: string;
}

interface Upload {
  name: string;
  size: number;
  dir: string;
  file: string;
  /** Open for writing until the import starts (-1 after). */
  fd: number;
  received: number;
  touched: number;
}

export class HostService {
  private book: OpenBook | null = null;
  private dig: Dig | null = null;
  private digRun: Promise<unknown> | null = null;
  private lastStatus: DigStatus | null = null;
  private lastError: string | null = null;
  private readonly listeners = new Set<(e: HostEvent) => void>();
  private recent: string[] = [];
  private readonly pendingInfo = new Map<number, UsiInfo>();
  private infoTimer: ReturnType<typeof setTimeout> | null = null;
  private choice: EngineChoiceView | null = null;
  readonly library: EngineLibrary;
  private followTimer: ReturnType<typeof setInterval> | null = null;
  private backups: BackupSchedule | null = null;
  private readonly match = new MatchController((status) => this.emit({ type: "match.status", status }));
  /** Book files coming up from a browser in pieces, each in a private temporary folder. */
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly options: ServiceOptions = {}) {
    this.library = new EngineLibrary(options.configDir ?? configDir());
    try {
      if (options.recentFile && existsSync(options.recentFile)) {
        const list: unknown = JSON.parse(readFileSync(options.recentFile, "utf8"));
        if (Array.isArray(list)) this.recent = list.filter((x): x is string => typeof x === "string").slice(0, RECENT_MAX);
      }
    } catch {
      // a damaged recent list is just forgotten
    }
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
    const a = args as never;
    const handlers: { [K in Method]: (args: ParsedArgs<K>) => Promise<Result<K>> | Result<K> } = {
      "book.create": (x) => this.openBook(OpenBook.create(x.path, x.settings ?? {})),
      "book.open": (x) => {
        if (!existsSync(x.path)) throw keyed("missingFile", `${x.path} does not exist`, { path: x.path });
        // The book this host already holds: nothing to open (opening it again would find our own lock).
        if (this.book && sameFile(this.book.store.path, x.path)) {
          const info = this.info(this.book);
          this.emit({ type: "book.changed", info });
          return info;
        }
        return this.openBook(openOrFollow(x.path, this.opening(x.path)));
      },
      "book.close": async () => {
        await this.closeBook();
        return null;
      },
      "book.info": () => (this.book ? this.info(this.book) : null),
      "book.recent": () => this.recent,
      "book.updateSettings": (x) => {
        // Applied to the open book, digging, paused or idle: nothing is reopened.
        const book = this.requireWritable();
        book.updateSettings(x.settings);
        const info = this.info(book);
        this.emit({ type: "book.changed", info });
        return info;
      },
      "book.node": (x) => this.node("sfen" in x ? { sfen: x.sfen } : { line: x.line }),
      "book.tree": (x) => this.tree(x.sfen, x.depth),
      "book.graph": (x) => x.sfens.map((sfen) => this.graphNode(sfen)),
      "book.lineTo": (x) => lineTo(this.requireBook(), x.sfen),
      "book.bans": (x) => this.bans(x.offset, x.limit),
      "book.thinkNow": (x) =>
        this.edited(() => (x.deeper ? this.requireWritable().thinkDeeper(x.sfen) : this.requireWritable().thinkNow(x.sfen))),
      "book.addMove": (x) => this.edited(() => this.requireWritable().addMove(x.sfen, x.move)),
      "book.retry": (x) => this.edited(() => this.requireWritable().retry(x.sfen)),
      "book.unban": (x) => this.edited(() => this.requireWritable().unban(x.sfen, x.move)),
      "book.prune": (x) => {
        const book = this.requireWritable();
        if (this.digging) throw keyed("stopDigFirst", "stop the dig before pruning");
        const r = book.prune(x.sfen);
        void this.openBook(this.reopen(book));
        return r;
      },
      "book.undoPrune": () => {
        if (this.digging) throw keyed("stopDigFirst", "stop the dig before undoing a prune");
        return this.edited(() => this.requireWritable().undoPrune());
      },
      "book.comment": (x) => {
        this.requireWritable().comment(x.sfen, x.text);
        return null;
      },
      "book.import": (x) => this.importBooks(x.paths),
      "upload.begin": (x) => this.uploadBegin(x.name, x.size),
      "upload.chunk": (x) => this.uploadChunk(x.id, x.offset, x.base64),
      "upload.abort": (x) => {
        this.dropUpload(x.id);
        return null;
      },
      "book.importUpload": async (x) => {
        const up = this.upload(x.id);
        if (up.received !== up.size) throw userError(`${up.name}: the upload is not complete (${up.received} of ${up.size} bytes)`);
        closeSync(up.fd);
        up.fd = -1;
        try {
          // The report names the user's file, not the temporary copy it was read from.
          return (await this.importBooks([up.file])).map((f) => ({
            ...f,
            file: up.name,
            errors: f.errors.map((e) => e.split(up.file).join(up.name)),
          }));
        } finally {
          this.dropUpload(x.id);
        }
      },

      "backup.now": async (x) => {
        const book = this.requireBook();
        const file = await backupInto(book.store, x.dir ?? this.backupDir(book));
        return backupView(file);
      },
      "backup.list": () => {
        const book = this.requireBook();
        return listBackups(this.backupDir(book), book.store.path).map(backupView).reverse();
      },
      "backup.schedule": (x) => {
        const book = this.requireWritable();
        book.store.setSetting("backupSchedule", x.schedule ?? undefined);
        this.startBackups(book);
        const info = this.info(book);
        this.emit({ type: "book.changed", info });
        return info;
      },
      "backup.restore": (x) => this.restore(x.path),
      "book.log": (x) =>
        this.requireBook()
          .store.recentLog(x.count)
          .map((l): LogView => ({ at: l.at, level: l.level, event: l.event, message: l.message })),

      // The engine library is the app's, not the book's: every book digs with the same engines.
      "engines.list": () => this.library.list(),
      "engines.add": (x) => {
        const e = engineRecord(x);
        specFromConfig(e); // a path that does not exist is refused here, not at the first dig
        return this.library.add(e);
      },
      "engines.update": (x) => this.library.update({ id: x.id, ...engineRecord(x) }),
      "engines.remove": (x) => {
        this.library.remove(x.id);
        return null;
      },
      "engines.test": (x) => {
        let spec: UsiEngineOptions;
        try {
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
      "book.quickStart": (x) => this.quickStart(x.path, x.processes),

      "dig.start": (x) => this.startDig(x.processes, x.positions, x.seconds),
      "dig.pause": () => {
        this.dig?.pause();
        return this.status();
      },
      "dig.resume": () => {
        this.lastError = null;
        this.dig?.resume();
        return this.status();
      },
      "dig.stop": async () => {
        await this.stopDig();
        return this.status();
      },
      "dig.status": () => this.status(),
      "dig.history": () => this.book?.store.chartSamples() ?? [],

      "seed.paths": (x) => {
        this.requireWritable();
        return this.seed(x.paths, x.plies, x.thinkPlies);
      },
      "seed.upload": (x) => {
        this.requireWritable();
        const total = x.files.reduce((n, f) => n + Math.floor((f.base64.length * 3) / 4), 0);
        if (total > SEED_UPLOAD_MAX_BYTES)
          throw userError(
            `the upload holds ${(total / 1048576).toFixed(1)} MiB of game records; at most ${SEED_UPLOAD_MAX_BYTES / 1048576} MiB go at once (seed big collections with horu import)`,
          );
        // Uploaded files go through a private temporary folder so seeding reads them like any other.
        const dir = mkdtempSync(path.join(tmpdir(), "horu-seed-"));
        try {
          const paths = x.files.map((f, i) => {
            const p = path.join(dir, `${i}-${path.basename(f.name).replace(/[^\w.\-\u3000-\u9fff]/g, "_")}`);
            writeFileSync(p, Buffer.from(f.base64, "base64"));
            return p;
          });
          const report = this.seed(paths, x.plies, x.thinkPlies);
          report.files.forEach((f, i) => (f.file = x.files[i]?.name ?? f.file));
          return report;
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },

      "match.start": (x) => this.match.start(x),
      "match.open": (x) => this.match.open(x.dir),
      "match.stop": () => this.match.stop(),
      "match.status": () => this.match.status(),
      "export.plan": (x) => {
        const book = this.requireBook();
        return planExportTarget(x.path, path.dirname(book.store.path), book.store.path);
      },
      "export.run": (x) => {
        const book = this.requireBook();
        const folder = path.dirname(book.store.path);
        return exportBook(book, { ...x, folder, overwriteHint: "confirm replacing it" }, (done, total) =>
          this.emit({ type: "export.progress", done, total }),
        );
      },
    };
    try {
      return await (handlers[method](a) as Promise<Result<M>>);
    } catch (e) {
      throw asUserError(e);
    }
  }

  // --- Book ------------------------------------------------------------------------

  private get digging(): boolean {
    const s = this.dig?.state;
    return s !== undefined && s !== "stopped";
  }

  private requireBook(): OpenBook {
    if (!this.book) throw keyed("noBookOpen", "no book is open: create or open one first");
    return this.book;
  }

  /** The open book, refusing when this window only follows it (another process writes). */
  private requireWritable(): OpenBook {
    const book = this.requireBook();
    if (book.store.readonly) {
      const h = book.store.lockHolder();
      throw h
        ? keyed("readOnlyHeld", `read-only: pid ${h.pid} on ${h.host} is writing this book; stop that process to change it here`, {
            pid: h.pid,
            host: h.host,
          })
        : keyed("readOnly", "read-only: this book was opened while another process was writing it; open it again to write");
    }
    return book;
  }

  /** Runs an edit and tells every window that the book changed (counts, queue, bans). */
  private edited<T>(fn: () => T): T {
    const r = fn();
    if (this.book) this.emit({ type: "book.changed", info: this.info(this.book) });
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
        book.follow();
        if (book.graph.generation !== before) {
          this.emit({ type: "book.changed", info: this.info(book) });
          // The status carries the plain book value, a full search: not more than every 5 s.
          if (Date.now() - statusAt >= 5000) {
            statusAt = Date.now();
            this.emit({ type: "dig.status", status: this.status() });
          }
        }
      } catch (e) {
        this.lastError = e instanceof Error ? e.message : String(e);
      }
    }, FOLLOW_EVERY_MS);
  }

  private stopFollowing(): void {
    if (this.followTimer) clearInterval(this.followTimer);
    this.followTimer = null;
  }

  // --- Backups, imports ------------------------------------------------------------

  private backupSchedule(book: OpenBook): BackupScheduleView | null {
    const v = book.store.getSetting<BackupScheduleView>("backupSchedule");
    return v && typeof v.everyMinutes === "number" && v.everyMinutes > 0
      ? { everyMinutes: v.everyMinutes, keep: v.keep ?? 10, dir: v.dir ?? null }
      : null;
  }

  private backupDir(book: OpenBook): string {
    return this.backupSchedule(book)?.dir ?? path.dirname(book.store.path);
  }

  private startBackups(book: OpenBook): void {
    void this.backups?.stop();
    this.backups = null;
    const s = this.backupSchedule(book);
    if (!s || book.store.readonly) return;
    this.backups = new BackupSchedule(book.store, {
      everyMs: s.everyMinutes * 60_000,
      dir: s.dir ?? path.dirname(book.store.path),
      keep: s.keep,
      onEvent: (e) =>
        this.emit({
          type: "backup.done",
          backup: e.kind === "backup" ? backupView(e.file) : null,
          error: e.kind === "backup-error" ? e.message : null,
        }),
    });
    this.backups.start();
  }

  /**
   * Replaces the open book by a backup. The book as it was is kept beside it first
   * (<book>.<time>.before-restore.horu): nothing a user does may destroy a book.
   */
  private async restore(from: string): Promise<BookInfo> {
    const book = this.requireWritable();
    if (!existsSync(from)) throw keyed("missingFile", `${from} does not exist`, { path: from });
    const file = book.store.path;
    if (path.resolve(from) === path.resolve(file)) throw keyed("restoreSelf", "that is the open book itself, not a backup");
    // The backup must be a sound book before anything is touched.
    const probe = OpenBook.open(from, {}, { readonly: true });
    const check = probe.store.integrityCheck();
    probe.close();
    if (check !== "ok") throw keyed("badBackup", `${from} is damaged: ${check}`, { path: from });
    await this.closeBook();
    const kept = path.join(path.dirname(file), backupFileName(file, new Date()).replace(/\.backup\.horu$/, ".before-restore.horu"));
    copyFileSync(file, kept);
    const tmp = `${file}.restoring-${process.pid}`;
    copyFileSync(from, tmp);
    for (const side of ["-wal", "-shm"]) rmSync(file + side, { force: true });
    renameSync(tmp, file);
    const info = await this.openBook(OpenBook.open(file, {}, { onProgress: this.opening(file) }));
    this.book?.store.log("info", "restore", `restored from ${from}; the book before is kept as ${kept}`);
    return info;
  }

  private async importBooks(paths: string[]): Promise<ImportReportView[]> {
    const book = this.requireWritable();
    if (this.digging) throw keyed("stopDigFirst", "stop the dig before importing a book");
    for (const p of paths) if (!existsSync(p)) throw keyed("missingFile", `${p} does not exist`, { path: p });
    const out: ImportReportView[] = [];
    try {
      for (const p of paths) {
        const total = statSync(p).size;
        const name = path.basename(p);
        this.emit({ type: "import.progress", file: name, lines: 0, bytes: 0, total });
        if (/\.bin$/i.test(p)) {
          out.push(view(importAperyFile(book.store, p, book.settings.root)));
        } else if (/\.(db|txt)$/i.test(p)) {
          out.push(
            view(
              await importDb2016(book.store, p, {
                onProgress: (lines, bytes) => this.emit({ type: "import.progress", file: name, lines, bytes: bytes ?? 0, total }),
              }),
            ),
          );
        } else throw keyed("notABook", `${p}: not a book file (.db for YaneuraOu DB2016, .bin for Apery)`, { path: p });
        this.emit({ type: "import.progress", file: name, lines: 0, bytes: total, total });
      }
    } finally {
      // The graph is rebuilt from the store, whatever part of the import was stored.
      await this.openBook(this.reopen(book));
    }
    return out;
  }

  private async openBook(book: OpenBook): Promise<BookInfo> {
    if (this.book && this.book !== book) await this.closeBook();
    this.book = book;
    this.adoptBookEngines(book);
    this.startFollowing(book);
    this.startBackups(book);
    this.recent = [book.store.path, ...this.recent.filter((p) => p !== book.store.path)].slice(0, RECENT_MAX);
    if (this.options.recentFile) {
      try {
        mkdirSync(path.dirname(this.options.recentFile), { recursive: true });
        writeFileSync(this.options.recentFile, JSON.stringify(this.recent));
      } catch {
        // the recent list is a convenience; failing to save it must not fail the open
      }
    }
    const info = this.info(book);
    this.emit({ type: "book.changed", info });
    return info;
  }

  /**
   * Books from before the engine library kept their own engines: copy them into the library
   * once, so they stay available to this book and every other. The book keeps its copy.
   */
  private adoptBookEngines(book: OpenBook): void {
    try {
      this.library.adopt(book.store.listEngines());
    } catch {
      // a library that cannot be written: the book still has its engines
    }
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
    if (this.digging) throw new Error("already digging: stop the dig first");
    const target = file ?? this.newBookPath();
    if (existsSync(target)) throw new Error(`${target} already exists: open it instead`);
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

  // --- Uploads (book files from a browser, in pieces) ---------------------------------

  private uploadBegin(name: string, size: number): { id: string } {
    this.requireWritable();
    // Uploads left behind (a closed tab) go after an hour without a piece.
    for (const [id, u] of this.uploads) if (Date.now() - u.touched > 3_600_000) this.dropUpload(id);
    const dir = mkdtempSync(path.join(tmpdir(), "horu-upload-"));
    try {
      const free = statfsSync(dir);
      const room = Number(free.bavail) * Number(free.bsize);
      if (size > room)
        throw userError(
          `${name}: ${(size / 1048576).toFixed(1)} MiB do not fit in the server's temporary folder (${(room / 1048576).toFixed(1)} MiB free)`,
        );
      const file = path.join(dir, path.basename(name).replace(/[^\w.\-\u3000-\u9fff]/g, "_"));
      const id = randomBytes(16).toString("hex");
      this.uploads.set(id, { name, size, dir, file, fd: openSync(file, "w"), received: 0, touched: Date.now() });
      return { id };
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  private uploadChunk(id: string, offset: number, base64: string): { received: number } {
    const up = this.upload(id);
    if (up.fd < 0) throw userError(`${up.name}: the upload is already being imported`);
    if (offset !== up.received)
      throw userError(`${up.name}: a piece at byte ${offset}, but ${up.received} bytes have arrived (pieces go in order)`);
    const bytes = Buffer.from(base64, "base64");
    if (bytes.length > UPLOAD_CHUNK_BYTES) throw userError(`${up.name}: a piece of ${bytes.length} bytes (at most ${UPLOAD_CHUNK_BYTES})`);
    if (up.received + bytes.length > up.size) throw userError(`${up.name}: more bytes than the ${up.size} announced`);
    try {
      writeSync(up.fd, bytes, 0, bytes.length, offset);
    } catch (e) {
      this.dropUpload(id);
      throw e;
    }
    up.received += bytes.length;
    up.touched = Date.now();
    return { received: up.received };
  }

  private upload(id: string): Upload {
    const up = this.uploads.get(id);
    if (!up) throw userError("no such upload (it finished, was cancelled, or the server restarted)");
    return up;
  }

  private dropUpload(id: string): void {
    const up = this.uploads.get(id);
    if (!up) return;
    this.uploads.delete(id);
    if (up.fd >= 0) closeSync(up.fd);
    rmSync(up.dir, { recursive: true, force: true });
  }

  async closeBook(): Promise<void> {
    for (const id of [...this.uploads.keys()]) this.dropUpload(id);
    await this.stopDig();
    // The dig belonged to that book: its status must not show on the next one.
    this.dig = null;
    this.digRun = null;
    this.lastError = null;
    this.stopFollowing();
    await this.backups?.stop();
    this.backups = null;
    this.book?.close();
    this.book = null;
    this.emit({ type: "book.changed", info: null });
  }

  private info(book: OpenBook): BookInfo {
    return {
      path: book.store.path,
      positions: book.graph.nodeCount,
      settings: book.settings,
      rootSfen: book.root.sfenKey(),
      openMs: book.timings.graphMs,
      kifuSeeds: book.graph.kifu.size,
      bans: book.graph.banCount,
      failed: book.store.countFailed(),
      readonly: book.store.readonly,
      writer: writerOf(book),
      queued: book.store.countThinkQueue(),
      prunes: book.store.readonly ? [] : book.store.listPrunes(),
      backup: this.backupSchedule(book),
    };
  }

  // --- Dig ---------------------------------------------------------------------------

  private async startDig(processes: number, positions?: number, seconds?: number): Promise<DigStatus> {
    const book = this.requireWritable();
    if (this.digging) throw keyed("alreadyDigging", "already digging");
    // The library's enabled engines, else the best one on this machine, else the built-in one.
    const choice = chooseEngines({ library: this.library, limit: book.settings.limit });
    const configs = choice.configs;
    const engines = configs.flatMap((c) =>
      Array.from({ length: processes }, (_, i) => ({ ...specFromConfig(c), name: processes > 1 ? `${c.name}#${i + 1}` : c.name })),
    );
    this.choice = { source: choice.source, names: configs.map((c) => c.name), why: choice.why, warnings: choice.warnings };
    this.lastError = null;
    const dig = new Dig(book, { engines, positions, seconds, onEvent: (e) => this.onDigEvent(e), progressEveryMs: 500 });
    this.dig = dig;
    this.digRun = dig.run().catch((e: unknown) => {
      this.lastError = e instanceof Error ? e.message : String(e);
      this.emit({ type: "dig.status", status: this.status() });
    });
    return this.status();
  }

  /**
   * Serves a dig this process runs (`horu dig --web`): windows see it live and may pause,
   * resume or stop it. Returns the listener the dig's events must go to.
   */
  attach(book: OpenBook, dig: Dig, run: Promise<unknown>): (e: DigEvent) => void {
    this.book = book;
    this.dig = dig;
    this.digRun = run.catch(() => undefined);
    this.emit({ type: "book.changed", info: this.info(book) });
    return (e) => this.onDigEvent(e);
  }

  async stopDig(): Promise<void> {
    if (!this.dig) return;
    await this.dig.stop();
    await this.digRun;
  }

  private onDigEvent(e: DigEvent): void {
    switch (e.kind) {
      case "progress":
        this.emit({ type: "dig.status", status: this.status() });
        return;
      case "result":
        this.emit({ type: "dig.result", sfen: e.sfen, engine: e.engine, line: e.line });
        return;
      case "info":
        this.queueInfo(e.engine, e.info);
        return;
      case "sample":
        this.emit({ type: "dig.sample", sample: e.sample });
        return;
      case "engine-failure":
        this.emit({ type: "dig.failure", engine: e.engine, sfen: e.sfen, message: e.message });
        return;
      case "failed":
        this.emit({ type: "dig.failure", engine: "", sfen: e.sfen, message: `gave up: ${e.message}` });
        return;
      case "error":
        this.lastError = e.message;
        this.emit({ type: "dig.status", status: this.status() });
        return;
    }
  }

  /**
   * Engines print thousands of info lines a second; the UI needs a few. Lines are merged per
   * engine (the best line's score and PV, the latest counters) and sent five times a second.
   */
  private queueInfo(engine: number, info: UsiInfo): void {
    const prev = this.pendingInfo.get(engine) ?? {};
    const counters = {
      depth: info.depth,
      seldepth: info.seldepth,
      nodes: info.nodes,
      nps: info.nps,
      timeMs: info.timeMs,
      hashfull: info.hashfull,
    };
    const merged: UsiInfo =
      (info.multipv ?? 1) === 1
        ? { ...prev, ...info }
        : { ...prev, ...Object.fromEntries(Object.entries(counters).filter(([, v]) => v !== undefined)) };
    this.pendingInfo.set(engine, merged);
    this.infoTimer ??= setTimeout(() => {
      this.infoTimer = null;
      for (const [index, pending] of this.pendingInfo) this.emit({ type: "dig.info", engine: index, info: pending });
      this.pendingInfo.clear();
    }, INFO_EVERY_MS);
  }

  /**
   * Sent every 500 ms while digging, so it only reads counters: the dig keeps the plain
   * book value on its own cadence. Without a dig, the book value is searched once per
   * change of the book (OpenBook memoizes it by generation).
   */
  status(): DigStatus {
    if (!this.dig) {
      // Not digging: the book's value and best line as a selection would see them.
      const preview = this.book?.preview() ?? null;
      return {
        state: "idle",
        thought: 0,
        bookSize: this.book?.graph.nodeCount ?? 0,
        elapsedMs: 0,
        perHour: 0,
        rootValue: preview?.rootValue ?? null,
        bookValue: this.book?.bookValue() ?? null,
        pv: preview?.line ?? [],
        inFlight: [],
        engines: [],
        lastSelection: null,
        bans: this.book?.graph.banCount ?? 0,
        cyclicShare: 0,
        failed: 0,
        error: this.lastError,
        choice: null,
      };
    }
    const p = this.dig.progress;
    this.lastStatus = {
      ...p,
      engines: p.engines.map((v) => ({
        index: v.index,
        name: v.name,
        state: v.state,
        sfen: v.sfen,
        info: v.lastInfo,
        restarts: v.restarts,
        lastError: v.lastError,
      })),
      error: this.lastError,
      choice: this.choice,
    };
    return this.lastStatus;
  }

  // --- Browsing ------------------------------------------------------------------------

  private node(ref: { sfen: string } | { line: string[] }): NodeView {
    const book = this.requireBook();
    const g = book.graph;
    let pos: Position;
    let line: string[] = [];
    if ("line" in ref) {
      pos = book.root.clone();
      for (const [i, usi] of ref.line.entries()) {
        const m = parseUsiMove(usi);
        if (m === null || !pos.isLegal(m)) throw userError(`move ${i + 1} of the line (${usi}) is not legal there`);
        pos.doMove(m);
      }
      line = ref.line;
    } else pos = Position.fromSfen(ref.sfen);
    const sfen = pos.sfenKey();
    const id = g.find(pos.keyHi, pos.keyLo);
    const stored = id >= 0 ? book.store.getPosition(sfen) : undefined;
    const stats = new Map(book.store.getMoveStats(sfen).map((s) => [s.move, s]));
    const moves: MoveView[] = [];
    if (id >= 0) {
      const depthOf = new Map((stored?.candidates ?? []).map((c) => [c.move, c.depth]));
      g.forEachEdge(id, (move, child, value, e) => {
        const usi = moveToUsi(move);
        const state = edgeState(book, id, move, child, e);
        const childBound = child >= 0 ? book.selector.bound(child) : undefined;
        const s = stats.get(usi);
        moves.push({
          usi,
          kif: kifMove(sfen, usi),
          engineValue: value,
          engineDepth: depthOf.get(usi) ?? null,
          searchValue: childBound ? -childBound.value : null,
          searchBound: childBound
            ? childBound.bound === BOUND_EXACT
              ? "EXACT"
              : childBound.bound === BOUND_LOWER
                ? "UPPER"
                : "LOWER"
            : null,
          state,
          thought: child >= 0,
          kifu: e >= 0 && (g.eFlags[e] & EDGE_KIFU) !== 0,
          games: s?.games ?? null,
          wins: s?.wins ?? null,
        });
      });
    }
    const b = id >= 0 ? book.selector.bound(id) : undefined;
    const boundName: BoundName | null = b ? (b.bound === BOUND_EXACT ? "EXACT" : b.bound === BOUND_LOWER ? "LOWER" : "UPPER") : null;
    const prov = stored?.provenance;
    return {
      sfen,
      line,
      side: pos.side === 0 ? "black" : "white",
      thought: id >= 0,
      inFlight: book.inFlight.some((j) => j.keyHi === pos.keyHi && j.keyLo === pos.keyLo),
      bound: b && boundName ? { value: b.value, bound: boundName, cyclic: b.cyclic } : null,
      moves,
      parents: thoughtParents(g, pos).length,
      provenance: prov
        ? prov.kind === "engine"
          ? `${prov.engine}, ${prov.nodes} nodes, depth ${prov.depth}, ${prov.timeMs} ms`
          : `imported from ${prov.file}`
        : null,
      origin: prov
        ? prov.kind === "engine"
          ? { kind: "engine", engine: prov.engine, nodes: prov.nodes, depth: prov.depth, timeMs: prov.timeMs }
          : { kind: "import", file: prov.file }
        : null,
      thoughtAt: stored?.thoughtAt ?? null,
      kifu: g.kifu.has(pos.keyHi, pos.keyLo),
      comment: book.store.getComment(sfen),
      failed: id < 0 && g.isInFlight(pos.keyHi, pos.keyLo) && !book.inFlight.some((j) => j.keyHi === pos.keyHi && j.keyLo === pos.keyLo),
      queued: book.store.queuedLimit(sfen) !== undefined || book.store.peekThinkQueue(64).some((q) => q.sfen === sfen),
    };
  }

  /** One position with its children (drawable without another call) and its thought parents. */
  private graphNode(sfen: string): GraphNodeView {
    const book = this.requireBook();
    const g = book.graph;
    let pos: Position;
    try {
      pos = Position.fromSfen(sfen);
    } catch (e) {
      throw userError(`not a position: ${sfen} (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    const key = pos.sfenKey();
    const id = g.find(pos.keyHi, pos.keyLo);
    const children: GraphEdgeView[] = [];
    if (id >= 0) {
      g.forEachEdge(id, (move, child, value, e) => {
        pos.doMove(move);
        const childBound = child >= 0 ? boundView(book.selector.bound(child)) : null;
        children.push({
          usi: moveToUsi(move),
          to: pos.sfenKey(),
          engineValue: value,
          state: edgeState(book, id, move, child, e),
          kifu: e >= 0 && (g.eFlags[e] & EDGE_KIFU) !== 0,
          childBound,
          childParents: child >= 0 ? thoughtParents(g, pos).length : 1,
        });
        pos.undoMove();
      });
    }
    const parents = thoughtParentPositions(g, pos).map((p) => ({ sfen: p.parent.sfenKey(), usi: moveToUsi(p.move) }));
    let state: GraphNodeState;
    const flying = book.inFlight.some((j) => j.keyHi === pos.keyHi && j.keyLo === pos.keyLo);
    if (flying) state = "in-flight";
    else if (id >= 0) state = "thought";
    else if (g.isInFlight(pos.keyHi, pos.keyLo)) state = "failed";
    else if (g.kifu.has(pos.keyHi, pos.keyLo)) state = "kifu";
    else state = "leaf";
    const prov = id >= 0 ? book.store.getPosition(key)?.provenance : undefined;
    return {
      sfen: key,
      side: pos.side === 0 ? "black" : "white",
      state,
      bound: id >= 0 ? boundView(book.selector.bound(id)) : null,
      thinkDepth: prov?.kind === "engine" ? prov.depth : null,
      children,
      parents,
    };
  }

  private tree(sfen: string, depth: number): TreeView {
    const book = this.requireBook();
    const g = book.graph;
    const nodes = new Map<string, TreeView["nodes"][number]>();
    const edges: TreeView["edges"] = [];
    const visit = (pos: Position, d: number) => {
      const key = pos.sfenKey();
      if (nodes.has(key)) return;
      const id = g.find(pos.keyHi, pos.keyLo);
      const b = id >= 0 ? book.selector.bound(id) : undefined;
      nodes.set(key, {
        sfen: key,
        thought: id >= 0,
        parents: id >= 0 ? thoughtParents(g, pos).length : 0,
        value: b?.value ?? null,
        side: pos.side === 0 ? "black" : "white",
      });
      if (id < 0 || d >= depth) return;
      const children: Array<[number, number | null, boolean]> = [];
      g.forEachEdge(id, (move, child, value) => children.push([move, value, child < 0]));
      for (const [move, value, leaf] of children) {
        pos.doMove(move);
        const childKey = pos.sfenKey();
        edges.push({ from: key, to: childKey, usi: moveToUsi(move), value, leaf });
        if (leaf)
          nodes.set(
            childKey,
            nodes.get(childKey) ?? { sfen: childKey, thought: false, parents: 1, value: null, side: pos.side === 0 ? "black" : "white" },
          );
        else visit(pos, d + 1);
        pos.undoMove();
      }
    };
    visit(Position.fromSfen(sfen), 0);
    return { nodes: [...nodes.values()], edges };
  }

  /** One page of the bans, each with the line stored when it was made: no search of the book. */
  private bans(offset: number, limit: number): BanPage {
    const store = this.requireBook().store;
    const bans = store
      .listBans(offset, limit)
      .map((b): BanView => ({ sfen: b.sfen, move: b.move, reason: b.reason, createdAt: b.createdAt, line: b.line }));
    return { total: store.countBans(), offset, bans };
  }

  private seed(paths: string[], plies?: number, thinkPlies?: number): SeedReportView {
    const book = this.requireBook();
    for (const p of paths) if (!existsSync(p)) throw userError(`${p} does not exist`);
    const r = seedBook(book, paths, { plies, thinkPlies });
    return {
      files: r.files.map((f) => ({
        file: f.file,
        format: f.format,
        encoding: f.encoding,
        records: f.records,
        positions: f.positions,
        errors: f.errors.map((e) => ({ line: e.line, message: e.message })),
        perRecord: f.perRecord,
      })),
      positions: r.positions,
      added: r.added,
      queued: r.queued,
      queuedNew: r.queuedNew,
      ms: r.ms,
    };
  }
}

/** Errors the user can correct (a missing or locked book, a bad SFEN or record) carry code "user"; faults keep theirs. */
function asUserError(e: unknown): unknown {
  if (e instanceof BookOpenError || e instanceof BookLockedError || e instanceof SfenError || e instanceof Db2016Error) {
    return Object.assign(e, { code: "user" });
  }
  return e;
}

/** A move's state from a node: banned, to a thought child, being thought, given up on, or a leaf. */
function edgeState(book: OpenBook, id: number, move: number, child: number, e: number): MoveState {
  const g = book.graph;
  if (g.isBanned(id, move)) return "banned";
  if (child >= 0) return "thought";
  if (e >= 0 && g.isInFlight(g.eKeyHi[e], g.eKeyLo[e]))
    return book.inFlight.some((j) => j.keyHi === g.eKeyHi[e] && j.keyLo === g.eKeyLo[e]) ? "in-flight" : "failed";
  return "leaf";
}

function boundView(b: { value: number; bound: number; cyclic: boolean } | undefined): GraphEdgeView["childBound"] {
  if (!b) return null;
  return { value: b.value, bound: b.bound === BOUND_EXACT ? "EXACT" : b.bound === BOUND_LOWER ? "LOWER" : "UPPER", cyclic: b.cyclic };
}

function writerOf(book: OpenBook): BookInfo["writer"] {
  const h = book.store.lockHolder();
  return h ? { pid: h.pid, host: h.host, since: h.since, self: !book.store.readonly } : null;
}

/** Opens a book for writing; when another process holds its writer lock, read-only (this window follows that dig). */
function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a),
      sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

function openOrFollow(file: string, onProgress: (p: OpenProgress) => void): OpenBook {
  try {
    return OpenBook.open(file, {}, { onProgress });
  } catch (e) {
    if (e instanceof BookLockedError) return OpenBook.open(file, {}, { readonly: true, onProgress });
    throw e;
  }
}

function backupView(file: string): BackupView {
  const st = statSync(file);
  return { path: file, bytes: st.size, at: st.mtimeMs };
}

function view(r: {
  file: string;
  format: string;
  positions: number;
  moves: number;
  errors: string[];
  errorCount: number;
  ms: number;
}): ImportReportView {
  return {
    file: path.basename(r.file),
    format: r.format,
    positions: r.positions,
    moves: r.moves,
    errors: r.errors,
    errorCount: r.errorCount,
    ms: r.ms,
  };
}

function engineRecord(x: EngineInput): Omit<EngineConfigView, "id"> {
  const [command, ...args] = isBuiltinCommand(x.commandLine.trim()) ? [x.commandLine.trim()] : parseCommandLine(x.commandLine);
  if (!command) throw userError("the engine command line is empty");
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
    return { ok: false, error: e instanceof Error ? e.message : String(e), stderr };
  } finally {
    await engine.quit().catch(() => engine.kill());
  }
}
