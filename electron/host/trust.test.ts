// The user's mistakes are refused with a clear message (code "user": HTTP 4xx, never
// 500), bad input is refused before anything is stored, and a NUL byte in a path never reaches
// the file system or SQLite.
import { afterEach, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { HostService } from "./service.js";
import { parseCall, type Method } from "../../shared/api/contract.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { loadavg } from "node:os";
import { writeTranspositionBook } from "../testing/transposition-book.js";
import { dispatch } from "./transport.js";
import { Position } from "../../shared/rules/position.js";

const dirs: string[] = [];
const services: HostService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.closeBook();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(): { dir: string; service: HostService } {
  const dir = tempDir();
  dirs.push(dir);
  const service = new HostService({ configDir: path.join(dir, "config") });
  services.push(service);
  return { dir, service };
}

/** A call as every transport makes it: validated, then run; the reply never throws. */
async function reply(s: HostService, method: Method, args: unknown) {
  return dispatch(s, method, args) as Promise<{ result?: unknown; error?: string; code?: string; key?: string }>;
}

/** Refused as the user's mistake (4xx in web mode) with a message matching `message`. */
async function refused(s: HostService, method: Method, args: unknown, message: RegExp): Promise<void> {
  const r = await reply(s, method, args);
  expect(r.error, `${method} ${JSON.stringify(args)}`).toMatch(message);
  expect(["user", "invalid-args"], `${method}: ${r.error}`).toContain(r.code);
}

async function withBook(): Promise<{ dir: string; service: HostService; file: string }> {
  const { dir, service } = setup();
  const file = path.join(dir, "t.horu");
  writeTranspositionBook(file);
  await service.call("book.open", { path: file });
  return { dir, service, file };
}

describe("user mistakes are the user's (4xx with a message), never a fault", () => {
  it("book edits: an illegal move, pruning the root or a position not in the book", async () => {
    const { service } = await withBook();
    const root = Position.startpos().sfenKey();
    await refused(service, "book.addMove", { sfen: root, move: "7g7e" }, /7g7e is not a legal move/);
    await refused(service, "book.prune", { sfen: root }, /the root cannot be pruned/);
    const far = Position.fromUsi("startpos moves 1g1f 9c9d 1f1e 9d9e").sfenKey();
    await refused(service, "book.prune", { sfen: far }, /is not a thought position of this book/);
  });

  it("exports into a missing folder or with a 300-character name; a backup into a file", async () => {
    const { dir, service } = await withBook();
    const base = { format: "db", mode: "raw" } as const;
    await refused(service, "export.run", { ...base, path: path.join(dir, "no", "such", "x.db") }, /is not a folder: create it first/);
    await refused(service, "export.run", { ...base, path: "x".repeat(300) + ".db" }, /file name is 303 bytes long; at most 200/);
    const plan = await service.call("export.plan", { path: path.join(dir, "no", "x.db") });
    expect(plan.refused).toMatch(/is not a folder/);
    writeFileSync(path.join(dir, "afile"), "x");
    await refused(service, "backup.now", { dir: path.join(dir, "afile") }, /afile is a file, not a folder/);
  });

  it("book.create in a missing folder, book.quickStart on an existing file, match.open of a folder that is no match", async () => {
    const { dir, service } = setup();
    await refused(service, "book.create", { path: path.join(dir, "no", "b.horu") }, /is not a folder: create it first/);
    writeFileSync(path.join(dir, "there.horu"), "x");
    await refused(service, "book.quickStart", { path: path.join(dir, "there.horu") }, /already exists: open it instead/);
    mkdirSync(path.join(dir, "plain"));
    await refused(service, "match.open", { dir: path.join(dir, "plain") }, /not a match folder/);
  });

  it("upload.begin named '..', '/' or '.'", async () => {
    const { service } = await withBook();
    for (const name of ["..", "/", "."]) await refused(service, "upload.begin", { name, size: 10 }, /is not a file name/);
  });
});

describe("bad input is refused before anything is stored", () => {
  it("think now of an empty board, a board without a king, two kings of a side, a pawn on the last rank", async () => {
    const { service } = await withBook();
    const before = (await service.call("book.info", {}))!.queued;
    for (const [sfen, message] of [
      ["9/9/9/9/9/9/9/9/9 b - 1", /not a game position: black has no king/],
      ["4k4/9/9/9/9/9/9/9/9 b - 1", /not a game position: black has no king/],
      ["4k4/9/9/9/9/9/9/9/3KK4 b - 1", /two black kings/],
      ["4k4/9/9/9/9/9/9/9/4K4 b P 1".replace("4k4/", "P3k4/"), /pawn on 9a has no move/],
    ] as const)
      await refused(service, "book.thinkNow", { sfen }, message);
    expect((await service.call("book.info", {}))!.queued).toBe(before);
  });

  it("a comment on a position that is not in the book", async () => {
    const { service } = await withBook();
    const far = Position.fromUsi("startpos moves 1g1f 9c9d 1f1e 9d9e").sfenKey();
    await refused(service, "book.comment", { sfen: far, text: "hello" }, /is not a position of this book/);
    const root = Position.startpos().sfenKey();
    expect((await reply(service, "book.comment", { sfen: root, text: "the root" })).result).toBeNull();
  });

  it("an SFEN move number beyond reason names the number", async () => {
    const { service } = await withBook();
    const sfen = `${Position.startpos().sfenKey()} 12345678901234567890`;
    await refused(service, "book.node", { sfen }, /move number must be a positive integer up to 1000000, got "12345678901234567890"/);
  });
});

describe("a NUL byte in a path", () => {
  it("is refused before any file operation: no SQLite file is touched, no book left open that nothing can use", async () => {
    const { dir, service } = setup();
    const other = path.join(dir, "other.sqlite");
    const db = new Database(other);
    db.exec("CREATE TABLE mine (x INTEGER); INSERT INTO mine VALUES (42);");
    db.close();
    const bytes = readFileSync(other);
    for (const method of ["book.create", "book.open", "book.quickStart"] as const)
      await refused(service, method, { path: `${other}\u0000.horu` }, /control character/);
    await refused(service, "export.run", { path: `x.db\u0000`, format: "db", mode: "raw" }, /control character/);
    await refused(service, "backup.now", { dir: `${dir}\u0000x` }, /control character/);
    await refused(service, "upload.begin", { name: "a\u0000.db", size: 1 }, /control character/);
    expect(readFileSync(other).equals(bytes)).toBe(true);
    expect(await service.call("book.info", {})).toBeNull();
  });

  it("book.create refuses an existing SQLite file that is no book, and an empty file", async () => {
    const { dir, service } = setup();
    const other = path.join(dir, "other.sqlite");
    const db = new Database(other);
    db.exec("CREATE TABLE mine (x INTEGER)");
    db.close();
    const empty = path.join(dir, "empty.horu");
    writeFileSync(empty, "");
    for (const file of [other, empty]) await refused(service, "book.create", { path: file }, /already exists; refusing to overwrite it/);
    expect(statSync(empty).size).toBe(0);
    expect(await service.call("book.info", {})).toBeNull();
  });

  it("the contract refuses it in every path and file name", () => {
    expect(() => parseCall("book.open", { path: "a\u0000b" })).toThrow(/control character/);
    expect(() => parseCall("seed.upload", { files: [{ name: "a\nb", base64: "" }] })).toThrow(/control character/);
  });
});

describe("the page of horu web without --allow-server-paths (a confined host)", () => {
  async function confined(): Promise<{ dir: string; service: HostService; file: string }> {
    const dir = tempDir();
    dirs.push(dir);
    const service = new HostService({ configDir: path.join(dir, "config"), confine: true });
    services.push(service);
    const file = path.join(dir, "t.horu");
    writeTranspositionBook(file);
    await service.call("book.open", { path: file });
    return { dir, service, file };
  }

  it("runs no command line it does not know: engines.add and engines.test of one are refused, saying what to do", async () => {
    const { service } = await confined();
    const message = /runs only the engines in the library, found on this machine or built in; .*horu engines add.*--allow-server-paths/;
    const r = await reply(service, "engines.add", { commandLine: "head -2 /etc/shadow" });
    expect(r).toMatchObject({ code: "user", key: "serverEnginesOff" });
    expect(r.error).toMatch(message);
    // The test's answer says it where an engine's own error would be; nothing was run.
    const test = await service.call("engines.test", { commandLine: "head -2 /etc/shadow" });
    expect(test).toMatchObject({ ok: false, key: "serverEnginesOff", stderr: [] });
    expect(test.error).toMatch(message);
    // The engine found on this machine is added as typed.
    if (existsSync("/usr/games/fairy-stockfish")) {
      expect((await service.call("engines.test", { commandLine: "/usr/games/fairy-stockfish" })).ok).toBe(true);
      // In another working folder it is refused, saying that (not that it was not found).
      const other = await reply(service, "engines.add", { commandLine: "/usr/games/fairy-stockfish", cwd: "/tmp" });
      expect(other).toMatchObject({
        code: "user",
        key: "serverEngineDiffers",
        params: { command: "/usr/games/fairy-stockfish", cwd: "/tmp" },
      });
      expect(other.error).toMatch(/runs here only as found on this machine; this one has another working folder \(\/tmp\)/);
    }
    expect(await service.call("engines.list", {})).toEqual([]);
    // A built-in engine (and one found on this machine) is added as the first run adds it.
    const found = await service.call("engines.found", {});
    const builtin = found.builtin[0]!;
    const added = await service.call("engines.add", { name: builtin.name, commandLine: builtin.commandLine });
    expect(added.command).toBe(builtin.commandLine);
    // Its name and options may change, not what it runs.
    await refused(service, "engines.update", { id: added.id, commandLine: "/bin/sh -c id" }, /runs only the engines in the library/);
    const renamed = await service.call("engines.update", { id: added.id, name: "mine", commandLine: builtin.commandLine });
    expect(renamed.name).toBe("mine");
  });

  it("writes exports and backups only into the book's folder, and export.plan tells nothing of other paths", async () => {
    const { dir, service } = await confined();
    const elsewhere = tempDir();
    dirs.push(elsewhere);
    for (const p of ["/etc/shadow", "/etc/no-such-file", path.join(elsewhere, "x.db"), "../x.db", "sub/x.db"]) {
      const plan = await reply(service, "export.plan", { path: p });
      expect(plan).toMatchObject({ code: "user", key: "outsideBookFolder" });
      expect(plan.error).toBe(
        `export.plan: this page writes only into the book's folder (${dir}); start horu web with --allow-server-paths to write elsewhere`,
      );
      await refused(service, "export.run", { path: p, format: "db", mode: "raw", overwrite: true }, /writes only into the book's folder/);
    }
    expect((await service.call("export.plan", { path: "x.db" })).path).toBe(path.join(dir, "x.db"));
    await refused(service, "backup.now", { dir: elsewhere }, /backup\.now: this page writes only into the book's folder/);
    await refused(
      service,
      "backup.schedule",
      { schedule: { everyMinutes: 60, keep: 2, dir: elsewhere } },
      /writes only into the book's folder/,
    );
    expect((await service.call("book.info", {}))!.backup).toBeNull();
    expect(readdirSync(elsewhere)).toEqual([]);
    const own = await service.call("backup.now", { dir });
    expect(path.dirname(own.path)).toBe(dir);
  });

  it("restores only the book's own backups, never from a folder the page named", async () => {
    const { dir, service } = await confined();
    const own = await service.call("backup.now", {});
    const elsewhere = tempDir();
    dirs.push(elsewhere);
    const copy = path.join(elsewhere, path.basename(own.path));
    copyFileSync(own.path, copy);
    await refused(service, "backup.restore", { path: copy }, /restores only the book's own backups/);
    await refused(service, "backup.restore", { path: path.join(dir, "t.horu") }, /restores only the book's own backups/);
    expect((await service.call("backup.restore", { path: own.path })).path).toBe(path.join(dir, "t.horu"));
  });

  it("without confinement (the app, --allow-server-paths) the same calls go through", async () => {
    const { dir, service } = await withBook();
    const elsewhere = tempDir();
    dirs.push(elsewhere);
    expect((await service.call("export.plan", { path: path.join(elsewhere, "x.db") })).refused).toBeNull();
    expect(path.dirname((await service.call("backup.now", { dir: elsewhere })).path)).toBe(elsewhere);
    expect((await service.call("engines.add", { commandLine: "/bin/cat" })).command).toBe("/bin/cat");
    expect(dir).not.toBe(elsewhere);
  });
});

describe("a big seed upload does not stall the server", () => {
  it(
    "book.info answers at once while 3 MiB of records (one CSA game repeated) are read on their own thread",
    { timeout: 300_000 },
    async () => {
      const { service } = await withBook();
      const game = Buffer.concat([readFileSync(path.join(TEST_DATA, "kifu", "book_source_src03.csa")), Buffer.from("\n/\n")]);
      const copies = Math.ceil((3 * 1024 * 1024) / game.length);
      const base64 = Buffer.concat(Array.from({ length: copies }, () => game)).toString("base64");
      let seeded = false;
      const seeding = service.call("seed.upload", { files: [{ name: "many.csa", base64 }] }).finally(() => (seeded = true));
      // Let the call start (it hands the records to the seed thread), then time another call.
      await new Promise((r) => setImmediate(r));
      // Not timed against a limit (the suite runs on loaded machines): book.info must answer
      // while the seed is still being read, as it cannot when the records are read on this
      // thread (the issue measured 24.5 s). The time is only printed.
      expect(seeded, "the seed finished before book.info was asked: the test measured nothing").toBe(false);
      const t0 = performance.now();
      const info = await service.call("book.info", {});
      const ms = performance.now() - t0;
      expect(info).not.toBeNull();
      expect(seeded, "book.info waited for the seed upload").toBe(false);
      const report = await seeding;
      expect(report.files[0]).toMatchObject({ file: "many.csa", format: "csa", records: copies });
      expect(report.positions).toBeGreaterThan(0);
      console.log(
        `book.info during a ${copies}-game seed upload: ${ms.toFixed(1)} ms; the seed took ${report.ms.toFixed(0)} ms; load ${loadavg()[0]!.toFixed(2)}`,
      );
    },
  );
});
