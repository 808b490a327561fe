// The main-thread side of the host worker (worker-host.ts): the same call/onEvent/closeBook
// as HostService, carried as messages. Calls are answered in order per worker; events come
// on the same port, so an event sent before a reply arrives before it.

import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import type { HostEvent, Method, ParsedArgs, Result } from "../../shared/api/contract.js";
import { replyError, type CallReply, type Host } from "./transport.js";
import { bundledFile } from "../paths/bundled.js";

export type ToHost = { kind: "call"; id: number; method: string; args: unknown } | { kind: "close-book"; id: number };
export type FromHost = { kind: "reply"; id: number; reply: CallReply } | { kind: "event"; event: HostEvent };
export interface HostWorkerData {
  recentFile?: string;
  /** The page may not name files or commands (ServiceOptions.confine: `horu web` without --allow-server-paths). */
  confine?: boolean;
  /** The page's folder before any book is open (the folder of `horu web --book`): ServiceOptions.folder. */
  folder?: string;
}

export interface RemoteServiceOptions extends HostWorkerData {
  /** The bundled worker; defaults to host-worker.cjs beside the running bundle. */
  workerFile?: string;
}

/** dist/host-worker.cjs beside the bundle this code runs from (dist/horu.cjs, dist/electron-main.cjs). */
export function defaultWorkerFile(): string {
  return bundledFile("host-worker.cjs");
}

export class RemoteService implements Host {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<(e: HostEvent) => void>();
  private closed = false;

  constructor(private readonly options: RemoteServiceOptions = {}) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const file = this.options.workerFile ?? defaultWorkerFile();
    if (!existsSync(file)) throw new Error(`${file} is missing; run \`npm run build:node\` first`);
    const worker = new Worker(file, {
      workerData: {
        recentFile: this.options.recentFile,
        confine: this.options.confine,
        folder: this.options.folder,
      } satisfies HostWorkerData,
    });
    worker.on("message", (m: FromHost) => {
      if (m.kind === "event") {
        for (const l of this.listeners) {
          try {
            l(m.event);
          } catch {
            // one listener's failure must not stop the others
          }
        }
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if ("result" in m.reply) p.resolve(m.reply.result);
      else p.reject(replyError(m.reply));
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const p of this.pending.values())
        p.reject(replyError({ error: `the host stopped (${why}); the book was closed`, code: "failed" }));
      this.pending.clear();
      // The next call starts a fresh worker; the UI must learn that the book is no longer open.
      if (!this.closed) for (const l of this.listeners) l({ type: "book.changed", info: null });
    };
    worker.on("error", (e) => lost(e.message));
    worker.on("exit", (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private request(message: ToHost extends infer T ? (T extends unknown ? Omit<T, "id"> : never) : never): Promise<unknown> {
    if (this.closed) return Promise.reject(replyError({ error: "the host is shut down", code: "failed" }));
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  call<M extends Method>(method: M, args: ParsedArgs<M>): Promise<Result<M>> {
    return this.request({ kind: "call", method, args }) as Promise<Result<M>>;
  }

  onEvent(listener: (e: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async closeBook(): Promise<void> {
    if (!this.worker) return;
    await this.request({ kind: "close-book" });
  }

  /** Closes the book cleanly (stops the dig, closes SQLite), then ends the worker. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    try {
      await this.closeBook();
    } finally {
      this.closed = true;
      const w = this.worker;
      this.worker = null;
      await w?.terminate();
    }
  }
}
