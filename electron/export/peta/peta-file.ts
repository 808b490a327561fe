// A DB2016 book file through the Peta-Shock export (docs/DESIGN.md §5), file to file, as `horu peta`
// runs it. The input never sits in memory as text or objects: one streamed read keeps keys,
// listed moves and where each SFEN is; the SFENs are read again for the edges and for the
// output. A big file is read as two parts on two threads (the second on a worker): each
// reads its part and makes its part's edges, and the node index between those two steps is
// built once, in block order, in shared memory. Minimax and writing run on the main thread.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { Db2016Error, db2016HeaderLines, db2016HeaderProblem, type Db2016ParseError } from "../../../shared/formats/db2016.js";
import { PetaShockExporter, type ExportCounts } from "../../../shared/export/export.js";
import {
  buildRunEdges,
  EdgeLists,
  expectedEdges,
  indexKeys,
  joinRuns,
  NodeIndex,
  type NodeIndexBuffers,
  type RunEdges,
} from "../../../shared/export/export-graph.js";
import { compareBytes, partSource, Ranges, readPart, readRanges, type PartCounts, type PartRead } from "./part.js";
import { bundledFile } from "../../paths/bundled.js";

/** Read and write in pieces of this size: the input never sits in memory whole. */
const CHUNK = 1 << 22;
/** Below this size a second thread costs more than it saves. */
const TWO_THREADS_FROM = 4 << 20;
/** Malformed lines kept for printing; the rest are only counted. */
export const SHOWN_ERRORS = 20;

export interface PetaFileOptions {
  input: string;
  output: string;
  shrink?: boolean;
  drawBlack?: number;
  drawWhite?: number;
  strict?: boolean;
  /** Read and write piece size (tests use small ones to cross every boundary). */
  chunkBytes?: number;
  /** 1: one thread; 2: two when the file has a second part; default: two for big files on a machine with 2 or more cores. */
  threads?: 1 | 2;
  /** The worker script (default: dist/peta-worker.cjs). */
  workerFile?: string;
}

export interface PetaFileResult {
  positions: number;
  moves: number;
  malformedLines: number;
  errors: Db2016ParseError[];
  counts: ExportCounts;
  /** The input's blocks were already in byte-wise SFEN order (no sort needed). */
  sorted: boolean;
  /** Threads that read the file and made the edges. */
  threads: number;
  readMs: number;
  exportMs: number;
  writeMs: number;
}

export interface PetaWorkerData {
  input: string;
  from: number;
  to: number;
  chunk: number;
  strict: boolean;
  maxErrors: number;
}

export type PetaWorkerMessage =
  | ({
      kind: "read";
      count: number;
      /** Listed moves kept (for sizing the edge arrays). */
      listed: number;
      keys: Uint32Array;
      bad: Uint8Array;
      ignoredMoves: number;
    } & PartCounts)
  | { kind: "edges"; edges: RunEdges; offset: Float64Array; length: Uint16Array }
  /** `line`: a strict-mode error's line, counted from the part's first line. */
  | { kind: "error"; message: string; line?: number };

/** The bundled worker, beside this bundle or in the checkout's dist. */
export function defaultPetaWorker(): string {
  return bundledFile("peta-worker.cjs");
}

/** Where the second part starts: the first line beginning "sfen " after the middle, or the end. */
function secondPartStart(fd: number, size: number): number {
  const buf = Buffer.allocUnsafe(1 << 16);
  const needle = Buffer.from("\nsfen ");
  for (let at = Math.max(0, (size >> 1) - 1); at < size;) {
    const got = readSync(fd, buf, 0, buf.length, at);
    if (got === 0) break;
    const k = buf.subarray(0, got).indexOf(needle);
    if (k >= 0) return at + k + 1;
    at += got - needle.length + 1;
    if (got < buf.length) break;
  }
  return size;
}

/** The worker's next message, a rejection on its error or exit. */
function nextMessage<K extends PetaWorkerMessage["kind"]>(
  worker: Worker,
  kind: K,
): Promise<Extract<PetaWorkerMessage, { kind: K | "error" }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (m: PetaWorkerMessage) => {
      done();
      if (m.kind === kind || m.kind === "error") resolve(m as Extract<PetaWorkerMessage, { kind: K | "error" }>);
      else reject(new Error(`the peta worker sent ${m.kind}, expected ${kind}`));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`the peta worker stopped (exit code ${code})`));
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
  });
}

/**
 * The whole conversion; blocks written as bytes in byte-wise SFEN order (the input's own
 * order when it is sorted already, as YaneuraOu's books are), beside the target and
 * renamed into place.
 */
