// The Electron shell's wiring, kept apart from the `electron` import so tests can hand in a
// stand-in (CI has no Electron binary, docs/DESIGN.md §9). It stays thin: one window on the
// built renderer (served from app://horu/, app-protocol.ts), one generic IPC handler over the
// host contract (the host runs on a worker
// thread), file dialogs, a menu, and the hardening (sandbox, CSP, no navigation, no popups).

import path from "node:path";
import { z } from "zod";
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from "electron";
import type { CallError, DigState, HostEvent } from "../../shared/api/contract.js";
import { dispatch, errorReply, type CallReply, type Host } from "../host/transport.js";
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, APP_URL, appProtocolHandler } from "./app-protocol.js";

/** No eval, no remote code: the renderer is our own files; it reaches the host only by IPC. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The desktop app talks to the host by IPC only: no network at all.
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

// --- The parts of Electron the shell uses (the real module fits; tests pass a stand-in) --

export interface FrameLike {
  url: string;
  parent: FrameLike | null;
}
export interface InvokeEventLike {
  sender: unknown;
  senderFrame: FrameLike | null;
}
export interface NavigationEventLike {
  preventDefault(): void;
}
export interface ContentsLike {
  on(
    event: "will-navigate" | "will-redirect" | "will-frame-navigate",
    listener: (event: NavigationEventLike, url: string) => void,
  ): unknown;
  on(event: "will-attach-webview", listener: (event: NavigationEventLike) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: "deny" }): void;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}
export interface WindowLike {
  webContents: ContentsLike;
  loadURL(url: string): Promise<void>;
  setTitle(title: string): void;
  once(event: "ready-to-show", listener: () => void): unknown;
  show(): void;
  isDestroyed(): boolean;
}
type OpenDialogOptions = {
  title?: string;
  defaultPath?: string;
  properties: Array<"openFile" | "openDirectory" | "multiSelections" | "createDirectory">;
  filters?: Array<{ name: string; extensions: string[] }>;
};
type SaveDialogOptions = {
  title?: string;
  defaultPath?: string;
  filters?: Array<{ name: string; extensions: string[] }>;
  properties?: Array<"showOverwriteConfirmation">;
};
export interface ElectronLike {
  app: {
    whenReady(): Promise<unknown>;
    on(event: "window-all-closed" | "before-quit" | "web-contents-created", listener: (...args: never[]) => void): unknown;
    quit(): void;
    getPath(name: "userData"): string;
  };
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => WindowLike;
  protocol: {
    registerSchemesAsPrivileged(schemes: Array<typeof APP_SCHEME_PRIVILEGES>): void;
    handle(scheme: string, handler: (request: Request) => Promise<Response>): void;
  };
  ipcMain: { handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void };
  dialog: {
    showOpenDialog(window: never, options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
    showSaveDialog(window: never, options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
    showErrorBox(title: string, content: string): void;
  };
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): unknown; setApplicationMenu(menu: never): void };
  session: {
    defaultSession: {
      webRequest: {
        onHeadersReceived(
          listener: (
            details: { url: string; responseHeaders?: Record<string, string[]> },
            callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
          ) => void,
        ): void;
      };
      setPermissionRequestHandler(handler: (contents: never, permission: string, callback: (granted: boolean) => void) => void): void;
    };
  };
}

// --- Window ----------------------------------------------------------------------------

export function windowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: "horu",
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

const withoutHash = (url: string) => url.replace(/[?#].*$/, "");

/** Whether a frame is the app's own top-level page (not an iframe, not another file). */
export function isAppFrame(frame: FrameLike | null | undefined, appUrl: string): boolean {
  return !!frame && frame.parent === null && withoutHash(frame.url) === appUrl;
}

/** Every web contents: no navigation away from the app page, no popups, no webviews. */
export function hardenContents(contents: ContentsLike, appUrl: string): void {
  const stay = (event: NavigationEventLike, url: string) => {
    if (withoutHash(url) !== appUrl) event.preventDefault();
  };
  contents.on("will-navigate", stay);
  contents.on("will-redirect", stay);
  contents.on("will-frame-navigate", stay);
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: "deny" }));
}

