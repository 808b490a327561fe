// A part of a DB2016 file read for `horu peta`: its blocks' intake (keys and listed moves),
// where each block's SFEN text is in the file, and what the reader found. A big file is
// read as two parts, the second on a worker thread (see peta-file.ts); a part starts at a
// line beginning with "sfen ", where every reader state is reset, so reading the parts one
// after the other reads exactly what one pass over the file would.
import { readSync } from "node:fs";
import { Db2016ByteReader, type Db2016ParseError } from "../../../shared/formats/db2016.js";
import { BlockIntake, type SfenSource } from "../../../shared/export/export-graph.js";

/** Growing arrays of where each block's SFEN text is in the input file. */
export class Ranges {
  offset = new Float64Array(1 << 16);
  length = new Uint16Array(1 << 16);
  count = 0;
  push(offset: number, length: number): void {
    if (this.count === this.offset.length) {
      const o = new Float64Array(this.count * 2);
      o.set(this.offset);
      this.offset = o;
      const l = new Uint16Array(this.count * 2);
      l.set(this.length);
      this.length = l;
    }
    this.offset[this.count] = offset;
    this.length[this.count++] = length;
  }
  /** These ranges followed by `more`'s. */
  static join(a: Ranges, more: { offset: Float64Array; length: Uint16Array; count: number }): Ranges {
    const r = new Ranges();
    r.count = a.count + more.count;
    r.offset = new Float64Array(r.count);
    r.offset.set(a.offset.subarray(0, a.count));
    r.offset.set(more.offset.subarray(0, more.count), a.count);
    r.length = new Uint16Array(r.count);
    r.length.set(a.length.subarray(0, a.count));
    r.length.set(more.length.subarray(0, more.count), a.count);
    return r;
  }
}

export function compareBytes(a: Uint8Array, a0: number, a1: number, b: Uint8Array, b0: number, b1: number): number {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = a[a0 + k] - b[b0 + k];
    if (d !== 0) return d;
  }
  return a1 - a0 - (b1 - b0);
}

/**
 * Reads the SFEN texts of blocks ids[0], ids[1], ... (increasing offsets; null: every block) from the file
 * again, in large sequential reads: nothing keeps the text between the passes.
 */
export function readRanges(
  fd: number,
  chunk: number,
  ranges: Ranges,
  ids: ArrayLike<number> | null,
  visit: (id: number, src: Uint8Array, start: number, end: number) => void,
): void {
  const buf = Buffer.allocUnsafe(Math.max(chunk, 1 << 16));
  let bufStart = 0;
  let bufLength = 0;
  const count = ids ? ids.length : ranges.count;
  for (let k = 0; k < count; k++) {
    const id = ids ? ids[k] : k;
    const off = ranges.offset[id];
    const len = ranges.length[id];
    if (off < bufStart || off + len > bufStart + bufLength) {
      bufStart = off;
      bufLength = readSync(fd, buf, 0, buf.length, off);
      if (len > bufLength) throw new Error("the input file changed while it was read");
    }
    visit(id, buf, off - bufStart, off - bufStart + len);
  }
}

/** The part's SFEN texts read again from the file, for the edges (step 2). */
export function partSource(fd: number, chunk: number, ranges: Ranges): SfenSource {
  return (visit) => readRanges(fd, chunk, ranges, null, visit);
}

/** What reading a part counted: the worker sends these back as they are. */
export interface PartCounts {
  /** The part's blocks are in byte-wise SFEN order. */
  sorted: boolean;
  blocks: number;
  moves: number;
  /** Lines read (the part ends with a line break, so the next part's lines follow on). */
  lines: number;
  malformedLines: number;
  /** Line numbers counted from the part's first line. */
  errors: Db2016ParseError[];
}

export interface PartRead extends PartCounts {
  intake: BlockIntake;
  ranges: Ranges;
}

/**
 * Reads bytes [from, to) of the file (a part starting at a line start, ending after a
 * line break or at the end of the file) in pieces of `chunk` bytes. Throws Db2016Error in
 * strict mode, with the line counted from the part's first line.
 */
export function readPart(fd: number, from: number, to: number, chunk: number, opts: { strict?: boolean; maxErrors: number }): PartRead {
  const intake = new BlockIntake();
  const ranges = new Ranges();
  let sorted = true;
  let prev = new Uint8Array(256);
  let prevLength = -1;
  const reader = new Db2016ByteReader(
    {
      block(src, start, end, offset, _lineNo, scanned) {
        if (scanned) intake.beginScannedBlock(scanned);
        else intake.beginBlock(src, start, end);
        ranges.push(from + offset, end - start);
        if (sorted && prevLength >= 0 && compareBytes(prev, 0, prevLength, src, start, end) > 0) sorted = false;
        if (sorted) {
          if (end - start > prev.length) prev = new Uint8Array(end - start);
          prev.set(src.subarray(start, end));
          prevLength = end - start;
        }
      },
      move: (code, value) => intake.addMove(code, value),
      end: () => intake.endBlock(),
    },
    { strict: opts.strict, maxErrors: opts.maxErrors },
  );
  const buf = Buffer.allocUnsafe(chunk);
  for (let at = from; at < to;) {
    const got = readSync(fd, buf, 0, Math.min(chunk, to - at), at);
    if (got === 0) break;
    reader.pushBytes(buf.subarray(0, got));
    at += got;
  }
  reader.end();
  intake.endBlock();
  return {
    intake,
    ranges,
    sorted,
    blocks: reader.blockCount,
    moves: reader.moveCount,
    lines: reader.lines,
    malformedLines: reader.errorCount,
    errors: reader.errors,
  };
}
