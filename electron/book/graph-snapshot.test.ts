// The graph snapshot beside a book: used when it is whole and current, replayed forward
// over positions stored after it, and rebuilt from the store whenever it is missing,
// another book's, from another format or epoch, cut short or bit-flipped; the graph that
// comes out is the one a full rebuild gives, node for node and edge for edge.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenBook, SNAPSHOT_MIN_POSITIONS, loadGraph } from "./open-book.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { snapshotPath } from "./graph-snapshot.js";
import { BookStore, type StoredThought } from "../store/book-store.js";
import { buildGraph } from "../../shared/book/link.js";
import { EDGE_KIFU, GRAPH_ARRAYS, type BookGraph } from "../../shared/book/graph.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { writeSyntheticBook } from "../bench/books/synthetic-book.js";
import { tempDir } from "../testing/paths.js";
import { HostService } from "../host/service.js";
import type { HostEvent } from "../../shared/api/contract.js";

/** The graph as text, by key: flags, listed edges (move, value, child key, kifu mark), unlisted edges in order. */
function dump(g: BookGraph): string[] {
  const key = (n: number) => (n < 0 ? "-" : `${g.keyHi[n]}:${g.keyLo[n]}`);
  const out: string[] = [];
  for (let n = 0; n < g.nodeCount; n++) {
    const edges: string[] = [];
    g.forEachEdge(n, (move, child, value, e) =>
      edges.push(`${move}/${value}/${key(child)}${e >= 0 && g.eFlags[e] & EDGE_KIFU ? "/kifu" : ""}`),
    );
    out.push(`${key(n)} ${g.flags[n]} ${edges.join(" ")}`);
  }
  return out.sort();
}

function rebuilt(file: string): string[] {
  const store = BookStore.open(file, { readonly: true });
  try {
    const seeds = [...store.seeds.iterate()].map((s) => [s.keyHi, s.keyLo] as const);
    return dump(buildGraph(() => store.thoughts.iterate(), 1024, undefined, seeds).graph);
  } finally {
    store.close();
  }
}

/** A position one move beyond a thought one, as a think result. */
function newPositions(file: string, count: number) {
  const store = BookStore.open(file, { readonly: true });
  const out = [];
  const have = new Set<string>();
  for (const t of store.thoughts.iterate()) have.add(t.sfen);
  for (const t of store.thoughts.iterate()) {
    const pos = Position.fromSfen(t.sfen);
    for (const m of pos.legalMoves()) {
      const next = pos.clone();
      next.doMove(m);
      const sfen = next.sfenKey();
      if (have.has(sfen)) continue;
      have.add(sfen);
      const reply = next
        .legalMoves()
        .slice(0, 3)
        .map((r, k) => ({ move: moveToUsi(r), value: 10 * k - 7, depth: 12, pv: [moveToUsi(r)] }));
      out.push({
        sfen,
        keyHi: next.keyHi,
        keyLo: next.keyLo,
        candidates: reply,
        provenance: { kind: "import" as const, file: "t" },
        thoughtAt: 1,
      });
      if (out.length === count) break;
    }
    if (out.length === count) break;
  }
  store.close();
  return out;
}

