// kill -9 at random moments while a child process stores results: every result the
// child acknowledged (printed after thoughts.add returned) must be in the book.
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookStore } from "./book-store.js";
import { buildChild, spawnChild } from "./testing/build-child.js";
import { fakeThought } from "../bench/books/fake-thought.js";

let dir: string;
let child: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "horu-kill-"));
  child = await buildChild(dir);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ROUNDS = 20;

describe("kill -9 durability", () => {
  it(`every acknowledged result survives ${ROUNDS} random SIGKILLs`, async () => {
    const book = join(dir, "dig.horu");
    BookStore.create(book).close();
    let next = 0;
    let totalAcked = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const p = spawnChild(child, ["durability", book, String(next)]);
      let buf = "";
      const acks: string[] = [];
      let stderr = "";
      p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      let first: () => void = () => {};
      const started = new Promise<void>((res) => (first = res));
      p.stdout.on("data", (d: Buffer) => {
        buf += d.toString();
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.startsWith("stored ")) acks.push(line.slice(7));
          first();
        }
      });
      const exited = once(p, "close");
      await Promise.race([started, exited]);
      if (acks.length === 0) throw new Error(`child stored nothing: ${stderr}`);
      // Random moment: anywhere in the next 0-60 ms of writing (mid-transaction often).
      await new Promise((res) => setTimeout(res, Math.random() * 60));
      p.kill("SIGKILL");
      await exited;

      totalAcked += acks.length;
      // Reopening takes over the dead child's lock and recovers the WAL.
      const s = BookStore.open(book);
      expect(s.integrityCheck()).toBe("ok");
      for (const sfen of acks) expect(s.thoughts.has(sfen), `round ${round}: ${sfen} lost`).toBe(true);
      const last = fakeThought(next + acks.length - 1);
      expect(s.thoughts.get(last.sfen)?.candidates).toEqual(last.candidates);
      // Continue after whatever reached the file (an unacknowledged last one may be there too).
      next = s.thoughts.count();
      expect(next).toBeGreaterThanOrEqual(totalAcked);
      expect(next).toBeLessThanOrEqual(totalAcked + ROUNDS);
      s.close();
    }
    expect(totalAcked).toBeGreaterThan(ROUNDS); // the kills landed mid-stream, not before the first write
  });

  it("a batch killed mid-way is all or nothing; acknowledged batches are complete", async () => {
    const book = join(dir, "batches.horu");
    BookStore.create(book).close();
    let next = 0;
    for (let round = 0; round < 8; round++) {
      const p = spawnChild(child, ["batches", book, String(next)]);
      let out = "";
      const exited = once(p, "close");
      await new Promise<void>((res) => {
        p.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          res();
        });
        void exited.then(() => res());
      });
      await new Promise((res) => setTimeout(res, Math.random() * 80));
      p.kill("SIGKILL");
      await exited;
      const acked = out
        .split("\n")
        .filter((l) => l.startsWith("batch "))
        .map((l) => Number(l.slice(6)));
      expect(acked.length).toBeGreaterThan(0);
      const s = BookStore.open(book);
      expect(s.integrityCheck()).toBe("ok");
      const count = s.thoughts.count();
      expect(count % 100).toBe(0);
      expect(count).toBeGreaterThanOrEqual(acked[acked.length - 1]! + 100);
      for (const first of acked) expect(s.thoughts.has(fakeThought(first + 99).sfen)).toBe(true);
      next = count;
      s.close();
    }
  });
});
