// A settle round worked out off the caller's thread (the host's, in `horu web` and the app):
// which positions the book plays into needs the export's minimax over the whole book (seconds
// on a book of tens of thousands of positions), so it runs on a worker thread with its own
// read-only connection (settle-worker.ts) while the dig goes on selecting.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { bundledFile } from "../paths/bundled.js";
import type { SettleOptions } from "../../shared/book/settle.js";

export interface SettleWorkerData {
  book: string;
  /** The book's root, as an SFEN key. */
  root: string;
  settings: { drawBlack: number; drawWhite: number; settleFactor: number; policy: string };
  /** The dig's node limit; a deep think is `factor` times it. */
  digNodes: number;
  options: SettleOptions;
}

/** The round, and the book's line from the root by the moves it plays, over the book as read. */
export interface SettleRoundResult {
  round: string[];
  line: string[];
  positions: number;
}

export type SettleWorkerMessage = ({ kind: "done" } & SettleRoundResult) | { kind: "error"; message: string };

/** A round being worked out: its positions when done, and a way to stop it (the book closes). */
export interface SettleRun {
  result: Promise<SettleRoundResult>;
  stop(): void;
}

export function settleRoundInThread(data: SettleWorkerData): SettleRun {
  const file = bundledFile("settle-worker.cjs");
  if (!existsSync(file))
    return { result: Promise.reject(new Error(`${file} is missing; run \`npm run build:node\` first`)), stop: () => {} };
  const worker = new Worker(file, { workerData: data });
  const result = new Promise<SettleRoundResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    worker.on("message", (m: SettleWorkerMessage) => settle(() => (m.kind === "done" ? resolve(m) : reject(new Error(m.message)))));
    worker.on("error", (e) => settle(() => reject(e)));
    worker.on("exit", (code) => settle(() => reject(new Error(`the settle thread stopped (exit code ${code}) before it finished`))));
  });
  return { result, stop: () => void worker.terminate() };
}