export function installSessionPolicy(session: ElectronLike["session"]): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    // Header and (in index.html) meta tag: the header covers what the meta tag cannot.
    callback({
      responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [APP_CSP], "X-Content-Type-Options": ["nosniff"] },
    });
  });
  // The UI needs no camera, notifications, geolocation...: refuse everything.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}

// --- IPC -------------------------------------------------------------------------------

/** The names a file dialog's filters show, in the UI's language (renderer/src/i18n.ts "filter.*"); English when not given. */
export const FILTER_LABELS = {
  books: "Books (YaneuraOu DB2016 .db, Apery .bin, YaneuraOu binary .ybb, ShogiGUI .sbk)",
  db: "YaneuraOu DB2016 book (.db)",
  bin: "Apery book (.bin)",
  ybb: "YaneuraOu binary book (.ybb)",
  sbk: "ShogiGUI book (.sbk)",
  recordsAndBooks: "Game records and books",
  horu: "horu book",
  backups: "horu backups",
  all: "All files",
} as const;
export type FilterLabel = keyof typeof FILTER_LABELS;

export const PickSchema = z.object({
  kind: z.enum(["open-book", "new-book", "engine", "records", "export", "folder", "books", "backup", "backup-dir"]),
  title: z.string().max(200).optional(),
  defaultPath: z.string().max(4096).optional(),
  labels: z.partialRecord(z.enum(Object.keys(FILTER_LABELS) as [FilterLabel, ...FilterLabel[]]), z.string().max(200)).optional(),
});
export type PickOptions = z.infer<typeof PickSchema>;

const RECORD_EXTENSIONS = ["kif", "kifu", "ki2", "ki2u", "csa", "sfen", "usi", "jkf", "txt"];
/** The other programs' book files horu reads and writes (shared/formats: db2016, apery, ybb, sbk). */
export const BOOK_EXTENSIONS = ["db", "bin", "ybb", "sbk"] as const;
/** Book files another tool wrote: imported as thought positions (book.import), never seeded. */
export const BOOK_FILE = /\.(db|bin|ybb|sbk)$/i;

/** The file dialog for a pick; [] when cancelled. */
export async function pickPaths(dialog: ElectronLike["dialog"], window: WindowLike | null, options: PickOptions): Promise<string[]> {
  const w = window as never;
  const base = { title: options.title, defaultPath: options.defaultPath };
  const label = (k: FilterLabel): string => options.labels?.[k] ?? FILTER_LABELS[k];
  const all = { name: label("all"), extensions: ["*"] };
  const books = [{ name: label("horu"), extensions: ["horu", "sqlite", "sqlite3"] }, all];
  /** One filter per book format, in the order the export's default extension comes first. */
  const eachFormat = (first: string) =>
    [...BOOK_EXTENSIONS].sort((a, b) => Number(b === first) - Number(a === first)).map((e) => ({ name: label(e), extensions: [e] }));
  const open = async (o: OpenDialogOptions) => {
    const r = await dialog.showOpenDialog(w, o);
    return r.canceled ? [] : r.filePaths;
  };
  const save = async (o: SaveDialogOptions) => {
    const r = await dialog.showSaveDialog(w, o);
    return r.canceled || !r.filePath ? [] : [r.filePath];
  };
  switch (options.kind) {
    case "open-book":
      return open({ ...base, title: base.title ?? "Open book", properties: ["openFile"], filters: books });
    case "new-book":
      return save({ ...base, title: base.title ?? "New book", defaultPath: base.defaultPath ?? "book.horu", filters: books });
    case "engine":
      return open({ ...base, title: base.title ?? "Engine", properties: ["openFile"] });
    case "records":
      return open({
        ...base,
        title: base.title ?? "Import game records",
        properties: ["openFile", "multiSelections"],
        filters: [{ name: label("recordsAndBooks"), extensions: [...RECORD_EXTENSIONS, ...BOOK_EXTENSIONS] }, all],
      });
    case "folder":
      return open({ ...base, title: base.title ?? "Seed a folder of game records", properties: ["openDirectory", "multiSelections"] });
    case "books":
      return open({
        ...base,
        title: base.title ?? "Import books",
        properties: ["openFile", "multiSelections"],
        filters: [{ name: label("books"), extensions: [...BOOK_EXTENSIONS] }, ...eachFormat(""), all],
      });
    case "backup":
      return open({
        ...base,
        title: base.title ?? "Restore a backup",
        properties: ["openFile"],
        filters: [{ name: label("backups"), extensions: ["horu"] }, all],
      });
    case "backup-dir":
      return open({ ...base, title: base.title ?? "Backup folder", properties: ["openDirectory", "createDirectory"] });
    case "export": {
      // The system dialog asks before replacing a file (Linux only when told to); the host still refuses any book.
      const defaultPath = base.defaultPath ?? "book.db";
      return save({
        ...base,
        title: base.title ?? "Export book",
        defaultPath,
        properties: ["showOverwriteConfirmation"],
        filters: eachFormat(/\.([^.]+)$/.exec(defaultPath)?.[1]?.toLowerCase() ?? "db"),
      });
    }
  }
}

