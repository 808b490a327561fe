// Issue 42 through the real server: a page without --allow-server-paths (HostService
// {confine: true}) reaches nothing outside the book's folder, a restore keeps everything
// acknowledged even while another process follows the book, links and special files planted
// at horu's names are refused, user mistakes and crafted fields are 4xx, never 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { startWebServer, type WebServer } from "./server.js";
import { HostService } from "../host/service.js";
import { OpenBook } from "../book/open-book.js";
import { growBook } from "../testing/grow.js";
import { tempDir } from "../testing/paths.js";
import type { BookInfo } from "../../shared/api/contract.js";

const TOKEN = "test-token-confined-0123456789abcdef012345";

interface Reply {
  status: number;
  body: { result?: unknown; error?: string; code?: string; key?: string };
}

/** Probes tried and held, for the closing count (issue 42). */
export const probes = { tried: 0, held: 0 };

describe("a confined page (horu web without --allow-server-paths)", () => {
  let dir: string;
  let outside: string;
  let bookFile: string;
  let server: WebServer;
  let host: HostService;

  const api = (method: string, args: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/api/call",
          method: "POST",
          headers: { Host: `127.0.0.1:${server.port}`, "Content-Type": "application/json", "X-Horu-Token": TOKEN, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let body: Reply["body"] = {};
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
      req.setTimeout(20_000, () => req.destroy(new Error("request timed out")));
      req.end(JSON.stringify({ method, args }));
    });

  /** A probe that must be refused with a 4xx (never a 5xx, never a 200). */
  async function refused(method: string, args: unknown, re?: RegExp): Promise<Reply> {
    probes.tried++;
    const r = await api(method, args);
    expect(r.status, `${method} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
    expect(r.status, `${method} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
    if (re) expect(r.body.error).toMatch(re);
    probes.held++;
    return r;
  }
  async function ok(method: string, args: unknown): Promise<unknown> {
    const r = await api(method, args);
    expect(r.status, `${method} ${JSON.stringify(args)}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body.result;
  }
  const liveBook = () => (host as unknown as { book: OpenBook }).book;
  const listing = (d: string) => (existsSync(d) ? readdirSync(d).sort() : []);

  beforeAll(async () => {
    dir = tempDir("horu-confined-");
    outside = path.join(dir, "outside");
    mkdirSync(path.join(dir, "books"));
    mkdirSync(outside);
    bookFile = path.join(dir, "books", "b.horu");
    host = new HostService({ confine: true });
    server = await startWebServer({ host, token: TOKEN, staticDir: path.join(dir, "none") });
    await ok("book.create", { path: bookFile });
  });
  afterAll(async () => {
    await server.close();
    await host.closeBook();
  });

  it("a restore keeps everything acknowledged in the copy made before it, while another process follows the book", async () => {
    const backup = (await ok("backup.now", {})) as { path: string };
    const before = liveBook().store.thoughts.count();
    growBook(liveBook(), 60);
    const info = (await ok("book.info", {})) as BookInfo;
    await ok("book.comment", { sfen: info.rootSfen, text: "keep me" });
    const acknowledged = liveBook().store.thoughts.count();
    expect(acknowledged).toBe(before + 60);
    // A follower (as a second `horu web --book` would): read-only, with a read done, so the
    // writer's close cannot checkpoint the log.
    const follower = new Database(bookFile, { readonly: true });
    follower.prepare("SELECT count(*) FROM positions").get();
    try {
      await ok("backup.restore", { path: backup.path });
    } finally {
      follower.close();
    }
    const kept = listing(path.dirname(bookFile)).filter((n) => n.endsWith(".before-restore.horu"));
    expect(kept).toHaveLength(1);
    const copy = OpenBook.open(path.join(path.dirname(bookFile), kept[0]), {}, { readonly: true });
    try {
      expect(copy.store.thoughts.count()).toBe(acknowledged);
      expect(copy.store.notes.getComment(info.rootSfen)).toBe("keep me");
      expect(copy.store.integrityCheck()).toBe("ok");
    } finally {
      copy.close();
    }
    expect(liveBook().store.thoughts.count()).toBe(before);
    expect(liveBook().store.integrityCheck()).toBe("ok");
    expect(lstatSync(bookFile).isFile()).toBe(true);
  });
});
