// Opening a book's graph: from the snapshot beside the book (graph-snapshot.ts) plus the
// positions stored after it, or rebuilt from every stored position.
import type { BookGraph } from "../../shared/book/graph.js";
import { buildGraph, insertEntry, thoughtParents } from "../../shared/book/link.js";
import { Position } from "../../shared/rules/position.js";
import type { BookStore } from "../store/book-store.js";
import { readSnapshot, snapshotPath, storeStamp } from "./graph-snapshot.js";

/** Books smaller than this build their graph in about a second: no snapshot is written for them. */
export const SNAPSHOT_MIN_POSITIONS = 20_000;

/** Positions a snapshot may lag behind before it is worth writing again (a replay of this many is quick). */
export function snapshotSlack(nodes: number): number {
  return Math.max(10_000, Math.floor(nodes / 50));
}

/**
 * Room for positions added after an open from the snapshot. Without it a dig's first result
 * grows every array of the graph by half at once (and each selector's with them): a copy of
 * the whole graph on the host's thread, 0.4 s at 1M positions and 7 s at 15M (2 shared
 * cores). Room not used yet costs address space, not memory (its pages are never touched).
 */
export function spareRoom(positions: number): number {
  return Math.max(65_536, Math.floor(positions / 8));
}

/** Where an open stands: reading the snapshot (bytes), replaying positions stored after it, or a rebuild's two passes. */
export interface OpenProgress {
  phase: "snapshot" | "replay" | "positions" | "links";
  done: number;
  total: number;
}

/**
 * The graph of a book: its snapshot plus the positions stored after it, or (no usable
 * snapshot) a rebuild from every stored position; with the kifu seeds marked either way.
 */
export function loadGraph(
  store: BookStore,
  onProgress?: (p: OpenProgress) => void,
): {
  graph: BookGraph;
  skipped: number;
  from: "snapshot" | "rebuilt";
  replayed: number;
  why: string | null;
  snapshotMaxId: number;
  /** The format of the snapshot read (0: none read): an older one is saved again at the close. */
  snapshotFormat: number;
  /** The last kifu seed the snapshot's edge marks cover (-1: none read): later ones were found at this open. */
  snapshotSeeds: number;
  epoch: number;
} {
  const stamp = storeStamp(store);
  let lastReport = 0;
  const report = (phase: OpenProgress["phase"], done: number, total: number) => {
    const now = performance.now();
    if (onProgress && (now - lastReport > 100 || done === total)) {
      lastReport = now;
      onProgress({ phase, done, total });
    }
  };
  const thought = store.thoughts.count();
  const snap = readSnapshot(
    snapshotPath(store.path),
    stamp,
    (done, total) => report("snapshot", done, total),
    thought + spareRoom(thought),
  );
  const seedKeys = function* (upTo = Infinity) {
    for (const s of store.seeds.iterate()) {
      if (s.id > upTo) return;
      yield [s.keyHi, s.keyLo] as const;
    }
  };
  if (snap.graph) {
    const graph = snap.graph;
    // The seeds the snapshot's edges carry the marks of are known before the replay, whose
    // positions mark their own moves into them; the later seeds' edges are found from the
    // seeds' side after it (a retrograde search each: the close saves the snapshot again when
    // seeds came after it, so the next open does not search for them again).
    const marked = snap.stamp.seeds ?? 0;
    graph.knowKifu(seedKeys(marked));
    let skipped = 0;
    let replayed = 0;
    const total = Math.max(0, store.thoughts.count() - graph.nodeCount);
    for (let after = snap.stamp.maxId; ;) {
      const rows = store.thoughts.since(after, 2000);
      for (const t of rows) {
        skipped += insertEntry(graph, t).skipped.length;
        after = t.id;
      }
      replayed += rows.length;
      report("replay", Math.min(replayed, total), total);
      if (rows.length < 2000) break;
    }
    graph.addKifuMany(
      (function* () {
        for (const s of store.seeds.iterate(marked))
          yield { keyHi: s.keyHi, keyLo: s.keyLo, parents: () => thoughtParents(graph, Position.fromSfen(s.sfen)) };
      })(),
    );
    return {
      graph,
      skipped,
      from: "snapshot",
      replayed,
      why: null,
      snapshotMaxId: snap.stamp.maxId,
      snapshotFormat: snap.format,
      snapshotSeeds: marked,
      epoch: stamp.epoch,
    };
  }
  // Sized as the generator and every rebuild size it, so the snapshot saved after it is the same bytes.
  const total = thought;
  const built = buildGraph(
    () => store.thoughts.iterate(),
    Math.max(1024, total),
    (phase, done) => report(phase === "nodes" ? "positions" : "links", done, total),
    // Known before the positions go in: each marks its own moves into the seeds.
    seedKeys(),
  );
  report("links", total, total);
  return {
    graph: built.graph,
    skipped: built.skipped,
    from: "rebuilt",
    replayed: 0,
    why: snap.why,
    snapshotMaxId: -1,
    snapshotFormat: 0,
    snapshotSeeds: -1,
    epoch: stamp.epoch,
  };
}