const REFUSED: CallError = { error: "refused: the request did not come from horu's own page", code: "failed" };

/**
 * "horu:call" serves every contract method through one handler: the sender must be the app's
 * main frame, and the arguments are validated (parseCall) before the host sees them.
 * "horu:pick" opens file dialogs for the same sender.
 */
export function registerIpc(
  ipcMain: ElectronLike["ipcMain"],
  host: Host,
  opts: { trusted(event: InvokeEventLike): boolean; pick(options: PickOptions): Promise<string[]> },
): void {
  ipcMain.handle("horu:call", async (event, payload): Promise<CallReply> => {
    if (!opts.trusted(event)) return REFUSED;
    if (typeof payload !== "object" || payload === null || Array.isArray(payload))
      return { error: "a call is {method, args}", code: "invalid-args" };
    const { method, args } = payload as { method?: unknown; args?: unknown };
    return dispatch(host, method, args);
  });
  ipcMain.handle("horu:pick", async (event, payload): Promise<string[]> => {
    if (!opts.trusted(event)) throw new Error(REFUSED.error);
    const parsed = PickSchema.safeParse(payload);
    if (!parsed.success) throw new Error(`horu:pick: invalid options: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    return opts.pick(parsed.data);
  });
}

// --- Title and menu ----------------------------------------------------------------------

export function windowTitle(bookPath: string | null, state: DigState | null): string {
  if (!bookPath) return "horu";
  const dig = state && state !== "idle" ? ` [${state}]` : "";
  return `${path.basename(bookPath)}${dig} — ${bookPath} — horu`;
}

export interface MenuActions {
  newBook(): void;
  openBook(file?: string): void;
  importRecords(): void;
  exportBook(): void;
  quit(): void;
}

export function menuTemplate(recent: string[], actions: MenuActions, hasBook: boolean): MenuItemConstructorOptions[] {
  return [
    {
      label: "File",
      submenu: [
        { label: "New Book…", accelerator: "CmdOrCtrl+N", click: () => actions.newBook() },
        { label: "Open Book…", accelerator: "CmdOrCtrl+O", click: () => actions.openBook() },
        {
          label: "Open Recent",
          enabled: recent.length > 0,
          submenu:
            recent.length > 0
              ? recent.map((file) => ({ label: file, click: () => actions.openBook(file) }))
              : [{ label: "(none)", enabled: false }],
        },
        { type: "separator" },
        { label: "Import Records…", accelerator: "CmdOrCtrl+I", enabled: hasBook, click: () => actions.importRecords() },
        { label: "Export…", accelerator: "CmdOrCtrl+E", enabled: hasBook, click: () => actions.exportBook() },
        { type: "separator" },
        { label: "Quit", accelerator: "CmdOrCtrl+Q", click: () => actions.quit() },
      ],
    },
    {
      label: "Edit",
      submenu: [
        { role: "undo" },
        { role: "redo" },
        { type: "separator" },
        { role: "cut" },
        { role: "copy" },
        { role: "paste" },
        { role: "selectAll" },
      ],
    },
    {
      label: "View",
      submenu: [
        { role: "reload" },
        { role: "toggleDevTools" },
        { type: "separator" },
        { role: "resetZoom" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
      ],
    },
  ];
}

// --- The app -------------------------------------------------------------------------------

export interface ShellOptions {
  /** The folder holding preload.cjs, host-worker.cjs and renderer/ (the bundle's own folder). */
  distDir: string;
  /** The host: a RemoteService (worker thread) in the app; tests pass their own. */
  createHost(recentFile: string): Host & { shutdown(): Promise<void> };
}

export interface Shell {
  window: WindowLike;
  appUrl: string;
}

export async function startApp(electron: ElectronLike, options: ShellOptions): Promise<Shell> {
  const { app, BrowserWindow, ipcMain, dialog, Menu, session, protocol } = electron;
  const rendererDir = path.join(options.distDir, "renderer");
  const appUrl = APP_URL;
  // Before the app is ready (Electron's rule): app:// is a standard, secure origin.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

  app.on("web-contents-created", ((_event: unknown, contents: ContentsLike) => hardenContents(contents, appUrl)) as (
    ...args: never[]
  ) => void);
  await app.whenReady();
  installSessionPolicy(session);
  // The page and its files: only what is under dist/renderer, with the CSP as a header.
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir, APP_CSP));

  const host = options.createHost(path.join(app.getPath("userData"), "recent.json"));
  const win = new BrowserWindow(windowOptions(path.join(options.distDir, "preload.cjs")));
  hardenContents(win.webContents, appUrl);
  win.once("ready-to-show", () => win.show());

  const fail = (e: unknown) => dialog.showErrorBox("horu", errorReply(e).error);
  const call = async (method: string, args: unknown) => {
    const reply = await dispatch(host, method, args);
    if ("error" in reply) throw new Error(reply.error);
    return reply.result;
  };
  const pick = (o: PickOptions) => pickPaths(dialog, win, o);

  registerIpc(ipcMain, host, { trusted: (e) => e.sender === win.webContents && isAppFrame(e.senderFrame, appUrl), pick });

  let bookPath: string | null = null;
  let digState: DigState | null = null;
  const actions: MenuActions = {
    newBook: () =>
      void pick({ kind: "new-book" })
        .then(([file]) => file && call("book.create", { path: file }))
        .catch(fail),
    openBook: (file) =>
      void (file ? Promise.resolve([file]) : pick({ kind: "open-book" })).then(([f]) => f && call("book.open", { path: f })).catch(fail),
    importRecords: () =>
      void pick({ kind: "records" })
        .then(async (paths) => {
          // .db/.bin/.ybb/.sbk are books: imported as positions, not read as game records.
          const books = paths.filter((p) => BOOK_FILE.test(p)),
            records = paths.filter((p) => !BOOK_FILE.test(p));
          if (books.length) await call("book.import", { paths: books });
          if (records.length) await call("seed.paths", { paths: records });
        })
        .catch(fail),
    exportBook: () =>
      void pick({ kind: "export" })
        .then(
          ([file]) =>
            file &&
            call("export.run", {
              path: file,
              format: file.toLowerCase().endsWith(".bin") ? "bin" : "db",
              mode: "minimax",
              overwrite: true,
            }),
        )
        .catch(fail),
    quit: () => app.quit(),
  };
  const refreshMenu = async () => {
    const recent = await call("book.recent", {}).catch(() => []);
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(recent as string[], actions, bookPath !== null)) as never);
  };
  const refreshTitle = () => {
    if (!win.isDestroyed()) win.setTitle(windowTitle(bookPath, digState));
  };

  host.onEvent((e: HostEvent) => {
    if (!win.isDestroyed() && !win.webContents.isDestroyed()) win.webContents.send("horu:event", e);
    if (e.type === "book.changed") {
      bookPath = e.info?.path ?? null;
      if (!e.info) digState = null;
      refreshTitle();
      void refreshMenu();
    } else if (e.type === "dig.status" && e.status.state !== digState) {
      digState = e.status.state;
      refreshTitle();
    }
  });

  app.on("window-all-closed", () => app.quit());
  // Quitting waits for the book to close cleanly (dig paused, SQLite closed), once.
  let quitting: "no" | "closing" | "done" = "no";
  app.on("before-quit", ((event: NavigationEventLike) => {
    if (quitting === "done") return;
    event.preventDefault();
    if (quitting === "closing") return;
    quitting = "closing";
    void host
      .shutdown()
      .catch(() => undefined)
      .finally(() => {
        quitting = "done";
        app.quit();
      });
  }) as (...args: never[]) => void);

  await refreshMenu();
  await win.loadURL(appUrl);
  return { window: win, appUrl };
}
