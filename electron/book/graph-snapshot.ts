// The open book's graph saved beside the book (<book>-graph), so the next open reads its
// arrays instead of rebuilding them from every stored position. A snapshot is stamped
// with the store's graph epoch and the last position id it holds; opening replays only
// the positions stored after it. Anything else (no file, another book, another epoch or
// format, a short or damaged file) means: rebuild from the store, as before. The book of
// record stays the SQLite file: a snapshot is a cache and may be deleted at any time.
import { writeThenRename } from "../paths/write-then-rename.js";
import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync } from "node:fs";
import { BookGraph, GRAPH_ARRAYS, type GraphArrayName, type GraphCounts } from "../../shared/book/graph.js";
import type { BookStore } from "../store/book-store.js";

const MAGIC = "HORU-GRAPH\n";
/** Bumped whenever the graph's arrays change meaning or layout: older snapshots are rebuilt. */
export const SNAPSHOT_FORMAT = 1;

export interface SnapshotStamp {
  /** The store's identity (created_at and created_by of its meta table). */
  book: string;
  epoch: number;
  /** Highest position id the snapshot holds: later rows are replayed. */
  maxId: number;
}

interface Header extends SnapshotStamp {
  format: number;
  counts: GraphCounts;
  /** Byte length of each array, in GRAPH_ARRAYS order. */
  bytes: number[];
  /** sha1 of all array bytes: a bit flip anywhere is caught. */
  sha1: string;
}

export function snapshotPath(bookPath: string): string {
  return `${bookPath}-graph`;
}

export function storeStamp(store: BookStore): SnapshotStamp {
  const meta = store.meta();
  return { book: `${meta.created_at ?? ""}|${meta.created_by ?? ""}`, epoch: store.thoughts.graphEpoch(), maxId: store.thoughts.maxId() };
}

const pad8 = (n: number) => (n + 7) & ~7;
const ZEROS = new Uint8Array(8);

/** Writes the graph's snapshot (beside the target, then renamed in: never half a file under the name). */
export function writeSnapshot(file: string, graph: BookGraph, stamp: SnapshotStamp): number {
  const { counts, arrays } = graph.structure();
  const hash = createHash("sha1");
  const bytes: number[] = [];
  for (const name of GRAPH_ARRAYS) {
    const a = arrays[name];
    const view = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    hash.update(view);
    bytes.push(a.byteLength);
  }
  const header: Header = { format: SNAPSHOT_FORMAT, ...stamp, counts, bytes, sha1: hash.digest("hex") };
  const head = Buffer.from(MAGIC + JSON.stringify(header) + "\n", "utf8");
  return writeThenRename(
    file,
    (put) => {
      put(head);
      put(ZEROS.subarray(0, pad8(head.length) - head.length));
      for (const name of GRAPH_ARRAYS) {
        const a = arrays[name];
        put(a);
        put(ZEROS.subarray(0, pad8(a.byteLength) - a.byteLength));
      }
    },
    { fsync: true },
  );
}

/** Deletes the file when it is a graph snapshot (whatever else bears the name is left alone). Returns whether it did. */
export function removeSnapshot(file: string): boolean {
  if (!existsSync(file)) return false;
  const fd = openSync(file, "r");
  const head = Buffer.alloc(MAGIC.length);
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString("latin1") !== MAGIC) throw new Error(`${file} is not a horu graph snapshot: left as it is`);
  rmSync(file);
  return true;
}

export type SnapshotRead = { graph: BookGraph; stamp: SnapshotStamp } | { graph: null; why: string };

/**
 * Reads a snapshot when it is this book's, in this epoch, in this format and whole.
 * `onProgress(bytesRead, bytesTotal)` is called as the arrays come in; `thoughtNow`, the
 * store's count of thought positions, leaves room for those stored after the snapshot.
 */
export function readSnapshot(
  file: string,
  expect: SnapshotStamp,
  onProgress?: (done: number, total: number) => void,
  thoughtNow = 0,
): SnapshotRead {
  if (!existsSync(file)) return { graph: null, why: "no snapshot" };
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(Math.min(size, 64 * 1024));
    readSync(fd, first, 0, first.length, 0);
    const nl = first.indexOf(10, MAGIC.length);
    if (first.subarray(0, MAGIC.length).toString("latin1") !== MAGIC || nl < 0) return { graph: null, why: "not a graph snapshot" };
    let h: Header;
    try {
      h = JSON.parse(first.subarray(MAGIC.length, nl).toString("utf8")) as Header;
    } catch {
      return { graph: null, why: "damaged header" };
    }
    if (h.format !== SNAPSHOT_FORMAT) return { graph: null, why: `snapshot format ${h.format}, this horu reads ${SNAPSHOT_FORMAT}` };
    if (h.book !== expect.book) return { graph: null, why: "the snapshot is another book's" };
    if (h.epoch !== expect.epoch) return { graph: null, why: "positions changed in place since the snapshot" };
    if (!(h.maxId <= expect.maxId)) return { graph: null, why: "the snapshot is newer than the book" };
    const c = h.counts;
    const sane = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
    if (
      !c ||
      ![c.nodes, c.edges, c.extras, c.slots].every(sane) ||
      c.slots < 16 ||
      (c.slots & (c.slots - 1)) !== 0 ||
      c.slots < c.nodes * 2
    )
      return { graph: null, why: "damaged header" };
    if (!Array.isArray(h.bytes) || h.bytes.length !== GRAPH_ARRAYS.length || !h.bytes.every(sane))
      return { graph: null, why: "damaged header" };
    let at = pad8(nl + 1);
    const body = h.bytes.reduce((s, b) => s + pad8(b), 0);
    const arrayBytes = h.bytes.reduce((s, b) => s + b, 0);
    if (size !== at + body) return { graph: null, why: size < at + body ? "the snapshot is cut short" : "the snapshot has extra bytes" };
    const hash = createHash("sha1");
    let done = 0;
    let bad: string | null = null;
    // Room for the positions stored after the snapshot (thoughtNow: the store's count now).
    const graph = BookGraph.fromStructure(
      c,
      (name: GraphArrayName, into: ArrayBufferView) => {
        const k = GRAPH_ARRAYS.indexOf(name);
        if (bad) return;
        if (h.bytes[k] !== into.byteLength) {
          bad = `array ${name} does not fit`;
          return;
        }
        const view = new Uint8Array(into.buffer, into.byteOffset, h.bytes[k]);
        for (let off = 0; off < view.length;) {
          const got = readSync(fd, view, off, Math.min(1 << 26, view.length - off), at + off);
          if (got <= 0) {
            bad = "the snapshot is cut short";
            return;
          }
          off += got;
          done += got;
          onProgress?.(done, arrayBytes);
        }
        hash.update(view);
        at += pad8(h.bytes[k]);
      },
      Math.max(0, thoughtNow - c.nodes),
    );
    if (bad) return { graph: null, why: bad };
    if (hash.digest("hex") !== h.sha1) return { graph: null, why: "the snapshot is damaged (checksum)" };
    return { graph, stamp: { book: h.book, epoch: h.epoch, maxId: h.maxId } };
  } finally {
    closeSync(fd);
  }
}
