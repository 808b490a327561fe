// Issue 42 through the real server: a page without --allow-server-paths (HostService
// {confine: true}) reaches nothing outside the book's folder, a restore keeps everything
// acknowledged even while another process follows the book, links and special files planted
// at horu's names are refused, user mistakes and crafted fields are 4xx, never 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { execFileSync } from "node:child_process";
import { builtinCandidates } from "../engines/choose.js";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { startWebServer, type WebServer } from "./server.js";
import { HostService } from "../host/service.js";
import { OpenBook } from "../book/open-book.js";
import { growBook } from "../testing/grow.js";
import { tempDir } from "../testing/paths.js";
import { postCall, type Reply } from "../testing/web-api.js";
import { contract, type BookInfo } from "../../shared/api/contract.js";

const TOKEN = "test-token-confined-0123456789abcdef012345";

/** Probes tried and held, for the closing count (issue 42). */
export const probes = { tried: 0, held: 0 };

describe("a confined page (horu web without --allow-server-paths)", () => {
  let dir: string;
  let outside: string;
  let bookFile: string;
  let server: WebServer;
  let host: HostService;

  const api = (method: string, args: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    postCall(server.port, TOKEN, method, args, headers);

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
    // As `horu web --book B` would: the book's folder is the page's.
    OpenBook.create(bookFile, {}).close();
    await ok("book.open", { path: bookFile });
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
  it("writes nothing outside the book's folder: backups, schedules, books, exports", async () => {
    const folder = path.dirname(bookFile);
    const cwd = listing(process.cwd());
    const out = listing(outside);
    for (const d of [".", "a/b/../..", "./"]) {
      probes.tried++;
      const b = (await ok("backup.now", { dir: d })) as { path: string };
      expect(path.dirname(b.path)).toBe(folder);
      probes.held++;
    }
    for (const d of [outside, "..", "../outside", "a", "/tmp"]) {
      await refused("backup.now", { dir: d }, /book's folder/);
      await refused("backup.schedule", { schedule: { everyMinutes: 5, keep: 2, dir: d } }, /book's folder/);
    }
    const info = (await ok("backup.schedule", { schedule: { everyMinutes: 5, keep: 2, dir: "." } })) as BookInfo;
    expect(info).toBeTruthy();
    expect(liveBook().store.settings.get<{ dir: string }>("backupSchedule")?.dir).toBe(folder);
    for (const p of [path.join(outside, "x.horu"), "../x.horu", "sub/x.horu", "/tmp/horu-confined-x.horu"])
      await refused("book.create", { path: p }, /book's folder/);
    for (const p of [path.join(outside, "x.db"), "../x.db", "sub/x.db"])
      await refused("export.run", { path: p, format: "db", mode: "raw" }, /book's folder/);
    expect(listing(process.cwd())).toEqual(cwd);
    expect(listing(outside)).toEqual(out);
  });

  it("a book's stored schedule naming an outside folder is ignored, with a line in its log", async () => {
    const folder = path.dirname(bookFile);
    probes.tried++;
    liveBook().store.settings.set("backupSchedule", { everyMinutes: 5, keep: 2, dir: outside });
    await ok("book.close", {});
    await ok("book.open", { path: bookFile });
    const timer = (host as unknown as { backups: { schedule: { o: { dir: string } } | null } }).backups;
    expect(timer.schedule?.o.dir).toBe(folder);
    expect(
      liveBook()
        .store.log.recent(20)
        .some((l) => /outside the book's folder/.test(l.message)),
    ).toBe(true);
    probes.held++;
    // Crafted: not JSON, keep 0: no schedule or its default, the book opens (never a 500).
    for (const bad of ["{not json", JSON.stringify({ everyMinutes: 5, keep: 0, dir: "." }), JSON.stringify("x"), "null"]) {
      probes.tried++;
      await ok("book.close", {});
      const raw = new Database(bookFile);
      raw.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('backupSchedule', ?)").run(bad);
      raw.close();
      await ok("book.open", { path: bookFile });
      probes.held++;
    }
    liveBook().store.settings.set("backupSchedule", undefined);
    await ok("book.close", {});
    await ok("book.open", { path: bookFile });
  });

  it("a relative book.create lands in the book's folder, never the server's working folder", async () => {
    probes.tried++;
    const cwd = listing(process.cwd());
    const created = (await ok("book.create", { path: "second.horu" })) as BookInfo;
    expect(created.path).toBe(path.join(path.dirname(bookFile), "second.horu"));
    expect(listing(process.cwd())).toEqual(cwd);
    await ok("book.open", { path: bookFile });
    probes.held++;
  });

  it("engine options that name files or carry a line break are refused", async () => {
    const builtin = builtinCandidates()[0];
    const logFile = path.join(outside, "debug.log");
    writeFileSync(logFile, "keep");
    const cases: Array<Record<string, string>> = [
      { "Debug Log File": logFile },
      { DebugLogFile: "x.log" },
      { EvalDir: outside },
      { BookFile: "x.db" },
      { USI_Hash: "16\nsetoption name Debug Log File value /tmp/x" },
      { "USI_Hash\r\nquit": "16" },
    ];
    for (const options of cases) {
      for (const method of ["engines.test", "engines.add"]) {
        probes.tried++;
        const r = await api(method, { commandLine: builtin.commandLine, options });
        if (method === "engines.test") {
          expect(r.status).toBe(200);
          expect((r.body.result as { ok: boolean }).ok).toBe(false);
          expect((r.body.result as { error: string }).error).toMatch(/names a file|line break/);
        } else {
          expect(r.status).toBe(400);
          expect(r.body.error).toMatch(/names a file|line break/);
        }
        probes.held++;
      }
    }
    expect(readFileSync(logFile, "utf8")).toBe("keep");
  });

  it("links planted at horu's names are refused, never followed", async () => {
    const folder = path.dirname(bookFile);
    const victim = path.join(outside, "victim.txt");
    writeFileSync(victim, "victim");
    // The export's temporary name: removed and created anew, the link's target untouched.
    probes.tried++;
    symlinkSync(victim, path.join(folder, `.out.db.${process.pid}.tmp`));
    await ok("export.run", { path: "out.db", format: "db", mode: "raw" });
    expect(readFileSync(victim, "utf8")).toBe("victim");
    expect(lstatSync(path.join(folder, "out.db")).isFile()).toBe(true);
    probes.held++;
    // A dangling link at the target is not replaced, with overwrite or without.
    symlinkSync(path.join(outside, "nothing.db"), path.join(folder, "dangling.db"));
    await refused("export.run", { path: "dangling.db", format: "db", mode: "raw" }, /link/);
    await refused("export.run", { path: "dangling.db", format: "db", mode: "raw", overwrite: true }, /link/);
    expect(existsSync(path.join(outside, "nothing.db"))).toBe(false);
    // A link named like an own backup, pointing at a book outside: never read.
    const own = (await ok("backup.list", {})) as Array<{ path: string }>;
    const fake = own[0].path.replace(
      /(\d{3})Z\.backup\.horu$/,
      (_m, ms: string) => `${String((Number(ms) + 1) % 1000).padStart(3, "0")}Z.backup.horu`,
    );
    expect(existsSync(fake)).toBe(false);
    const outsideBook = OpenBook.create(path.join(outside, "o.horu"), {});
    outsideBook.close();
    symlinkSync(path.join(outside, "o.horu"), fake);
    await refused("backup.restore", { path: fake }, /link|regular/);
    // The restore's temporary name: the link is removed, its target untouched, the book stays a file.
    probes.tried++;
    symlinkSync(victim, `${bookFile}.restoring-${process.pid}`);
    await ok("backup.restore", { path: own[0].path });
    expect(readFileSync(victim, "utf8")).toBe("victim");
    expect(lstatSync(bookFile).isFile()).toBe(true);
    probes.held++;
  });

  it("reads of special files are refused before they block", async () => {
    const own = (await ok("backup.list", {})) as Array<{ path: string }>;
    // A name the listing would take as a backup (the list also holds the copies restores kept).
    const name = own
      .find((b) => b.path.endsWith("Z.backup.horu"))!
      .path.replace(/(\d{3})Z\.backup\.horu$/, (_m, ms: string) => `${String((Number(ms) + 7) % 1000).padStart(3, "0")}Z.backup.horu`);
    execFileSync("mkfifo", [name]);
    await refused("backup.restore", { path: name }, /regular|special/);
  });

  it("backup.now is rate-limited", async () => {
    let limited = 0;
    for (let i = 0; i < 10; i++) {
      const r = await api("backup.now", {});
      if (r.status === 400 && /a minute/.test(r.body.error ?? "")) limited++;
      else expect(r.status).toBe(200);
    }
    probes.tried++;
    expect(limited).toBeGreaterThan(0);
    probes.held++;
  });
  it("two imports at once: one runs, the other is refused with 409 (or queued after); the book stays open", async () => {
    growBook(liveBook(), 10);
    await ok("export.run", { path: "for-import.db", format: "db", mode: "raw", overwrite: true });
    const bytes = readFileSync(path.join(path.dirname(bookFile), "for-import.db"));
    const upload = async () => {
      const { id } = (await ok("upload.begin", { name: "x.db", size: bytes.length })) as { id: string };
      await ok("upload.chunk", { id, offset: 0, base64: bytes.toString("base64") });
      return id;
    };
    const ids = await Promise.all([upload(), upload(), upload(), upload()]);
    const answers = await Promise.all(ids.map((id) => api("book.importUpload", { id })));
    for (const r of answers) {
      probes.tried++;
      expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 409) expect(r.body.error).toMatch(/busy/);
      // An upload's error never names the server's temporary folder.
      expect(r.body.error ?? "").not.toMatch(/horu-upload-/);
      probes.held++;
    }
    expect(answers.some((r) => r.status === 200)).toBe(true);
    const info = (await ok("book.info", {})) as BookInfo | null;
    expect(info?.path).toBe(bookFile);
  });

  it("every method of the contract answers bad input with a 4xx, never a 5xx", async () => {
    const bad: unknown[] = [
      null,
      {},
      { x: 1 },
      [],
      "text",
      { path: 1 },
      { id: "no-such-engine" },
      { id: 999999 },
      { sfen: "not a sfen" },
      { path: "", dir: "" },
      { path: "\u0000" },
      { dir: "/dev/null" },
    ];
    const fives: string[] = [];
    for (const method of Object.keys(contract)) {
      if (method === "book.close" || method === "dig.start" || method === "match.start") continue;
      for (const args of bad) {
        probes.tried++;
        const r = await api(method, args);
        if (r.status >= 500) fives.push(`${method} ${JSON.stringify(args)}: ${r.status} ${r.body.error}`);
        else probes.held++;
      }
    }
    // Unknown ids are the user's mistake.
    for (const [method, args] of [
      ["engines.remove", { id: "no-such-engine" }],
      ["engines.update", { id: "no-such-engine", commandLine: builtinCandidates()[0].commandLine }],
    ] as const) {
      probes.tried++;
      const r = await api(method, args);
      if (r.status >= 500 || r.status === 200) fives.push(`${method} ${JSON.stringify(args)}: ${r.status} ${r.body.error}`);
      else probes.held++;
    }
    expect(fives).toEqual([]);
    // book.quickStart {} made a book (in the book's folder, confined) and started digging: back to ours.
    await ok("dig.stop", {});
    const info = (await ok("book.info", {})) as BookInfo;
    expect(path.dirname(info.path)).toBe(path.dirname(bookFile));
    await ok("book.open", { path: bookFile });
  });

  it("accepts exactly one Host header", async () => {
    probes.tried++;
    const r = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: server.port,
        path: "/api/call",
        method: "POST",
        headers: [
          ["Host", `127.0.0.1:${server.port}`],
          ["Host", "evil.example"],
          ["Content-Type", "application/json"],
          ["X-Horu-Token", TOKEN],
        ].flat() as unknown as http.OutgoingHttpHeaders,
      });
      req.on("response", (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on("error", reject);
      req.end(JSON.stringify({ method: "book.info", args: {} }));
    });
    expect(r).toBe(403);
    probes.held++;
  });

  afterAll(() => {
    console.log(`issue 42 probes: ${probes.held}/${probes.tried} held`);
  });
});
