import { describe, expect, it } from "vitest";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { HostService } from "./service.js";
import { parseCall, type HostEvent, type Method } from "../../shared/api/contract.js";
import { FAIRY, NO_ENGINE, TEST_DATA, haveFairy, tempDir } from "../testing/paths.js";
import { parseDb2016 } from "../../shared/formats/db2016.js";
import { positionAfter, writeTranspositionBook } from "../testing/transposition-book.js";
import { missing } from "../testing/missing.js";

/** Calls through the same validation every transport uses. */
async function call<M extends Method>(s: HostService, method: M, args: unknown) {
  const parsed = parseCall(method, args);
  return s.call(method, parsed.args as never);
}

function waitFor(s: HostService, pred: (e: HostEvent) => boolean, ms: number): Promise<HostEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching event within ${ms} ms`));
    }, ms);
    const off = s.onEvent((e) => {
      if (pred(e)) {
        clearTimeout(timer);
        off();
        resolve(e);
      }
    });
  });
}

describe("the call contract", () => {
  it("rejects unknown methods and bad arguments with a message naming the field", () => {
    expect(() => parseCall("book.destroy", {})).toThrow(/unknown method/);
    for (const name of ["__proto__", "toString", "constructor"]) expect(() => parseCall(name, {})).toThrow(/unknown method/);
    expect(() => parseCall("book.open", { path: 42 })).toThrow(/book.open: invalid arguments at path/);
    expect(() => parseCall("dig.start", { processes: 0 })).toThrow(/processes/);
    expect(() => parseCall("book.open", { path: "/x", extra: 1 })).toThrow(/invalid arguments/);
    expect(parseCall("dig.start", {}).args).toEqual({ processes: 1 });
  });
});

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`the host service with a real engine (${NO_ENGINE})`, () => {
  it("creates a book, adds and tests an engine, digs, browses, seeds and exports", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const s = new HostService({ recentFile: path.join(dir, "recent.json"), configDir: dir });
    const info = await call(s, "book.create", { path: path.join(dir, "b.horu"), settings: { limit: { nodes: 2000 }, multipv: 3 } });
    expect(info.positions).toBe(0);
    const test = await call(s, "engines.test", { commandLine: FAIRY });
    expect(test.error ?? "").toBe("");
    expect(test.ok).toBe(true);
    expect(test.options?.some((o) => o.name === "Hash")).toBe(true);
    const bad = await call(s, "engines.test", { commandLine: "/no/such/engine" });
    expect(bad.ok).toBe(false);
    expect(bad.error).toContain("/no/such/engine");
    // A value the engine does not take: the test says so, and still brings the options (the form shows their ranges).
    const outOfRange = await call(s, "engines.test", { commandLine: FAIRY, options: { Threads: -5 } });
    expect(outOfRange).toMatchObject({
      ok: false,
      error: "engine fairy-stockfish: option Threads cannot be -5: it takes a whole number from 1 to 512",
    });
    expect(outOfRange.options?.find((o) => o.name === "Threads")).toMatchObject({ min: 1, max: 512 });
    await call(s, "engines.add", { commandLine: FAIRY, options: { Threads: 1, Hash: 16 } });
    expect(await call(s, "engines.list", {})).toHaveLength(1);

    const stopped = waitFor(s, (e) => e.type === "dig.status" && e.status.state === "stopped", 90_000);
    await call(s, "dig.start", { processes: 2, positions: 12 });
    await stopped;
    const status = await call(s, "dig.status", {});
    expect(status.thought).toBeGreaterThanOrEqual(12);
    expect(typeof status.bookValue).toBe("number");
    // After the dig, the engines Start would use now, not the last dig's (the library changed).
    const [lib] = await call(s, "engines.list", {});
    await call(s, "engines.update", { id: lib!.id, name: "renamed fairy", commandLine: FAIRY, options: { Threads: 1, Hash: 16 } });
    expect((await call(s, "dig.status", {})).choice?.names).toEqual(["renamed fairy"]);

    const root = await call(s, "book.node", { line: [] });
    expect(root.thought).toBe(true);
    expect(root.moves.length).toBeGreaterThan(0);
    expect(root.moves[0].kif).toMatch(/[１-９]/);
    expect(root.bound).not.toBeNull();
    const child = root.moves.find((m) => m.thought);
    expect(child).toBeDefined();
    const deeper = await call(s, "book.node", { line: [child!.usi] });
    expect(deeper.side).toBe("white");
    const [graph] = await call(s, "book.graph", { sfens: [root.sfen] });
    expect(graph.children.length).toBeGreaterThanOrEqual(root.moves.length);

    const kif = path.join(TEST_DATA, "kifu", "conversion_input_kifu-utf8.kifu");
    if (!missing(existsSync(kif), kif)) {
      const report = await call(s, "seed.paths", { paths: [kif] });
      expect(report.files[0].records).toBe(1);
      expect(report.positions).toBeGreaterThan(0);
    }

    const out = path.join(dir, "out.db");
    const exported = await call(s, "export.run", { path: out, format: "db", mode: "minimax" });
    expect(exported.positions).toBe(status.bookSize);
    const parsed = parseDb2016(readFileSync(out, "utf8"));
    expect(parsed.errors).toEqual([]);
    expect(parsed.blocks.length).toBe(status.bookSize);
    const bin = await call(s, "export.run", { path: path.join(dir, "out.bin"), format: "bin", mode: "raw" });
    expect(bin.bytes % 16).toBe(0);
    expect(bin.bytes).toBeGreaterThan(0);

    // A new root, not thought: no value, no line, no chart of the old root's values (they showed
    // negated, and the old line's moves were refused as not legal there).
    const history = (await call(s, "dig.history", {})).length;
    expect(history).toBeGreaterThan(0);
    // The same position written as an SFEN is no new root: the chart stays.
    await call(s, "book.updateSettings", { settings: { root: "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" } });
    expect((await call(s, "dig.history", {})).length).toBe(history);
    const newRoot = "sfen 4k4/9/4P4/9/9/9/9/9/4K4 w G 1";
    await call(s, "book.updateSettings", { settings: { root: newRoot } });
    const afterRoot = await call(s, "dig.status", {});
    expect([afterRoot.state, afterRoot.rootValue, afterRoot.pv, afterRoot.bookValue, afterRoot.bookPv]).toEqual([
      "stopped",
      null,
      [],
      null,
      [],
    ]);
    expect(await call(s, "dig.history", {})).toEqual([]);

    await call(s, "book.close", {});
    expect(await call(s, "book.recent", {})).toEqual([path.join(dir, "b.horu")]);
    expect(JSON.parse(readFileSync(path.join(dir, "recent.json"), "utf8"))).toEqual([path.join(dir, "b.horu")]);
  });

  it("changes settings while digging and while paused without reopening; status reads counters", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const s = new HostService({ configDir: dir }); // its own engine library
    await call(s, "book.create", { path: path.join(dir, "live.horu"), settings: { limit: { nodes: 1500 }, multipv: 2 } });
    await call(s, "engines.add", { commandLine: FAIRY, options: { Threads: 1, Hash: 16 } });
    const book = (s as unknown as { book: import("../book/open-book.js").OpenBook }).book;
    const graph = book.graph;
    let plainSearches = 0;
    const bookValue = book.bookValue.bind(book);
    book.bookValue = () => (plainSearches++, bookValue());

    const some = waitFor(s, (e) => e.type === "dig.status" && e.status.thought > 0, 60_000);
    await call(s, "dig.start", { processes: 1 });
    await some;
    // Digging: a change is taken by the open book (the same graph), and the dig goes on.
    const changed = await call(s, "book.updateSettings", { settings: { windowCp: 150, kifuBonus: 40 } });
    expect(changed.settings).toMatchObject({ windowCp: 150, kifuBonus: 40 });
    expect((s as unknown as { book: unknown }).book).toBe(book);
    expect(book.graph).toBe(graph);
    expect(graph.kifuBonus).toBe(40);
    // The status the UI polls reads counters: 200 calls while digging run no plain book search.
    const before = plainSearches;
    for (let i = 0; i < 200; i++) expect((await call(s, "dig.status", {})).state).toBe("digging");
    expect(plainSearches - before).toBeLessThanOrEqual(1);

    // Paused: change again, resume, and the next positions are thought under the new limit.
    await call(s, "dig.pause", {});
    await waitFor(s, (e) => e.type === "dig.status" && e.status.state === "paused", 60_000).catch(async () => {
      expect((await call(s, "dig.status", {})).state).toBe("paused");
    });
    await call(s, "book.updateSettings", { settings: { multipv: 1, limit: { nodes: 800 } } });
    expect(book.settings).toMatchObject({ multipv: 1, limit: { nodes: 800 }, windowCp: 150 });
    const pausedAt = (await call(s, "dig.status", {})).thought;
    const storedBefore = book.store.thoughts.maxId();
    const next = waitFor(s, (e) => e.type === "dig.status" && e.status.thought > pausedAt, 60_000);
    await call(s, "dig.resume", {});
    await next;
    expect((await call(s, "dig.status", {})).thought).toBeGreaterThan(pausedAt);
    // Thought after the change: one candidate (MultiPV 1) at 800 nodes.
    await call(s, "dig.stop", {});
    // The first position stored after the change.
    const [stored] = book.store.thoughts.since(storedBefore, 1);
    expect(stored.candidates).toHaveLength(1);
    expect(stored.provenance).toMatchObject({ kind: "engine", nodes: expect.any(Number) });
    if (stored.provenance.kind === "engine") expect(stored.provenance.nodes).toBeLessThan(1500);
    // The settings are in the file.
    await call(s, "book.close", {});
    const reopened = await call(s, "book.open", { path: path.join(dir, "live.horu") });
    expect(reopened.settings).toMatchObject({ multipv: 1, limit: { nodes: 800 }, windowCp: 150, kifuBonus: 40 });
    await call(s, "book.close", {});
  });
});

describe("bans", () => {
  it("pages the bans with the line stored when each was made", async () => {
    const dir = tempDir();
    const s = new HostService();
    await call(s, "book.create", { path: path.join(dir, "bans.horu"), settings: {} });
    const book = (s as unknown as { book: import("../book/open-book.js").OpenBook }).book;
    const rows = Array.from({ length: 7 }, (_, i) => ({
      sfen: `sfen-${i}`,
      keyHi: i,
      keyLo: i + 1,
      move: "7g7f",
      reason: "repetition",
      line: ["7g7f", "3c3d"].slice(0, i % 3),
    }));
    expect(book.store.bans.addMany(rows)).toBe(7);
    expect(book.store.bans.addMany(rows.slice(0, 2))).toBe(0); // already banned
    const first = await call(s, "book.bans", { offset: 0, limit: 3 });
    expect(first.total).toBe(7);
    expect(first.bans.map((b) => b.sfen)).toEqual(["sfen-0", "sfen-1", "sfen-2"]);
    expect(first.bans.map((b) => b.line)).toEqual([[], ["7g7f"], ["7g7f", "3c3d"]]);
    const last = await call(s, "book.bans", { offset: 6, limit: 3 });
    expect(last.bans.map((b) => b.sfen)).toEqual(["sfen-6"]);
    expect(() => parseCall("book.bans", { limit: 0 })).toThrow(/limit/);
    await call(s, "book.close", {});
  });
});

describe("a book opened to browse, not dug", () => {
  it("shows its value, its best line and the bounds of the book and tree views", async () => {
    const file = path.join(tempDir(), "t.horu");
    writeTranspositionBook(file);
    const s = new HostService();
    await call(s, "book.open", { path: file });
    const status = await call(s, "dig.status", {});
    expect(status.state).toBe("idle");
    // 7g7f 3c3d 2g2f 4c4d: each side's best by the minimax of the crafted values.
    expect(status.pv).toEqual(["7g7f", "3c3d", "2g2f", "4c4d"]);
    expect(status.rootValue).toBe(50);
    const [root] = await call(s, "book.graph", { sfens: [positionAfter([]).sfenKey()] });
    expect(root.bound).toMatchObject({ value: 50 });
    expect(root.children.find((c) => c.usi === "7g7f")!.childBound).not.toBeNull();
    const node = await call(s, "book.node", { line: [] });
    expect(node.moves.find((m) => m.usi === "7g7f")!.searchValue).toBe(50);
    await call(s, "book.close", {});
  });
});

describe("the graph neighbourhood for the tree", () => {
  it("gives a position's children with their bounds and every thought parent of a transposition", async () => {
    const dir = tempDir();
    const file = path.join(dir, "t.horu");
    writeTranspositionBook(file);
    const s = new HostService();
    await call(s, "book.open", { path: file });
    await call(s, "dig.status", {});
    const x = positionAfter(["7g7f", "3c3d", "2g2f"]);
    const [root, node] = await call(s, "book.graph", { sfens: [positionAfter([]).sfenKey(), x.sfenKey()] });
    expect(root.state).toBe("thought");
    expect(root.side).toBe("black");
    expect(root.parents).toEqual([]);
    expect(root.children.map((c) => c.usi).sort()).toEqual(["2g2f", "5g5f", "7g7f"]);
    const c7 = root.children.find((c) => c.usi === "7g7f")!;
    expect(c7.state).toBe("thought");
    expect(c7.to).toBe(positionAfter(["7g7f"]).sfenKey());
    expect(root.children.find((c) => c.usi === "5g5f")!.state).toBe("leaf");
    expect(root.children.find((c) => c.usi === "5g5f")!.engineValue).toBe(-80);

    expect(node.state).toBe("thought");
    expect(node.side).toBe("white");
    expect(node.thinkDepth).toBe(12);
    expect(node.parents.map((p) => p.usi).sort()).toEqual(["2g2f", "7g7f"]);
    expect(node.parents.map((p) => p.sfen).sort()).toEqual(
      [positionAfter(["7g7f", "3c3d"]).sfenKey(), positionAfter(["2g2f", "3c3d"]).sfenKey()].sort(),
    );
    // Both parents' edges to it say it has two thought parents.
    const [p1] = await call(s, "book.graph", { sfens: [node.parents[0].sfen] });
    expect(p1.children.find((c) => c.to === x.sfenKey())!.childParents).toBe(2);

    expect(await call(s, "book.lineTo", { sfen: x.sfenKey() })).toHaveLength(3);
    expect(await call(s, "book.lineTo", { sfen: positionAfter(["5g5f"]).sfenKey() })).toBeNull();
    await expect(call(s, "book.graph", { sfens: ["nonsense"] })).rejects.toThrow(/not a position/);
    await call(s, "book.close", {});
  });
});
