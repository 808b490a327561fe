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
