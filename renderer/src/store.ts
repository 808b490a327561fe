// Application state (zustand). Host events land here; bursts (dig.info from every engine,
// dig.status twice a second) are buffered and flushed on a timer so React renders a few
// times a second whatever the engines print.
import { create } from "zustand";
import type {
  Args,
  BanView,
  BackupView,
  BookInfo,
  BookEngineView,
  ImportReportView,
  DigStatus,
  MatchStatusView,
  EngineConfigView,
  HostClient,
  HostEvent,
  Method,
  NodeView,
  Result,
  SeedReportView,
} from "../../shared/api/contract";
import { onceAtATime } from "../../shared/api/contract";
import type { UsiInfo } from "../../shared/usi/info";
import { addSample, pvMoveAt, setValueLang, sortedMoves, type Sample, type Viewpoint } from "./logic";
import { translateError, type Lang } from "./i18n";

export type Tab = "dig" | "book" | "tree" | "engines" | "seed" | "bans" | "match" | "quality" | "tools" | "setup" | "record";
export type Theme = "dark" | "light";

export interface State {
  connected: boolean;
  /** horu web no longer knows this page's token (it was restarted): the page must be opened again with the new one. */
  tokenGone: boolean;
  /** Whether inputs that name files on the server may be used: always in Electron; in horu web only with --allow-server-paths. */
  serverPaths: boolean;
  book: BookInfo | null;
  recent: string[];
  status: DigStatus | null;
  /** Each engine's latest live view of a think (dig.info), with the position and think it is of. */
  infos: Record<number, LiveInfo>;
  samples: Sample[];
  line: string[];
  node: NodeView | null;
  selected: number;
  /** Whose view values are shown from, everywhere. */
  viewpoint: Viewpoint;
  bans: BanView[];
  /** All bans in the book; `bans` holds the pages loaded so far. */
  banTotal: number;
  engines: EngineConfigView[];
  seedReport: SeedReportView | null;
  exportProgress: { done: number; total: number } | null;
  /** A book import from the Tools view: its upload from the browser, then the host's import. */
  importProgress: { file: string; phase: "upload" | "import"; lines: number; bytes: number; total: number } | null;
  /** A book being opened (cleared when it is open). */
  opening: { path: string; phase: "snapshot" | "replay" | "positions" | "links"; done: number; total: number } | null;
  importReports: ImportReportView[] | null;
  /** The import dialog's "strict" box: a .db with a damaged line is refused whole instead of imported without it. */
  importStrict: boolean;
  lastBackup: BackupView | null;
  failures: string[];
  error: string | null;
  busy: boolean;
  tab: Tab;
  lang: Lang;
  theme: Theme;
  flipped: boolean;
  exportOpen: boolean;
  match: MatchStatusView | null;
  /** Files dropped with no book open, waiting for the user to accept a new book for them. */
  pendingDrop: File[] | null;
  /** Engines the open book names that are not in the library and that the user has not yet answered about. */
  bookEngines: BookEngineView[];
}

/** The language chosen before, else the browser's first: Japanese for ja, English otherwise. */
function initialLang(): Lang {
  const chosen = saved("horu.lang", "");
  const langs = typeof navigator === "undefined" ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  const lang: Lang = chosen === "en" || chosen === "ja" ? chosen : /^ja\b/i.test(langs[0] ?? "") ? "ja" : "en";
  // Values' words (mate: 詰 / mate) follow it from the start; a saved choice left them Japanese after a reload.
  setValueLang(lang);
  return lang;
}

const saved = (k: string, d: string): string => {
  try {
    return localStorage.getItem(k) ?? d;
  } catch {
    return d;
  }
};

