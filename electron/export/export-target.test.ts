// Export never destroys a book: the open book, another horu book, an existing .db without
// consent, a relative path resolving somewhere unannounced.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { exportBook } from "./export.js";
import { assertExportTarget, planExportTarget } from "./export-target.js";
import { assertIntact as assertBookIntact, makeBook as makeBookFile } from "../testing/intact.js";
import { tempDir } from "../testing/paths.js";
import { HostService } from "../host/service.js";
import { dispatch } from "../host/transport.js";
import { exportCommand } from "../cli/commands/export.js";
import { petaCommand } from "../cli/commands/peta.js";
import { convertCommand } from "../cli/commands/convert.js";

function makeBook(dir: string, name: string, n: number): { file: string; sfens: string[] } {
  const file = path.join(dir, name);
  return { file, sfens: makeBookFile(file, n) };
}

/** Nothing lost, and nothing added: an export only reads the book. */
const assertIntact = (file: string, sfens: string[]) => assertBookIntact(file, sfens, { exact: true });

describe("export never destroys a book", () => {
  it("refuses the open book (also by a relative path, a symlink, its -wal file) and any other horu book, whatever overwrite says", async () => {
    const dir = tempDir();
    const a = makeBook(dir, "a.horu", 12);
    const other = makeBook(dir, "other.horu", 5);
    const disguised = makeBook(dir, "disguised.db", 3); // a horu book named like an export
    symlinkSync(a.file, path.join(dir, "link.db"));
    const book = OpenBook.open(a.file);
    try {
      for (const [target, why] of [
        [a.file, /is the open book/],
        ["a.horu", /is the open book/],
        [path.join(dir, "link.db"), /is the open book/],
        [a.file + "-wal", /is the open book \(its wal file\)/],
        [other.file, /horu book or another SQLite database/],
        [disguised.file, /horu book or another SQLite database/],
        [dir, /is a folder/],
      ] as const) {
        await expect(exportBook(book, { path: target, format: "db", mode: "minimax", overwrite: true, folder: dir })).rejects.toMatchObject(
          { code: "user", message: expect.stringMatching(why) },
        );
      }
    } finally {
      book.close();
    }
    assertIntact(a.file, a.sfens);
    assertIntact(other.file, other.sfens);
    assertIntact(disguised.file, disguised.sfens);
    // Nothing was left beside them either.
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("asks before replacing an existing .db, resolves relative paths against the stated folder, and writes beside then renames", async () => {
    const dir = tempDir();
    const a = makeBook(dir, "a.horu", 8);
    const existing = path.join(dir, "old.db");
    writeFileSync(existing, "#YANEURAOU-DB2016 1.00\nold\n");
    const book = OpenBook.open(a.file);
    try {
      await expect(
        exportBook(book, { path: "old.db", format: "db", mode: "raw", folder: dir, overwriteHint: "give --force to replace it" }),
      ).rejects.toThrow(`${existing} already exists: give --force to replace it`);
      expect(readFileSync(existing, "utf8")).toContain("old");
      const r = await exportBook(book, { path: "old.db", format: "db", mode: "raw", folder: dir, overwrite: true });
      expect(r.path).toBe(existing);
      expect(r.positions).toBe(8);
      expect(readFileSync(existing, "utf8")).not.toContain("old");
      const sub = path.join(dir, "sub");
      mkdirSync(sub);
      const rel = await exportBook(book, { path: "new.bin", format: "bin", mode: "raw", folder: sub });
      expect(rel.path).toBe(path.join(sub, "new.bin"));
      expect(existsSync(path.join(process.cwd(), "new.bin"))).toBe(false);
    } finally {
      book.close();
    }
    assertIntact(a.file, a.sfens);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("the host plans against the book's folder and refuses with code user (a 4xx in web mode)", async () => {
    const dir = tempDir();
    const a = makeBook(dir, "a.horu", 6);
    const other = makeBook(dir, "b.horu", 2);
    const s = new HostService();
    try {
      const opened = await dispatch(s, "book.open", { path: a.file });
      expect(opened).toHaveProperty("result");
      expect(await dispatch(s, "export.plan", { path: "a.horu" })).toEqual({
        result: {
          path: a.file,
          folder: dir,
          exists: true,
          refused: expect.stringMatching(/open book/),
          refusedKey: "exportOpenBook",
          refusedParams: { path: a.file },
        },
      });
      expect(await dispatch(s, "export.plan", { path: "out.db" })).toEqual({
        result: { path: path.join(dir, "out.db"), folder: dir, exists: false, refused: null },
      });
      expect(await dispatch(s, "export.run", { path: a.file, format: "db", mode: "minimax", overwrite: true })).toMatchObject({
        code: "user",
        error: expect.stringMatching(/open book/),
      });
      expect(await dispatch(s, "export.run", { path: other.file, format: "db", mode: "minimax", overwrite: true })).toMatchObject({
        code: "user",
      });
      writeFileSync(path.join(dir, "x.db"), "x");
      expect(await dispatch(s, "export.run", { path: "x.db", format: "db", mode: "minimax" })).toMatchObject({
        code: "user",
        error: expect.stringMatching(/already exists/),
      });
      expect(await dispatch(s, "export.run", { path: "x.db", format: "db", mode: "minimax", overwrite: true })).toMatchObject({
        result: { path: path.join(dir, "x.db"), positions: 6 },
      });
    } finally {
      await s.closeBook();
    }
    assertIntact(a.file, a.sfens);
    assertIntact(other.file, other.sfens);
  });

  it("horu export needs --force for an existing file and never writes over a book; horu peta likewise", async () => {
    const dir = tempDir();
    const a = makeBook(dir, "a.horu", 5);
    const b = makeBook(dir, "b.horu", 3);
    await expect(exportCommand.run(["--book", a.file, "--out", a.file.replace(/horu$/, "db")])).resolves.toBe(0);
    const out = a.file.replace(/horu$/, "db");
    await expect(exportCommand.run(["--book", a.file, "--out", out])).rejects.toThrow(`${out} already exists: give --force to replace it`);
    await expect(exportCommand.run(["--book", a.file, "--out", out, "--force"])).resolves.toBe(0);
    const bAsDb = path.join(dir, "b-book.db");
    const { renameSync } = await import("node:fs");
    renameSync(b.file, bAsDb);
    await expect(exportCommand.run(["--book", a.file, "--out", bAsDb, "--force"])).rejects.toThrow(/horu book or another SQLite database/);
    await expect(petaCommand.run([out, bAsDb, "--force"])).rejects.toThrow(/horu book or another SQLite database/);
    await expect(petaCommand.run([out, out + ".peta.db"])).resolves.toBe(0);
    await expect(petaCommand.run([out, out + ".peta.db"])).rejects.toThrow(/already exists: give --force/);
    await expect(convertCommand.run([out, bAsDb, "--force"])).rejects.toThrow(/horu book or another SQLite database/);
    await expect(convertCommand.run([out, out + ".peta.db"])).rejects.toThrow(/already exists: give --force/);
    await expect(convertCommand.run([out, out])).rejects.toThrow(`${out} is the input: writing there would destroy it`);
    const link = path.join(dir, "link-to-out.db");
    (await import("node:fs")).symlinkSync(out, link);
    await expect(petaCommand.run([out, link, "--force"])).rejects.toThrow(`${link} is the input: writing there would destroy it`);
    assertIntact(a.file, a.sfens);
    assertIntact(bAsDb, b.sfens);
  });

  it("never replaces what is not a regular file: a device, a FIFO, a link to one (/dev/null was once replaced when run as root)", () => {
    const dir = tempDir();
    execFileSync("mkfifo", [path.join(dir, "fifo.db")]);
    symlinkSync("/dev/null", path.join(dir, "null.db"));
    for (const target of ["/dev/null", "/dev/full", path.join(dir, "fifo.db"), path.join(dir, "null.db")]) {
      const plan = planExportTarget(target, dir, null);
      expect(plan.refused, target).toMatch(/is not a regular file/);
      expect(() => assertExportTarget(plan, true, "")).toThrow(/is not a regular file/);
    }
  });

  it("planExportTarget resolves against the folder it is given", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "x"));
    expect(planExportTarget("x/y.db", dir, null)).toEqual({ path: path.join(dir, "x", "y.db"), folder: dir, exists: false, refused: null });
  });
});

describe("reopening a book this process holds", () => {
  it("book.open of the open book (by another name too) keeps it open for writing, and a second writer in this process is told it is this process", async () => {
    const dir = tempDir();
    const a = makeBook(dir, "a.horu", 4);
    symlinkSync(a.file, path.join(dir, "alias.horu"));
    const s = new HostService();
    try {
      await dispatch(s, "book.open", { path: a.file });
      for (const p of [a.file, path.join(dir, "alias.horu")]) {
        const again = await dispatch(s, "book.open", { path: p });
        expect(again).toMatchObject({ result: { path: a.file, positions: 4 } });
      }
      // Still the writer: a write goes through.
      expect(await dispatch(s, "engines.add", { commandLine: "/usr/games/fairy-stockfish" })).toHaveProperty("result");
      let message = "";
      try {
        OpenBook.open(a.file).close();
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(`is already open for writing in this horu process (pid ${process.pid}`);
      expect(message).not.toContain("another process");
    } finally {
      await s.closeBook();
    }
    assertIntact(a.file, a.sfens);
  });
});
