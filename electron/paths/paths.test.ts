import { describe, expect, it } from "vitest";
import { linkSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sameFile } from "./same-file.js";
import { bundledFile, findBundled } from "./bundled.js";

describe("sameFile", () => {
  it("knows one file by its hard links and symlinks, two files apart, and a path not there yet by its text", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "horu-same-"));
    try {
      const a = path.join(dir, "a"),
        b = path.join(dir, "b");
      writeFileSync(a, "x");
      writeFileSync(b, "x");
      linkSync(a, path.join(dir, "hard"));
      symlinkSync(a, path.join(dir, "soft"));
      expect(sameFile(a, path.join(dir, "hard"))).toBe(true);
      expect(sameFile(path.join(dir, "soft"), a)).toBe(true);
      expect(sameFile(a, b)).toBe(false);
      expect(sameFile(path.join(dir, "new"), path.join(dir, ".", "new"))).toBe(true);
      expect(sameFile(path.join(dir, "new"), a)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("bundledFile", () => {
  it("finds the workers and runners the build put in dist/, and names dist/ for one that is not there", () => {
    // The global setup builds dist/ before the tests.
    for (const name of [
      "host-worker.cjs",
      "engine-worker.cjs",
      "export-worker.cjs",
      "peta-worker.cjs",
      "seed-worker.cjs",
      "settle-worker.cjs",
      "engines/horu.cjs",
    ])
      expect(findBundled(name)).toBe(path.resolve("dist", name));
    expect(findBundled("no-such-worker.cjs")).toBeNull();
    expect(bundledFile("no-such-worker.cjs")).toBe(path.resolve("dist", "no-such-worker.cjs"));
  });
});
