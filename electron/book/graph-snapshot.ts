// The open book's graph saved beside the book (<book>-graph), so the next open reads its
// arrays instead of rebuilding them from every stored position. A snapshot is stamped
// with the store's graph epoch and the last position id it holds; opening replays only
// the positions stored after it. Anything else (no file, another book, another epoch or
// format, a short or damaged file) means: rebuild from the store, as before. The book of
// record stays the SQLite file: a snapshot is a cache and may be deleted at any time.
import { writeThenRename } from "../paths/write-then-rename.js";
import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readSync, rmSync } from "node:fs";
import { crc32 } from "node:zlib";
import { BookGraph, GRAPH_ARRAYS, PARENT_LAST, type GraphArrayName, type GraphCounts } from "../../shared/book/graph.js";
import type { BookStore } from "../store/book-store.js";

const MAGIC = "HORU-GRAPH\n";
/**
 * Bumped whenever the graph's arrays change meaning or layout. Formats not in FORMATS_READ
 * are rebuilt; older ones read are saved again in this one at the close.
 * 2: the parent blocks follow the arrays (the first selection after an open read them instead
 * of building them: 7 s at 15M positions), and a CRC-32 replaces the SHA-1 (2 GB hashed at
 * 15M took as long as reading them). Format 1 is still read: its parents are built on first use.
 * 3: no child keys of listed moves (eKeyHi, eKeyLo: 8 bytes a move, 720 MB of a 15M book); a
 * dig finds a leaf's key from its position. Formats 1 and 2 are still read, their child keys
 * read past.
 */
export const SNAPSHOT_FORMAT = 3;
const FORMATS_READ = [1, 2, 3];
/** The arrays of formats 1 and 2 that the graph no longer keeps, and the array they follow. */
const DROPPED_ARRAYS = ["eKeyHi", "eKeyLo"] as const;
const DROPPED_AFTER: GraphArrayName = "eChild";
/** A format's arrays before the parent blocks, in file order. */
function arraysOf(format: number): readonly string[] {
  if (format >= 3) return GRAPH_ARRAYS;
  const at = GRAPH_ARRAYS.indexOf(DROPPED_AFTER) + 1;
  return [...GRAPH_ARRAYS.slice(0, at), ...DROPPED_ARRAYS, ...GRAPH_ARRAYS.slice(at)];
}
/** The parent blocks' arrays, after the format's own (format 2 on). */
const PARENT_ARRAYS = ["pHead", "pNode"] as const;

export interface SnapshotStamp {
  /** The store's identity (created_at and created_by of its meta table). */
  book: string;
  epoch: number;
  /** Highest position id the snapshot holds: later rows are replayed. */
  maxId: number;
  /**
   * Highest kifu seed id whose marks the snapshot's edges carry (format 3 on): later seeds'
   * edges are marked at the open. Not compared: a snapshot older than the seeds is still this book's.
   */
  seeds?: number;
}

interface Header extends SnapshotStamp {
  format: number;
  counts: GraphCounts;
  /** Byte length of each array, in its format's order (arraysOf), then (format 2 on) PARENT_ARRAYS'. */
  bytes: number[];
  /** Format 1: sha1 of all array bytes. */
  sha1?: string;
  /** Format 2 on: CRC-32 of all array bytes, one after another: a bit flip anywhere is caught. */
  crc32?: number;
}

export function snapshotPath(bookPath: string): string {
  return `${bookPath}-graph`;
}

export function storeStamp(store: BookStore): SnapshotStamp {
  const meta = store.meta();
  return {
    book: `${meta.created_at ?? ""}|${meta.created_by ?? ""}`,
    epoch: store.thoughts.graphEpoch(),
    maxId: store.thoughts.maxId(),
    seeds: store.seeds.maxId(),
  };
}

const pad8 = (n: number) => (n + 7) & ~7;
const ZEROS = new Uint8Array(8);