export const useStore = create<State>(() => ({
  connected: true,
  tokenGone: false,
  serverPaths: false,
  book: null,
  recent: [],
  status: null,
  infos: {},
  samples: [],
  line: [],
  node: null,
  selected: 0,
  viewpoint: saved("horu.viewpoint", "black") === "mover" ? "mover" : "black",
  bans: [],
  banTotal: 0,
  engines: [],
  seedReport: null,
  exportProgress: null,
  importProgress: null,
  opening: null,
  importReports: null,
  importStrict: false,
  lastBackup: null,
  failures: [],
  error: null,
  busy: false,
  tab: "dig",
  lang: initialLang(),
  theme: saved("horu.theme", "dark") === "light" ? "light" : "dark",
  flipped: false,
  exportOpen: false,
  match: null,
  pendingDrop: null,
  bookEngines: [],
}));

let host: HostClient | null = null;

const TABS: readonly Tab[] = [
  "dig",
  "book",
  "engines",
  "seed",
  "bans",
  "match",
  "quality",
  "tools",
  "setup",
  "record",
] as readonly string[] as readonly Tab[];

/** The board position last shown for a book (kept across reloads, per book). */
function savedLine(bookPath: string): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(`horu.line:${bookPath}`) ?? "[]");
    return Array.isArray(v) && v.every((m) => typeof m === "string" && /^[\w*+]{4,5}$/.test(m)) ? (v as string[]).slice(0, 1024) : [];
  } catch {
    return [];
  }
}

// The tab and the board position survive a reload: written whenever they change.
useStore.subscribe((now, before) => {
  try {
    if (now.tab !== before.tab) localStorage.setItem("horu.tab", now.tab);
    if (now.book && (now.line !== before.line || now.book !== before.book))
      localStorage.setItem(`horu.line:${now.book.path}`, JSON.stringify(now.line));
  } catch {
    // preference only
  }
});

// A new root on the open book, whichever brings it first (the settings call's answer or the
// book.changed event; over the web they race): the board goes to it, and the status and chart
// (the old root's values, shown negated for the new one) are read again.
useStore.subscribe((now, before) => {
  if (!now.book || !before.book || now.book.path !== before.book.path || now.book.rootSfen === before.book.rootSfen) return;
  useStore.setState({ line: [], node: null, samples: [], status: null });
  if (!host) return;
  void host.call("dig.status", {}).then(
    (st) => useStore.setState({ status: st }),
    () => undefined,
  );
  void loadHistory();
  void refreshNode(true);
});

export function hostClient(): HostClient {
  if (!host) throw new Error("host not connected");
  return host;
}

const underWay = new Map<string, Promise<unknown>>();

/** Calls the host; a failure is shown in the error bar and rethrown for the caller. */
export function call<M extends Method>(method: M, args: Args<M>): Promise<Result<M>> {
  // An action the contract marks `once` (a double click): an identical call under way answers for it.
  if (!onceAtATime(method)) return callNow(method, args);
  const key = `${method} ${JSON.stringify(args)}`;
  const running = underWay.get(key);
  if (running) return running as Promise<Result<M>>;
  const p = callNow(method, args).finally(() => underWay.delete(key));
  underWay.set(key, p);
  return p;
}

async function callNow<M extends Method>(method: M, args: Args<M>): Promise<Result<M>> {
  try {
    const r = await hostClient().call(method, args);
    // The banner describes the last action that failed: the next one that succeeds clears it.
    if (useStore.getState().error !== null) useStore.setState({ error: null });
    return r;
  } catch (e) {
    useStore.setState({ error: translateError(useStore.getState().lang, e) });
    throw e;
  }
}

/** Same as call, but a failure only shows in the error bar (for click handlers). */
export function act<M extends Method>(method: M, args: Args<M>): Promise<Result<M> | undefined> {
  return call(method, args).catch(() => undefined);
}

// --- Event buffering -----------------------------------------------------------------

let pendingInfos: Record<number, LiveInfo> = {};
let pendingStatus: DigStatus | null = null;
let flushTimer: ReturnType<typeof setTimeout> | null = null;
const FLUSH_MS = 250;
/** The browsed node is read again at most this often while a dig's statuses come. */
const NODE_REFRESH_MS = 3000;
let lastNodeRefresh = 0;
let nodeRefreshTimer: ReturnType<typeof setTimeout> | null = null;

