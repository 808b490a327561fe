import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WebSocket } from "ws";
import { startWebServer, resolveStatic, type WebServer } from "./server.js";
import { HostService } from "../host/service.js";
import type { Host } from "../host/transport.js";
import { RemoteService } from "../host/remote-service.js";
import { HORU, REPO, tempDir } from "../testing/paths.js";
import type { HostEvent } from "../../shared/api/contract.js";

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request (fetch would not let us forge Host or send un-normalised paths). */
function request(port: number, opts: { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: opts.path, method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("request timed out")));
    req.end(opts.body);
  });
}

/** Opens a WebSocket and collects its messages; resolves once open or rejects with the HTTP status. */
function connect(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ws: WebSocket; next: (pred?: (e: HostEvent) => boolean) => Promise<HostEvent> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const queue: HostEvent[] = [];
    const waiters: Array<{ pred: (e: HostEvent) => boolean; resolve: (e: HostEvent) => void }> = [];
    ws.on("message", (data) => {
      const e = JSON.parse(String(data)) as HostEvent;
      const w = waiters.findIndex((x) => x.pred(e));
      if (w >= 0) waiters.splice(w, 1)[0].resolve(e);
      else queue.push(e);
    });
    const next = (pred: (e: HostEvent) => boolean = () => true) =>
      new Promise<HostEvent>((res, rej) => {
        const i = queue.findIndex(pred);
        if (i >= 0) return res(queue.splice(i, 1)[0]);
        const timer = setTimeout(() => rej(new Error("no matching event within 10 s")), 10_000);
        waiters.push({ pred, resolve: (e) => (clearTimeout(timer), res(e)) });
      });
    ws.once("open", () => resolve({ ws, next }));
    ws.once("unexpected-response", (_req, res) => {
      reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
      ws.terminate();
    });
    ws.once("error", reject);
  });
}

const TOKEN = "test-token-0123456789abcdef0123456789abcd";

