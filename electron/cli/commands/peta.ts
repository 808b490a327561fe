// `horu peta IN.db OUT.db [--shrink] [--draw-black V --draw-white V]`: a DB2016 book file
// through the peta_shock-compatible minimax (DESIGN 5), read and written as bytes in large
// pieces so the input never sits in memory, as text or as objects.
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import type { Command } from "../command.js";
import { printJson, UsageError } from "../command.js";
import { Db2016ByteReader, Db2016Error, db2016HeaderLines, type Db2016ParseError } from "../../../shared/formats/db2016.js";
import { PetaShockExporter, type ExportCounts } from "../../../shared/book/export.js";

const usage = `usage: horu peta IN.db OUT.db [--shrink] [--draw-black V --draw-white V] [--strict] [--json]

Converts a YaneuraOu DB2016 book file the way \`makebook peta_shock\` does:
every position is written with its moves' minimax values over the whole book,
best first (DESIGN 5).

  --shrink         keep only the moves with the best value
  --draw-black V   value of a draw for black (centipawns, black's view)
  --draw-white V   value of a draw for white (white's view); with both 0 (the
                   default) the output is exactly peta_shock's
  --strict         stop at the first malformed line instead of skipping it
  --json           print the summary as one JSON object on the last line`;

/** Malformed lines printed before the rest are only counted. */
const SHOWN_ERRORS = 20;

function parseArgs(args: string[]) {
  const files: string[] = [];
  let shrink = false;
  let strict = false;
  let json = false;
  let drawBlack = 0;
  let drawWhite = 0;
  const number = (name: string, text: string | undefined): number => {
    if (text === undefined || !/^[+-]?\d+$/.test(text)) throw new UsageError(`${name} needs an integer value, got ${text ?? "nothing"}`);
    const v = Number(text);
    if (Math.abs(v) > 32000) throw new UsageError(`${name} must be within +-32000`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--shrink") shrink = true;
    else if (a === "--strict") strict = true;
    else if (a === "--json") json = true;
    else if (a === "--draw-black") drawBlack = number(a, args[++i]);
    else if (a === "--draw-white") drawWhite = number(a, args[++i]);
    else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else files.push(a);
  }
  if (files.length !== 2) throw new UsageError("expected an input and an output file");
  if (files[0] === files[1]) throw new UsageError("the output must be another file than the input");
  return { input: files[0], output: files[1], shrink, strict, json, drawBlack, drawWhite };
}

/** Read and write in pieces of this size: the input never sits in memory whole. */
const CHUNK = 1 << 22;

export interface PetaFileOptions {
  input: string;
  output: string;
  shrink?: boolean;
  drawBlack?: number;
  drawWhite?: number;
  strict?: boolean;
  /** Read and write piece size (tests use small ones to cross every boundary). */
  chunkBytes?: number;
}

export interface PetaFileResult {
  positions: number;
  moves: number;
  malformedLines: number;
  errors: Db2016ParseError[];
  counts: ExportCounts;
  /** The input's blocks were already in byte-wise SFEN order (no sort needed). */
  sorted: boolean;
  readMs: number;
  exportMs: number;
  writeMs: number;
}

/** Growing arrays of where each block's SFEN text is in the input file. */
class Ranges {
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
}

function compareBytes(a: Uint8Array, a0: number, a1: number, b: Uint8Array, b0: number, b1: number): number {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = a[a0 + k] - b[b0 + k];
    if (d !== 0) return d;
  }
  return a1 - a0 - (b1 - b0);
}

/**
 * Reads the SFEN texts of blocks ids[0], ids[1], ... (increasing offsets; null: every block) from the file
 * again, in large sequential reads: the exporter keeps no text between its passes.
 */
