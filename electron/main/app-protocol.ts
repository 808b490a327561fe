// The desktop app's page comes from app://horu/ (Electron's security checklist: a custom
// protocol, not file://): a privileged standard scheme whose handler serves only files under
// the renderer's dist folder, with the CSP as a response header (a file:// page gets no
// headers at all, so only its meta tag applied). No Electron import here: the handler is
// plain Request -> Response, tested without the Electron binary.
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";

export const APP_SCHEME = "app";
export const APP_HOST = "horu";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the window loads; the IPC accepts calls from this frame only. */
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** For protocol.registerSchemesAsPrivileged, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  // standard: a real origin (relative URLs, localStorage); secure: like https.
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, stream: false },
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The file under `root` an app:// URL names, or null when it names none: another scheme or
 * host, a path that is not valid percent-encoding, holds a NUL or a backslash, or leaves
 * `root` (`..`, encoded or not). "/" is index.html.
 */
export function appFilePath(root: string, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (rel.includes("\0") || rel.includes("\\")) return null;
  if (rel === "/" || rel === "") rel = "/index.html";
  const base = path.resolve(root);
  const file = path.resolve(base, `.${rel}`);
  const inside = path.relative(base, file);
  if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside)) return null;
  return file;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/**
 * Answers one request for the app's files: GET or HEAD only, the file's bytes with its type,
 * the CSP and nosniff; 404 for what is not there or not allowed (a link out of the folder
 * through a symbolic link included), so nothing else on disk is ever read.
 */
export async function serveAppFile(root: string, csp: string, request: { url: string; method: string }): Promise<AppResponse> {
  const headers = { "Content-Security-Policy": csp, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache" };
  const text = (status: number, body: string): AppResponse => ({
    status,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    body,
  });
  if (request.method !== "GET" && request.method !== "HEAD") return text(405, "method not allowed");
  const file = appFilePath(root, request.url);
  if (!file) return text(404, "not found");
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
    const inside = path.relative(realRoot, realFile);
    if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside)) return text(404, "not found");
    const body = await readFile(realFile);
    const type = TYPES[path.extname(realFile).toLowerCase()] ?? "application/octet-stream";
    return { status: 200, headers: { ...headers, "Content-Type": type }, body: request.method === "HEAD" ? "" : body };
  } catch {
    return text(404, "not found");
  }
}

/** protocol.handle's handler: a web Request in, a web Response out. */
export function appProtocolHandler(root: string, csp: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const r = await serveAppFile(root, csp, { url: request.url, method: request.method });
    return new Response(r.body as BodyInit, { status: r.status, headers: r.headers });
  };
}
