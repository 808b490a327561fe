// Issue 42: reading a FIFO by path blocks until someone writes to it (the server then ignored
// SIGINT for 30 s). Importing or seeding one, named or through a link, by `horu import` or by a
// page of `horu web --allow-server-paths`, is answered with a clear error at once; a FIFO inside
// a seeded folder is skipped with a reason. Nobody ever writes to these FIFOs: a read that
// blocked would hang until the request's or the child's timeout and fail the test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { HORU, tempDir } from "../testing/paths.js";
import { startWebApi, type WebApi } from "../testing/web-api.js";

let dir: string;
let bookFile: string;
const fifo = (name: string) => {
  const p = path.join(dir, name);
  execFileSync("mkfifo", [p]);
  return p;
};

beforeAll(() => {
  dir = tempDir("horu-fifo-");
  bookFile = path.join(dir, "b.horu");
  OpenBook.create(bookFile).close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `horu ARGS`, its exit code and output; killed (and failed) if it has not ended in 30 s. */
function horu(...args: string[]): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HORU, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

describe("a FIFO named for reading is refused before it can block", () => {
  it("horu import: a FIFO .db, a FIFO record and a link to a FIFO each exit 1 at once, naming it", async () => {
    const db = fifo("cli.db");
    const kif = fifo("cli.kif");
    const link = path.join(dir, "cli-link.db");
    symlinkSync(db, link);
    for (const p of [db, kif, link]) {
      const r = await horu("import", "--book", bookFile, p);
      expect(r.signal, r.out).toBeNull();
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`horu import: ${p} is a special file (FIFO, device or socket), not a regular file`);
    }
  });

  describe("horu web --allow-server-paths", () => {
    let web: WebApi;
    beforeAll(async () => {
      web = await startWebApi(dir, { confine: false });
      expect((await web.call("book.open", { path: bookFile })).status).toBe(200);
    });
    afterAll(() => web.close());

    it("book.import and seed.paths of a FIFO (or a link to one) answer 400 naming it; the server still answers", async () => {
      const db = fifo("web.db");
      const kif = fifo("web.kif");
      const link = path.join(dir, "web-link.kif");
      symlinkSync(kif, link);
      for (const [method, p] of [
        ["book.import", db],
        ["seed.paths", kif],
        ["seed.paths", link],
      ] as const) {
        const r = await web.call(method, { paths: [p] });
        expect(r.status, `${method} ${p}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.key).toBe("notRegularFile");
        expect(r.body.error).toContain(`${p} is a special file (FIFO, device or socket), not a regular file`);
      }
      expect((await web.call("book.info", {})).status).toBe(200);
    });

    it("seeding a folder skips a FIFO in it with a reason and seeds the rest", async () => {
      const folder = path.join(dir, "records");
      mkdirSync(folder);
      execFileSync("mkfifo", [path.join(folder, "a-fifo.kif")]);
      writeFileSync(path.join(folder, "b-game.sfen"), "startpos moves 7g7f 3c3d 2g2f\n");
      const r = await web.call("seed.paths", { paths: [folder] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const report = r.body.result as { positions: number; files: Array<{ file: string; errors: Array<{ message: string }> }> };
      expect(report.positions).toBeGreaterThan(0);
      const skipped = report.files.find((f) => f.file.endsWith("a-fifo.kif"));
      expect(skipped?.errors.map((e) => e.message)).toEqual(["skipped: not a regular file (a FIFO, device or socket)"]);
    });
  });
});
