// `horu bench web` as a user runs it, briefly, on a small dig-shaped book: every call the page
// makes is reported in both phases, with no errors, and the process exits 0 (times are only printed).
import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { writeDigShapedBook } from "./books/dig-shaped-book.js";
import { snapshotPath } from "../book/graph-snapshot.js";
import { HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

const CALLS = [
  "dig.status",
  "book.info",
  "book.recent",
  "match.status",
  "dig.history (chart)",
  "engines.list",
  "engines.ofBook",
  "book.bans",
  "backup.list",
  "book.node root",
  "book.node ply",
  "book.graph root",
  "book.graph",
  "book.lineTo ply",
];

describe.skipIf(process.platform !== "linux" || missing(haveFairy, "/usr/games/fairy-stockfish"))(`horu bench web (${NO_ENGINE})`, () => {
  const dir = tempDir("horu-bench-web-test-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("times every call the page makes, idle and while digging, then stops the dig and the server", { timeout: 120_000 }, async () => {
    const book = path.join(dir, "small.horu");
    writeDigShapedBook(book, 300);
    expect(existsSync(snapshotPath(book))).toBe(true);
    const { code, out, err } = await new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [
        HORU,
        "bench",
        "web",
        "--book",
        book,
        "--seconds",
        "2",
        "--nodes",
        "2000",
        "--engines",
        "3",
        "--dir",
        dir,
      ]);
      let out = "",
        err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, out, err }));
    });
    expect(code, err + out).toBe(0);
    const idle = out.indexOf("  idle (load ");
    const digging = out.indexOf("  digging (load ");
    expect(idle).toBeGreaterThan(0);
    expect(digging).toBeGreaterThan(idle);
    // Each call once per phase, with a count of at least one, and no call failed.
    for (const [from, to] of [
      [idle, digging],
      [digging, out.length],
    ]) {
      const rows = out
        .slice(from, to)
        .split("\n")
        .filter((l) => /^ {4}\S/.test(l) && !l.trimStart().startsWith("call "));
      for (const call of CALLS) {
        const row = rows.find((r) => r.trimStart().startsWith(call));
        expect(row, `${call} in ${out.slice(from, to)}`).toBeDefined();
        const count = Number(/^ {4}.+?\s{2,}(\d+)\s/.exec(row!)?.[1]);
        expect(count, row).toBeGreaterThan(0);
      }
    }
    expect(out).not.toContain("errors)");
    // The gaps between dig.status events are a figure, printed when two or more events landed in
    // the 2 s digging window: on a loaded machine none may, so the line is not required. It
    // belongs to the digging phase only.
    expect(out.slice(idle, digging)).not.toContain("dig.status events");
    expect(out.match(/dig\.status events: /g)?.length ?? 0).toBeLessThanOrEqual(1);
    // The dig ran the engines asked for (--engines), not the default two.
    expect(out).toMatch(/dig\.start answered in [\d.]+ ms, dig\.stop in [\d.]+ ms; \d+ positions thought in 2 s by 3 engines/);
    // The served copy is deleted afterwards.
    expect(readdirSync(dir).filter((f) => f.startsWith("horu-bench-web-"))).toEqual([]);
  });
});
