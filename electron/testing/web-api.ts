// A real `horu web` server (startWebServer over a HostService) for the Node tests of issue 42,
// called as a page would: POST /api/call with the token and this server's Host header.
import http from "node:http";
import path from "node:path";
import { startWebServer, type WebServer } from "../web/server.js";
import { HostService } from "../host/service.js";

const TOKEN = "test-token-web-api-0123456789abcdef0123456";

export interface Reply {
  status: number;
  body: { result?: unknown; error?: string; code?: string; key?: string };
}

export interface WebApi {
  host: HostService;
  server: WebServer;
  call(method: string, args: unknown): Promise<Reply>;
  close(): Promise<void>;
}

/** A server on 127.0.0.1; `confine: false` is `--allow-server-paths`. Requests time out after 20 s (a hang fails the test). */
export async function startWebApi(dir: string, opts: { confine: boolean }): Promise<WebApi> {
  const host = new HostService({ confine: opts.confine, configDir: path.join(dir, "config") });
  const server = await startWebServer({ host, token: TOKEN, staticDir: path.join(dir, "no-static"), allowServerPaths: !opts.confine });
  const call = (method: string, args: unknown): Promise<Reply> => postCall(server.port, TOKEN, method, args);
  return {
    host,
    server,
    call,
    async close() {
      await server.close();
      await host.closeBook();
    },
  };
}

/**
 * POST /api/call as a page would: `token` and this server's Host header (`headers` may add or
 * replace some). The body as JSON, or `{error}` with the text; no answer in 20 s fails.
 */
export function postCall(port: number, token: string, method: string, args: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/call",
        method: "POST",
        headers: { Host: `127.0.0.1:${port}`, "Content-Type": "application/json", "X-Horu-Token": token, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: Reply["body"];
          try {
            body = JSON.parse(text) as Reply["body"];
          } catch {
            body = { error: text };
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on("error", reject);
    req.setTimeout(20_000, () => req.destroy(new Error(`${method}: no answer in 20 s`)));
    req.end(JSON.stringify({ method, args }));
  });
}
