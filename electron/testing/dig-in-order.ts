// The dig-order tests' `horu dig`: one fairy-stockfish and no positions selected ahead, so the
// order the book stores is the order the dig handed positions out; and their check that an
// option out of its range is refused, naming it, before a book is created.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { FAIRY, HORU, tempDir } from "./paths.js";

/** Runs `horu dig` on `file` at 2,000 nodes, MultiPV 4, with `args` added; its standard output, then its standard error (the status lines). */
export function digInOrder(file: string, args: readonly string[]): string {
  const r = spawnSync(
    process.execPath,
    [HORU, "dig", "--book", file, "--engine", FAIRY, "--engines", "1", "--prefetch", "0"]
      .concat(["--option", "Threads=1", "--option", "USI_Hash=16", "--nodes", "2000", "--multipv", "4"])
      .concat(args),
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  if (r.status !== 0) throw new Error(`horu dig exited ${r.status}: ${r.stderr}`);
  return r.stdout + r.stderr;
}

/** Each `[argument, message]` makes `horu dig` exit 2 with the message and create no book. */
export function expectRefused(cases: ReadonlyArray<readonly [string, RegExp]>): void {
  const file = path.join(tempDir(), "x.horu");
  for (const [arg, message] of cases) {
    const r = spawnSync(process.execPath, [HORU, "dig", "--book", file, arg], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(file)).toBe(false);
  }
}
