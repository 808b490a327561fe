// The selection's kept bounds, saved beside a book (`book.horu-bounds`) when it closes, so
// the first selection after the next open goes on from them instead of searching the whole
// book again (seconds on a book of millions of positions). A cache like the graph snapshot:
// it is used only when it was made for exactly the graph, settings and sets the open book
// has (a fingerprint over them), and is ignored, never trusted, otherwise.

import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { writeThenRename } from "../paths/write-then-rename.js";
import type { BookGraph } from "../../shared/book/graph.js";
import {
  boundsSourceOf,
  wholeBounds,
  PartScratch,
  SAVED_BOUNDS_PARTS,
  type SavedBounds,
  type SavedBoundsPart,
  type SavedBoundsSource,
} from "../../shared/book/select.js";

// 2: the bound byte keeps the weak mark (shared/book/select.ts); bounds saved without it are not taken.
// 3: the lower bounds' proving moves too, and a checksum: a proof read wrong would keep a
// bound that no longer holds, so a damaged file must not be taken.
// 4: the checksum a CRC-32 (the SHA-1 of 3, still read, took a share of a 15M book's open).
const MAGIC = "HORU-BOUNDS 4\n";
const MAGIC_SHA1 = "HORU-BOUNDS 3\n";

export function boundsPath(bookPath: string): string {
  return `${bookPath}-bounds`;
}

/** What bounds depend on besides the graph's structure: the search settings and the sets that steer selection. */
export interface BoundsContext {
  maxPly: number;
  drawValue: readonly [number, number];
}

/**
 * A fingerprint of everything the bounds were made from: the positions and their moves (keys,
 * flags, edge counts, the edge and link totals), the search settings, the kifu bonus and
 * seeded positions, the bans and the positions kept out of selection.
 */
export function boundsFingerprint(graph: BookGraph, context: BoundsContext): string {
  const n = graph.nodeCount;
  const hash = createHash("sha1");
  const bytes = (a: ArrayBufferView) => hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  hash.update(
    JSON.stringify({
      ...context,
      nodes: n,
      edges: graph.edgeTotal,
      extras: graph.extraTotal,
      kifuBonus: graph.kifuBonus,
      kifu: graph.kifu.size,
      inFlight: graph.inFlight.size,
      bans: graph
        .bans()
        .map((b) => b.node * 32768 + b.move)
        .sort((a, b) => a - b),
    }),
  );
  bytes(graph.keyHi.subarray(0, n));
  bytes(graph.keyLo.subarray(0, n));
  bytes(graph.flags.subarray(0, n));
  bytes(graph.edgeCount.subarray(0, n));
  bytes(graph.eChild.subarray(0, graph.edgeTotal));
  return hash.digest("hex");
}

/** Bytes a node takes in each part of the file, and in all. */
const WIDTH: Record<SavedBoundsPart, number> = { value: 2, bound: 1, reach: 1, proof: 4 };
const NODE_BYTES = SAVED_BOUNDS_PARTS.reduce((sum, part) => sum + WIDTH[part], 0);

/** Nodes a piece of a part when bounds are written from a source (4 MB of the proofs). */
const PIECE_NODES = 1 << 20;

/** The file's arrays one piece after another, made as they are asked for. */
function* pieces(source: SavedBoundsSource, size: number): Generator<ArrayBufferView> {
  for (const part of SAVED_BOUNDS_PARTS)
    for (let from = 0; from < source.nodes; from += size) yield source.part(part, from, Math.min(source.nodes, from + size));
}

/**
 * Writes the bounds (beside the target, then renamed in). From a source (Selector.boundsSource)
 * they are made a piece at a time, twice: once for the checksum the header leads with, once to
 * write; a big book's close then holds no copy of them (120 MB at 15M positions).
 */
export function writeBounds(file: string, bounds: SavedBounds | SavedBoundsSource, fingerprint: string, pieceNodes = PIECE_NODES): void {
  const source = boundsSourceOf(bounds);
  let crc = 0;
  for (const p of pieces(source, pieceNodes)) crc = crc32(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), crc);
  const header = { fingerprint, nodes: source.nodes, crc32: crc };
  const head = Buffer.from(MAGIC + JSON.stringify(header) + "\n", "utf8");
  writeThenRename(file, (put) => {
    put(head);
    for (const p of pieces(source, pieceNodes)) put(p);
  });
}

/** Reads bounds made for this fingerprint, whole; null when there are none, or they are another state's or damaged. */
export function readBounds(file: string, fingerprint: string): SavedBounds | null {
  let whole: SavedBounds | null = null;
  takeBounds(file, fingerprint, (source) => (whole = wholeBounds(source)));
  return whole;
}

/**
 * Checks the bounds saved for this fingerprint (their checksum, read through once) and hands
 * them to `take` as a source that reads each piece asked for from the file: restoring them
 * holds no copy of them all (120 MB at 15M positions, the open's peak of memory). False when
 * there are none, or they are another state's or damaged; `take` is not called then.
 */
export function takeBounds(file: string, fingerprint: string, take: (source: SavedBoundsSource) => void): boolean {
  if (!existsSync(file)) return false;
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(Math.min(size, 4096));
    readSync(fd, first, 0, first.length, 0);
    const nl = first.indexOf(10, MAGIC.length);
    const magic = first.subarray(0, MAGIC.length).toString("latin1");
    if ((magic !== MAGIC && magic !== MAGIC_SHA1) || nl < 0) return false;
    let header: { fingerprint?: unknown; nodes?: unknown; sha1?: unknown; crc32?: unknown };
    try {
      header = JSON.parse(first.subarray(MAGIC.length, nl).toString("utf8")) as typeof header;
    } catch {
      return false;
    }
    const n = header.nodes;
    if (header.fingerprint !== fingerprint || !Number.isSafeInteger(n) || (n as number) < 0) return false;
    const nodes = n as number;
    const body = nl + 1;
    if (size !== body + nodes * NODE_BYTES) return false;
    // The checksum first, over the whole body in file order (the parts one after another).
    const kind = magic === MAGIC ? "crc32" : "sha1";
    const sha1 = kind === "sha1" ? createHash("sha1") : null;
    let crc = 0;
    const buf = new Uint8Array(1 << 22);
    for (let at = body; at < size;) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, size - at), at);
      if (got <= 0) return false;
      const piece = buf.subarray(0, got);
      if (sha1) sha1.update(piece);
      else crc = crc32(piece, crc);
      at += got;
    }
    if ((sha1 ? sha1.digest("hex") : crc >>> 0) !== header[kind]) return false;
    // Each part's place in the file.
    const start: Record<SavedBoundsPart, number> = { value: 0, bound: 0, reach: 0, proof: 0 };
    let at = body;
    for (const part of SAVED_BOUNDS_PARTS) {
      start[part] = at;
      at += nodes * WIDTH[part];
    }
    const scratch = new PartScratch();
    take({
      nodes,
      part: (part, from, to) => {
        const n = to - from;
        const out = part === "value" ? scratch.int16(n) : part === "proof" ? scratch.int32(n) : scratch.uint8(part, n);
        const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
        for (let done = 0; done < bytes.length;) {
          const got = readSync(fd, bytes, done, Math.min(bytes.length - done, 1 << 30), start[part] + from * WIDTH[part] + done);
          if (got <= 0) throw new Error(`${file}: cut short while read`);
          done += got;
        }
        return out;
      },
    });
    return true;
  } finally {
    closeSync(fd);
  }
}
