// Checkpoints off the writer's thread while a dig runs (checkpoint-worker.ts): the book's own
// connection stops checkpointing by itself, and a thread with a connection of its own moves the
// WAL into the book file once a second. When that thread cannot run or stops, the book's
// connection checkpoints by itself again, so the WAL never grows without end.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { bundledFile } from "../paths/bundled.js";
import type { BookStore } from "./book-store.js";

export interface CheckpointWorkerData {
  book: string;
  everyMs: number;
}

export type CheckpointWorkerMessage = { kind: "ready" } | { kind: "checkpointed"; frames: number } | { kind: "error"; message: string };

/** SQLite's default: the writer checkpoints once the WAL holds this many pages. */
const AUTO_CHECKPOINT_PAGES = 1000;

export class Checkpoints {
  /** Checkpoints the thread has run, and the WAL frames the last one found moved. */
  runs = 0;
  lastFrames = 0;
  private stopped: Promise<void>;

  private constructor(
    private readonly store: BookStore,
    private readonly worker: Worker,
  ) {
    let exited!: () => void;
    this.stopped = new Promise((resolve) => (exited = resolve));
    worker.on("message", (m: CheckpointWorkerMessage) => {
      if (m.kind === "checkpointed") {
        this.runs++;
        this.lastFrames = m.frames;
      } else if (m.kind === "error") this.writerCheckpoints();
    });
    worker.on("error", () => this.writerCheckpoints());
    worker.on("exit", () => {
      this.writerCheckpoints();
      exited();
    });
  }

  /**
   * Starts the thread for a writable book; null when the bundled worker is missing or the book is
   * read-only (the book's connection then checkpoints by itself, as before).
   */
  static start(store: BookStore, everyMs = 1000): Checkpoints | null {
    const file = bundledFile("checkpoint-worker.cjs");
    if (store.readonly || !existsSync(file)) return null;
    const worker = new Worker(file, { workerData: { book: store.path, everyMs } satisfies CheckpointWorkerData });
    store.autoCheckpoint(0);
    return new Checkpoints(store, worker);
  }

  /** Stops the thread; the book's connection checkpoints by itself again. */
  async stop(): Promise<void> {
    this.worker.postMessage("stop");
    const killed = setTimeout(() => void this.worker.terminate(), 5000);
    await this.stopped;
    clearTimeout(killed);
  }

  private writerCheckpoints(): void {
    if (!this.store.isClosed) this.store.autoCheckpoint(AUTO_CHECKPOINT_PAGES);
  }
}