/** Reads the browsed node again soon: throttled, but the last change is never dropped (no status may follow it). */
function refreshNodeSoon(): void {
  if (nodeRefreshTimer) return;
  const wait = Math.max(0, lastNodeRefresh + NODE_REFRESH_MS - Date.now());
  nodeRefreshTimer = setTimeout(() => {
    nodeRefreshTimer = null;
    lastNodeRefresh = Date.now();
    void refreshNode(false);
  }, wait);
}

function scheduleFlush(): void {
  if (flushTimer) return;
  flushTimer = setTimeout(flush, FLUSH_MS);
}

function flush(): void {
  flushTimer = null;
  const s = useStore.getState();
  const patch: Partial<State> = {};
  if (Object.keys(pendingInfos).length) {
    patch.infos = { ...s.infos, ...pendingInfos };
    pendingInfos = {};
  }
  if (pendingStatus) {
    const st = pendingStatus;
    pendingStatus = null;
    patch.status = st;
    // New bans stored (or lifted): the bans list follows the counter.
    // Compared with the count shown (not the last status: a status answered to a call is set
    // without passing here), so the Banned tab's count follows the book, not only ↻.
    if (s.book && typeof st.bans === "number" && st.bans !== s.banTotal) {
      patch.banTotal = st.bans;
      void loadSide();
    }
  }
  useStore.setState(patch);
}

/** An engine's live view of one think: `info` is of position `sfen`. */
export interface LiveInfo {
  info: UsiInfo;
  sfen: string;
  think: number;
}

export function handleEvent(e: HostEvent): void {
  switch (e.type) {
    case "dig.info":
      // Each view is whole (the host merges one think's lines): a newer one replaces it.
      pendingInfos[e.engine] = { info: e.info, sfen: e.sfen, think: e.think };
      scheduleFlush();
      return;
    case "dig.status":
      pendingStatus = e.status;
      scheduleFlush();
      return;
    case "book.updated":
      // Results stored, or a stopped dig's values made current after its last results (the
      // search finishes in slices, with no new position): the browsed node's values changed.
      if (useStore.getState().book) refreshNodeSoon();
      return;
    case "dig.sample":
      // The host stores each point in the book, then sends it: the charts show exactly the book's history.
      useStore.setState((s) => ({ samples: addSample(s.samples, e.sample) }));
      return;
    case "dig.failure":
      useStore.setState((s) => ({ failures: [...s.failures.slice(-19), `${e.engine ? e.engine + ": " : ""}${e.message}`] }));
      return;
    case "export.progress":
      useStore.setState({ exportProgress: { done: e.done, total: e.total } });
      return;
    case "web.options":
      useStore.setState({ serverPaths: e.serverPaths });
      return;
    case "book.opening":
      useStore.setState({ opening: { path: e.path, phase: e.phase, done: e.done, total: e.total } });
      return;
    case "import.progress":
      useStore.setState({ importProgress: { file: e.file, phase: "import", lines: e.lines, bytes: e.bytes, total: e.total } });
      return;
    case "backup.done":
      if (e.backup) useStore.setState({ lastBackup: e.backup });
      else if (e.error) useStore.setState({ error: e.error });
      return;
    case "match.status":
      useStore.setState({ match: e.status });
      return;
    case "book.changed": {
      const epoch = ++bookEpoch;
      useStore.setState({ opening: null });
      const prev = useStore.getState().book;
      const samePath = prev?.path === e.info?.path;
      // Another book (or none): nothing of the previous one may stay on screen.
      if (!samePath) {
        pendingStatus = null;
        pendingInfos = {};
        useStore.setState({
          book: e.info,
          line: e.info ? savedLine(e.info.path) : [],
          node: null,
          samples: [],
          infos: {},
          selected: 0,
          status: null,
          failures: [],
          bans: [],
          engines: [],
          bookEngines: [],
          seedReport: null,
        });
        void hostClient()
          .call("dig.status", {})
          .then(
            (st) => useStore.setState({ status: st }),
            () => undefined,
          );
        if (e.info) void loadHistory();
      } else {
        useStore.setState({ book: e.info });
        // The same book reopened (an import, a new root): its value and best line changed.
        if (e.info)
          void hostClient()
            .call("dig.status", {})
            .then(
              (st) => epoch === bookEpoch && useStore.setState({ status: st }),
              () => undefined,
            );
        // A book another process digs (read-only here): its chart points arrive with the book, not as events.
        if (e.info?.readonly && Date.now() - lastHistoryLoad > 5000) void loadHistory();
      }
      if (e.info) {
        void refreshNode(true);
        void loadSide();
      }
      return;
    }
  }
}

