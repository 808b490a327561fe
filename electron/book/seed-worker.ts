// The seed thread (bundled as dist/seed-worker.cjs): parses game records and plans their
// seeds (planSeed) against its own read-only copy of the book, so a big upload never holds
// up the thread that answers calls and stores a dig's results. The host stores the plan.
import { parentPort, workerData } from "node:worker_threads";
import { OpenBook } from "./open-book.js";
import { planSeed } from "./seed.js";
import type { SeedWorkerData, SeedWorkerMessage } from "./seed-thread.js";

const port = parentPort;
if (!port) throw new Error("seed-worker.ts runs as a worker thread (see seedInThread)");
const data = workerData as SeedWorkerData;
const post = (m: SeedWorkerMessage) => port.postMessage(m);

let book: OpenBook | null = null;
try {
  book = OpenBook.open(data.book, {}, { readonly: true });
  post({ kind: "done", plan: planSeed(book, data.paths, data.options) });
} catch (e) {
  post({ kind: "error", message: e instanceof Error ? e.message : String(e), user: (e as { code?: unknown }).code === "user" });
} finally {
  book?.close();
}
