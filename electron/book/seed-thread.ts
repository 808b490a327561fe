// Seeding off the caller's thread (the host's, in `horu web` and the app): the records are
// parsed and planned on a worker thread (seed-worker.ts) within a time budget, and only the
// plan's rows are stored here (applySeed), so other calls answer while a big upload is read.
import { Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { userError } from "../../shared/api/user-error.js";
import { bundledFile } from "../paths/bundled.js";
import type { OpenBook } from "./open-book.js";
import { applySeed, type SeedBookOptions, type SeedPlan, type SeedReport } from "./seed.js";

/** How long the records of one call may take to read and plan before they are given up. */
export const SEED_TIME_BUDGET_MS = 120_000;

export interface SeedWorkerData {
  book: string;
  paths: string[];
  options: Pick<SeedBookOptions, "plies" | "thinkPlies" | "storeStats" | "sources">;
}

export type SeedWorkerMessage = { kind: "done"; plan: SeedPlan } | { kind: "error"; message: string; user: boolean };

/**
 * Seeds the open book from record files, parsing and planning them on a worker thread;
 * `stillOpen` says whether the book is still the one to store into when the plan is ready.
 */
export async function seedInThread(
  book: OpenBook,
  paths: string[],
  options: SeedWorkerData["options"],
  stillOpen: () => boolean = () => true,
  budgetMs = SEED_TIME_BUDGET_MS,
): Promise<SeedReport> {
  const t0 = performance.now();
  const file = bundledFile("seed-worker.cjs");
  if (!existsSync(file)) throw new Error(`${file} is missing; run \`npm run build:node\` first`);
  const plan = await new Promise<SeedPlan>((resolve, reject) => {
    const worker = new Worker(file, { workerData: { book: book.store.path, paths, options } satisfies SeedWorkerData });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(
      () =>
        settle(() => {
          void worker.terminate();
          reject(
            userError(
              `the game records took longer than ${budgetMs / 1000} s to read; nothing was seeded (seed big collections with horu import)`,
              { key: "seedTooSlow" },
            ),
          );
        }),
      budgetMs,
    );
    worker.on("message", (m: SeedWorkerMessage) =>
      settle(() => (m.kind === "done" ? resolve(m.plan) : reject(m.user ? userError(m.message) : new Error(m.message)))),
    );
    worker.on("error", (e) => settle(() => reject(e)));
    worker.on("exit", (code) => settle(() => reject(new Error(`the seed thread stopped (exit code ${code}) before it finished`))));
  });
  if (!stillOpen()) throw userError("the book was closed while its game records were read: nothing was seeded");
  return applySeed(book, plan, t0);
}