describe("horu web server", () => {
  let dir: string;
  let server: WebServer;
  let host: HostService;
  let base: Record<string, string>;

  beforeAll(async () => {
    dir = tempDir("horu-web-");
    const root = path.join(dir, "renderer");
    mkdirSync(path.join(root, "assets"), { recursive: true });
    writeFileSync(path.join(root, "index.html"), "<!doctype html><title>horu</title><script type=module src=./assets/app.js></script>");
    writeFileSync(path.join(root, "assets", "app.js"), "console.log('horu');");
    writeFileSync(path.join(dir, "secret.txt"), "secret");
    symlinkSync(path.join(dir, "secret.txt"), path.join(root, "assets", "link.txt"));
    host = new HostService();
    server = await startWebServer({ host, staticDir: root, token: TOKEN });
    base = { Host: `127.0.0.1:${server.port}` };
  });
  afterAll(async () => {
    await server.close();
    await host.closeBook();
  });

  const api = (method: string, args: unknown, headers: Record<string, string> = {}) =>
    request(server.port, {
      path: "/api/call",
      method: "POST",
      headers: { ...base, "Content-Type": "application/json", "X-Horu-Token": TOKEN, ...headers },
      body: JSON.stringify({ method, args }),
    });

  it("prints a URL on 127.0.0.1 with the token", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${TOKEN}`);
  });

  it("refuses every HTTP request without the token (401)", async () => {
    for (const p of ["/", "/index.html", "/assets/app.js", "/nothing", "/?token=wrong"])
      expect((await request(server.port, { path: p })).status, p).toBe(401);
    const call = await request(server.port, {
      path: "/api/call",
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"method":"book.info","args":{}}',
    });
    expect(call.status).toBe(401);
    expect((await api("book.info", {}, { "X-Horu-Token": "wrong" })).status).toBe(401);
    expect((await request(server.port, { path: "/assets/app.js", headers: { Cookie: `horu_token_${server.port}=wrong` } })).status).toBe(
      401,
    );
  });

  it("serves index.html for ?token=, with the cookie and a strict CSP", async () => {
    const r = await request(server.port, { path: `/?token=${TOKEN}` });
    expect(r.status).toBe(200);
    expect(r.body).toContain("<title>horu</title>");
    // Named after the port: a second server on 127.0.0.1 does not overwrite this one's cookie.
    expect(r.headers["set-cookie"]?.[0]).toBe(`horu_token_${server.port}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`);
    const csp = String(r.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(r.headers["referrer-policy"]).toBe("no-referrer");
    const asset = await request(server.port, {
      path: "/assets/app.js",
      headers: { Cookie: `other=1; horu_token_1=x; horu_token_${server.port}=${TOKEN}` },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(asset.body).toContain("horu");
  });

  it("refuses a wrong Host (DNS rebinding) or a foreign Origin (403), token or not", async () => {
    const t = `?token=${TOKEN}`;
    expect((await request(server.port, { path: `/${t}`, headers: { Host: `evil.example:${server.port}` } })).status).toBe(403);
    expect((await request(server.port, { path: `/${t}`, headers: { Host: `127.0.0.1:${server.port + 1}` } })).status).toBe(403);
    expect((await request(server.port, { path: `/${t}`, headers: { Host: `localhost:${server.port}` } })).status).toBe(200);
    expect((await api("book.info", {}, { Origin: "http://evil.example" })).status).toBe(403);
    expect((await api("book.info", {}, { Origin: `http://localhost:${server.port + 1}` })).status).toBe(403);
    expect((await api("book.info", {}, { Origin: `http://localhost:${server.port}` })).status).toBe(200);
    expect((await api("book.info", {}, { Origin: "null" })).status).toBe(403);
  });

  it("never serves a file outside the renderer folder", async () => {
    const h = { ...base, "X-Horu-Token": TOKEN };
    for (const p of [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
      "/..%5csecret.txt",
      "/assets/link.txt",
      "/%00",
      "/assets/%E0%A4%A",
    ]) {
      const r = await request(server.port, { path: p, headers: h });
      expect(r.status, p).toBe(404);
      expect(r.body).not.toContain("secret");
    }
    const root = path.join(dir, "renderer");
    expect(resolveStatic(root, "/assets/app.js")).toBe(path.join(root, "assets", "app.js"));
    expect(resolveStatic(root, "/assets/../../secret.txt")).toBeNull();
    expect(resolveStatic(root, "/assets/link.txt")).toBeNull();
    expect(resolveStatic(root, "/assets")).toBeNull();
  });

  it("runs calls: create a book, read it back; bad input is 400 with its code, failures 500", async () => {
    const file = path.join(dir, "b.horu");
    const created = await api("book.create", { path: file, settings: { multipv: 3 } });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body).result.path).toBe(file);
    const info = JSON.parse((await api("book.info", {})).body);
    expect(info.result.path).toBe(file);
    expect(info.result.settings.multipv).toBe(3);

    const bad = await api("dig.start", { processes: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: "invalid-args", error: expect.stringMatching(/processes/) });
    for (const name of ["book.destroy", "__proto__", "constructor", 7]) {
      const unknown = await api(name as string, {});
      expect(unknown.status, String(name)).toBe(400);
      expect(JSON.parse(unknown.body).code).toBe("unknown-method");
    }
    const failed = await api("book.open", { path: path.join(dir, "missing.horu") });
    // A user's mistake is a 4xx with the message (and a key the UI translates), not a server fault.
    expect(failed.status).toBe(400);
    expect(JSON.parse(failed.body)).toEqual({
      error: `${path.join(dir, "missing.horu")} does not exist`,
      code: "user",
      key: "missingFile",
      params: { path: path.join(dir, "missing.horu") },
    });
    const badSfen = await api("book.create", { path: path.join(dir, "bad-root.horu"), settings: { root: "not a position" } });
    expect(badSfen.status, badSfen.body).toBe(400);

    const notJson = await request(server.port, {
      path: "/api/call",
      method: "POST",
      headers: { ...base, "X-Horu-Token": TOKEN, "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(notJson.status).toBe(415);
    const garbage = await request(server.port, {
      path: "/api/call",
      method: "POST",
      headers: { ...base, "X-Horu-Token": TOKEN, "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(garbage.status).toBe(400);
    expect((await request(server.port, { path: "/api/call", headers: { ...base, "X-Horu-Token": TOKEN } })).status).toBe(405);
    await api("book.close", {});
  });

  it("refuses WebSocket upgrades without the token, from a foreign Origin or to a wrong Host", async () => {
    const url = `ws://127.0.0.1:${server.port}/api/events`;
    await expect(connect(url)).rejects.toMatchObject({ status: 401 });
    await expect(connect(`${url}?token=wrong`)).rejects.toMatchObject({ status: 401 });
    await expect(connect(`${url}?token=${TOKEN}`, { Origin: "http://evil.example" })).rejects.toMatchObject({ status: 403 });
    await expect(connect(`${url}?token=${TOKEN}`, { Host: "evil.example" })).rejects.toMatchObject({ status: 403 });
    await expect(connect(`ws://127.0.0.1:${server.port}/elsewhere?token=${TOKEN}`)).rejects.toMatchObject({ status: 404 });
  });

  it("pushes the current state on connect, then events as they happen", async () => {
    const { ws, next } = await connect(`ws://127.0.0.1:${server.port}/api/events`, {
      Cookie: `horu_token_${server.port}=${TOKEN}`,
      Origin: `http://127.0.0.1:${server.port}`,
    });
    try {
      // First what the page may do (no server paths unless started with them), then the state.
      expect(await next()).toEqual({ type: "web.options", serverPaths: false });
      const first = await next();
      expect(first.type).toBe("dig.status");
      const second = await next();
      expect(second).toEqual({ type: "book.changed", info: null });
      const file = path.join(dir, "events.horu");
      expect((await api("book.create", { path: file })).status).toBe(200);
      const changed = await next((e) => e.type === "book.changed");
      expect(changed.type === "book.changed" && changed.info?.path).toBe(file);
      await api("book.close", {});
      expect(await next((e) => e.type === "book.changed")).toEqual({ type: "book.changed", info: null });
    } finally {
      ws.close();
    }
  });

  it("refuses seed.paths over HTTP (403, the server's files) unless started with allowServerPaths; a host fault is a 500", async () => {
    const kif = path.join(dir, "game.kif");
    writeFileSync(kif, "手合割：平手\n▲７六歩 △３四歩\n");
    const seeded = await api("seed.paths", { paths: ["/etc/passwd"] });
    expect(seeded.status).toBe(403);
    expect(JSON.parse(seeded.body)).toMatchObject({
      code: "user",
      key: "serverPathsOff",
      error: expect.stringMatching(/--allow-server-paths/),
    });
    // Every call that reads (or plays into) a file or folder the client names is refused alike.
    const file = path.join(dir, "paths.horu");
    expect((await api("book.create", { path: file })).status).toBe(200);
    const refused: Array<[string, unknown]> = [
      ["book.import", { paths: ["/etc/passwd"] }],
      ["backup.restore", { path: "/etc/passwd" }],
      ["match.open", { dir: "/etc" }],
      ["match.start", { dir: path.join(dir, "m"), openings: "/etc/passwd", players: [{ engine: "/bin/true" }, { engine: "/bin/true" }] }],
    ];
    for (const [method, args] of refused) {
      const r = await api(method, args);
      expect(r.status, method).toBe(403);
      expect(JSON.parse(r.body), method).toMatchObject({
        code: "user",
        key: "serverPathsOff",
        params: { method },
        error: expect.stringContaining(`${method}: reading files by their path on the server is off`),
      });
    }
    // The book's own backups (the Tools view's list) may be restored: the client names no file of its choosing.
    const backup = JSON.parse((await api("backup.now", {})).body).result as { path: string };
    const restored = await api("backup.restore", { path: backup.path });
    expect(restored.status, restored.body).toBe(200);
    await api("book.close", {});
    const faulty: Host = {
      call: () => Promise.reject(new Error("disk on fire")),
      onEvent: () => () => undefined,
      closeBook: () => Promise.resolve(),
    };
    const open = await startWebServer({ host: faulty, staticDir: path.join(dir, "renderer"), token: TOKEN, allowServerPaths: true });
    try {
      const r = await request(open.port, {
        path: "/api/call",
        method: "POST",
        headers: { Host: `127.0.0.1:${open.port}`, "Content-Type": "application/json", "X-Horu-Token": TOKEN },
        body: JSON.stringify({ method: "seed.paths", args: { paths: [kif] } }),
      });
      // Let through to the host, whose fault is a 500.
      expect(r.status).toBe(500);
      expect(JSON.parse(r.body)).toEqual({ error: "disk on fire", code: "failed" });
    } finally {
      await open.close();
    }
  });

  it("refuses bodies over the limit (413)", async () => {
    const small = await startWebServer({ host, staticDir: path.join(dir, "renderer"), token: TOKEN, bodyLimit: 1024 });
    try {
      const big = JSON.stringify({ method: "seed.upload", args: { files: [{ name: "a.kif", base64: "A".repeat(4096) }] } });
      const r = await request(small.port, {
        path: "/api/call",
        method: "POST",
        headers: { Host: `127.0.0.1:${small.port}`, "Content-Type": "application/json", "X-Horu-Token": TOKEN },
        body: big,
      });
      expect(r.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it("answers 503 with a hint when the renderer is not built", async () => {
    const other = await startWebServer({ host, staticDir: path.join(dir, "not-built"), token: TOKEN });
    try {
      const r = await request(other.port, { path: `/?token=${TOKEN}` });
      expect(r.status).toBe(503);
      expect(r.body).toContain("npm run build:renderer");
    } finally {
      await other.close();
    }
  });
});

describe("the host worker (RemoteService)", () => {
  it("carries calls, errors and events to and from the worker thread", async () => {
    const dir = tempDir("horu-remote-");
    const remote = new RemoteService({ workerFile: path.join(REPO, "dist", "host-worker.cjs"), recentFile: path.join(dir, "recent.json") });
    try {
      const events: HostEvent[] = [];
      remote.onEvent((e) => events.push(e));
      const file = path.join(dir, "w.horu");
      const info = await remote.call("book.create", { path: file });
      expect(info.path).toBe(file);
      // The event was posted before the reply, on the same port.
      expect(events).toContainEqual({ type: "book.changed", info });
      expect(await remote.call("book.recent", {})).toEqual([file]);
      // The worker validates again: whatever reaches it unchecked is refused there.
      await expect(remote.call("dig.start", { processes: -1 } as never)).rejects.toMatchObject({ code: "invalid-args" });
      await expect(remote.call("nope" as never, {} as never)).rejects.toMatchObject({ code: "unknown-method" });
      await expect(remote.call("book.open", { path: path.join(dir, "missing") })).rejects.toMatchObject({
        code: "user",
        message: expect.stringMatching(/does not exist/),
      });
      await remote.closeBook();
      expect(events.at(-1)).toEqual({ type: "book.changed", info: null });
    } finally {
      await remote.shutdown();
    }
    await expect(remote.call("book.info", {})).rejects.toThrow(/shut down/);
  });
});

describe("the horu web command", () => {
  it("refuses to run as root without --allow-root", async () => {
    const { webCommand } = await import("../cli/commands/web.js");
    const uid = process.getuid?.();
    if (uid === 0) await expect(webCommand.run(["--port", "0"])).rejects.toThrow(/refuses to run as root.*--allow-root/);
    else {
      // Not root here: pretend to be, the way the check asks.
      const real = process.getuid;
      process.getuid = () => 0;
      try {
        await expect(webCommand.run(["--port", "0"])).rejects.toThrow(/refuses to run as root.*--allow-root/);
      } finally {
        process.getuid = real;
      }
    }
  });

  it("horu dig --web refuses to run as root without --allow-root, before it opens the book", async () => {
    const { digCommand } = await import("../cli/commands/dig.js");
    const file = path.join(tempDir("horu-digweb-root-"), "never.horu");
    const real = process.getuid;
    process.getuid = () => 0; // root here or not, the check asks this
    try {
      await expect(digCommand.run(["--book", file, "--web", "--positions", "1"])).rejects.toThrow(
        /horu dig --web refuses to run as root.*--allow-root/,
      );
    } finally {
      process.getuid = real;
    }
    expect(existsSync(file)).toBe(false);
    await expect(digCommand.run(["--book", file, "--allow-root"])).rejects.toThrow(/--allow-root applies to --web/);
  });

  it("refuses another --host", async () => {
    const { webCommand } = await import("../cli/commands/web.js");
    await expect(webCommand.run(["--host", "0.0.0.0"])).rejects.toThrow(/127\.0\.0\.1 only/);
  });

  it("prints the URL line, serves the book, and closes it on SIGTERM", { timeout: 30_000 }, async () => {
    const dir = tempDir("horu-webcmd-");
    const file = path.join(dir, "cmd.horu");
    const child = spawn(process.execPath, [HORU, "web", "--allow-root", "--book", file], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += String(c)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`no URL line within 20 s; stderr: ${stderr}`)), 20_000);
        child.stdout.on("data", (c: Buffer) => {
          out += String(c);
          const m = /^horu web: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.on("exit", () => reject(new Error(`exited early; stderr: ${stderr}`)));
      });
      const u = new URL(url);
      const token = u.searchParams.get("token")!;
      expect(token).toHaveLength(32);
      const r = await request(Number(u.port), {
        path: "/api/call",
        method: "POST",
        headers: { Host: u.host, "Content-Type": "application/json", "X-Horu-Token": token },
        body: '{"method":"book.info","args":{}}',
      });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).result.path).toBe(file);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    expect(stderr).toContain("closing the book");
  });
});
