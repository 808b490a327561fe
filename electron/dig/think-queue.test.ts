// Positions from game records queued to be thought (`horu import --think-plies`, the old
// `makebook think`): a dig thinks them first, in queue order, then goes back to selection.
import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { OpenBook } from "../book/open-book.js";
import { Dig } from "./dig.js";
import { seedBook } from "../book/seed.js";
import { BookStore } from "../store/book-store.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";
import { insertEntry } from "../../shared/book/link.js";
import { missing } from "../testing/missing.js";

const RECORDS = "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\nstartpos moves 2g2f 8c8d 7g7f 4a3b\n";

/** sfenKey after the USI moves from the start position. */
const after = (...moves: string[]) => Position.fromUsi(moves.length ? `startpos moves ${moves.join(" ")}` : "startpos").sfenKey();

/** The positions of the first two plies of RECORDS, shallow first, in record order. */
const QUEUED = [after(), after("7g7f"), after("2g2f"), after("7g7f", "3c3d"), after("2g2f", "8c8d")];

describe("the think queue", () => {
  it("OpenBook jobs.next hands out queued positions first, skipping ones in flight or thought, then selects", () => {
    const dir = tempDir();
    const records = path.join(dir, "games.sfen");
    writeFileSync(records, RECORDS);
    const book = OpenBook.create(path.join(dir, "q.horu"));
    const r = seedBook(book, [records], { thinkPlies: 2 });
    expect([r.queued, r.queuedNew]).toEqual([5, 5]);
    expect(book.store.queue.peek(10).map((q) => q.sfen)).toEqual(QUEUED);

    const a = book.jobs.next()!,
      b = book.jobs.next()!;
    expect([a.sfen, b.sfen]).toEqual(QUEUED.slice(0, 2));
    expect(a.line).toEqual([]);
    // The third queued position is thought meanwhile (another import): it is dropped, not handed out.
    const third = Position.fromSfen(QUEUED[2]!);
    book.store.thoughts.addBatch([
      { sfen: QUEUED[2]!, keyHi: third.keyHi, keyLo: third.keyLo, candidates: [], provenance: { kind: "import", file: "x" }, thoughtAt: 1 },
    ]);
    insertEntry(book.graph, { sfen: QUEUED[2]!, candidates: [] });
    const c = book.jobs.next()!;
    expect(c.sfen).toBe(QUEUED[3]);
    book.jobs.release(c);
    expect(book.jobs.next()!.sfen).toBe(QUEUED[3]); // released: back at the head of what is free
    book.close();
  });

  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    `a dig thinks the queued positions first, marks them done and resumes selection (${NO_ENGINE})`,
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const records = path.join(dir, "games.sfen");
      writeFileSync(records, RECORDS);
      const file = path.join(dir, "q.horu");
      const out = execFileSync(process.execPath, [HORU, "import", "--book", file, records, "--think-plies", "2", "--json"], {
        encoding: "utf8",
      });
      expect(JSON.parse(out.trim().split("\n").pop()!).seeds).toMatchObject({ queued: 5, queuedNew: 5 });

      const book = OpenBook.open(file, { limit: { nodes: 2000 }, multipv: 2 });
      const engine = { command: FAIRY, name: "fairy", options: { Threads: 1, Hash: 16 } };
      const s = await new Dig(book, { engines: [engine], positions: 8 }).run();
      expect(s.failed).toBe(0);
      expect(book.store.queue.count()).toBe(0);
      book.close();

      // One engine: ids are the order of thinking. The queue comes first, then selected leaves.
      const db = new Database(file, { readonly: true });
      const order = db.prepare("SELECT sfen FROM positions WHERE state = 'thought' ORDER BY id").pluck().all() as string[];
      db.close();
      expect(order.length).toBeGreaterThanOrEqual(8);
      expect(order.slice(0, 5)).toEqual(QUEUED);
      expect(order.slice(5).some((sfen) => !QUEUED.includes(sfen))).toBe(true);
      const store = BookStore.open(file, { readonly: true });
      for (const sfen of QUEUED) expect(store.thoughts.get(sfen)?.provenance.kind).toBe("engine");
      store.close();
    },
  );

  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    `horu dig that thinks only queued positions ends with the book's value and line, not "root - pv" (${NO_ENGINE})`,
    { timeout: 120_000 },
    () => {
      const dir = tempDir();
      const records = path.join(dir, "games.sfen");
      writeFileSync(records, RECORDS);
      const file = path.join(dir, "only-queued.horu");
      execFileSync(process.execPath, [HORU, "import", "--book", file, records, "--think-plies", "2"], { encoding: "utf8" });
      const r = spawnSync(
        process.execPath,
        [HORU, "dig", "--book", file, "--engine", FAIRY, "--engines", "1", "--nodes", "2000", "--positions", "3"],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/stopped: 3 thought .*, root [+-]?\d+ for Black pv \S/);
    },
  );

  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    `a position asked for during a dig is thought next, ahead of the positions selected ahead (${NO_ENGINE})`,
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const book = OpenBook.create(path.join(dir, "ask.horu"), { limit: { nodes: 3000 }, multipv: 2, prefetch: 4 });
      const asked = after("9g9f", "1c1d");
      const results: string[] = [];
      let waiting: string[] = [];
      const engine = { command: FAIRY, name: "fairy", options: { Threads: 1, Hash: 16 } };
      const dig = new Dig(book, {
        engines: [engine],
        positions: 24,
        onEvent: (e) => {
          if (e.kind !== "result") return;
          results.push(e.sfen);
          // Once the book has enough leaves and the positions selected ahead have caught up
          // (on a loaded machine the selection may lag a fast think): ask, once.
          if (results.length >= 8 && !waiting.length && book.jobs.inFlight.length >= 4) {
            waiting = book.jobs.inFlight.map((j) => j.sfen);
            book.edits.thinkNow(asked);
          }
        },
      });
      const s = await dig.run();
      expect(s.failed).toBe(0);
      expect(waiting.length, "four positions waited at some result from the eighth on").toBeGreaterThanOrEqual(4);
      // The engine takes what waits first as each think ends (a short think may end once or
      // twice before the dig reads the queue): the asked position still comes before most of
      // the positions selected ahead, where in queue order it would come after all of them.
      const at = results.indexOf(asked);
      expect(at, results.join("\n")).toBeGreaterThan(7);
      const later = waiting.filter((sfen) => results.indexOf(sfen) > at);
      expect(later.length, `thought after the asked one: ${later.length} of ${waiting.join(", ")}`).toBeGreaterThanOrEqual(2);
      book.close();
    },
  );
});