/** Counts book.changed events, so an answer that left before one is known to be stale. */
let bookEpoch = 0;
let lastHistoryLoad = 0;

/** The open book's chart history; live points that came while it loaded are kept after it. */
export async function loadHistory(): Promise<void> {
  const epoch = bookEpoch;
  lastHistoryLoad = Date.now();
  const history = await hostClient()
    .call("dig.history", {})
    .catch(() => null);
  if (!history || epoch !== bookEpoch) return;
  useStore.setState((s) => {
    const last = history[history.length - 1]?.t ?? -Infinity;
    return { samples: [...history, ...s.samples.filter((x) => x.t > last)] };
  });
}

export async function connect(client: HostClient): Promise<void> {
  host = client;
  const epoch = bookEpoch;
  client.onEvent(handleEvent);
  const [book, recent, status] = await Promise.all([
    client.call("book.info", {}).catch(() => null),
    client.call("book.recent", {}).catch(() => []),
    client.call("dig.status", {}).catch(() => null),
  ]);
  const match = await client.call("match.status", {}).catch(() => null);
  // A book opened, created or closed while these answers were on their way wins over them.
  const now = useStore.getState().book;
  const current = epoch === bookEpoch && now === null ? book : now;
  const tab = saved("horu.tab", "") as Tab;
  useStore.setState({
    book: current,
    recent,
    status,
    match,
    ...(current === book && book ? { line: savedLine(book.path) } : {}),
    ...(match && !current ? { tab: "match" as Tab } : TABS.includes(tab) ? { tab } : {}),
  });
  if (current && current === book) {
    await loadHistory();
    await refreshNode(true);
    await loadSide();
  }
}

/** Engines and bans: small lists loaded when a book opens and after changes. */
export async function loadSide(): Promise<void> {
  const [engines, page, recent, fromBook] = await Promise.all([
    hostClient()
      .call("engines.list", {})
      .catch(() => []),
    hostClient()
      .call("book.bans", { offset: 0, limit: BAN_PAGE })
      .catch(() => ({ total: 0, offset: 0, bans: [] })),
    hostClient()
      .call("book.recent", {})
      .catch(() => useStore.getState().recent),
    hostClient()
      .call("engines.ofBook", {})
      .catch(() => []),
  ]);
  const book = useStore.getState().book;
  const answered = book ? answeredBookEngines(book.path) : [];
  useStore.setState({
    engines,
    bans: page.bans,
    banTotal: page.total,
    recent,
    bookEngines: fromBook.filter((e) => !answered.includes(e.commandLine)),
  });
  // Not digging, the status names the engines Start would use: the library may have just changed.
  const state = useStore.getState().status?.state;
  if (state === "idle" || state === "stopped")
    void hostClient()
      .call("dig.status", {})
      .then(
        (st) => useStore.setState({ status: st }),
        () => undefined,
      );
}

/**
 * The book engines' command lines the user declined for this book (kept per book, so a book is
 * not asked about on every open; an engine it names later is asked about again).
 */
