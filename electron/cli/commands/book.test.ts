// `horu book ACTION` against a real book file.
import { afterEach, describe, expect, test, vi } from "vitest";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { snapshotPath } from "../../book/graph-snapshot.js";
import path from "node:path";
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { bookCommand } from "./book.js";
import { UsageError } from "../command.js";
import { OpenBook } from "../../book/open-book.js";
import { tempDir } from "../../testing/paths.js";
import { Position } from "../../../shared/rules/position.js";

const after = (...moves: string[]) => Position.fromUsi(moves.length ? `startpos moves ${moves.join(" ")}` : "startpos").sfenKey();

function capture(): { json: () => Record<string, unknown>; text: () => string } {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return { json: () => JSON.parse(out.trimEnd().split("\n").at(-1)!) as Record<string, unknown>, text: () => out };
}

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function makeBook(): string {
  const dir = tempDir();
  dirs.push(dir);
  const file = path.join(dir, "b.horu");
  const book = OpenBook.create(file, { limit: { depth: 8 } });
  const put = (sfen: string, moves: Array<[string, number]>) => {
    const p = Position.fromSfen(sfen);
    book.jobs.addResult(
      { sfen, keyHi: p.keyHi, keyLo: p.keyLo, line: [], rootValue: null },
      moves.map(([move, value]) => ({ move, value, depth: 8, pv: [move] })),
      { kind: "engine", engine: "t", nodes: 1, depth: 8, timeMs: 1 },
    );
  };
  put(after(), [
    ["7g7f", 50],
    ["2g2f", 40],
  ]);
  put(after("7g7f"), [["3c3d", -40]]);
  put(after("7g7f", "3c3d"), [["2g2f", 30]]);
  book.close();
  return file;
}

