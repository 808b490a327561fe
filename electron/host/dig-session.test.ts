// The idle status never waits for a whole search of the book: it searches for at most its
// slice, the rest goes on in slices between other work, and a dig.status event brings the
// values, which are those of one whole search.
import { afterAll, describe, expect, it, vi } from "vitest";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { BOOK_UPDATE_MS, DigSession } from "./dig-session.js";
import { OpenBook, SNAPSHOT_MIN_POSITIONS } from "../book/open-book.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { tempDir } from "../testing/paths.js";
import type { DigStatus, HostEvent } from "../../shared/api/contract.js";
import { HostService } from "./service.js";
import { BookGraph } from "../../shared/book/graph.js";
import { snapshotPath } from "../book/graph-snapshot.js";

describe("DigSession idle status", () => {
  const dir = tempDir("horu-dig-session-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("answers at once on a book it has not searched yet, finishes the search in slices and sends the values", async () => {
    const file = path.join(dir, "book.horu");
    writeDigShapedBook(file, 10_000);
    const book = OpenBook.open(file);
    try {
      let sent: (s: DigStatus) => void = () => undefined;
      const event = new Promise<DigStatus>((resolve) => (sent = resolve));
      const types: string[] = [];
      // A 0 ms slice: each slice visits about a thousand positions, far fewer than the book has.
      const session = new DigSession(
        (e) => {
          types.push(e.type);
          if (e.type === "dig.status") sent(e.status);
        },
        () => book,
        0,
      );
      const first = session.status();
      expect(first.state).toBe("idle");
      expect(first.rootValue).toBeNull();
      expect(first.bookValue).toBeNull();
      expect(first.bookPv).toEqual([]);
      // Other work runs between the slices: this timer fires before the search is done.
      let between = 0;
      const ticker = setInterval(() => between++, 0);
      const done = await Promise.race([
        event,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no dig.status event within 60 s")), 60_000)),
      ]).finally(() => clearInterval(ticker));
      expect(between).toBeGreaterThan(0);
      expect(book.previewCurrent && book.bookValueCurrent).toBe(true);
      // The views' values changed with no new position: they are told to read them again (the
      // Book table's search values stayed "–" after a stop without it).
      expect(types).toEqual(["dig.status", "book.updated"]);

      // The values of one whole search, on a second (read-only) open of the same file.
      const fresh = OpenBook.open(file, {}, { readonly: true });
      try {
        const whole = fresh.preview();
        expect(whole).not.toBeNull();
        expect(done.rootValue).toBe(whole!.rootValue);
        expect(done.pv).toEqual(whole!.line);
        expect(done.bookValue).toBe(fresh.bookValue());
        expect(done.bookPv).toEqual(fresh.bookLine());
      } finally {
        fresh.close();
      }
      // Now current: a status call answers the same values without searching again.
      const again = session.status();
      expect([again.rootValue, again.bookValue, again.pv, again.bookPv]).toEqual([done.rootValue, done.bookValue, done.pv, done.bookPv]);
    } finally {
      book.close();
    }
  });
});

