// The browser client for `horu web`: calls as POST /api/call, events over a WebSocket
// that reconnects with backoff (the server resends dig.status and book.changed on connect).
import type { Args, HostClient, HostEvent, Method, Result } from "../../../shared/api/contract";

const TOKEN_KEY = "horu.token";

/** The token from ?token=..., kept in sessionStorage so a reload without the query still works. */
export function readToken(location: Location, storage: Storage | null): string {
  const fromUrl = new URLSearchParams(location.search).get("token");
  if (fromUrl) {
    try {
      storage?.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // storage may be disabled; the HttpOnly cookie still authenticates
    }
    return fromUrl;
  }
  try {
    return storage?.getItem(TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

export class CallFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly key?: string,
    readonly params?: Record<string, string | number>,
  ) {
    super(message);
    this.name = "CallFailure";
  }
}

/** Delay before reconnect attempt n (0-based): 250 ms doubling to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5000, 250 * 2 ** Math.min(attempt, 5));
}

export type Connection = "connecting" | "open" | "closed";

/** dig.info events as the host serializes them: {"type":"dig.info","engine":N,...}. */
const INFO_PREFIX = /^\{"type":"dig\.info","engine":(\d+),/;
const INFO_COALESCE_MS = 200;

export class WebHostClient implements HostClient {
  private readonly listeners = new Set<(e: HostEvent) => void>();
  private readonly connListeners = new Set<(c: Connection) => void>();
  private socket: WebSocket | null = null;
  private readonly infos = new Map<number, string>();
  private infoTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private closed = false;
  connection: Connection = "connecting";

  constructor(
    private readonly token: string,
    private readonly base: URL = new URL(window.location.href),
  ) {
    this.connect();
  }

  async call<M extends Method>(method: M, args: Args<M>): Promise<Result<M>> {
    const res = await fetch(new URL("api/call", this.apiBase()), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Horu-Token": this.token },
      body: JSON.stringify({ method, args }),
      credentials: "same-origin",
    });
    let body: { result?: unknown; error?: string; code?: string; key?: string; params?: Record<string, string | number> } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      // a non-JSON answer (proxy error page): report the status below
    }
    if (!res.ok) throw new CallFailure(body.error ?? `${method}: HTTP ${res.status}`, body.code ?? "failed", body.key, body.params);
    return body.result as Result<M>;
  }

  onEvent(listener: (e: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onConnection(listener: (c: Connection) => void): () => void {
    this.connListeners.add(listener);
    return () => this.connListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private apiBase(): URL {
    // The page may live at /index.html or /; the API is beside it at the server root.
    return new URL("/", this.base);
  }

  private dispatch(data: string): void {
    let e: HostEvent;
    try {
      e = JSON.parse(data) as HostEvent;
    } catch {
      return;
    }
    for (const l of this.listeners) l(e);
  }

  /**
   * Engines' live views may come faster than the page should parse them. Per engine only the
   * newest is kept (each is the whole view of one think, tagged with its position and think)
   * and parsed a few times a second.
   */
  private coalesceInfo(data: string): boolean {
    const m = INFO_PREFIX.exec(data);
    if (!m) return false;
    const engine = Number(m[1]);
    // Each dig.info is an engine's whole view of its think: the latest replaces the others.
    this.infos.set(engine, data);
    this.infoTimer ??= setTimeout(() => {
      this.infoTimer = null;
      const slots = [...this.infos.values()];
      this.infos.clear();
      for (const data of slots) this.dispatch(data);
    }, INFO_COALESCE_MS);
    return true;
  }

  private setConnection(c: Connection): void {
    this.connection = c;
    for (const l of this.connListeners) l(c);
  }

  private connect(): void {
    if (this.closed) return;
    const url = new URL("/api/events", this.base);
    url.protocol = this.base.protocol === "https:" ? "wss:" : "ws:";
    url.search = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    this.setConnection("connecting");
    const ws = new WebSocket(url);
    this.socket = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setConnection("open");
    };
    ws.onmessage = (m) => {
      const data = String(m.data);
      if (this.coalesceInfo(data)) return;
      this.dispatch(data);
    };
    ws.onclose = () => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.setConnection("closed");
      if (!this.closed) setTimeout(() => this.connect(), backoffMs(this.attempt++));
    };
  }
}
