// horu's engine used as horu uses any engine: a dig through the engine pool, and fast
// self-play games in which every move must be legal.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BookStore } from "../../../store/index.js";
import { Position } from "../../../../shared/rules/position.js";
import { parseUsiMove } from "../../../../shared/rules/usi.js";
import { recordOpenings, selfplay } from "./selfplay.js";
import { HORU } from "../../../testing/paths.js";
import { randomGameLines } from "../../../../shared/testing/random-play.js";

// Openings from a generated `startpos moves` collection (the records2016 shape; that file stays outside the repository).
const RECORDS = path.join(mkdtempSync(path.join(tmpdir(), "horu-openings-")), "openings.sfen");
writeFileSync(RECORDS, randomGameLines(200, 16, 11));

describe("horu engine in use", () => {
  it("digs a book with horu dig: positions thought with MultiPV candidates that are legal moves", { timeout: 120_000 }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), "horu-engine-dig-"));
    try {
      const book = path.join(dir, "b.horu");
      const engine = `${process.execPath} ${HORU} engine`;
      const r = spawnSync(
        process.execPath,
        [
          HORU,
          "dig",
          "--book",
          book,
          "--engine",
          engine,
          "--engines",
          "1",
          "--depth",
          "3",
          "--multipv",
          "3",
          "--positions",
          "4",
          "--print-results",
          "--json",
        ],
        { encoding: "utf8", timeout: 110_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const stored = r.stdout
        .split("\n")
        .filter((l) => l.startsWith("stored "))
        .map((l) => l.slice(7).trim());
      expect(stored.length).toBe(4);
      const summary = JSON.parse(r.stdout.trim().split("\n").pop()!);
      expect(summary.thought).toBe(4);
      const store = BookStore.open(book, { readonly: true });
      try {
        for (const sfen of stored) {
          const t = store.thoughts.get(sfen)!;
          expect(t, sfen).toBeDefined();
          expect(t.candidates.length).toBe(3);
          const pos = Position.fromSfen(sfen);
          for (const c of t.candidates) expect(pos.isLegal(parseUsiMove(c.move)!), `${c.move} in ${sfen}`).toBe(true);
        }
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("plays only legal moves in fast self-play games (alpha-beta, each quiescence variant, and the hybrid)", { timeout: 300_000 }, () => {
    const games = process.env.HORU_SELFPLAY_GAMES ? Number(process.env.HORU_SELFPLAY_GAMES) : 4;
    const sum = selfplay({ games, nodes: 60, hybridEvery: 2, seed: 5, openings: recordOpenings(RECORDS, games, 5), maxPlies: 160 });
    expect(sum.games).toBe(games);
    expect(sum.illegal).toBe(0);
    expect(sum.moves).toBeGreaterThan(games * 20);
    expect(sum.black + sum.white + sum.draws).toBe(games);
  });
});
