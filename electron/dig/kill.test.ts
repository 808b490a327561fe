// Kill -9 of a digging process at random moments: every result it said was stored is in
// the file, the file passes integrity_check, and the dig resumes.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { NO_ENGINE, haveFairy, tempDir, fairyDigArgs } from "../testing/paths.js";
import { followStored } from "./print-results.js";
import { rng } from "../../shared/testing/random-book.js";
import { missing } from "../testing/missing.js";
import { ended, workerOf } from "../testing/dig-process.js";

// The kill comes killAfterMs after the start or, with afterFirstResult, after the first result
// this run acknowledged: time alone says nothing about progress on a loaded machine.
function digFor(
  file: string,
  killAfterMs: number | null,
  positions?: number,
  afterFirstResult = false,
): Promise<{ stored: string[]; code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const args = fairyDigArgs(file, { engines: 2, nodes: 2000, multipv: 3 }, "--print-results");
    if (positions !== undefined) args.push("--positions", String(positions));
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const stored: string[] = [];
    let stderr = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The process that digs (the wrapper's child, bin/huge-pages.js) ends itself when the wrapper is killed.
    let digger: number | null = null;
    const arm = () => {
      if (killAfterMs !== null && timer === undefined)
        timer = setTimeout(() => {
          digger = workerOf(child.pid!);
          child.kill("SIGKILL");
        }, killAfterMs);
    };
    followStored(child.stdout, (sfen) => {
      stored.push(sfen);
      if (afterFirstResult) arm();
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    if (!afterFirstResult) arm();
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      const result = { stored, code, signal, stderr };
      if (digger === null || digger === child.pid) resolve(result);
      else ended(digger).then(() => resolve(result), reject);
    });
  });
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`kill -9 while digging (${NO_ENGINE})`, () => {
  it("loses no acknowledged result over 20 kills, and the dig resumes", { timeout: 300_000 }, async () => {
    const file = path.join(tempDir(), "killed.horu");
    const r = rng(2026);
    const acknowledged = new Set<string>();
    let kills = 0;
    for (let round = 0; round < 20; round++) {
      // Even rounds kill at any moment (even before the file exists), odd ones mid-dig.
      const run =
        round % 2 === 0 ? await digFor(file, 600 + Math.floor(r() * 1800)) : await digFor(file, Math.floor(r() * 1500), undefined, true);
      if (run.signal === "SIGKILL") kills++;
      for (const s of run.stored) acknowledged.add(s);
      if (!existsSync(file)) {
        expect(acknowledged.size, `no book file after round ${round}, yet results were acknowledged`).toBe(0);
        continue;
      }
      const store = BookStore.open(file);
      try {
        expect(store.integrityCheck()).toBe("ok");
        for (const sfen of acknowledged) expect(store.thoughts.has(sfen), `lost ${sfen} after round ${round}`).toBe(true);
      } finally {
        store.close();
      }
    }
    expect(kills).toBeGreaterThanOrEqual(15);
    expect(acknowledged.size).toBeGreaterThan(0);
    const before = acknowledged.size;
    // The dig resumes where it stopped: it opens the file, finds the book and adds to it.
    const last = await digFor(file, null, 5);
    expect(last.code, last.stderr).toBe(0);
    const store = BookStore.open(file);
    expect(store.thoughts.count()).toBeGreaterThanOrEqual(before + 5);
    store.close();
  });
});