describe("horu book", () => {
  test("think, deeper, add-move and list queued", async () => {
    const file = makeBook();
    let out = capture();
    expect(await bookCommand.run(["think", "--book", file, "--line", "2g2f", "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ sfen: after("2g2f"), limit: null });
    vi.restoreAllMocks();
    out = capture();
    expect(await bookCommand.run(["deeper", "--book", file, "--line", "7g7f", "--factor", "3", "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ sfen: after("7g7f"), limit: { depth: 11 } });
    vi.restoreAllMocks();
    out = capture();
    expect(await bookCommand.run(["add-move", "--book", file, "--line", "7g7f 3c3d", "--move", "8h2b+", "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ sfen: after("7g7f", "3c3d", "8h2b+") });
    vi.restoreAllMocks();
    out = capture();
    expect(await bookCommand.run(["list", "queued", "--book", file, "--json"])).toBe(0);
    const queued = out.json().queued as Array<{ sfen: string; limit?: unknown }>;
    // Newest first: each one jumped the queue.
    expect(queued.map((q) => q.sfen)).toEqual([after("7g7f", "3c3d", "8h2b+"), after("7g7f"), after("2g2f")]);
    expect(queued[1]!.limit).toEqual({ depth: 11 });
  });

  test("comment, prune and undo-prune, retry, unban", async () => {
    const file = makeBook();
    capture();
    expect(await bookCommand.run(["comment", "--book", file, "--line", "7g7f", "--text", "角道"])).toBe(0);
    vi.restoreAllMocks();
    let out = capture();
    expect(await bookCommand.run(["comment", "--book", file, "--line", "7g7f", "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ comment: "角道" });
    vi.restoreAllMocks();
    // The text list: a header line, then tab-separated rows with the time in UTC (it was raw columns and epoch milliseconds).
    out = capture();
    expect(await bookCommand.run(["list", "comments", "--book", file])).toBe(0);
    expect(out.text()).toMatch(
      new RegExp(`^sfen\tcomment\tat\n${after("7g7f").replace(/[+/]/g, "\\$&")}\t角道\t\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\n$`),
    );
    vi.restoreAllMocks();
    out = capture();
    expect(await bookCommand.run(["prune", "--book", file, "--line", "7g7f", "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ positions: 2 });
    vi.restoreAllMocks();
    out = capture();
    expect(await bookCommand.run(["undo-prune", "--book", file, "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ positions: 2 });
    await expect(bookCommand.run(["undo-prune", "--book", file])).rejects.toThrow(/nothing to undo/);
    vi.restoreAllMocks();
    out = capture();
    expect(await bookCommand.run(["retry", "--book", file, "--json"])).toBe(0);
    expect(out.json()).toEqual({ released: 0 });
    await expect(bookCommand.run(["unban", "--book", file, "--line", "7g7f", "--move", "3c3d"])).rejects.toThrow(/not banned/);
    const b = OpenBook.open(file, {}, { readonly: true });
    expect(b.store.thoughts.count()).toBe(3);
    b.close();
  });

  test("bad input is a usage error; a book held by a writer is refused", async () => {
    const file = makeBook();
    await expect(bookCommand.run(["frobnicate", "--book", file])).rejects.toThrow(UsageError);
    await expect(bookCommand.run(["think", "--book", file])).rejects.toThrow(/--sfen SFEN or --line/);
    await expect(bookCommand.run(["think", "--book", file, "--line", "7g7f 7g7f"])).rejects.toThrow(/move 2 \(7g7f\) is not legal/);
    await expect(bookCommand.run(["unban", "--book", file, "--line", "7g7f"])).rejects.toThrow(/--move/);
    await expect(bookCommand.run(["list", "things", "--book", file])).rejects.toThrow(UsageError);
    // A line without quotes: its later moves are left over, not dropped (the prune would have
    // taken the subtree after 7g7f, not after 7g7f 3c3d).
    await expect(bookCommand.run(["prune", "--book", file, "--line", "7g7f", "3c3d"])).rejects.toThrow(
      /unexpected argument '3c3d'; a line of several moves goes in quotes: --line "7g7f 3c3d"/,
    );
    await expect(bookCommand.run(["list", "queued", "stray", "--book", file])).rejects.toThrow(/unexpected argument 'stray'/);
    const untouched = OpenBook.open(file, {}, { readonly: true });
    expect(untouched.store.thoughts.count()).toBe(3);
    untouched.close();
    const writer = OpenBook.open(file);
    try {
      await expect(bookCommand.run(["think", "--book", file, "--line", "2g2f"])).rejects.toThrow(
        /open for writing (by another process|in this horu process)/,
      );
    } finally {
      writer.close();
    }
  });
});

describe("horu book graph", () => {
  test("rebuilds the graph, saves the snapshot beside the book, and the next open reads it", async () => {
    const file = makeBook();
    const snap = snapshotPath(file);
    // A stale snapshot (another book's) is replaced, not trusted.
    writeSnapshotOf(path.join(path.dirname(file), "other.horu"), snap);
    const out = capture();
    expect(await bookCommand.run(["graph", "--book", file, "--json"])).toBe(0);
    expect(out.json()).toMatchObject({ positions: 3, snapshot: snap });
    const book = OpenBook.open(file, {}, { readonly: true });
    expect([book.timings.from, book.timings.replayed, book.graph.nodeCount]).toEqual(["snapshot", 0, 3]);
    book.close();
  });

  test("leaves a file that is not a snapshot alone", async () => {
    const file = makeBook();
    writeFileSync(snapshotPath(file), "my notes\n");
    capture();
    await expect(bookCommand.run(["graph", "--book", file])).rejects.toThrow(/not a horu graph snapshot/);
    expect(readFileSync(snapshotPath(file), "utf8")).toBe("my notes\n");
  });
});

/** Saves the graph snapshot of a fresh one-position book, under `to`. */
function writeSnapshotOf(other: string, to: string): void {
  const book = OpenBook.create(other, { limit: { depth: 8 } });
  const p = Position.startpos();
  book.jobs.addResult(
    { sfen: p.sfenKey(), keyHi: p.keyHi, keyLo: p.keyLo, line: [], rootValue: null },
    [{ move: "7g7f", value: 1, depth: 8, pv: ["7g7f"] }],
    { kind: "engine", engine: "t", nodes: 1, depth: 8, timeMs: 1 },
  );
  expect(book.saveSnapshot()).toBe(true);
  book.close();
  renameSync(snapshotPath(other), to);
}

describe("horu book unlock", () => {
  const lockAs = (file: string, pid: number, host: string) => {
    const db = new Database(file);
    db.prepare("INSERT OR REPLACE INTO writer_lock (id, token, pid, host, since, proc_start) VALUES (1, 't', ?, ?, 0, NULL)").run(
      pid,
      host,
    );
    db.close();
  };

  test("frees a book locked by a writer on another machine, which is otherwise held for ever; never a live writer here", async () => {
    const file = makeBook();
    lockAs(file, 4242, "container-1");
    // Every writer is refused, and the refusal says how to get out.
    let refusal = "";
    try {
      OpenBook.open(file).close();
    } catch (e) {
      refusal = (e as Error).message;
    }
    expect(refusal).toContain("pid 4242 on container-1");
    expect(refusal).toContain(`horu book unlock --book ${file}`);
    const out = capture();
    expect(await bookCommand.run(["unlock", "--book", file, "--json"])).toBe(0);
    expect(out.text()).toMatch(/freed .*b\.horu from the lock of pid 4242 on container-1/);
    expect(out.json()).toMatchObject({ freed: true, holder: { pid: 4242, host: "container-1" } });
    OpenBook.open(file).close(); // writable again
    expect(await bookCommand.run(["unlock", "--book", file])).toBe(0);
    expect(out.text()).toContain("is not locked: nothing to free");
    // A live writer on this machine (this very process) is never freed.
    lockAs(file, process.pid, hostname());
    await expect(bookCommand.run(["unlock", "--book", file])).rejects.toThrow(
      /being written by a live process on this machine .*its lock is not freed/,
    );
  });
});
