// `horu bench replay` is worth something only if a second run meets the same results and so
// makes the same selections: that, and that it digs a copy, never the book it was given.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { benchReplay, instantResult } from "./replay.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";
import { legalMovesOf } from "../engines/usi/widen.js";
import { positionArgument } from "../engines/usi/protocol.js";
import { Position } from "../../shared/rules/position.js";
import { rng } from "../../shared/testing/random-book.js";
import type { Candidate } from "../../shared/book/records.js";

describe("horu bench replay", () => {
  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    `records each result the first time and replays it after: the same selections, node for node (${NO_ENGINE})`,
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const file = path.join(dir, "r.horu");
      OpenBook.create(file).close();
      const before = readFileSync(file);
      const results = path.join(dir, "r-results.json");
      const run = async () => {
        const lines: string[] = [];
        const r = await benchReplay({
          book: file,
          results,
          selections: 40,
          inFlight: 4,
          window: 20,
          nodes: 2000,
          engine: FAIRY,
          print: (l) => lines.push(l),
        });
        return { r, lines };
      };

      const first = await run();
      expect([first.r.thought, first.r.replayed]).toEqual([40, 0]);
      expect(existsSync(results)).toBe(true);
      expect(Object.keys((JSON.parse(readFileSync(results, "utf8")) as { results: object }).results)).toHaveLength(40);
      // The root is handed out without a selection; every result after it is followed by one.
      expect(first.r.nodes.length).toBeGreaterThanOrEqual(39);
      expect(first.r.nodes.some((n) => n > 1)).toBe(true);
      expect(first.lines.some((l) => l.startsWith("  results 21-40:"))).toBe(true);

      const second = await run();
      expect([second.r.thought, second.r.replayed]).toEqual([0, 40]);
      expect(second.r.nodes).toEqual(first.r.nodes);
      // The book it was given is as it was: the runs dug copies.
      expect(readFileSync(file).equals(before)).toBe(true);

      // A record of another node limit, or not a record at all, is refused by name.
      await expect(
        benchReplay({ book: file, results, selections: 1, inFlight: 1, window: 1, nodes: 3000, engine: FAIRY, print: () => {} }),
      ).rejects.toThrow(`${results}: its results were thought at go nodes 2000, not 3000`);
      const junk = path.join(dir, "junk.json");
      writeFileSync(junk, "{ not json");
      await expect(
        benchReplay({ book: file, results: junk, selections: 1, inFlight: 1, window: 1, nodes: 2000, engine: FAIRY, print: () => {} }),
      ).rejects.toThrow(`${junk}: not a replay record`);
    },
  );
});

describe("horu bench replay --instant", () => {
  it("engines answer at once: no engine runs, the made-up results repeat, and it prints positions/s", { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const file = path.join(dir, "i.horu");
    OpenBook.create(file).close();
    const run = async () => {
      const lines: string[] = [];
      const r = await benchReplay({
        book: file,
        results: path.join(dir, "none.json"),
        selections: 60,
        inFlight: 8,
        window: 30,
        nodes: 2000,
        engine: "/nonexistent/engine",
        instant: true,
        print: (l) => lines.push(l),
      });
      return { r, lines };
    };
    const first = await run();
    expect([first.r.thought, first.r.replayed, first.r.madeUp]).toEqual([0, 0, 60]);
    expect(first.r.perSecond).toBeGreaterThan(0);
    expect(first.lines.at(-1)).toMatch(/positions\/s given back and handed out \(8 in flight\), [0-9,]+ a CPU-second/);
    expect(existsSync(path.join(dir, "none.json"))).toBe(false);
    // The spread of the selection's CPU: shares of it, the costliest 5% holding at least the costliest 1%.
    const { afterBatch, top1, top5 } = first.r.selectionSpread;
    expect(afterBatch).toBeGreaterThan(0);
    expect(top1).toBeGreaterThan(0);
    expect(top5).toBeGreaterThanOrEqual(top1);
    expect(Math.max(afterBatch, top5)).toBeLessThanOrEqual(1);
    expect(first.lines.some((l) => /in the costliest 1% of selections, \d+% in the costliest 5%/.test(l))).toBe(true);
    const second = await run();
    expect(second.r.nodes).toEqual(first.r.nodes);
  });

  it("an instant result is the one the record-era code made up (USI moves shuffled), on positions of random play", () => {
    // The answer as it was first written: every legal move written as USI, then shuffled.
    const reference = (sfen: string): Candidate[] => {
      const legal = legalMovesOf(positionArgument(sfen)) ?? [];
      let h = 2166136261;
      for (let i = 0; i < sfen.length; i++) h = Math.imul(h ^ sfen.charCodeAt(i), 16777619) >>> 0;
      const next = () => (h = (Math.imul(h ^ (h >>> 15), 2246822507) + 0x9e3779b9) >>> 0);
      const moves = legal.slice();
      for (let i = moves.length - 1; i > 0; i--) {
        const j = next() % (i + 1);
        [moves[i], moves[j]] = [moves[j]!, moves[i]!];
      }
      const best = (next() % 401) - 200;
      return moves.slice(0, 8).map((move, i) => ({ move, value: best - i * 40, depth: 1, pv: [move] }));
    };
    const r = rng(43);
    let compared = 0;
    for (let game = 0; game < 20; game++) {
      const pos = Position.startpos();
      for (let ply = 0; ply < 60; ply++) {
        const sfen = pos.sfenKey();
        expect(instantResult(sfen)).toEqual(reference(sfen));
        compared++;
        const legal = pos.legalMoves();
        if (legal.length === 0) break;
        pos.doMove(legal[Math.floor(r() * legal.length)]!);
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("an instant result is legal moves within the window, the same for the same position", () => {
    const sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    const a = instantResult(sfen);
    expect(a).toHaveLength(8);
    expect(instantResult(sfen)).toEqual(a);
    expect(a[0]!.value - a.at(-1)!.value).toBeLessThanOrEqual(300);
    expect(new Set(a.map((c) => c.move)).size).toBe(8);
  });
});