/** Writes the graph's snapshot (beside the target, then renamed in: never half a file under the name). */
export function writeSnapshot(file: string, graph: BookGraph, stamp: SnapshotStamp): number {
  const { counts, arrays } = graph.structure();
  const parents = graph.parentBlocks();
  const all: ArrayBufferView[] = [...GRAPH_ARRAYS.map((name) => arrays[name]), parents.head, parents.node];
  let crc = 0;
  const bytes: number[] = [];
  for (const a of all) {
    crc = crc32(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), crc);
    bytes.push(a.byteLength);
  }
  const header: Header = { format: SNAPSHOT_FORMAT, ...stamp, counts, bytes, crc32: crc };
  const head = Buffer.from(MAGIC + JSON.stringify(header) + "\n", "utf8");
  return writeThenRename(
    file,
    (put) => {
      put(head);
      put(ZEROS.subarray(0, pad8(head.length) - head.length));
      for (const a of all) {
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

export type SnapshotRead = { graph: BookGraph; stamp: SnapshotStamp; format: number } | { graph: null; why: string };

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
    if (!FORMATS_READ.includes(h.format))
      return { graph: null, why: `snapshot format ${h.format}, this horu reads ${FORMATS_READ.join(", ")}` };
    if (h.book !== expect.book) return { graph: null, why: "the snapshot is another book's" };
    if (h.epoch !== expect.epoch) return { graph: null, why: "positions changed in place since the snapshot" };
    if (!(h.maxId <= expect.maxId)) return { graph: null, why: "the snapshot is newer than the book" };
    const c = h.counts;
    const sane = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
    const withParents = h.format >= 2;
    const fileArrays = arraysOf(h.format);
    const arrayCount = fileArrays.length + (withParents ? PARENT_ARRAYS.length : 0);
    if (
      !c ||
      ![c.nodes, c.edges, c.extras, c.slots].every(sane) ||
      c.slots < 16 ||
      (c.slots & (c.slots - 1)) !== 0 ||
      c.slots < c.nodes * 2
    )
      return { graph: null, why: "damaged header" };
    if (!Array.isArray(h.bytes) || h.bytes.length !== arrayCount || !h.bytes.every(sane)) return { graph: null, why: "damaged header" };
    if (withParents ? !Number.isSafeInteger(h.crc32) : typeof h.sha1 !== "string") return { graph: null, why: "damaged header" };
    let at = pad8(nl + 1);
    const body = h.bytes.reduce((s, b) => s + pad8(b), 0);
    const arrayBytes = h.bytes.reduce((s, b) => s + b, 0);
    if (size !== at + body) return { graph: null, why: size < at + body ? "the snapshot is cut short" : "the snapshot has extra bytes" };
    // The checksum is taken as each piece comes in, while it is still in the processor's cache.
    const sha1 = withParents ? null : createHash("sha1");
    let crc = 0;
    let done = 0;
    let bad: string | null = null;
    let k = 0;
    const read = (name: string, into: ArrayBufferView): void => {
      if (bad) return;
      if (h.bytes[k] !== into.byteLength) {
        bad = `array ${name} does not fit`;
        return;
      }
      readInto(h.bytes[k], new Uint8Array(into.buffer, into.byteOffset, h.bytes[k]), false);
      at += pad8(h.bytes[k++]);
    };
    /**
     * Reads `length` bytes at `at` into `into`, or, `reused`, one piece after another into the
     * same 4 MB (an array read past), taking the checksum as each piece comes in.
     */
    const readInto = (length: number, into: Uint8Array, reused: boolean): void => {
      for (let off = 0; off < length;) {
        const base = reused ? 0 : off;
        const got = readSync(fd, into, base, Math.min(1 << 22, length - off), at + off);
        if (got <= 0) {
          bad = "the snapshot is cut short";
          return;
        }
        const piece = into.subarray(base, base + got);
        if (sha1) sha1.update(piece);
        else crc = crc32(piece, crc);
        off += got;
        done += got;
        onProgress?.(done, arrayBytes);
      }
    };
    // An older format's arrays the graph no longer keeps: read past (their bytes are in the checksum).
    let scratch: Uint8Array | null = null;
    const skipDropped = (): void => {
      while (!bad && k < fileArrays.length && (DROPPED_ARRAYS as readonly string[]).includes(fileArrays[k])) {
        scratch ??= new Uint8Array(1 << 22);
        readInto(h.bytes[k], scratch, true);
        at += pad8(h.bytes[k++]);
      }
    };
    // Marks of seeds the store no longer has (a backup restored beside a newer snapshot) are not trusted.
    const kifuMarked = h.format >= 3 && Number.isSafeInteger(h.seeds) && (h.seeds as number) <= (expect.seeds ?? Infinity);
    // Room for the positions stored after the snapshot (thoughtNow: the store's count now).
    const graph = BookGraph.fromStructure(
      c,
      (name: GraphArrayName, into: ArrayBufferView) => {
        skipDropped();
        if (fileArrays.indexOf(name) === k) read(name, into);
        else bad ??= `array ${name} out of order`;
      },
      Math.max(0, thoughtNow - c.nodes),
      kifuMarked,
    );
    let parents: { head: Int32Array<ArrayBuffer>; node: Int32Array<ArrayBuffer> } | null = null;
    if (withParents && !bad) {
      const [headBytes, nodeBytes] = h.bytes.slice(fileArrays.length);
      if (headBytes !== 4 * c.nodes || nodeBytes % 4 !== 0) return { graph: null, why: "damaged header" };
      // With the graph's room for positions added later, as ensureParents sizes it.
      parents = { head: new Int32Array(graph.keyHi.length).fill(-1), node: new Int32Array(nodeBytes / 4) };
      read(PARENT_ARRAYS[0], parents.head.subarray(0, c.nodes));
      read(PARENT_ARRAYS[1], parents.node);
    }
    if (bad) return { graph: null, why: bad };
    if (sha1 ? sha1.digest("hex") !== h.sha1 : crc >>> 0 !== h.crc32) return { graph: null, why: "the snapshot is damaged (checksum)" };
    if (parents) {
      if (!parentsFit(parents.head, parents.node, c.nodes))
        return { graph: null, why: "the snapshot's parent blocks do not fit its positions" };
      graph.adoptParents(parents.head, parents.node);
    }
    return { graph, stamp: { book: h.book, epoch: h.epoch, maxId: h.maxId, ...(kifuMarked ? { seeds: h.seeds } : {}) }, format: h.format };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether parent blocks name only positions of the graph and each block ends where the next
 * begins: the walk up from a change trusts them as they are (one pass: 0.3 s of a 15M open).
 */
function parentsFit(head: Int32Array, node: Int32Array, nodes: number): boolean {
  for (let i = 0; i < node.length; i++) if ((node[i] & ~PARENT_LAST) >= nodes) return false;
  let next = 0;
  for (let c = 0; c < nodes; c++) {
    const h = head[c];
    if (h === -1) continue;
    if (h !== next) return false;
    let p = h;
    while (p < node.length && (node[p] & PARENT_LAST) === 0) p++;
    if (p >= node.length) return false;
    next = p + 1;
  }
  return next === node.length;
}
