import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseRecordText } from "./kifu.js";
import { seedFromFiles, seedFromParsed } from "./seed.js";
import { collectStats, gameEdges } from "./stats.js";
import { randomGameLines } from "../testing/random-play.js";

const DATA = fileURLToPath(new URL("./testdata/", import.meta.url));
const read = (rel: string): Uint8Array => new Uint8Array(readFileSync(DATA + rel));

const S0 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";

// Three tiny CSA games: black wins two with 7g7f, white wins one after 2g2f.
const CSA = [
  "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n", // black played last, white resigns -> black wins
  "V2.2\nPI\n+\n+7776FU\n-8384FU\n%TORYO\n", // black to move resigns -> white wins
  "V2.2\nPI\n+\n+2726FU\n-3334FU\n+2625FU\n-2233KA\n%TORYO\n", // white wins
].join("/\n");

describe("collection statistics", () => {
  test("played, wins, losses per position and move", () => {
    const file = parseRecordText(CSA, "three.csa");
    expect(file.errors).toEqual([]);
    const stats = collectStats(file.games);
    expect(stats.games).toBe(3);
    expect(stats.gamesWithResult).toBe(3);
    expect(stats.get(S0, "7g7f")).toEqual({ played: 2, wins: 1, losses: 1, draws: 0 });
    expect(stats.get(S0, "2g2f")).toEqual({ played: 1, wins: 0, losses: 1, draws: 0 });
    expect(stats.movesOf(S0).map((m) => m.move)).toEqual(["7g7f", "2g2f"]);
    expect(stats.winRate(S0, "7g7f")).toBe(0.5);
    const afterBoth = file.games[0].positions[1];
    expect(stats.get(afterBoth, "3c3d")).toEqual({ played: 1, wins: 0, losses: 1, draws: 0 });
    expect(stats.get(afterBoth, "8c8d")).toEqual({ played: 1, wins: 1, losses: 0, draws: 0 });
  });

  test("variations count with their own ending (kif branches)", () => {
    const kif = [
      "手合割：平手",
      "手数----指手---------消費時間--",
      "   1 ７六歩(77)",
      "   2 ３四歩(33)",
      "   3 投了",
      "",
      "変化：2手",
      "   2 ８四歩(83)",
      "   3 ２六歩(27)",
      "   4 投了",
    ].join("\n");
    const file = parseRecordText(kif, "b.kif");
    expect(file.errors).toEqual([]);
    const g = file.games[0];
    expect(g.branches).toBe(1);
    expect(g.result).toBe("white");
    expect(g.variations[0].result).toBe("black");
    const edges = gameEdges(g).map((e) => `${e.ply}:${e.move}:${e.mover}:${e.result}:${e.line}`);
    expect(edges).toEqual(["0:7g7f:black:white:0", "1:3c3d:white:white:0", "1:8c8d:white:black:1", "2:2g2f:black:black:1"]);
    const stats = collectStats([g]);
    // 7g7f is shared by both lines but counts once per game, with the main line's result.
    expect(stats.get(S0, "7g7f")).toEqual({ played: 1, wins: 0, losses: 1, draws: 0 });
    // 8c8d (white) on the variation, which white resigned at ply 4.
    expect(stats.get(g.positions[1], "8c8d")).toEqual({ played: 1, wins: 0, losses: 1, draws: 0 });
  });
});

describe("kifu seed set", () => {
  test("first N plies of every line, with filters", () => {
    const file = parseRecordText(CSA, "three.csa", { maxPly: 32 });
    const all = seedFromParsed([file], { plies: 32 });
    // Start + 3 + 2 + 4 positions, of which start, after 7g7f shared: 1 + 3 + 1 + 4 = 9 distinct.
    expect(all.seeds.size).toBe(9);
    expect(all.reports).toEqual([
      { file: "three.csa", format: "csa", encoding: "utf-8", records: 3, positions: 9, filtered: 0, errors: [] },
    ]);
    expect(all.seeds.get(S0)).toBe(0);
    expect(seedFromParsed([file], { plies: 1 }).seeds.size).toBe(3);
    // Played at least twice: only 7g7f from the start, then every continuation is rare.
    const common = seedFromParsed([file], { plies: 32, minCount: 2 });
    expect([...common.seeds.keys()]).toEqual([S0, file.games[0].positions[1]]);
    // Winner's moves only: game 1 (black won) seeds after 7g7f and 2g2f, games 2-3 (white won) after white's moves.
    const winners = seedFromParsed([file], { plies: 32, winnerOnly: true });
    expect(winners.seeds.size).toBe(1 + 2 + 1 + 2);
  });

  test("every test kifu file, and a 10,000-game collection (timed)", () => {
    const names = [
      "book_source-with-score_src01.kifu",
      "book_source_src01.ki2",
      "book_source_src03.csa",
      "book_source_src05.sfen",
      "conversion_input_csa-sjis.csa",
      "conversion_input_kif-sjis.kif",
      "conversion_input_kifu-utf8.kifu",
      "csa_v2.csa",
      "ki2_20091203.ki2",
      "ki2_8mai.ki2u",
      "kif_fork.kif",
      "kif_shogidokoro.kifu",
    ];
    const small = seedFromFiles(names.map((n) => ({ name: n, bytes: read("kifu/" + n) })));
    expect(small.reports.map((r) => [r.file, r.records, r.positions])).toEqual([
      ["book_source-with-score_src01.kifu", 1, 11],
      ["book_source_src01.ki2", 1, 11],
      ["book_source_src03.csa", 1, 11],
      ["book_source_src05.sfen", 2, 11], // 6 + 7 positions sharing the start and 7g7f
      ["conversion_input_csa-sjis.csa", 1, 21],
      ["conversion_input_kif-sjis.kif", 1, 7],
      ["conversion_input_kifu-utf8.kifu", 1, 20],
      ["csa_v2.csa", 1, 33], // 196 moves, first 32 plies
      ["ki2_20091203.ki2", 1, 33],
      ["ki2_8mai.ki2u", 1, 26],
      ["kif_fork.kif", 1, 13], // 15 listed, two repeats (7g7f and 2g2f on two lines each)
      ["kif_shogidokoro.kifu", 1, 20],
    ]);
    expect(small.reports.every((r) => r.errors.length === 0)).toBe(true);

    const bytes = new TextEncoder().encode(randomGameLines(10_000, 40, 3));
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const big = seedFromFiles([{ name: "collection.sfen", bytes }], { plies: 32 });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    // Wall time on a shared machine says little; CPU time (all threads, GC included) is printed beside it.
    console.log(
      `collection: parsed and seeded ${big.reports[0].records} games, ${big.seeds.size} distinct positions in ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
    );
    expect(big.reports[0].records).toBe(10_000);
    expect(big.reports[0].errors).toEqual([]);
    expect(big.seeds.size).toBe(big.reports[0].positions);
    expect(big.seeds.get(S0)).toBe(0);
    const t1 = performance.now();
    const filtered = seedFromParsed(big.files, { plies: 32, minCount: 10 });
    console.log(
      `collection: minCount 10 keeps ${filtered.seeds.size} positions (${(performance.now() - t1).toFixed(0)} ms with statistics)`,
    );
    expect(filtered.seeds.size).toBeLessThan(big.seeds.size);
    expect(filtered.seeds.size).toBeGreaterThan(1);
  });
});
