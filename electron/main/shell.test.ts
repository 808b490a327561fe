// The Electron shell's wiring with `electron` replaced by a stand-in (no binary in CI).
import { describe, expect, it, vi } from "vitest";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { MenuItemConstructorOptions } from "electron";
import {
  APP_CSP,
  startApp,
  windowOptions,
  type ContentsLike,
  type ElectronLike,
  type FrameLike,
  type NavigationEventLike,
} from "./shell.js";
import { METHODS, type HostEvent, type Method } from "../../shared/api/contract.js";
import type { Host } from "../host/transport.js";

/** Valid arguments for every method: the Record type makes a new method a compile error here. */
const SAMPLE_ARGS: Record<Method, unknown> = {
  "book.create": { path: "/tmp/x.horu" },
  "book.open": { path: "/tmp/x.horu" },
  "book.close": {},
  "book.info": {},
  "book.recent": {},
  "book.quickStart": {},
  "book.updateSettings": { settings: { multipv: 4 } },
  "book.node": { line: ["7g7f"] },
  "book.graph": { sfens: ["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"] },
  "book.lineTo": { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -" },
  "book.bans": {},
  "book.thinkNow": { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", deeper: true },
  "book.addMove": { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", move: "7g7f" },
  "book.retry": {},
  "book.unban": { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", move: "7g7f" },
  "book.prune": { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" },
  "book.undoPrune": {},
  "book.undoImport": {},
  "book.comment": { sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", text: "note" },
  "book.import": { paths: ["/tmp/a.db"] },
  "upload.begin": { name: "a.db", size: 10 },
  "upload.chunk": { id: "0123456789abcdef0123456789abcdef", offset: 0, base64: "" },
  "upload.abort": { id: "0123456789abcdef0123456789abcdef" },
  "book.importUpload": { id: "0123456789abcdef0123456789abcdef" },
  "backup.now": {},
  "backup.list": {},
  "backup.schedule": { schedule: { everyMinutes: 60, keep: 5, dir: null } },
  "backup.restore": { path: "/tmp/x.backup.horu" },
  "match.start": { dir: "/tmp/m", players: [{ engine: "/usr/games/fairy-stockfish" }, { engine: "/usr/games/fairy-stockfish" }] },
  "match.open": { dir: "/tmp/m" },
  "match.stop": {},
  "analysis.start": { engineId: 1, sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" },
  "analysis.stop": {},
  "match.status": {},
  "quality.start": {},
  "quality.stop": {},
  "quality.status": {},
  "engines.list": {},
  "engines.add": { commandLine: "/usr/games/fairy-stockfish" },
  "engines.update": { id: 1, commandLine: "/usr/games/fairy-stockfish" },
  "engines.remove": { id: 1 },
  "engines.test": { commandLine: "/usr/games/fairy-stockfish" },
  "engines.found": {},
  "engines.ofBook": {},
  "dig.start": {},
  "dig.pause": {},
  "dig.resume": {},
  "dig.stop": {},
  "dig.status": {},
  "dig.history": {},
  "seed.paths": { paths: ["/tmp/a.kif"] },
  "seed.upload": { files: [{ name: "a.kif", base64: "" }] },
  "export.plan": { path: "out.db" },
  "export.run": { path: "/tmp/out.db", format: "db", mode: "minimax" },
};

class FakeContents implements ContentsLike {
  readonly listeners = new Map<string, Array<(...a: never[]) => void>>();
  openHandler: ((d: { url: string }) => { action: "deny" }) | null = null;
  readonly sent: unknown[][] = [];
  on(event: string, listener: (...a: never[]) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: "deny" }): void {
    this.openHandler = h;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
  }
  isDestroyed(): boolean {
    return false;
  }
  /** Emits a navigation-like event; returns whether it was prevented. */
  navigate(event: string, url?: string): boolean {
    let prevented = false;
    const e: NavigationEventLike = { preventDefault: () => (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) (l as (e: NavigationEventLike, url?: string) => void)(e, url);
    return prevented;
  }
}

class FakeHost implements Host {
  readonly calls: Array<[string, unknown]> = [];
  private readonly listeners = new Set<(e: HostEvent) => void>();
  recent: string[] = ["/books/a.horu", "/books/b.horu"];
  shutdown = vi.fn(async () => undefined);
  async call(method: Method, args: unknown): Promise<never> {
    this.calls.push([method, args]);
    if (method === "book.recent") return this.recent as never;
    if (method === "book.open") throw new Error("/nope.horu does not exist");
    return { echo: method } as never;
  }
  onEvent(l: (e: HostEvent) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  async closeBook(): Promise<void> {}
  emit(e: HostEvent): void {
    for (const l of this.listeners) l(e);
  }
}

async function boot() {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const appListeners = new Map<string, (...a: unknown[]) => void>();
  const windows: Array<{ options: Record<string, unknown>; webContents: FakeContents; title: string; loaded: string | null }> = [];
  let headersListener:
    | ((
        d: { url: string; responseHeaders?: Record<string, string[]> },
        cb: (r: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void)
    | null = null;
  let permission: ((c: never, p: string, cb: (ok: boolean) => void) => void) | null = null;
  let menu: MenuItemConstructorOptions[] = [];
  let ready = false;
  const privileged: unknown[] = [];
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const quit = vi.fn();
  const showOpenDialog = vi.fn(async (_window: unknown, _options: unknown) => ({
    canceled: false,
    filePaths: ["/records/a.kif", "/records/b.csa"],
  }));
  const showSaveDialog = vi.fn(async (_window: unknown, _options: unknown) => ({ canceled: true, filePath: undefined }));
  const showErrorBox = vi.fn();
  const electron: ElectronLike = {
    app: {
      whenReady: async () => {
        ready = true;
      },
      on: (event: string, l: (...a: never[]) => void) => appListeners.set(event, l as (...a: unknown[]) => void),
      quit,
      getPath: () => "/user-data",
    },
    BrowserWindow: class {
      readonly webContents = new FakeContents();
      title = "";
      loaded: string | null = null;
      constructor(readonly options: Record<string, unknown>) {
        windows.push(this);
      }
      async loadURL(u: string) {
        this.loaded = u;
      }
      setTitle(t: string) {
        this.title = t;
      }
      once() {}
      show() {}
      isDestroyed() {
        return false;
      }
    } as unknown as ElectronLike["BrowserWindow"],
    protocol: {
      registerSchemesAsPrivileged: (schemes) => {
        // Electron throws when this comes after ready: the shell must call it first.
        expect(ready).toBe(false);
        privileged.push(...schemes);
      },
      handle: (scheme, handler) => void protocolHandlers.set(scheme, handler),
    },
    ipcMain: { handle: (channel, l) => void handlers.set(channel, l as never) },
    dialog: { showOpenDialog, showSaveDialog, showErrorBox } as unknown as ElectronLike["dialog"],
    Menu: { buildFromTemplate: (t) => (menu = t), setApplicationMenu: () => undefined },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (l) => void (headersListener = l) },
        setPermissionRequestHandler: (h) => void (permission = h),
      },
    },
  };
  const host = new FakeHost();
  const distDir = path.join(path.sep, "app", "dist");
  const shell = await startApp(electron, { distDir, createHost: () => host });
  const win = windows[0];
  const mainFrame: FrameLike = { url: shell.appUrl, parent: null };
  const invoke = (channel: string, payload: unknown, event: { sender?: unknown; senderFrame?: FrameLike | null } = {}) =>
    handlers.get(channel)!({ sender: win.webContents, senderFrame: mainFrame, ...event }, payload);
  return {
    electron,
    host,
    win,
    shell,
    handlers,
    appListeners,
    invoke,
    mainFrame,
    distDir,
    quit,
    showOpenDialog,
    showSaveDialog,
    showErrorBox,
    headers: () => headersListener!,
    permission: () => permission!,
    menu: () => menu,
    privileged,
    protocolHandlers,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("the Electron shell", () => {
  it("opens one sandboxed, isolated window on the built renderer", async () => {
    const t = await boot();
    const prefs = t.win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
    expect(prefs.preload).toBe(path.join(t.distDir, "preload.cjs"));
    expect(windowOptions("/p").webPreferences?.sandbox).toBe(true);
    // From app://horu/ (a privileged standard scheme served by the shell), not file://.
    expect(t.win.loaded).toBe("app://horu/index.html");
    expect(t.shell.appUrl).toBe("app://horu/index.html");
    expect(t.privileged).toEqual([{ scheme: "app", privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect([...t.protocolHandlers.keys()]).toEqual(["app"]);
  });

  it("sends a strict CSP (no unsafe-eval) with every response and refuses permissions", async () => {
    const t = await boot();
    let headers: Record<string, string[]> | undefined;
    t.headers()({ url: t.shell.appUrl, responseHeaders: { "Content-Type": ["text/html"] } }, (r) => (headers = r.responseHeaders));
    expect(headers?.["Content-Type"]).toEqual(["text/html"]);
    expect(headers?.["Content-Security-Policy"]).toEqual([APP_CSP]);
    expect(APP_CSP).not.toContain("unsafe-eval");
    expect(APP_CSP).toMatch(/script-src 'self'(;|$)/);
    expect(APP_CSP).toContain("object-src 'none'");
    // The desktop page talks to the host by IPC: no connection anywhere, no WebSocket to any host.
    expect(APP_CSP).toContain("connect-src 'none'");
    expect(APP_CSP).not.toMatch(/ws:|wss:/);
    // The app:// handler sends the same CSP with what it serves (file:// pages got no headers).
    const served = await t.protocolHandlers.get("app")!(new Request("app://horu/../../../etc/passwd"));
    expect(served.status).toBe(404);
    expect(served.headers.get("Content-Security-Policy")).toBe(APP_CSP);
    let granted: boolean | null = null;
    t.permission()(undefined as never, "media", (ok) => (granted = ok));
    expect(granted).toBe(false);
  });

  it("serves every contract method through the one horu:call handler, validated", async () => {
    const t = await boot();
    expect([...t.handlers.keys()].sort()).toEqual(["horu:call", "horu:pick"]);
    for (const method of METHODS) {
      const reply = await t.invoke("horu:call", { method, args: SAMPLE_ARGS[method] });
      expect(reply, method).toEqual(
        method === "book.recent"
          ? { result: t.host.recent }
          : method === "book.open"
            ? { error: "/nope.horu does not exist", code: "failed" }
            : { result: { echo: method } },
      );
    }
    const served = new Set(t.host.calls.map(([m]) => m));
    for (const method of METHODS) expect(served.has(method), method).toBe(true);
    // Defaults are filled in by the validation before the host sees the call.
    expect(t.host.calls.find(([m]) => m === "dig.start")?.[1]).toEqual({ processes: 1 });
  });

  it("rejects bad arguments and unknown methods before the host sees them", async () => {
    const t = await boot();
    const before = t.host.calls.length;
    expect(await t.invoke("horu:call", { method: "dig.start", args: { processes: 0 } })).toMatchObject({
      code: "invalid-args",
      error: expect.stringMatching(/processes/),
    });
    expect(await t.invoke("horu:call", { method: "book.open", args: { path: "/x", extra: 1 } })).toMatchObject({ code: "invalid-args" });
    expect(await t.invoke("horu:call", { method: "book.open", args: { path: 7 } })).toMatchObject({ code: "invalid-args" });
    expect(await t.invoke("horu:call", { method: "fs.readFile", args: {} })).toMatchObject({ code: "unknown-method" });
    for (const inherited of ["__proto__", "toString", "constructor", "hasOwnProperty"])
      expect(await t.invoke("horu:call", { method: inherited, args: {} })).toMatchObject({ code: "unknown-method" });
    expect(await t.invoke("horu:call", "book.info")).toMatchObject({ code: "invalid-args" });
    expect(await t.invoke("horu:call", null)).toMatchObject({ code: "invalid-args" });
    expect(t.host.calls.length).toBe(before);
  });

  it("refuses calls from an iframe, another page or another window", async () => {
    const t = await boot();
    const before = t.host.calls.length;
    const call = { method: "book.info", args: {} };
    const refused = { code: "failed", error: expect.stringMatching(/refused/) };
    expect(await t.invoke("horu:call", call, { senderFrame: { url: t.shell.appUrl, parent: t.mainFrame } })).toMatchObject(refused);
    expect(await t.invoke("horu:call", call, { senderFrame: { url: "https://evil.example/", parent: null } })).toMatchObject(refused);
    expect(await t.invoke("horu:call", call, { senderFrame: { url: "file:///tmp/other.html", parent: null } })).toMatchObject(refused);
    // The renderer's own files opened as file:// are not the app either: only app://horu/index.html is.
    const fileUrl = pathToFileURL(path.join(t.distDir, "renderer", "index.html")).href;
    expect(await t.invoke("horu:call", call, { senderFrame: { url: fileUrl, parent: null } })).toMatchObject(refused);
    expect(await t.invoke("horu:call", call, { senderFrame: { url: "app://other/index.html", parent: null } })).toMatchObject(refused);
    expect(await t.invoke("horu:call", call, { senderFrame: null })).toMatchObject(refused);
    expect(await t.invoke("horu:call", call, { sender: new FakeContents() })).toMatchObject(refused);
    await expect(Promise.resolve(t.invoke("horu:pick", { kind: "records" }, { senderFrame: null }))).rejects.toThrow(/refused/);
    expect(t.host.calls.length).toBe(before);
    // The app page with a hash (client-side state) is still the app.
    expect(await t.invoke("horu:call", call, { senderFrame: { url: `${t.shell.appUrl}#/tree`, parent: null } })).toEqual({
      result: { echo: "book.info" },
    });
  });

  it("blocks navigation away from the app, popups and webviews, in every web contents", async () => {
    const t = await boot();
    const other = new FakeContents();
    (t.appListeners.get("web-contents-created") as (e: unknown, c: ContentsLike) => void)({}, other);
    for (const c of [t.win.webContents, other]) {
      expect(c.navigate("will-navigate", "https://evil.example/")).toBe(true);
      expect(c.navigate("will-navigate", "file:///etc/passwd")).toBe(true);
      expect(c.navigate("will-redirect", "https://evil.example/")).toBe(true);
      expect(c.navigate("will-frame-navigate", "https://evil.example/")).toBe(true);
      expect(c.navigate("will-navigate", t.shell.appUrl)).toBe(false);
      expect(c.navigate("will-attach-webview")).toBe(true);
      expect(c.openHandler?.({ url: "https://evil.example/" })).toEqual({ action: "deny" });
    }
  });

  it("forwards host events to the window and keeps the title on the book and dig state", async () => {
    const t = await boot();
    const info = { path: "/books/a.horu" } as never;
    t.host.emit({ type: "book.changed", info });
    expect(t.win.webContents.sent).toContainEqual(["horu:event", { type: "book.changed", info }]);
    expect(t.win.title).toBe("a.horu — /books/a.horu — horu");
    t.host.emit({ type: "dig.status", status: { state: "digging" } as never });
    expect(t.win.title).toBe("a.horu [digging] — /books/a.horu — horu");
    t.host.emit({ type: "book.changed", info: null });
    expect(t.win.title).toBe("horu");
  });

  it("has a menu with new/open/recent/import/export/quit wired to the host and dialogs", async () => {
    const t = await boot();
    t.host.emit({ type: "book.changed", info: { path: "/books/a.horu" } as never });
    await flush();
    const file = t.menu()[0].submenu as MenuItemConstructorOptions[];
    const item = (label: string) => file.find((i) => i.label === label)!;
    expect(file.map((i) => i.label).filter(Boolean)).toEqual([
      "New Book…",
      "Open Book…",
      "Open Recent",
      "Import Records…",
      "Export…",
      "Quit",
    ]);
    const recent = item("Open Recent").submenu as MenuItemConstructorOptions[];
    expect(recent.map((i) => i.label)).toEqual(t.host.recent);
    // Opening a recent book that has gone away shows the host's message.
    (recent[0].click as () => void)();
    await vi.waitFor(() => expect(t.showErrorBox).toHaveBeenCalledWith("horu", "/nope.horu does not exist"));
    (item("Import Records…").click as () => void)();
    await vi.waitFor(() => expect(t.host.calls).toContainEqual(["seed.paths", { paths: ["/records/a.kif", "/records/b.csa"] }]));
    expect(t.showOpenDialog.mock.calls.at(-1)?.[1]).toMatchObject({ properties: ["openFile", "multiSelections"] });
    (item("Export…").click as () => void)();
    await vi.waitFor(() => expect(t.showSaveDialog).toHaveBeenCalled());
    (item("Quit").click as () => void)();
    expect(t.quit).toHaveBeenCalled();
  });

  it("opens file dialogs for horu:pick, validating the options", async () => {
    const t = await boot();
    expect(await t.invoke("horu:pick", { kind: "records" })).toEqual(["/records/a.kif", "/records/b.csa"]);
    expect(await t.invoke("horu:pick", { kind: "export" })).toEqual([]); // cancelled
    await expect(Promise.resolve(t.invoke("horu:pick", { kind: "anything" }))).rejects.toThrow(/invalid options/);
    // Seeding a whole folder: a directory chooser; books to import: the four formats horu reads.
    await t.invoke("horu:pick", { kind: "folder" });
    expect(t.showOpenDialog.mock.calls.at(-1)?.[1]).toMatchObject({ properties: ["openDirectory", "multiSelections"] });
    await t.invoke("horu:pick", { kind: "books" });
    expect(t.showOpenDialog.mock.calls.at(-1)?.[1]).toMatchObject({
      properties: ["openFile", "multiSelections"],
      filters: [
        { name: "Books (YaneuraOu DB2016 .db, Apery .bin, YaneuraOu binary .ybb, ShogiGUI .sbk)", extensions: ["db", "bin", "ybb", "sbk"] },
        { name: "YaneuraOu DB2016 book (.db)", extensions: ["db"] },
        { name: "Apery book (.bin)", extensions: ["bin"] },
        { name: "YaneuraOu binary book (.ybb)", extensions: ["ybb"] },
        { name: "ShogiGUI book (.sbk)", extensions: ["sbk"] },
        { name: "All files", extensions: ["*"] },
      ],
    });
    // The page sends the names in its language; the export's first filter is the format chosen.
    await t.invoke("horu:pick", { kind: "export", defaultPath: "book.sbk", labels: { sbk: "ShogiGUI 定跡 (.sbk)" } });
    expect(t.showSaveDialog.mock.calls.at(-1)?.[1]).toMatchObject({
      defaultPath: "book.sbk",
      filters: [
        { name: "ShogiGUI 定跡 (.sbk)", extensions: ["sbk"] },
        { name: "YaneuraOu DB2016 book (.db)", extensions: ["db"] },
        { name: "Apery book (.bin)", extensions: ["bin"] },
        { name: "YaneuraOu binary book (.ybb)", extensions: ["ybb"] },
      ],
    });
    await expect(Promise.resolve(t.invoke("horu:pick", { kind: "books", labels: { exe: "x" } }))).rejects.toThrow(/invalid options/);
    await t.invoke("horu:pick", { kind: "records" });
    expect((t.showOpenDialog.mock.calls.at(-1)?.[1] as { filters: Array<{ extensions: string[] }> }).filters[0]!.extensions).toEqual(
      expect.arrayContaining(["kif", "csa", "db", "bin", "ybb", "sbk"]),
    );
    await t.invoke("horu:pick", { kind: "backup" });
    expect(t.showOpenDialog.mock.calls.at(-1)?.[1]).toMatchObject({ properties: ["openFile"] });
  });

  it("closes the book cleanly before quitting", async () => {
    const t = await boot();
    const beforeQuit = t.appListeners.get("before-quit") as (e: NavigationEventLike) => void;
    const e = { preventDefault: vi.fn() };
    beforeQuit(e);
    expect(e.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(t.quit).toHaveBeenCalled());
    expect(t.host.shutdown).toHaveBeenCalledTimes(1);
    const again = { preventDefault: vi.fn() };
    beforeQuit(again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });
});