describe("graph snapshots", () => {
  let dir = "";
  let file = "";
  beforeAll(() => {
    dir = tempDir("horu-snapshot-");
    file = path.join(dir, "b.horu");
    writeSyntheticBook(file, 3000);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const openDump = () => {
    const book = OpenBook.open(file);
    const r = { from: book.timings.from, replayed: book.timings.replayed, why: book.timings.why, dump: dump(book.graph) };
    return { book, ...r };
  };

  it("a saved snapshot opens to the rebuilt graph; positions stored after it are replayed", () => {
    let o = openDump();
    expect(o.from).toBe("rebuilt");
    expect(o.why).toBe("no snapshot");
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    expect(existsSync(snapshotPath(file))).toBe(true);

    o = openDump();
    expect([o.from, o.replayed]).toEqual(["snapshot", 0]);
    expect(o.dump).toEqual(rebuilt(file));
    o.book.close();

    // Thought after the snapshot: replayed into it, links to and from old nodes included.
    const extra = newPositions(file, 40);
    const store = BookStore.open(file);
    for (const t of extra) store.thoughts.add(t);
    store.close();
    o = openDump();
    expect([o.from, o.replayed]).toEqual(["snapshot", 40]);
    expect(o.book.graph.nodeCount).toBe(3040);
    expect(o.dump).toEqual(rebuilt(file));
    o.book.close();
  });

  it("progress comes in phases up to the total", () => {
    const seen: string[] = [];
    const book = OpenBook.open(file, {}, { onProgress: (p) => seen.push(`${p.phase} ${p.done === p.total ? "end" : "part"}`) });
    book.close();
    expect(seen).toContain("snapshot end");
    expect(seen).toContain("replay end");
  });

  const damaged: Array<[string, (snap: Buffer) => Buffer, RegExp]> = [
    ["cut short", (b) => b.subarray(0, b.length - 1000), /cut short/],
    [
      "a bit flipped in the arrays",
      (b) => {
        const c = Buffer.from(b);
        c[c.length - 5000] ^= 0x10;
        return c;
      },
      /checksum/,
    ],
    ["from an older format", (b) => Buffer.from(b.toString("latin1").replace('"format":3', '"format":0'), "latin1"), /format 0/],
    ["not a snapshot at all", () => Buffer.from("hello"), /not a graph snapshot/],
  ];
  it.each(damaged)("a snapshot %s is rebuilt from the store, and the graph is right", (_name, damage, why) => {
    let o = openDump();
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    const snap = snapshotPath(file);
    writeFileSync(snap, damage(readFileSync(snap)));
    o = openDump();
    expect(o.from).toBe("rebuilt");
    expect(o.why).toMatch(why);
    expect(o.dump).toEqual(rebuilt(file));
    o.book.close();
  });

  it("another book's snapshot, or one from before a position changed in place, is not used", () => {
    let o = openDump();
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    // Another book beside it, given this one's snapshot.
    const other = path.join(dir, "other.horu");
    writeSyntheticBook(other, 500, 9);
    copyFileSync(snapshotPath(file), snapshotPath(other));
    const b = OpenBook.open(other);
    expect([b.timings.from, b.timings.why]).toEqual(["rebuilt", "the snapshot is another book's"]);
    expect(dump(b.graph)).toEqual(rebuilt(other));
    b.close();
    // A thought position thought again (its moves replaced): the epoch moves on.
    const store = BookStore.open(file);
    const all = store.thoughts.iterate();
    const first = all.next().value as StoredThought;
    all.return?.();
    store.thoughts.add({ ...first, candidates: first.candidates.slice(0, 1).map((c) => ({ ...c, value: c.value + 11 })) });
    store.close();
    o = openDump();
    expect([o.from, o.why]).toEqual(["rebuilt", "positions changed in place since the snapshot"]);
    expect(o.dump).toEqual(rebuilt(file));
    o.book.close();
  });

  it("a prune saves what remains as the new epoch's snapshot: the reopen reads it, node for node a rebuild", () => {
    const work = path.join(dir, "prune.horu");
    writeSyntheticBook(work, 3000, 5);
    let book = OpenBook.open(work);
    expect(book.saveSnapshot()).toBe(true);
    const total = book.graph.nodeCount;
    // The first thought position below the root whose prune takes more than itself.
    const store = book.store;
    let target = "";
    for (const t of store.thoughts.iterate()) {
      if (book.graph.find(t.keyHi, t.keyLo) === book.rootNode) continue;
      if (book.edits.pruneSet(t.sfen).length > 3) {
        target = t.sfen;
        break;
      }
    }
    expect(target).not.toBe("");
    const r = book.edits.prune(target);
    expect(r.positions).toBeGreaterThan(3);
    book.close();

    book = OpenBook.open(work);
    expect([book.timings.from, book.timings.replayed, book.timings.why]).toEqual(["snapshot", 0, null]);
    expect(book.graph.nodeCount).toBe(total - r.positions);
    expect(dump(book.graph)).toEqual(rebuilt(work));
    // Undo is replayed into that snapshot (new rows), again the rebuilt graph.
    expect(book.edits.undoPrune()!.positions).toBe(r.positions);
    book.close();
    book = OpenBook.open(work);
    expect([book.timings.from, book.timings.replayed]).toEqual(["snapshot", r.positions]);
    expect(book.graph.nodeCount).toBe(total);
    expect(dump(book.graph)).toEqual(rebuilt(work));
    book.close();
  });

  it("loadGraph alone (what bench open measures) agrees, and a snapshot is about the graph's size", () => {
    const o = openDump();
    expect(o.book.saveSnapshot()).toBe(true);
    const bytes = o.book.graph.bytes;
    o.book.close();
    expect(statSync(snapshotPath(file)).size).toBeLessThan(bytes * 1.1);
    const store = BookStore.open(file, { readonly: true });
    const g = loadGraph(store);
    store.close();
    expect(g.from).toBe("snapshot");
    expect(dump(g.graph)).toEqual(rebuilt(file));
  });

  it("the UI hears the open's progress before the book is open", async () => {
    const host = new HostService();
    const events: HostEvent[] = [];
    host.onEvent((e) => events.push(e));
    await host.call("book.open", { path: file });
    await host.closeBook();
    const opening = events.filter((e) => e.type === "book.opening");
    expect(opening.length).toBeGreaterThan(0);
    expect(opening.every((e) => e.type === "book.opening" && e.path === file && e.done <= e.total)).toBe(true);
    const last = opening.at(-1)!;
    expect(last.type === "book.opening" && last.done === last.total).toBe(true);
    // Progress first, then the open book.
    expect(events.findIndex((e) => e.type === "book.changed" && e.info !== null)).toBeGreaterThan(events.lastIndexOf(last));
  });

  it("the dig-shaped generator's snapshot is the rebuilt graph; a damaged one is rebuilt and saved again whole", () => {
    // The generator of the 15M benchmark book, small: its shape, and the graph it saves.
    const big = path.join(dir, "big.horu");
    const made = writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS);
    expect(made.positions).toBe(SNAPSHOT_MIN_POSITIONS);
    expect(made.edges / made.positions).toBeGreaterThan(4);
    expect(made.edges / made.positions).toBeLessThan(8);
    expect(made.transpositions).toBeGreaterThan(0);
    let b = OpenBook.open(big, {}, { readonly: true });
    expect([b.timings.from, b.timings.replayed, b.graph.nodeCount]).toEqual(["snapshot", 0, SNAPSHOT_MIN_POSITIONS]);
    expect(dump(b.graph)).toEqual(rebuilt(big));
    b.close();
    const snap = snapshotPath(big);
    const whole = readFileSync(snap);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 777] ^= 0x01;
    writeFileSync(snap, flipped);
    // A book this big saves its snapshot when its open had to rebuild: the same bytes again.
    b = OpenBook.open(big);
    expect([b.timings.from, b.timings.why]).toEqual(["rebuilt", "the snapshot is damaged (checksum)"]);
    b.close();
    expect(readFileSync(snap).equals(whole)).toBe(true);
  }, 180_000);

  it("with horu's values (moves ranked by them) the generator's snapshot is still the rebuilt graph", () => {
    const big = path.join(dir, "big-horu.horu");
    writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS, { values: "horu" });
    const b = OpenBook.open(big, {}, { readonly: true });
    try {
      expect([b.timings.from, b.timings.replayed]).toEqual(["snapshot", 0]);
      expect(dump(b.graph)).toEqual(rebuilt(big));
    } finally {
      b.close();
    }
  }, 180_000);

  /** Parents of every node by key, as the graph's chains hold them (built first if need be). */
  const parentDump = (g: BookGraph) => {
    const key = (n: number) => `${g.keyHi[n]}:${g.keyLo[n]}`;
    const out: string[] = [];
    for (let n = 0; n < g.nodeCount; n++) out.push(`${key(n)} <- ${g.parentsOf(n).map(key).join(" ")}`);
    return out.sort();
  };
  /** The snapshot's header and where each array's bytes start. */
  const layout = (snap: Buffer) => {
    const nl = snap.indexOf(10, "HORU-GRAPH\n".length);
    const header = JSON.parse(snap.subarray("HORU-GRAPH\n".length, nl).toString("utf8")) as Record<string, unknown> & { bytes: number[] };
    const starts: number[] = [];
    let at = (nl + 1 + 7) & ~7;
    for (const b of header.bytes) {
      starts.push(at);
      at += (b + 7) & ~7;
    }
    return { header, starts };
  };
  /** A snapshot file of this header and these (padded) array bytes. */
  const withHeader = (header: object, body: Buffer) => {
    const head = Buffer.from("HORU-GRAPH\n" + JSON.stringify(header) + "\n", "utf8");
    return Buffer.concat([head, Buffer.alloc(((head.length + 7) & ~7) - head.length), body]);
  };

  /**
   * The snapshot as format 1 or 2 wrote it: with the child keys of the listed moves after
   * eChild (here made up: the reader reads past them), and format 1 the graph's arrays alone,
   * their SHA-1 in the header, without kifu marks (its seeds' stamp left out).
   */
  const asOlder = (snap: Buffer, format: 1 | 2) => {
    const { header, starts } = layout(snap);
    const edges = (header.counts as { edges: number }).edges;
    const at = GRAPH_ARRAYS.indexOf("eChild") + 1;
    const keysArray = () => {
      const a = Buffer.alloc(4 * edges);
      for (let i = 0; i < a.length; i++) a[i] = (i * 131 + 7) & 255;
      return a;
    };
    const arrays = header.bytes.map((b, k) => snap.subarray(starts[k], starts[k] + b));
    if (format === 1) arrays.splice(GRAPH_ARRAYS.length); // no parent blocks
    arrays.splice(at, 0, keysArray(), keysArray());
    const body = Buffer.concat(arrays.flatMap((a) => [a, Buffer.alloc(((a.length + 7) & ~7) - a.length)]));
    const { seeds: _seeds, ...stamped } = header;
    const bytes = arrays.map((a) => a.length);
    if (format === 1) {
      const hash = createHash("sha1");
      for (const a of arrays) hash.update(a);
      return withHeader({ ...stamped, format: 1, bytes, sha1: hash.digest("hex"), crc32: undefined }, body);
    }
    let crc = 0;
    for (const a of arrays) crc = crc32(a, crc);
    return withHeader({ ...stamped, format: 2, bytes, crc32: crc }, body);
  };
  const asFormat1 = (snap: Buffer) => asOlder(snap, 1);

  it("a snapshot carries the parent blocks a build makes: the open reads them instead of building them", () => {
    let o = openDump();
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    o = openDump();
    expect([o.from, o.replayed]).toEqual(["snapshot", 0]);
    // Read with the graph, before any selection asked for them.
    expect(o.book.graph.pHead).not.toBeNull();
    const store = BookStore.open(file, { readonly: true });
    const fresh = buildGraph(() => store.thoughts.iterate()).graph;
    store.close();
    expect(parentDump(o.book.graph)).toEqual(parentDump(fresh));
    // And the selections over them (each after the first walks up from the leaf put in flight
    // before it) hand out what they hand out over chains built at first use.
    const leaves = [1, 2, 3, 4].map(() => o.book.jobs.next()!.sfen);
    o.book.close();
    expect(layout(readFileSync(snapshotPath(file))).header.format).toBe(3);
    rmSync(snapshotPath(file));
    o = openDump();
    expect(o.from).toBe("rebuilt");
    expect(o.book.graph.pHead).toBeNull();
    const again = [1, 2, 3, 4].map(() => o.book.jobs.next()!.sfen);
    expect(o.book.graph.pHead).not.toBeNull();
    expect(again).toEqual(leaves);
    expect(new Set(leaves).size).toBe(4);
    o.book.close();
  });

  it("a format-1 snapshot (SHA-1, no parent blocks) is still read; its parents are built on first use", () => {
    let o = openDump();
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    writeFileSync(snapshotPath(file), asFormat1(readFileSync(snapshotPath(file))));
    o = openDump();
    expect([o.from, o.why]).toEqual(["snapshot", null]);
    expect(o.dump).toEqual(rebuilt(file));
    expect(o.book.graph.pHead).toBeNull();
    const store = BookStore.open(file, { readonly: true });
    const fresh = buildGraph(() => store.thoughts.iterate()).graph;
    store.close();
    expect(parentDump(o.book.graph)).toEqual(parentDump(fresh));
    o.book.close();
  });

  it("parent blocks that name a position the snapshot does not have are not taken, checksum or not", () => {
    let o = openDump();
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    const snap = Buffer.from(readFileSync(snapshotPath(file)));
    const { header, starts } = layout(snap);
    const k = header.bytes.length - 1; // pNode
    const first = snap.readInt32LE(starts[k]);
    snap.writeInt32LE((first & 0x80000000) | 0x7ffffff0, starts[k]);
    let crc = 0;
    for (let a = 0; a < header.bytes.length; a++) crc = crc32(snap.subarray(starts[a], starts[a] + header.bytes[a]), crc);
    writeFileSync(snapshotPath(file), withHeader({ ...header, crc32: crc }, snap.subarray(starts[0])));
    o = openDump();
    expect([o.from, o.why]).toEqual(["rebuilt", "the snapshot's parent blocks do not fit its positions"]);
    expect(o.dump).toEqual(rebuilt(file));
    o.book.close();
  });

  it.each([1, 2] as const)(
    "a big book's format-%i snapshot is saved again in this format at the close",
    (format) => {
      const big = path.join(dir, `upgrade${format}.horu`);
      writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS);
      const snapFile = snapshotPath(big);
      const snap = readFileSync(snapFile);
      writeFileSync(snapFile, asOlder(snap, format));
      const b = OpenBook.open(big);
      expect([b.timings.from, b.timings.replayed, b.timings.why]).toEqual(["snapshot", 0, null]);
      b.close();
      expect(readFileSync(snapFile).equals(snap)).toBe(true);
    },
    180_000,
  );

  it("kifu marks: kept in the snapshot, found for seeds stored after it, and found again from an older format", () => {
    const seeded = path.join(dir, "seeded.horu");
    copyFileSync(file, seeded);
    rmSync(snapshotPath(seeded), { force: true });
    // Seeds: positions one move beyond thought ones (leaves of the book) and thought ones.
    const seedRows = (rows: Array<{ sfen: string; keyHi: number; keyLo: number }>, source: string) =>
      rows.map((r, i) => ({ sfen: r.sfen, keyHi: r.keyHi, keyLo: r.keyLo, source, ply: i }));
    let store = BookStore.open(seeded);
    // Leaves: unthought positions the book's listed moves lead to.
    const have = new Set<string>();
    for (const t of store.thoughts.iterate()) have.add(t.sfen);
    const leaves: Array<{ sfen: string; keyHi: number; keyLo: number }> = [];
    for (const t of store.thoughts.iterate()) {
      const pos = Position.fromSfen(t.sfen);
      for (const c of t.candidates) {
        const next = pos.clone();
        next.doMove(pos.legalMoves().find((m) => moveToUsi(m) === c.move)!);
        if (have.has(next.sfenKey())) continue;
        have.add(next.sfenKey());
        leaves.push({ sfen: next.sfenKey(), keyHi: next.keyHi, keyLo: next.keyLo });
      }
      if (leaves.length >= 60) break;
    }
    const thought = [...store.thoughts.iterate()].slice(100, 110);
    store.seeds.add(seedRows([...leaves.slice(0, 30), ...thought], "first"));
    store.close();
    const openSeeded = () => {
      const book = OpenBook.open(seeded);
      return { book, from: book.timings.from, dump: dump(book.graph) };
    };
    const marks = (d: string[]) => d.join(" ").split("/kifu").length - 1;
    let o = openSeeded();
    expect(o.from).toBe("rebuilt");
    const firstMarks = marks(o.dump);
    expect(firstMarks).toBeGreaterThanOrEqual(30);
    expect(o.dump).toEqual(rebuilt(seeded));
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    // The marks come with the snapshot (the open looks for no seed's parents) and agree with a rebuild.
    o = openSeeded();
    expect(o.from).toBe("snapshot");
    expect(o.dump).toEqual(rebuilt(seeded));
    o.book.close();
    // Seeds stored after the snapshot (another run that ended without saving it): found at the open.
    store = BookStore.open(seeded);
    store.seeds.add(seedRows(leaves.slice(30), "later"));
    store.close();
    o = openSeeded();
    expect(o.from).toBe("snapshot");
    const withLater = rebuilt(seeded);
    expect(marks(withLater)).toBeGreaterThanOrEqual(firstMarks + 30);
    expect(o.dump).toEqual(withLater);
    expect(o.book.saveSnapshot()).toBe(true);
    o.book.close();
    // A format-2 snapshot has no marks: they are found from the seeds' side at the open.
    const current = readFileSync(snapshotPath(seeded));
    writeFileSync(snapshotPath(seeded), asOlder(current, 2));
    o = openSeeded();
    expect([o.from, o.book.timings.why]).toEqual(["snapshot", null]);
    expect(o.dump).toEqual(withLater);
    o.book.close();
    // A snapshot whose marks cover seeds the store does not have (a backup of the book restored
    // beside it): its marks are not trusted, and the open finds them all again.
    writeFileSync(snapshotPath(seeded), current);
    const db = new Database(seeded);
    db.prepare("DELETE FROM kifu_seeds WHERE source = 'later'").run();
    db.close();
    o = openSeeded();
    expect(o.from).toBe("snapshot");
    expect(o.dump).toEqual(rebuilt(seeded));
    expect(marks(o.dump)).toBe(firstMarks);
    o.book.close();
  });

  it("a big book's close saves the snapshot again when seeds came after it, so the next open does not look for them", () => {
    const big = path.join(dir, "seeded-big.horu");
    writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS);
    const stampedSeeds = () => layout(readFileSync(snapshotPath(big))).header.seeds;
    expect(stampedSeeds()).toBe(0);
    const store = BookStore.open(big);
    const rows = [...store.thoughts.iterate()].slice(0, 50).flatMap((t) => {
      const pos = Position.fromSfen(t.sfen);
      return t.candidates.slice(0, 1).map((c, i) => {
        const next = pos.clone();
        next.doMove(pos.legalMoves().find((m) => moveToUsi(m) === c.move)!);
        return { sfen: next.sfenKey(), keyHi: next.keyHi, keyLo: next.keyLo, source: "r", ply: i };
      });
    });
    store.seeds.add(rows);
    const last = store.seeds.maxId();
    store.close();
    let b = OpenBook.open(big);
    const marked = dump(b.graph);
    b.close();
    expect(stampedSeeds()).toBe(last);
    b = OpenBook.open(big);
    expect(b.timings.from).toBe("snapshot");
    expect(dump(b.graph)).toEqual(marked);
    expect(marked.join(" ")).toContain("/kifu");
    b.close();
  }, 180_000);
});