describe("HostService open", () => {
  const dir = tempDir("horu-host-open-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has the selection's parent lists ready when the open is done, not at the dig's first selection", async () => {
    const file = path.join(dir, "book.horu");
    writeDigShapedBook(file, SNAPSHOT_MIN_POSITIONS);
    const host = new HostService({ configDir: path.join(dir, "config"), documentsDir: dir });
    const events: HostEvent[] = [];
    host.onEvent((e) => events.push(e));
    const built = vi.spyOn(BookGraph.prototype, "ensureParents");
    const announced = () => events.findIndex((e) => e.type === "book.changed" && e.info !== null);
    try {
      // The snapshot carries them: read with the graph, nothing to build.
      await host.call("book.open", { path: file });
      let graph = built.mock.contexts[0] as BookGraph;
      expect(graph.pHead).not.toBeNull();
      expect(graph.nodeCount).toBe(SNAPSHOT_MIN_POSITIONS);
      expect(events.some((e) => e.type === "book.opening" && e.phase === "links")).toBe(false);
      await host.closeBook();
      // Without a snapshot (the graph rebuilt from the positions): built while the open is
      // waited for, shown as its last step (linking moves), before the book is announced.
      rmSync(snapshotPath(file));
      events.length = 0;
      built.mockClear();
      await host.call("book.open", { path: file });
      graph = built.mock.contexts[0] as BookGraph;
      expect(graph.pHead).not.toBeNull();
      const steps = events.filter((e) => e.type === "book.opening");
      expect(steps.slice(-2)).toEqual([
        { type: "book.opening", path: file, phase: "links", done: 0, total: SNAPSHOT_MIN_POSITIONS },
        { type: "book.opening", path: file, phase: "links", done: SNAPSHOT_MIN_POSITIONS, total: SNAPSHOT_MIN_POSITIONS },
      ]);
      expect(announced()).toBeGreaterThan(events.lastIndexOf(steps.at(-1)!));
    } finally {
      built.mockRestore();
      await host.closeBook();
    }
  });
});

describe("DigSession book.updated", () => {
  it("tells the UI once per BOOK_UPDATE_MS that the book's positions changed, and only when they did", () => {
    vi.useFakeTimers();
    try {
      const events: HostEvent[] = [];
      const book = { graph: { generation: 1 }, jobs: { selections: 0, inFlight: [] as Array<{ sfen: string }> } };
      const session = new DigSession(
        (e) => events.push(e),
        () => book as unknown as OpenBook,
      );
      const updates = () => events.filter((e) => e.type === "book.updated").length;
      const result = { kind: "result", sfen: "x", engine: "e", candidates: 1, line: [] as string[] } as const;
      session.handle(result);
      session.handle(result);
      vi.advanceTimersByTime(BOOK_UPDATE_MS);
      expect(updates()).toBe(1);
      // Nothing moved: nothing is sent.
      session.handle(result);
      vi.advanceTimersByTime(BOOK_UPDATE_MS);
      expect(updates()).toBe(1);
      // A position handed out, then a result stored.
      book.jobs.inFlight.push({ sfen: "y" });
      session.handle(result);
      vi.advanceTimersByTime(BOOK_UPDATE_MS);
      book.graph.generation++;
      session.handle(result);
      vi.advanceTimersByTime(BOOK_UPDATE_MS - 1);
      expect(updates()).toBe(2);
      vi.advanceTimersByTime(1);
      expect(updates()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("HostService attached to horu dig --web", () => {
  const dir = tempDir("horu-host-attached-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses to close or replace the dig's book (a restore there ended the dig and restored nothing)", async () => {
    const file = path.join(dir, "dug.horu");
    writeDigShapedBook(file, 200);
    const book = OpenBook.open(file);
    const host = new HostService({ configDir: path.join(dir, "config"), documentsDir: dir, confine: true });
    // The command's dig, as far as the page sees it: digging until the command ends.
    const dig = { state: "digging", progress: {}, stop: async () => undefined } as unknown as Parameters<HostService["attach"]>[1];
    host.attach(book, dig, new Promise(() => undefined));
    try {
      const backup = path.join(dir, "dug.1.backup.horu");
      await book.store.backup(backup);
      for (const [method, args] of [
        ["backup.restore", { path: backup }],
        ["book.close", {}],
        ["book.create", { path: "other.horu" }],
        ["book.quickStart", { path: "quick.horu", processes: 1 }],
      ] as const)
        await expect(host.call(method, args as never), method).rejects.toThrow(
          /serves horu dig --web, which owns .*dug\.horu: stop that dig/,
        );
      // The book is still the dig's, open and whole.
      expect((await host.call("book.info", {}))?.path).toBe(file);
      expect(book.store.integrityCheck()).toBe("ok");
      expect(existsSync(path.join(dir, "other.horu"))).toBe(false);
    } finally {
      book.close();
    }
  });
});
