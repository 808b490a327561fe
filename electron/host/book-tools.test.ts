// The host side of the GUI's book tools: importing .db/.bin books with progress,
// backups now / scheduled / restored, and a read-only window following another writer.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HostService } from "./service.js";
import { OpenBook } from "../book/open-book.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { parseCall, type HostEvent } from "../../shared/api/contract.js";

const DB = path.join(TEST_DATA, "books", "book_yaneuraou.db");
const BIN = path.join(TEST_DATA, "books", "book_apery.bin");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(): { dir: string; service: HostService; events: HostEvent[] } {
  const dir = tempDir();
  dirs.push(dir);
  const service = new HostService();
  const events: HostEvent[] = [];
  service.onEvent((e) => events.push(e));
  return { dir, service, events };
}

describe("book tools in the host", () => {
  it("imports .db and .bin books with progress, refuses other files, backs up and restores keeping the book as it was", async () => {
    const { dir, service, events } = setup();
    const file = path.join(dir, "t.horu");
    await service.call("book.create", { path: file });
    const backup = await service.call("backup.now", {});
    expect(path.dirname(backup.path)).toBe(dir);
    expect(backup.bytes).toBeGreaterThan(0);

    const reports = await service.call("book.import", { paths: [DB, BIN] });
    expect(reports.map((r) => r.format)).toEqual(["db2016", "apery"]);
    expect(reports[0]!.positions).toBeGreaterThan(0);
    const progress = events.filter((e) => e.type === "import.progress");
    expect(progress.some((e) => e.type === "import.progress" && e.file === "book_yaneuraou.db" && e.bytes === e.total)).toBe(true);
    const imported = (await service.call("book.info", {}))!.positions;
    expect(imported).toBeGreaterThan(0);
    await expect(service.call("book.import", { paths: [path.join(dir, "missing.db")] })).rejects.toMatchObject({ key: "missingFile" });
    await expect(service.call("book.import", { paths: [file] })).rejects.toMatchObject({ key: "notABook" });
    // Binary data named .db: refused whole as binary data, not a DB2016 book, nothing stored.
    const random = path.join(dir, "random.db");
    writeFileSync(random, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 151 + 7) % 256)));
    await expect(service.call("book.import", { paths: [random] })).rejects.toMatchObject({
      key: "importRefused",
      message: expect.stringMatching(
        /^random\.db: refused, nothing imported: binary data \(a NUL byte at offset \d+\), not a YaneuraOu DB2016 text book/,
      ),
    });
    expect((await service.call("book.info", {}))!.positions).toBe(imported);

    expect((await service.call("backup.list", {})).map((b) => b.path)).toEqual([backup.path]);
    await expect(service.call("backup.restore", { path: file })).rejects.toMatchObject({ key: "restoreSelf" });
    const info = await service.call("backup.restore", { path: backup.path });
    expect(info.positions).toBe(0);
    const kept = readdirSync(dir).filter((n) => n.endsWith(".before-restore.horu"));
    expect(kept).toHaveLength(1);
    const before = OpenBook.open(path.join(dir, kept[0]!), {}, { readonly: true });
    expect(before.store.thoughts.count()).toBe(imported); // nothing a user does destroys a book
    before.close();
    // The kept copy is listed, so the page can restore it and undo the restore (it could not reach it).
    const listed = (await service.call("backup.list", {})).map((b) => path.basename(b.path));
    expect(listed).toContain(kept[0]);
    const undone = await service.call("backup.restore", { path: path.join(dir, kept[0]!) });
    expect(undone.positions).toBe(imported);

    // The timer itself is tested with BackupSchedule (book/backup.test.ts): here, what is saved.
    const scheduled = await service.call("backup.schedule", { schedule: { everyMinutes: 5, keep: 2, dir: path.join(dir, "bk") } });
    expect(scheduled.backup).toEqual({ everyMinutes: 5, keep: 2, dir: path.join(dir, "bk") });
    // Backups go elsewhere now; the copies restores kept beside the book are still listed.
    const withSchedule = (await service.call("backup.list", {})).map((b) => path.basename(b.path));
    expect(withSchedule.filter((n) => n.endsWith(".before-restore.horu"))).toHaveLength(2);
    // Shorter than 5 minutes is refused by the contract, so such a schedule is never saved.
    for (const everyMinutes of [1e-300, 0.005, 4.9])
      expect(() => parseCall("backup.schedule", { schedule: { everyMinutes, keep: 2, dir: null } })).toThrow(
        /backup\.schedule: invalid arguments at schedule\.everyMinutes: back up at most every 5 minutes/,
      );
    expect((await service.call("book.info", {}))!.backup?.everyMinutes).toBe(5);
    await service.call("backup.schedule", { schedule: null });
    expect((await service.call("book.info", {}))!.backup).toBeNull();
    await service.closeBook();
  });

  it("imports a book uploaded in pieces (any size, in order), the same as from its path, and leaves no temporary file", async () => {
    const { dir, service, events } = setup();
    const uploads = () => readdirSync(tmpdir()).filter((n) => n.startsWith("horu-upload-")).length;
    const before = uploads();
    await service.call("book.create", { path: path.join(dir, "u.horu") });
    const bytes = readFileSync(DB);
    const piece = 200;
    expect(bytes.length).toBeGreaterThan(3 * piece); // several pieces
    const { id } = await service.call("upload.begin", { name: "book_yaneuraou.db", size: bytes.length });
    expect(uploads()).toBe(before + 1);
    await expect(
      service.call("upload.chunk", { id, offset: piece, base64: bytes.subarray(piece, 2 * piece).toString("base64") }),
    ).rejects.toThrow(/in order/);
    await expect(service.call("book.importUpload", { id })).rejects.toThrow(/not complete/);
    for (let at = 0; at < bytes.length; at += piece) {
      const r = await service.call("upload.chunk", { id, offset: at, base64: bytes.subarray(at, at + piece).toString("base64") });
      expect(r.received).toBe(Math.min(bytes.length, at + piece));
    }
    await expect(service.call("upload.chunk", { id, offset: bytes.length, base64: "AAAA" })).rejects.toThrow(/more bytes than/);
    const [report] = await service.call("book.importUpload", { id });
    expect(report!.file).toBe("book_yaneuraou.db");
    expect(events.some((e) => e.type === "import.progress" && e.bytes === bytes.length && e.total === bytes.length)).toBe(true);
    expect(uploads()).toBe(before);
    await expect(service.call("book.importUpload", { id })).rejects.toThrow(/no such upload/);
    const uploaded = (await service.call("book.info", {}))!.positions;
    await service.closeBook();

    // The same file imported from its path gives the same book.
    await service.call("book.create", { path: path.join(dir, "p.horu") });
    const [direct] = await service.call("book.import", { paths: [DB] });
    expect(report!.positions).toBe(direct!.positions);
    expect(report!.moves).toBe(direct!.moves);
    expect((await service.call("book.info", {}))!.positions).toBe(uploaded);

    // A cancelled upload leaves nothing behind; so does closing the book with one half sent.
    const a = await service.call("upload.begin", { name: "x.db", size: 10 });
    await service.call("upload.abort", { id: a.id });
    const b = await service.call("upload.begin", { name: "y.db", size: 10 });
    await service.call("upload.chunk", { id: b.id, offset: 0, base64: "AAAA" });
    await service.closeBook();
    expect(uploads()).toBe(before);
  });

  it("opens a book another writer holds read-only, refuses writes by key and follows the writer's commits", async () => {
    const { dir, service, events } = setup();
    const file = path.join(dir, "w.horu");
    const writer = OpenBook.create(file);
    try {
      const info = await service.call("book.open", { path: file });
      expect(info.readonly).toBe(true);
      expect(info.writer).toMatchObject({ pid: process.pid, self: false });
      await expect(service.call("book.comment", { sfen: info.rootSfen, text: "x" })).rejects.toMatchObject({
        key: "readOnlyHeld",
        params: { pid: process.pid },
      });
      await expect(service.call("dig.start", { processes: 1 })).rejects.toMatchObject({ key: "readOnlyHeld" });
      const root = Position.fromUsi("startpos");
      writer.jobs.addResult(
        { sfen: root.sfenKey(), keyHi: root.keyHi, keyLo: root.keyLo, line: [], rootValue: null },
        [{ move: "7g7f", value: 40, depth: 5, pv: ["7g7f"] }],
        { kind: "engine", engine: "t", nodes: 1, depth: 5, timeMs: 1 },
      );
      const t0 = Date.now();
      while (!events.some((e) => e.type === "book.changed" && e.info?.positions === 1)) {
        if (Date.now() - t0 > 10_000) throw new Error("the follower never saw the new position");
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await service.call("book.node", { line: [] })).thought).toBe(true);
    } finally {
      await service.closeBook();
      writer.close();
    }
    expect(existsSync(file)).toBe(true);
  });
});
