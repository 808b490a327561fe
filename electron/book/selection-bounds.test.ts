// The selection's bounds saved beside a big book at close and taken at the next open, only
// when they were made for exactly the book the open finds.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OpenBook, SNAPSHOT_MIN_POSITIONS } from "./open-book.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { boundsPath, readBounds, takeBounds, writeBounds } from "./selection-bounds.js";
import { tempDir } from "../testing/paths.js";
import { firstSelection } from "../testing/first-selection.js";
import { synthBook } from "../../shared/synth/synth-graph.js";
import { Selector } from "../../shared/book/select.js";

describe("selection bounds saved with a big book", () => {
  it("are taken at the next open: the first selection goes on from them and hands out a new leaf", () => {
    const big = path.join(tempDir(), "bounds.horu");
    writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS);

    const cold = firstSelection(big);
    expect(cold.boundsRestored).toBe(false);
    const coldNodes = cold.nodes;
    expect(existsSync(boundsPath(big))).toBe(true);
    const saved = path.join(tempDir(), "saved-bounds");
    copyFileSync(boundsPath(big), saved);

    let book = OpenBook.open(big);
    expect(book.timings.boundsRestored).toBe(true);
    const warm = book.jobs.next()!;
    // On a book with cycles the order of a search can change which cyclic values it trusts
    // (docs/DESIGN.md §3.6), so the leaf is checked for what it must be, not against the cold one.
    expect(book.graph.find(warm.keyHi, warm.keyLo)).toBe(-1);
    expect(warm.line.length).toBeGreaterThan(0);
    expect(book.jobs.lastSelection!.stats.nodes, `cold ${coldNodes} nodes`).toBeLessThan(coldNodes / 2);
    const second = book.jobs.next()!;
    expect([second.keyHi, second.keyLo]).not.toEqual([warm.keyHi, warm.keyLo]);
    // A position thought: the book changed, and the bounds saved before it no longer fit.
    book.jobs.addResult(second, [], { kind: "engine", engine: "test", nodes: 1, depth: 1, timeMs: 1 });
    book.jobs.release(warm);
    book.close();
    copyFileSync(saved, boundsPath(big));
    book = OpenBook.open(big);
    expect(book.timings.boundsRestored).toBe(false);
    book.close();
  }, 180_000);

  it("are taken after a session that banned lines at the ply cap (bans that are not stored)", () => {
    const big = path.join(tempDir(), "ply-cap.horu");
    writeDigShapedBook(big, SNAPSHOT_MIN_POSITIONS);
    let book = OpenBook.open(big);
    // A ply cap above the book's first plies: lines reach it, and each is banned for the
    // selection only (it follows from the setting, so the next open starts without it).
    book.updateSettings({ maxPly: 3 });
    const jobs = [];
    for (let i = 0; i < 5; i++) {
      const job = book.jobs.next();
      if (job) jobs.push(job);
    }
    expect(book.graph.bans().length).toBeGreaterThan(book.store.bans.list().length);
    for (const job of jobs) book.jobs.release(job);
    book.close();
    book = OpenBook.open(big);
    try {
      expect(book.graph.bans()).toHaveLength(book.store.bans.list().length);
      expect(book.timings.boundsRestored).toBe(true);
    } finally {
      book.close();
    }
  }, 180_000);

  it("are read back whole, with the moves lower bounds rest on, and not at all when damaged", () => {
    const file = path.join(tempDir(), "round.horu-bounds");
    const n = 1000;
    const bounds = {
      value: Int16Array.from({ length: n }, (_, i) => ((i * 37) % 2001) - 1000),
      bound: Uint8Array.from({ length: n }, (_, i) => (i % 7 === 0 ? 0xff : i % 4)),
      reach: Uint8Array.from({ length: n }, (_, i) => i % 256),
      proof: Int32Array.from({ length: n }, (_, i) => (i % 5 === 0 ? -2 : (i * 13) % n)),
    };
    writeBounds(file, bounds, "fp");
    const back = readBounds(file, "fp")!;
    expect(back).not.toBeNull();
    for (const k of ["value", "bound", "reach", "proof"] as const) expect([...back[k]]).toEqual([...bounds[k]]);
    expect(readBounds(file, "another book")).toBeNull();
    // One bit flipped in a proof: a proof read wrong would keep a bound that no longer holds.
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 1;
    writeFileSync(file, bytes);
    expect(readBounds(file, "fp")).toBeNull();
    // Bounds saved with a SHA-1 (format 3, before the CRC-32) are still taken, and checked.
    const body = Buffer.concat(
      [bounds.value, bounds.bound, bounds.reach, bounds.proof].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)),
    );
    const sha1 = createHash("sha1").update(body).digest("hex");
    writeFileSync(file, Buffer.concat([Buffer.from(`HORU-BOUNDS 3\n${JSON.stringify({ fingerprint: "fp", nodes: n, sha1 })}\n`), body]));
    expect([...readBounds(file, "fp")!.proof]).toEqual([...bounds.proof]);
    body[body.length - 5] ^= 1;
    writeFileSync(file, Buffer.concat([Buffer.from(`HORU-BOUNDS 3\n${JSON.stringify({ fingerprint: "fp", nodes: n, sha1 })}\n`), body]));
    expect(readBounds(file, "fp")).toBeNull();
    // Written from a selector piece by piece (as a close writes them): the same bytes as
    // written from its bounds whole, read back as what the selector kept.
    const book = synthBook({ positions: 5000, seed: 3 });
    const sel = new Selector(book.graph);
    sel.select(book.root);
    const whole = sel.savedBounds();
    const wholeFile = path.join(tempDir(), "whole.horu-bounds");
    writeBounds(wholeFile, whole, "fp");
    writeBounds(file, sel.boundsSource(), "fp", 777);
    expect(readFileSync(file).equals(readFileSync(wholeFile))).toBe(true);
    const again = readBounds(file, "fp")!;
    for (const k of ["value", "bound", "reach", "proof"] as const) expect([...again[k]], k).toEqual([...whole[k]]);
    expect([...whole.bound].filter((b) => b !== 0xff).length).toBeGreaterThan(100);
    // Restored from the file a piece at a time (as an open restores them): the bounds it kept.
    const restored = new Selector(book.graph);
    expect(takeBounds(file, "fp", (source) => restored.restoreBounds(source, 777))).toBe(true);
    const back2 = restored.savedBounds();
    for (const k of ["value", "bound", "reach", "proof"] as const) expect([...back2[k]], k).toEqual([...whole[k]]);
    expect(takeBounds(file, "another book", () => expect.unreachable())).toBe(false);
    restored.close();
    sel.close();
    // Bounds saved by a horu that did not save the proofs are not taken (the next open searches).
    writeFileSync(file, Buffer.concat([Buffer.from('HORU-BOUNDS 2\n{"fingerprint":"fp","nodes":1}\n'), Buffer.alloc(4)]));
    expect(readBounds(file, "fp")).toBeNull();
  });
});
