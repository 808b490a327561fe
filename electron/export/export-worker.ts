// The export thread (bundled as dist/export-worker.cjs): writes a book file from its own
// read-only connection to the book (WAL: it reads one consistent snapshot while the dig
// keeps storing results), so an export never holds up the thread that runs the dig.
import { parentPort, workerData } from "node:worker_threads";
import { BookStore } from "../store/book-store.js";
import { exportFromStore, type ExportWorkerData, type ExportWorkerMessage } from "./export.js";

const port = parentPort;
if (!port) throw new Error("export-worker.ts runs as a worker thread (see exportBook)");
const data = workerData as ExportWorkerData;
const post = (m: ExportWorkerMessage) => port.postMessage(m);

void (async () => {
  let store: BookStore | null = null;
  try {
    store = BookStore.open(data.book, { readonly: true, writer: "horu export" });
    const result = await exportFromStore(store, data.options, data.keep, (done, total) => post({ kind: "progress", done, total }));
    post({ kind: "done", result });
  } catch (e) {
    post({ kind: "error", message: e instanceof Error ? e.message : String(e) });
  } finally {
    store?.close();
  }
})();