function readRanges(fd: number, chunk: number, ranges: Ranges, ids: ArrayLike<number> | null, visit: (id: number, src: Uint8Array, start: number, end: number) => void): void {
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

/**
 * A DB2016 file through the Peta-Shock export (DESIGN 5), file to file: one streamed read
 * that keeps only keys, listed moves and where each SFEN is; the SFENs read again for the
 * edges and for the output; blocks written as bytes in byte-wise SFEN order (the input's
 * own order when it is sorted already, as YaneuraOu's books are). Written beside the
 * target and renamed into place.
 */
export function petaFile(o: PetaFileOptions): PetaFileResult {
  const t0 = performance.now();
  const chunk = o.chunkBytes ?? CHUNK;
  let fd: number;
  try {
    fd = openSync(o.input, "r");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`${o.input}: ${err.code === "ENOENT" ? "no such file" : err.message}`, { cause: e });
  }
  try {
    const exporter = new PetaShockExporter({ shrink: o.shrink, drawBlack: o.drawBlack, drawWhite: o.drawWhite });
    const ranges = new Ranges();
    let sorted = true;
    let prev = new Uint8Array(256);
    let prevLength = -1;
    const reader = new Db2016ByteReader(
      {
        block(src, start, end, offset) {
          exporter.beginBlock(src, start, end);
          ranges.push(offset, end - start);
          if (sorted && prevLength >= 0 && compareBytes(prev, 0, prevLength, src, start, end) > 0) sorted = false;
          if (sorted) {
            if (end - start > prev.length) prev = new Uint8Array(end - start);
            prev.set(src.subarray(start, end));
            prevLength = end - start;
          }
        },
        move: (code, value) => exporter.addMove(code, value),
        end: () => exporter.endBlock(),
      },
      { strict: o.strict, maxErrors: SHOWN_ERRORS },
    );
    const buf = Buffer.allocUnsafe(chunk);
    try {
      for (;;) {
        const got = readSync(fd, buf, 0, chunk, null);
        if (got === 0) break;
        reader.pushBytes(buf.subarray(0, got));
      }
      reader.end();
    } catch (e) {
      if (e instanceof Db2016Error) throw new Error(`${o.input}:${e.line}: ${e.detail}`, { cause: e });
      throw new Error(`${o.input}: ${(e as Error).message}`, { cause: e });
    }
    const t1 = performance.now();
    const counts = exporter.run((visit) => readRanges(fd, chunk, ranges, null, visit));
    const t2 = performance.now();

    let ids = exporter.writtenIds();
    let arena: Uint8Array | null = null;
    let arenaAt: Float64Array | null = null;
    if (!sorted) {
      // Rare (YaneuraOu writes sorted books): the written SFENs in memory, sorted stably.
      let total = 0;
      for (const id of ids) total += ranges.length[id];
      const text = new Uint8Array(total);
      const at = new Float64Array(ranges.count + 1);
      let w = 0;
      readRanges(fd, chunk, ranges, ids, (id, src, s0, s1) => {
        at[id] = w;
        text.set(src.subarray(s0, s1), w);
        w += s1 - s0;
      });
      const order = Array.from(ids);
      order.sort((a, b) => compareBytes(text, at[a], at[a] + ranges.length[a], text, at[b], at[b] + ranges.length[b]) || a - b);
      ids = Int32Array.from(order);
      arena = text;
      arenaAt = at;
    }

    const tmp = `${o.output}.tmp-${process.pid}`;
    let out: number;
    try {
      out = openSync(tmp, "w");
    } catch (e) {
      throw new Error(`${o.output}: ${(e as Error).message}`, { cause: e });
    }
    try {
      const page = Buffer.allocUnsafe(Math.max(chunk, 1 << 16));
      let n = page.write(db2016HeaderLines(counts.written).join("\n") + "\n", 0, "latin1");
      const block = (id: number, src: Uint8Array, s0: number, s1: number) => {
        const need = 6 + (s1 - s0) + exporter.maxMoveBytes(id);
        if (n + need > page.length) {
          writeAll(out, page, n);
          n = 0;
        }
        if (need > page.length) throw new Error(`block ${id} is too large to write`);
        page[n++] = 115; // "sfen "
        page[n++] = 102;
        page[n++] = 101;
        page[n++] = 110;
        page[n++] = 32;
        page.set(src.subarray(s0, s1), n);
        n += s1 - s0;
        page[n++] = 10;
        n = exporter.writeMoves(id, page, n);
      };
      if (arena && arenaAt) {
        for (const id of ids) block(id, arena, arenaAt[id], arenaAt[id] + ranges.length[id]);
      } else {
        readRanges(fd, chunk, ranges, ids, block);
      }
      writeAll(out, page, n);
      fsyncSync(out);
    } catch (e) {
      closeSync(out);
      rmSync(tmp, { force: true });
      throw new Error(`${o.output}: ${(e as Error).message}`, { cause: e });
    }
    closeSync(out);
    renameSync(tmp, o.output);
    const t3 = performance.now();
    return {
      positions: reader.blockCount,
      moves: reader.moveCount,
      malformedLines: reader.errorCount,
      errors: reader.errors,
      counts,
      sorted,
      readMs: t1 - t0,
      exportMs: t2 - t1,
      writeMs: t3 - t2,
    };
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, buf: Uint8Array, length: number): void {
  let done = 0;
  while (done < length) done += writeSync(fd, buf, done, length - done);
}

export const petaCommand: Command = {
  name: "peta",
  summary: "convert a DB2016 book with peta_shock-style minimax",
  usage,
  async run(args: string[]): Promise<number> {
    const opts = parseArgs(args);
    const cpu0 = process.cpuUsage();
    const r = petaFile(opts);
    for (const e of r.errors) process.stderr.write(`${opts.input}:${e.line}: ${e.message} (skipped)\n`);
    if (r.malformedLines > r.errors.length) {
      process.stderr.write(`${opts.input}: ${r.malformedLines - r.errors.length} more malformed lines skipped\n`);
    }
    const counts = r.counts;
    const cpu = process.cpuUsage(cpu0);
    const summary = {
      input: opts.input,
      output: opts.output,
      positions: r.positions,
      moves: r.moves,
      malformedLines: r.malformedLines,
      writtenPositions: counts.written,
      writtenMoves: counts.writtenMoves,
      absent: counts.absent,
      badSfen: counts.badSfen,
      settled: counts.settled,
      loopNodes: counts.loopNodes,
      rounds: counts.rounds,
      readMs: Math.round(r.readMs),
      exportMs: Math.round(r.exportMs),
      writeMs: Math.round(r.writeMs),
      totalMs: Math.round(r.readMs + r.exportMs + r.writeMs),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      maxRssKiB: process.resourceUsage().maxRSS,
    };
    const sec = (ms: number) => (ms / 1000).toFixed(2) + " s";
    process.stdout.write(
      [
        `read ${summary.positions} positions, ${summary.moves} moves from ${opts.input} in ${sec(summary.readMs)}` +
          (summary.malformedLines ? ` (${summary.malformedLines} malformed lines skipped)` : ""),
        `minimax: ${counts.settled} settled, ${counts.written - counts.settled} in cycles (${counts.loopNodes} in perpetual-check loops), ` +
          `${counts.absent} absent, ${counts.badSfen} bad SFEN; ${counts.rounds.join("+")} rounds in ${sec(summary.exportMs)}`,
        `wrote ${summary.writtenPositions} positions, ${summary.writtenMoves} moves to ${opts.output} in ${sec(summary.writeMs)}`,
        `total ${sec(summary.totalMs)} (${sec(summary.cpuMs)} CPU), peak RSS ${(summary.maxRssKiB / 1024).toFixed(0)} MiB`,
      ].join("\n") + "\n",
    );
    if (opts.json) printJson(summary);
    return 0;
  },
};
