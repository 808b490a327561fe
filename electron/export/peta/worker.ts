// The second thread of `horu peta` (bundled as dist/peta-worker.cjs): reads the second part
// of the file, hands its blocks' keys to the main thread, waits for the node index of the
// whole book (shared memory), then makes its part's edges and hands them over.
import { closeSync, openSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { Db2016Error } from "../../../shared/formats/db2016.js";
import { buildRunEdges, NodeIndex, type NodeIndexBuffers } from "../../../shared/export/export-graph.js";
import { partSource, readPart } from "./part.js";
import type { PetaWorkerData, PetaWorkerMessage } from "./peta-file.js";

if (!parentPort) throw new Error("peta worker.ts runs as a worker thread (see petaFile)");
const port = parentPort;
const d = workerData as PetaWorkerData;
const post = (m: PetaWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

async function main(): Promise<void> {
  const fd = openSync(d.input, "r");
  try {
    const part = readPart(fd, d.from, d.to, d.chunk, { strict: d.strict, maxErrors: d.maxErrors });
    const { intake, ranges } = part;
    // The keys go to the main thread, which builds the index; the intake keeps the rest.
    const keys = intake.keys.subarray(0, intake.count * 4);
    post(
      {
        kind: "read",
        count: intake.count,
        listed: intake.listedMove.length,
        keys,
        bad: intake.bad.slice(0, intake.count),
        ignoredMoves: intake.ignoredMoves,
        sorted: part.sorted,
        blocks: part.blocks,
        moves: part.moves,
        lines: part.lines,
        malformedLines: part.malformedLines,
        errors: part.errors,
      },
      [keys.buffer as ArrayBuffer],
    );
    intake.keys = new Uint32Array(0);
    const index = await new Promise<NodeIndexBuffers>((resolve) => port.once("message", resolve));
    const edges = buildRunEdges(intake, NodeIndex.attach(index), partSource(fd, d.chunk, ranges));
    intake.release();
    const offset = ranges.offset.subarray(0, ranges.count);
    const length = ranges.length.subarray(0, ranges.count);
    post({ kind: "edges", edges, offset, length }, [
      edges.start.buffer,
      edges.child.buffer,
      edges.move.buffer,
      edges.value.buffer,
      edges.bad.buffer,
      edges.inCheck.buffer,
      edges.side.buffer,
      offset.buffer as ArrayBuffer,
      length.buffer as ArrayBuffer,
    ]);
  } catch (e) {
    if (e instanceof Db2016Error) post({ kind: "error", message: e.detail, line: e.line });
    else post({ kind: "error", message: (e as Error).message });
  } finally {
    closeSync(fd);
  }
}

void main();