function answeredBookEngines(bookPath: string): string[] {
  try {
    const v = JSON.parse(saved(`horu.bookEngines:${bookPath}`, "[]")) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** The user declined to add these engines of the open book: do not ask again for this book. */
export function declineBookEngines(commandLines: string[]): void {
  const book = useStore.getState().book;
  if (book) {
    try {
      localStorage.setItem(
        `horu.bookEngines:${book.path}`,
        JSON.stringify([...new Set([...answeredBookEngines(book.path), ...commandLines])]),
      );
    } catch {
      // private mode: asked again next time
    }
  }
  useStore.setState((s) => ({ bookEngines: s.bookEngines.filter((e) => !commandLines.includes(e.commandLine)) }));
}

/** Bans come in pages: the list loads the next one when it is scrolled to its end. */
export const BAN_PAGE = 500;

export async function loadMoreBans(): Promise<void> {
  const { bans } = useStore.getState();
  const page = await hostClient()
    .call("book.bans", { offset: bans.length, limit: BAN_PAGE })
    .catch(() => null);
  if (!page || page.offset !== useStore.getState().bans.length) return; // reloaded meanwhile
  useStore.setState({ bans: [...useStore.getState().bans, ...page.bans], banTotal: page.total });
}

/**
 * A dig control call, then a short status poll until the state settles: the host sends
 * progress events while digging, but the end of "pausing" or "stopping" may bring none.
 */
export async function digControl(
  method: "dig.start" | "dig.pause" | "dig.resume" | "dig.stop",
  args: { processes?: number },
): Promise<void> {
  const first = await act(method, args as never);
  if (!first) return;
  useStore.setState({ status: first as DigStatus });
  for (let i = 0; i < 240; i++) {
    const st = useStore.getState().status;
    if (st && !["starting", "pausing", "stopping"].includes(st.state)) return;
    await new Promise((r) => setTimeout(r, 500));
    const now = await hostClient()
      .call("dig.status", {})
      .catch(() => null);
    if (now) useStore.setState({ status: now });
  }
}

// --- Browsing ---------------------------------------------------------------------------

let nodeRequest = 0;

/** Loads the node at the current line. `reset` puts the row cursor on top. */
export async function refreshNode(reset: boolean): Promise<void> {
  const { line, book } = useStore.getState();
  if (!book) return;
  const id = ++nodeRequest;
  try {
    const got = await hostClient().call("book.node", { line });
    if (id !== nodeRequest) return;
    // Book order (the Tree's): the best move first. A refresh keeps the selected move selected.
    const node = { ...got, moves: sortedMoves(got.moves, pvMoveAt(useStore.getState().status?.pv, line)) };
    useStore.setState((s) => {
      const was = s.node?.moves[s.selected]?.usi;
      const at = reset || !was ? -1 : node.moves.findIndex((m) => m.usi === was);
      return { node, selected: at >= 0 ? at : reset ? 0 : Math.min(s.selected, Math.max(0, node.moves.length - 1)) };
    });
  } catch (e) {
    if (id === nodeRequest) useStore.setState({ error: e instanceof Error ? e.message : String(e) });
  }
}

export function goTo(line: string[]): void {
  useStore.setState({ line, selected: 0 });
  void refreshNode(true);
}

export function goInto(usi: string): void {
  goTo([...useStore.getState().line, usi]);
}

export function goBack(): void {
  const { line } = useStore.getState();
  if (line.length === 0) return;
  const last = line[line.length - 1];
  useStore.setState({ line: line.slice(0, -1) });
  // Put the cursor back on the move we came from.
  void refreshNode(true).then(() => {
    const n = useStore.getState().node;
    const i = n?.moves.findIndex((m) => m.usi === last) ?? -1;
    if (i >= 0) useStore.setState({ selected: i });
  });
}

export function setViewpoint(viewpoint: Viewpoint): void {
  try {
    localStorage.setItem("horu.viewpoint", viewpoint);
  } catch {
    // preference only
  }
  useStore.setState({ viewpoint });
}

export function setLang(lang: Lang): void {
  try {
    localStorage.setItem("horu.lang", lang);
  } catch {
    // preference only
  }
  setValueLang(lang);
  useStore.setState({ lang });
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem("horu.theme", theme);
  } catch {
    // preference only
  }
  useStore.setState({ theme });
}
