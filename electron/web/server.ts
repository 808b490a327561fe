// `horu web`: the renderer and the host contract over HTTP + WebSocket, for a browser on the
// same machine. Only 127.0.0.1 is bound, every request carries a random token, and the Host
// and Origin headers must name this server (against DNS rebinding and cross-site requests).

import http from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { HostEvent } from "../../shared/api/contract.js";
import { dispatch, type Host } from "../host/transport.js";
import { listBackups } from "../book/backup.js";

export const BIND_HOST = "127.0.0.1";
export const BODY_LIMIT = 80 * 1024 * 1024;
/** Per port: cookies ignore ports, so two servers on 127.0.0.1 sharing one name would log each other out. */
export const cookieName = (port: number) => `horu_token_${port}`;

export interface WebServerOptions {
  host: Host;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The built renderer (vite output); GET / answers 503 while it is missing. */
  staticDir: string;
  /** Fixed token for tests; random otherwise. */
  token?: string;
  /** Largest /api/call body (BODY_LIMIT: seed uploads carry base64 files). */
  bodyLimit?: number;
  /** Let the page make the server read files and folders by path (SERVER_PATH_METHODS); off by default, the page uploads. */
  allowServerPaths?: boolean;
}

/**
 * Calls that make the server read (or, for a match, also write) files and folders named by the
 * client, beyond the book itself: over HTTP only with allowServerPaths. The page uploads records
 * and books instead (seed.upload, book.importUpload). Opening, creating, exporting and backing up
 * the book stay open: the page works on books by path, and export refuses to overwrite a book.
 */
export const SERVER_PATH_METHODS: ReadonlySet<string> = new Set([
  "seed.paths",
  "book.import",
  "backup.restore",
  "match.open",
  "match.start",
]);

/** The English refusal; the page translates it by its key. */
export const serverPathsOff = (method: string) =>
  `${method}: reading files by their path on the server is off; upload the files instead, or start horu web with --allow-server-paths`;

