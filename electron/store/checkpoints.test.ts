// Checkpoints on a thread of their own (checkpoints.ts, checkpoint-worker.ts): while it runs the
// book's connection does not checkpoint, and the WAL still reaches the book file; once it stops,
// the book's connection checkpoints by itself again.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BookStore } from "./book-store.js";
import { Checkpoints } from "./checkpoints.js";
import { fakeThought } from "../bench/books/fake-thought.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "horu-checkpoints-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Stores `count` made-up thoughts from `from` on, in transactions of 100. */
function write(store: BookStore, from: number, count: number): void {
  for (let i = from; i < from + count; i += 100) store.thoughts.addBatch(Array.from({ length: 100 }, (_, k) => fakeThought(i + k)));
}

/** Waits until `check` holds, polling every 50 ms, at most `ms`. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe("checkpoints on their own thread", () => {
  it("moves the WAL into the book file while the book's connection does not, and hands back on stop", { timeout: 60_000 }, async () => {
    const path = join(dir, "b.horu");
    const store = BookStore.create(path);
    const size = () => statSync(path).size;

    // The book's connection alone, not checkpointing: what it writes stays in the WAL.
    store.autoCheckpoint(0);
    const before = size();
    write(store, 0, 2000);
    expect(size()).toBe(before);

    // With the thread: the book file takes the WAL's pages, the book's connection still not checkpointing.
    const thread = Checkpoints.start(store, 100);
    expect(thread).not.toBeNull();
    expect(store.autoCheckpointPages()).toBe(0);
    expect(await until(() => size() > before, 20_000)).toBe(true);
    expect(thread!.runs).toBeGreaterThan(0);

    // Stopped: the book's connection checkpoints by itself again, and everything written is there.
    await thread!.stop();
    expect(store.autoCheckpointPages()).toBe(1000);
    expect(store.thoughts.count()).toBe(2000);
    store.close();
    const again = BookStore.open(path, { readonly: true });
    expect(again.thoughts.count()).toBe(2000);
    again.close();
  });

  it("is not started on a read-only book", () => {
    const path = join(dir, "r.horu");
    BookStore.create(path).close();
    const store = BookStore.open(path, { readonly: true });
    expect(Checkpoints.start(store)).toBeNull();
    store.close();
  });
});
