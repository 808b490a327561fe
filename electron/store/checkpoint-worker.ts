// The checkpoint thread (bundled as dist/checkpoint-worker.cjs): moves the WAL's committed
// pages into the book file from a connection of its own, once a second, while a dig writes. A
// PASSIVE checkpoint runs beside the writer and never waits for it; done by the writer itself
// (SQLite's automatic checkpoint, every 1,000 pages) it held the dig's thread 60-540 ms at a
// time on a 15M book (docs/MEASURED.md, issue 43, twelfth session).
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import type { CheckpointWorkerData, CheckpointWorkerMessage } from "./checkpoints.js";

const port = parentPort;
if (!port) throw new Error("checkpoint-worker.ts runs as a worker thread (see Checkpoints.start)");
const data = workerData as CheckpointWorkerData;
const post = (m: CheckpointWorkerMessage) => port.postMessage(m);

let db: Database.Database | null = null;
let timer: NodeJS.Timeout | null = null;
const stop = () => {
  if (timer) clearInterval(timer);
  timer = null;
  db?.close();
  db = null;
  port.close();
};
try {
  db = new Database(data.book, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = FULL");
  const run = () => {
    try {
      const r = db!.pragma("wal_checkpoint(PASSIVE)") as { busy: number; log: number; checkpointed: number }[];
      post({ kind: "checkpointed", frames: r[0]?.checkpointed ?? 0 });
    } catch (e) {
      post({ kind: "error", message: (e as Error).message });
      stop();
    }
  };
  timer = setInterval(run, data.everyMs);
  port.on("message", (m: "stop") => {
    if (m === "stop") stop();
  });
  post({ kind: "ready" });
} catch (e) {
  post({ kind: "error", message: (e as Error).message });
  stop();
}
