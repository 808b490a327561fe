// Issue 42 item 5: crafted fields, in the page's call or in a book file, are answered 4xx with a
// message through the real server (or read as unset, where docs/SECURITY.md says a crafted
// setting counts as unset), never 500: match.start into a FIFO, a file or a link to a file;
// engines.args not JSON; a damaged pruned.data; a bad think_queue.think_limit; a backupSchedule
// that is not JSON or keeps 0.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { OpenBook } from "../book/open-book.js";
import { growBook } from "../testing/grow.js";
import { FAIRY, tempDir } from "../testing/paths.js";
import { startWebApi, type Reply, type WebApi } from "../testing/web-api.js";
import type { BookInfo } from "../../shared/api/contract.js";

let dir: string;
let web: WebApi;
let sfens: string[];

/** Probes tried and held, for the closing count (issue 42). */
const probes = { tried: 0, held: 0 };

/** A user's mistake or a crafted field: 4xx with a message that names the problem. */
function expect4xx(r: Reply, what: string, re: RegExp): void {
  probes.tried++;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
  expect(r.body.error, what).toMatch(re);
  probes.held++;
}

/** Runs `sql` on the book file with the book closed in the server, then opens it again. */
async function craft(file: string, sql: string, ...params: unknown[]): Promise<Reply> {
  await web.call("book.close", {});
  const db = new Database(file);
  db.prepare(sql).run(...params);
  db.close();
  return web.call("book.open", { path: file });
}

beforeAll(async () => {
  dir = tempDir("horu-crafted-");
  web = await startWebApi(dir, { confine: false });
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`issue 42 crafted-field probes: ${probes.held}/${probes.tried} held`);
});

function newBook(name: string): string {
  const file = path.join(dir, name);
  const book = OpenBook.create(file);
  sfens = growBook(book, 6);
  book.close();
  return file;
}

describe("crafted fields answer 4xx with a message, never 500", () => {
  it("match.start whose dir is a FIFO, a regular file or a link to a file", async () => {
    const fifo = path.join(dir, "m-fifo");
    execFileSync("mkfifo", [fifo]);
    const file = path.join(dir, "m-file");
    writeFileSync(file, "x");
    const link = path.join(dir, "m-link");
    symlinkSync(file, link);
    for (const d of [fifo, file, link]) {
      const r = await web.call("match.start", { dir: d, players: [{ engine: FAIRY }, { engine: FAIRY }], games: 2, nodes: 10 });
      expect4xx(r, `match.start ${d}`, /is not a folder \(a (special )?file, or a link to one\)/);
    }
  });

  it("engines.args not JSON in the book's engines table: engines.ofBook", async () => {
    const file = newBook("engines.horu");
    const opened = await craft(file, "INSERT INTO engines (name, command, args) VALUES ('x', '/nowhere/x', ?)", "not json [");
    probes.tried++;
    expect(opened.status, JSON.stringify(opened.body)).toBeLessThan(500);
    probes.held++;
    const r = await web.call("engines.ofBook", {});
    expect4xx(
      r,
      "engines.ofBook",
      /the book's engines table is damaged: engine \d+ \("x"\) has args "not json \[", not a JSON list of strings/,
    );
  });

  it("a damaged pruned.data: book.undoPrune", async () => {
    const file = newBook("pruned.horu");
    expect((await web.call("book.open", { path: file })).status).toBe(200);
    const victim = sfens.find((s) => s !== sfens[0])!;
    const pruned = await web.call("book.prune", { sfen: victim });
    expect(pruned.status, JSON.stringify(pruned.body)).toBe(200);
    expect((await craft(file, "UPDATE pruned SET data = ?", "{not json")).status).toBe(200);
    expect4xx(
      await web.call("book.undoPrune", {}),
      "book.undoPrune",
      /the newest prune \(batch \d+\) cannot be undone: its stored copy of .* is damaged/,
    );
    // Nothing changed: the position is still pruned, and the book still opens and answers.
    expect(((await web.call("book.info", {})).body.result as BookInfo).prunes).toHaveLength(1);
  });

  it("a bad think_queue.think_limit: book.node on the root", async () => {
    const file = newBook("queue.horu");
    expect((await web.call("book.open", { path: file })).status).toBe(200);
    const info = (await web.call("book.info", {})).body.result as BookInfo;
    expect(info).toBeTruthy();
    const book = (
      await craft(file, "INSERT INTO think_queue (sfen, key, source, ply, think_limit) VALUES (?, 1, 'x', 0, ?)", sfens[0], "{bad")
    ).status;
    expect(book).toBe(200);
    expect4xx(await web.call("book.node", { line: [] }), "book.node", /think queue is damaged: .*the stored think limit "\{bad" is not/);
  });

  it("backupSchedule not JSON, or keep: 0: book.open reads it as no schedule", async () => {
    for (const value of ["{not json", JSON.stringify({ everyMinutes: 10, keep: 0 })]) {
      const file = newBook(`schedule-${value.length}.horu`);
      const db = new Database(file);
      db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('backupSchedule', ?)").run(value);
      db.close();
      const r = await web.call("book.open", { path: file });
      probes.tried++;
      expect(r.status, `${value}: ${JSON.stringify(r.body)}`).toBe(200);
      probes.held++;
    }
  });
});
