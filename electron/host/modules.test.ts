// The host's parts on their own, without the router: uploads, the book views on a small book,
// the dig session's merging of info lines, and backups' refusals.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SEED_UPLOAD_MAX_BYTES, UPLOAD_CHUNK_BYTES, type HostEvent } from "../../shared/api/contract.js";
import { OpenBook } from "../book/open-book.js";
import { TEST_DATA, tempDir } from "../testing/paths.js";
import { seedInThread } from "../book/seed-thread.js";
import { positionAfter, writeTranspositionBook } from "../testing/transposition-book.js";
import { MAX_OPEN_UPLOADS, Uploads, withUploadedRecords } from "./uploads.js";
import { banPage, bookInfo, graphNodeView, graphNodeViews, nodeView } from "./book-views.js";
import { DigSession, INFO_EVERY_MS } from "./dig-session.js";
import { checkBackup } from "./backups.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function book(): OpenBook {
  const dir = tempDir();
  dirs.push(dir);
  const file = path.join(dir, "t.horu");
  writeTranspositionBook(file);
  return OpenBook.open(file, {});
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("uploads", () => {
  it("takes pieces in order up to the announced size, then hands the file over and deletes it when dropped", () => {
    let now = 1_000;
    const uploads = new Uploads(() => now);
    const { id } = uploads.begin("棋譜 book?.db", 10);
    expect(uploads.chunk(id, 0, b64("hello"))).toEqual({ received: 5 });
    expect(() => uploads.chunk(id, 0, b64("again"))).toThrow(/a piece at byte 0, but 5 bytes have arrived/);
    expect(() => uploads.chunk(id, 5, b64("too many bytes"))).toThrow(/more bytes than the 10 announced/);
    expect(() => uploads.take(id)).toThrow(/not complete \(5 of 10 bytes\)/);
    expect(uploads.chunk(id, 5, b64("world"))).toEqual({ received: 10 });
    const up = uploads.take(id);
    expect(up.name).toBe("棋譜 book?.db");
    expect(path.basename(up.file)).toBe("棋譜_book_.db");
    expect(readFileSync(up.file, "utf8")).toBe("helloworld");
    expect(() => uploads.chunk(id, 10, "")).toThrow(/already being imported/);
    uploads.drop(id);
    expect(existsSync(path.dirname(up.file))).toBe(false);
    expect(() => uploads.take(id)).toThrow(/no such upload/);

    // A piece bigger than the limit is refused; an upload left an hour without a piece goes.
    const big = uploads.begin("big.bin", UPLOAD_CHUNK_BYTES * 2);
    expect(() => uploads.chunk(big.id, 0, Buffer.alloc(UPLOAD_CHUNK_BYTES + 1).toString("base64"))).toThrow(/at most/);
    now += 3_600_001;
    uploads.begin("next.db", 1);
    expect(uploads.size).toBe(1);
    expect(() => uploads.chunk(big.id, 0, "")).toThrow(/no such upload/);
    uploads.dropAll();
    expect(uploads.size).toBe(0);
  });

  it("refuses a file bigger than the temporary folder's free space", () => {
    const uploads = new Uploads();
    expect(() => uploads.begin("huge.db", Number.MAX_SAFE_INTEGER)).toThrow(/do not fit in the server's temporary folder/);
    expect(uploads.size).toBe(0);
  });

  it("holds at most 8 uploads open, and their announced sizes together must fit the free space (500 uploads of 64 GiB each were once accepted)", () => {
    const uploads = new Uploads();
    const free = statfsSync(tmpdir());
    const room = Number(free.bavail) * Number(free.bsize);
    const first = uploads.begin("a.db", Math.floor(room * 0.9));
    // 0.9 of the room is promised: another 0.2 does not fit, though each alone would.
    expect(() => uploads.begin("b.db", Math.floor(room * 0.2))).toThrow(/do not fit .* beside the uploads under way/);
    uploads.drop(first.id);
    for (let i = 0; i < MAX_OPEN_UPLOADS; i++) uploads.begin(`${i}.db`, 10);
    expect(() => uploads.begin("ninth.db", 10)).toThrow(/8 uploads are open already/);
    expect(uploads.size).toBe(MAX_OPEN_UPLOADS);
    uploads.dropAll();
  });

  it("writes game records sent whole to a temporary folder that is gone afterwards", async () => {
    let seen: string[] = [];
    const sizes = await withUploadedRecords([{ name: "../a.kif", base64: b64("abc") }], (paths) => {
      seen = paths;
      return paths.map((p) => readFileSync(p, "utf8"));
    });
    expect(sizes).toEqual(["abc"]);
    expect(path.basename(seen[0]!)).toBe("0-a.kif");
    expect(existsSync(path.dirname(seen[0]!))).toBe(false);
  });

  it("refuses more than 32 MiB of game records at once, before writing any of them", async () => {
    // Two files, each under the limit, together over it (base64: 4 characters per 3 bytes).
    const half = "A".repeat(Math.ceil((SEED_UPLOAD_MAX_BYTES / 2 + 3) / 3) * 4);
    let used = false;
    const upload = withUploadedRecords(
      [
        { name: "a.kif", base64: half },
        { name: "b.kif", base64: half },
      ],
      () => (used = true),
    );
    await expect(upload).rejects.toThrow(/holds 32\.0 MiB of game records; at most 32 MiB go at once/);
    expect(used).toBe(false);
  });

  it("gives up game records that take longer than the time budget to read, seeding nothing", async () => {
    const b = book();
    try {
      const before = { kifu: b.graph.kifu.size, positions: b.store.thoughts.count() };
      const record = path.join(TEST_DATA, "kifu", "book_source_src03.csa");
      // A budget of 1 ms: the seed thread cannot even start within it.
      const seeding = seedInThread(b, [record], { storeStats: true }, () => true, 1);
      await expect(seeding).rejects.toMatchObject({ code: "user", key: "seedTooSlow" });
      await expect(seeding).rejects.toThrow(/took longer than 0\.001 s to read; nothing was seeded/);
      expect({ kifu: b.graph.kifu.size, positions: b.store.thoughts.count() }).toEqual(before);
      // With the normal budget the same record seeds.
      const report = await seedInThread(b, [record], { storeStats: true });
      expect(report.positions).toBeGreaterThan(0);
      expect(b.graph.kifu.size).toBeGreaterThan(before.kifu);
    } finally {
      b.close();
    }
  });
});

describe("book views", () => {
  it("shows a small book's positions, moves, transposition parents, bans and summary", () => {
    const b = book();
    try {
      b.preview(); // the selection's bounds, as the idle status leaves them
      const root = nodeView(b, { line: [] });
      expect(root.thought).toBe(true);
      expect(root.side).toBe("black");
      expect(root.moves.map((m) => m.usi).sort()).toEqual(["2g2f", "5g5f", "7g7f"]);
      expect(root.moves.find((m) => m.usi === "7g7f")).toMatchObject({ searchValue: 50, state: "thought", engineValue: 40 });
      expect(root.moves.find((m) => m.usi === "5g5f")).toMatchObject({ state: "leaf", thought: false });
      expect(() => nodeView(b, { line: ["7g7f", "7g7f"] })).toThrow(/move 2 of the line \(7g7f\) is not legal there/);

      const x = positionAfter(["7g7f", "3c3d", "2g2f"]);
      expect(nodeView(b, { sfen: x.toSfen() }).parents).toBe(2);
      const g = graphNodeView(b, x.sfenKey());
      expect(g.state).toBe("thought");
      expect(g.parents.map((p) => p.usi).sort()).toEqual(["2g2f", "7g7f"]);
      expect(graphNodeView(b, positionAfter(["5g5f"]).sfenKey()).state).toBe("leaf");
      expect(() => graphNodeView(b, "nonsense")).toThrow(/not a position/);

      expect(banPage(b, 0, 10)).toEqual({ total: 0, offset: 0, bans: [] });
      const info = bookInfo(b);
      expect(info).toMatchObject({ positions: 6, readonly: false, backup: null, rootSfen: positionAfter([]).sfenKey() });
      expect(info.writer?.self).toBe(true);
    } finally {
      b.close();
    }
  });
});

describe("book views after a change", () => {
  it("show the selection's values as the book is now, not none, after a leaf is handed out", () => {
    const b = book();
    try {
      b.preview();
      const before = nodeView(b, { line: [] }).moves.find((m) => m.usi === "7g7f")!.searchValue;
      expect(before).toBe(50);
      // A dig hands out a leaf below 7g7f's line: the bounds above it drop until a search makes them again.
      const job = b.jobs.next();
      expect(job).not.toBeNull();
      const tree = graphNodeViews(b, [positionAfter([]).sfenKey()])[0].children.find((c) => c.usi === "7g7f")!;
      expect(tree.childBound, "the Tree's value of a thought move after the change").not.toBeNull();
      const move = nodeView(b, { line: [] }).moves.find((m) => m.usi === "7g7f")!;
      expect(move.searchValue, "the Book table's value of the same move").toBe(-tree.childBound!.value);
      expect(b.jobs.next()).not.toBeNull(); // another change: the Book view brings the bounds up to date by itself
      expect(nodeView(b, { line: [] }).moves.find((m) => m.usi === "7g7f")!.searchValue).not.toBeNull();
    } finally {
      b.close();
    }
  });
});

describe("dig session", () => {
  it("sends each engine's latest view a few times a second, tagged with its position and think; idle status reads the open book", async () => {
    const events: HostEvent[] = [];
    let infoSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no dig.info")), INFO_EVERY_MS * 20);
      infoSent = () => (clearTimeout(timer), resolve());
    });
    const b = book();
    try {
      const session = new DigSession(
        (e) => (events.push(e), e.type === "dig.info" && infoSent()),
        () => b,
      );
      session.handle({ kind: "info", engine: 0, info: { depth: 5, multipv: 1, value: 30, pv: ["7g7f"] }, sfen: "startpos", think: 1 });
      // The engine's next think: its view replaces the last one's whole, PV and score included.
      session.handle({ kind: "info", engine: 0, info: { depth: 2, nodes: 900 }, sfen: "startpos moves 7g7f", think: 3 });
      session.handle({ kind: "info", engine: 1, info: { depth: 3 }, sfen: "startpos", think: 2 });
      expect(events).toEqual([]);
      await sent;
      const infos = events.filter((e) => e.type === "dig.info");
      expect(infos).toEqual([
        { type: "dig.info", engine: 0, info: { depth: 2, nodes: 900 }, sfen: "startpos moves 7g7f", think: 3 },
        { type: "dig.info", engine: 1, info: { depth: 3 }, sfen: "startpos", think: 2 },
      ]);

      session.handle({ kind: "failed", sfen: "x", message: "no engine answered" });
      expect(events.at(-1)).toEqual({ type: "dig.failure", engine: "", sfen: "x", message: "gave up: no engine answered" });
      session.fail("following failed");
      const idle = session.status();
      expect(idle).toMatchObject({ state: "idle", bookSize: 6, rootValue: 50, error: "following failed" });
      expect(idle.pv).toEqual(["7g7f", "3c3d", "2g2f", "4c4d"]);
      expect(session.digging).toBe(false);
      await session.end();
      expect(session.status().error).toBeNull();
    } finally {
      b.close();
    }
  });
});

describe("backups", () => {
  it("refuses a missing backup and the open book itself before touching anything", () => {
    const b = book();
    try {
      expect(() => checkBackup(b.store.path + ".missing", b.store.path)).toThrow(/does not exist/);
      expect(() => checkBackup(b.store.path, b.store.path)).toThrow(/the open book itself/);
    } finally {
      b.close();
    }
  });
});
