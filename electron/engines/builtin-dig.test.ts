// The built-in engine (fairy-stockfish-nnue.wasm run by dist/engines/fairy-stockfish.cjs as a
// child process) digging for real: two processes, MultiPV, and one process killed mid-think.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { Dig, type DigEvent } from "../dig/dig.js";
import { BookStore } from "../store/book-store.js";
import { BUILTIN_ENGINES, builtinSpec } from "./builtin.js";
import { tempDir } from "../testing/paths.js";
import { Position } from "../../shared/rules/position.js";

const builtin = BUILTIN_ENGINES.find((b) => b.id === "fairy-stockfish")!;

/** The built-in engine processes this test process started (Linux: /proc via ps). */
function runnerPids(): number[] {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((l) => l.includes(builtin.runner))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe("the built-in engine", () => {
  it(
    "digs with 2 processes and MultiPV, and a process killed mid-think is restarted and its position thought again",
    { timeout: 240_000 },
    async () => {
      const file = path.join(tempDir(), "builtin.horu");
      const book = OpenBook.create(file, { limit: { nodes: 20_000 }, multipv: 3 });
      const engines = [1, 2].map((i) => ({ ...builtinSpec(builtin, { USI_Hash: 16 }), name: `${builtin.name}#${i}` }));
      const events: DigEvent[] = [];
      let killed: number | null = null;
      let resolveKilled!: () => void;
      const killedOnce = new Promise<void>((r) => (resolveKilled = r));
      const dig = new Dig(book, {
        engines,
        positions: 8,
        onEvent: (e) => {
          events.push(e);
          // After a few results, kill one engine process the moment it reports a search in progress.
          if (killed === null && e.kind === "info" && events.filter((x) => x.kind === "result").length >= 2 && (e.info.nodes ?? 0) > 0) {
            const pids = runnerPids();
            if (pids.length === 2) {
              killed = pids[0]!;
              process.kill(killed, "SIGKILL");
              resolveKilled();
            }
          }
        },
      });
      const summary = await dig.run();
      await killedOnce;
      book.close();

      expect(summary.thought).toBeGreaterThanOrEqual(8);
      expect(summary.failed).toBe(0);
      // The kill was seen as an engine failure on a position, which went back to the queue ...
      const failure = events.find(
        (e): e is Extract<DigEvent, { kind: "engine-failure" }> => e.kind === "engine-failure" && e.sfen !== null,
      );
      expect(failure, "an engine failure mid-think").toBeDefined();
      expect(failure!.requeued).toBe(true);
      // ... and was thought again and stored, with MultiPV candidates from the built-in engine.
      const store = BookStore.open(file);
      try {
        const again = store.thoughts.get(Position.fromSfen(failure!.sfen!).sfenKey());
        expect(again, `the position ${failure!.sfen} thought again`).toBeDefined();
        expect(store.thoughts.count()).toBe(summary.thought);
        const root = store.thoughts.get(Position.startpos().sfenKey())!;
        expect(root.candidates.length).toBeGreaterThanOrEqual(2);
        expect(root.provenance).toMatchObject({ kind: "engine", engine: expect.stringContaining("Fairy-Stockfish") });
        for (const t of store.thoughts.iterate()) expect(t.candidates.length).toBeGreaterThanOrEqual(1);
      } finally {
        store.close();
      }
      // Both processes took part, and the killed one's slot was restarted.
      const results = events.filter((e): e is Extract<DigEvent, { kind: "result" }> => e.kind === "result");
      expect(new Set(results.map((r) => r.engine)).size).toBe(2);
      const last = [...events].reverse().find((e): e is Extract<DigEvent, { kind: "progress" }> => e.kind === "progress")!;
      expect(last.progress.engines.reduce((n, v) => n + v.restarts, 0)).toBeGreaterThanOrEqual(1);
      // Every engine process ends with the dig (quit, else killed after the quit timeout).
      await expect.poll(() => runnerPids(), { timeout: 10_000, interval: 200 }).toEqual([]);
    },
  );
});
