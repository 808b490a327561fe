// `horu select --json` says why a leaf was chosen: its value, the bans made on the way (with
// reasons), the nodes searched and the cyclic values trusted.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../../book/open-book.js";
import { growBook } from "../../testing/grow.js";
import { HORU, tempDir } from "../../testing/paths.js";
import { nextLeaves } from "./select.js";

describe("horu select --json", () => {
  it("gives each leaf's value, the bans made with reasons, nodes searched and cyclic values trusted", () => {
    const file = path.join(tempDir(), "b.horu");
    const book = OpenBook.create(file);
    growBook(book, 8);
    book.close();
    const plain = OpenBook.open(file, {}, { readonly: true });
    try {
      const { leaves } = nextLeaves(plain, 2);
      expect(leaves).toHaveLength(2);
      for (const l of leaves) {
        expect(typeof l.leafValue).toBe("number");
        expect(l.nodes).toBeGreaterThan(0);
        expect(l.searches).toBe(1 + l.bans.length);
        expect(l.cyclicTrusted).toBeGreaterThanOrEqual(0);
      }
    } finally {
      plain.close();
    }
    // With an eval limit of 1 cp the leaves the book prefers are beyond it: banned, each with its reason.
    const capped = OpenBook.open(file, { evalLimit: 1 }, { readonly: true });
    try {
      const { leaves } = nextLeaves(capped, 1);
      const bans = leaves.flatMap((l) => l.bans);
      expect(bans.length).toBeGreaterThan(0);
      for (const b of bans) {
        expect(["repetition", "terminal", "ply-cap", "limit"]).toContain(b.reason);
        expect(b.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$|^[PLNSGBR]\*[1-9][a-i]$/);
        expect(Array.isArray(b.line)).toBe(true);
      }
      expect(bans.some((b) => b.reason === "limit")).toBe(true);
    } finally {
      capped.close();
    }
  });
});

describe("horu and a damaged book", () => {
  it("names the book in SQLite's own errors (a book cut short: 'database disk image is malformed')", () => {
    const dir = tempDir();
    const file = path.join(dir, "whole.horu");
    const book = OpenBook.create(file);
    growBook(book, 400);
    book.close();
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(16 * 4096);
    // The first half, on a page boundary: its header says more pages than there are.
    const cut = path.join(dir, "cut.horu");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2 / 4096) * 4096));
    const r = spawnSync(process.execPath, [HORU, "select", "--book", cut], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^horu select: .*cut\.horu: (database disk image is malformed|file is not a database)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("horu select's text", () => {
  it("says whose each value is: the root's side to move, and the side that plays the leaf's move", () => {
    for (const [root, rootSide] of [
      ["startpos", "Black"],
      ["startpos moves 7g7f", "White"],
    ] as const) {
      const file = path.join(tempDir(), "b.horu");
      const book = OpenBook.create(file, { root });
      growBook(book, 6);
      book.close();
      const r = spawnSync(process.execPath, [HORU, "select", "--book", file, "--count", "3"], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const lines = [
        ...r.stdout.matchAll(
          /^\d+\. (\S.*?) {2}\[root value [+-]?\d+ for (\w+) \(to move\), leaf move's value [+-]?\d+ for (\w+) \(who plays it\)\]$/gm,
        ),
      ];
      expect(lines.length, r.stdout).toBe(3);
      for (const [, line, rootFor, leafFor] of lines) {
        expect(rootFor).toBe(rootSide);
        const odd = line!.split(" ").length % 2 === 1;
        expect(leafFor).toBe(odd ? rootSide : rootSide === "Black" ? "White" : "Black");
      }
    }
  });
});