export async function petaFile(o: PetaFileOptions): Promise<PetaFileResult> {
  const t0 = performance.now();
  const chunk = o.chunkBytes ?? CHUNK;
  let fd: number;
  try {
    fd = openSync(o.input, "r");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`${o.input}: ${err.code === "ENOENT" ? "no such file" : err.message}`, { cause: e });
  }
  let worker: Worker | null = null;
  try {
    const headerProblem = db2016HeaderProblem(firstLine(fd));
    if (headerProblem) throw new Error(`${o.input}:1: ${headerProblem}; nothing written`);
    const size = fstatSync(fd).size;
    const threads = o.threads ?? (size >= TWO_THREADS_FROM && availableParallelism() >= 2 ? 2 : 1);
    const split = threads === 2 ? secondPartStart(fd, size) : size;
    if (split < size) {
      const workerFile = o.workerFile ?? defaultPetaWorker();
      if (!existsSync(workerFile)) throw new Error(`${workerFile} is missing; run \`npm run build:node\` first`);
      const data: PetaWorkerData = { input: o.input, from: split, to: size, chunk, strict: o.strict ?? false, maxErrors: SHOWN_ERRORS };
      worker = new Worker(workerFile, { workerData: data });
    }
    const second = worker ? nextMessage(worker, "read") : null;
    // An unhandled rejection must not end the process while this thread reads its part.
    second?.catch(() => {});

    // Step 1: both parts read; line numbers of the second part follow the first's.
    let a: PartRead;
    try {
      a = readPart(fd, 0, split, chunk, { strict: o.strict, maxErrors: SHOWN_ERRORS });
    } catch (e) {
      if (e instanceof Db2016Error) throw new Error(`${o.input}:${e.line}: ${e.detail}`, { cause: e });
      throw new Error(`${o.input}: ${(e as Error).message}`, { cause: e });
    }
    const b = second ? await second : null;
    if (b?.kind === "error") {
      throw new Error(b.line !== undefined ? `${o.input}:${a.lines + b.line}: ${b.message}` : `${o.input}: ${b.message}`);
    }
    const errors = a.errors.concat((b?.errors ?? []).map((e) => ({ line: a.lines + e.line, message: e.message }))).slice(0, SHOWN_ERRORS);
    // Nothing read, and lines not understood: another kind of file (a horu book, a binary one).
    // Written, it would be an empty book, and with --force it would replace a good one.
    const malformed = a.malformedLines + (b?.malformedLines ?? 0);
    if (a.blocks + (b?.blocks ?? 0) === 0 && malformed > 0)
      throw new Error(
        `${o.input}: not a YaneuraOu DB2016 book: no position read, ${malformed.toLocaleString("en")} line${malformed === 1 ? "" : "s"} not understood` +
          `${errors[0] ? ` (first, line ${errors[0].line}: ${errors[0].message})` : ""}; nothing written`,
      );
    const firstCount = a.intake.count;
    let positions = a.intake.positions();
    if (b) for (let i = 0; i < b.count; i++) positions += 1 - b.bad[i];
    let index: NodeIndex | null = NodeIndex.forKeys(2 * positions, worker !== null);
    indexKeys(index, a.intake.keys, a.intake.bad, firstCount, 0);
    a.intake.keys = new Uint32Array(0);
    if (b) {
      indexKeys(index, b.keys, b.bad, b.count, firstCount);
      b.keys = new Uint32Array(0);
    }
    const t1 = performance.now();

    // Step 2 on both threads (the second part's edges appended to the first's), then steps 3-9 here.
    const secondEdges = worker ? nextMessage(worker, "edges") : null;
    secondEdges?.catch(() => {});
    worker?.postMessage(index.buffers() satisfies NodeIndexBuffers);
    const lists = new EdgeLists(expectedEdges(a.intake.listedMove.length + (b?.listed ?? 0), firstCount + (b?.count ?? 0)));
    let edges: RunEdges;
    try {
      edges = buildRunEdges(a.intake, index, partSource(fd, chunk, a.ranges), lists);
    } catch (e) {
      throw new Error(`${o.input}: ${(e as Error).message}`, { cause: e });
    }
    index = null;
    a.intake.release();
    const ignoredMoves = a.intake.ignoredMoves + (b?.ignoredMoves ?? 0);
    const firstRanges = a.ranges;
    let ranges = firstRanges;
    let sorted = a.sorted;
    if (secondEdges && b) {
      const m = await secondEdges;
      if (m.kind === "error") throw new Error(`${o.input}: ${m.message}`);
      edges = joinRuns(lists, edges, m.edges);
      ranges = Ranges.join(firstRanges, { offset: m.offset, length: m.length, count: m.offset.length });
      sorted &&= b.sorted && (firstRanges.count === 0 || m.offset.length === 0 || sfenOrderAt(fd, ranges, firstRanges.count - 1) <= 0);
    }
    const exporter = new PetaShockExporter({ shrink: o.shrink, drawBlack: o.drawBlack, drawWhite: o.drawWhite });
    const counts = exporter.runOnEdges(edges, ignoredMoves, Math.round(performance.now() - t1));
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
      order.sort((x, y) => compareBytes(text, at[x], at[x] + ranges.length[x], text, at[y], at[y] + ranges.length[y]) || x - y);
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
      positions: a.blocks + (b?.blocks ?? 0),
      moves: a.moves + (b?.moves ?? 0),
      malformedLines: a.malformedLines + (b?.malformedLines ?? 0),
      errors,
      counts,
      sorted,
      threads: worker ? 2 : 1,
      readMs: t1 - t0,
      exportMs: t2 - t1,
      writeMs: t3 - t2,
    };
  } finally {
    if (worker) void worker.terminate();
    closeSync(fd);
  }
}

/** compareBytes of the SFEN texts of blocks id and id + 1, read from the file. */
function sfenOrderAt(fd: number, ranges: Ranges, id: number): number {
  const texts: Uint8Array[] = [];
  readRanges(fd, 1 << 16, ranges, [id, id + 1], (_, src, s0, s1) => texts.push(src.slice(s0, s1)));
  return compareBytes(texts[0], 0, texts[0].length, texts[1], 0, texts[1].length);
}

function writeAll(fd: number, buf: Uint8Array, length: number): void {
  let done = 0;
  while (done < length) done += writeSync(fd, buf, done, length - done);
}

/** The file's first line (up to 200 bytes), or null when it is empty. */
function firstLine(fd: number): string | null {
  const buf = new Uint8Array(200);
  const n = readSync(fd, buf, 0, buf.length, 0);
  if (n === 0) return null;
  const text = new TextDecoder().decode(buf.subarray(0, n));
  return text.split(/\r?\n/)[0]!;
}