export interface WebServer {
  port: number;
  token: string;
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function cookieToken(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given),
    b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString("base64url");
  const host = options.host;
  const limit = options.bodyLimit ?? BODY_LIMIT;
  let port = 0;
  const csp = () => contentSecurityPolicy(port);
  const hosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  /** Why a request (HTTP or upgrade) is refused, or null when it may go on. */
  function refuse(req: http.IncomingMessage, url: URL): { status: number; message: string } | null {
    // Exactly one Host header (Node keeps the first of several; a proxy may read another).
    const hostHeaders = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i].toLowerCase() === "host").length;
    if (hostHeaders !== 1 || !hosts().has((req.headers.host ?? "").toLowerCase()))
      return { status: 403, message: "forbidden: unexpected Host header" };
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) return { status: 403, message: "forbidden: cross-origin request" };
    // Any of the three may carry it (a stale cookie must not hide a fresh ?token=).
    const candidates = [
      cookieToken(req.headers.cookie, cookieName(port)),
      headerValue(req.headers["x-horu-token"]),
      url.searchParams.get("token") ?? undefined,
    ];
    if (!candidates.some((c) => sameToken(c, token)))
      return { status: 401, message: "unauthorized: open the URL with its token that `horu web` printed" };
    return null;
  }

  const baseHeaders = (): Record<string, string> => ({
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": csp(),
    "Cache-Control": "no-store",
  });

  function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
    res.writeHead(status, { ...baseHeaders(), "Content-Type": type, "Content-Length": String(Buffer.byteLength(body)), ...extra });
    res.end(body);
  }
  const sendJson = (res: http.ServerResponse, status: number, value: unknown) =>
    send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
  const sendText = (res: http.ServerResponse, status: number, text: string) => send(res, status, "text/plain; charset=utf-8", text + "\n");

  /**
   * Restoring one of the open book's own backups (the Tools view's list) reads no file the
   * client chose: a backup horu names for this book, in the book's own folder (never a folder
   * the client set for backups).
   */
  async function ownBackup(method: string, args: unknown): Promise<boolean> {
    if (method !== "backup.restore") return false;
    const want = (args as { path?: unknown } | null)?.path;
    if (typeof want !== "string") return false;
    const info = await dispatch(host, "book.info", {});
    const book = "result" in info ? (info.result as { path: string } | null)?.path : undefined;
    return typeof book === "string" && listBackups(path.dirname(book), book).includes(want);
  }

  async function apiCall(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== "POST") return sendJson(res, 405, { error: "POST a JSON body {method, args}", code: "failed" });
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/json") return sendJson(res, 415, { error: "the body must be application/json", code: "failed" });
    let text: string;
    try {
      text = await readBody(req, limit);
    } catch (e) {
      if (e instanceof TooLarge) {
        // Answer first, then drop the rest of the upload instead of reading it.
        res.once("finish", () => req.destroy());
        res.setHeader("Connection", "close");
        sendJson(res, 413, { error: `the body is larger than ${+(limit / 1024 / 1024).toFixed(2)} MiB`, code: "failed" });
        return;
      }
      throw e;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return sendJson(res, 400, { error: "the body is not valid JSON", code: "invalid-args" });
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return sendJson(res, 400, { error: "the body must be an object {method, args}", code: "invalid-args" });
    const { method, args } = body as { method?: unknown; args?: unknown };
    if (typeof method === "string" && SERVER_PATH_METHODS.has(method) && !options.allowServerPaths && !(await ownBackup(method, args))) {
      return sendJson(res, 403, { error: serverPathsOff(method), code: "user", key: "serverPathsOff", params: { method } });
    }
    const reply = await dispatch(host, method, args);
    if ("result" in reply) return sendJson(res, 200, reply);
    // The user's mistakes are 4xx with the message; only the host's faults are 5xx.
    // A write the book is busy with (an import, a restore) is a conflict: 409, try again later.
    sendJson(res, reply.code === "failed" ? 500 : (reply as { key?: string }).key === "bookBusy" ? 409 : 400, reply);
  }

  function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, url: URL, tokenInQuery: boolean): void {
    if (req.method !== "GET" && req.method !== "HEAD") return sendText(res, 405, "method not allowed");
    const isIndex = url.pathname === "/" || url.pathname === "/index.html";
    if (!existsSync(path.join(options.staticDir, "index.html"))) {
      if (isIndex)
        return send(
          res,
          503,
          "text/html; charset=utf-8",
          "<!doctype html><title>horu</title><p>The renderer is not built: run <code>npm run build:renderer</code>, then reload.</p>",
        );
      return sendText(res, 404, "not found");
    }
    const file = isIndex ? path.join(options.staticDir, "index.html") : resolveStatic(options.staticDir, url.pathname);
    if (file === null) return sendText(res, 404, "not found");
    const type = TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    const extra: Record<string, string> = { "Content-Type": type, "Content-Length": String(statSync(file).size) };
    // The cookie lets the page's own requests (assets, API, WebSocket) carry the token.
    if (isIndex || tokenInQuery) extra["Set-Cookie"] = `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    res.writeHead(200, { ...baseHeaders(), ...extra });
    if (req.method === "HEAD") return void res.end();
    createReadStream(file).pipe(res);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const no = refuse(req, url);
    if (no) return sendText(res, no.status, no.message);
    const handle =
      url.pathname === "/api/call"
        ? apiCall(req, res)
        : url.pathname.startsWith("/api/")
          ? Promise.resolve(sendText(res, 404, "not found"))
          : Promise.resolve(serveStatic(req, res, url, url.searchParams.has("token")));
    handle.catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: e instanceof Error ? e.message : String(e), code: "failed" });
      else res.destroy();
    });
  });
  // Uploads are large: do not let Node's request timeout cut them off on a slow disk.
  server.requestTimeout = 0;

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const no = url.pathname === "/api/events" ? refuse(req, url) : { status: 404, message: "not found" };
    if (no) {
      socket.end(
        `HTTP/1.1 ${no.status} ${http.STATUS_CODES[no.status]}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${no.message}\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => void greet(ws));
  });

  /** Sends the current state first, holding back events until it is out (so order is kept). */
  async function greet(ws: WebSocket): Promise<void> {
    const held: HostEvent[] = [];
    let ready = false;
    const sendEvent = (e: HostEvent) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(e));
    };
    const off = host.onEvent((e) => (ready ? sendEvent(e) : held.push(e)));
    ws.on("close", off);
    ws.on("error", off);
    // The client has nothing to say on this socket; calls go through POST /api/call.
    ws.on("message", () => undefined);
    sendEvent({ type: "web.options", serverPaths: !!options.allowServerPaths });
    const status = await dispatch(host, "dig.status", {});
    const info = await dispatch(host, "book.info", {});
    if ("result" in status) sendEvent({ type: "dig.status", status: status.result as never });
    if ("result" in info) sendEvent({ type: "book.changed", info: info.result as never });
    ready = true;
    for (const e of held) sendEvent(e);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, BIND_HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as { port: number }).port;

  return {
    port,
    token,
    url: `http://${BIND_HOST}:${port}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** A file under `root` for a URL path, or null: no "..", no NUL, no symlink out of root. */
export function resolveStatic(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  if (decoded.split("/").some((seg) => seg === ".." || seg === ".")) return null;
  const base = realpathSync(root);
  const candidate = path.resolve(base, "." + decoded);
  if (candidate !== base && !candidate.startsWith(base + path.sep)) return null;
  try {
    const real = realpathSync(candidate);
    if (!real.startsWith(base + path.sep) || !statSync(real).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

class TooLarge extends Error {}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) return reject(new TooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners("data");
        reject(new TooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
