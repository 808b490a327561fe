import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { benchStore } from "./store.js";

it("benchStore runs on a small book and prints its figures", async () => {
  const dir = mkdtempSync(join(tmpdir(), "horu-bench-"));
  try {
    const lines = await benchStore(dir, { positions: [2_000], batch: 500, singles: 5 });
    expect(lines[0]).toBe("store 2,000 positions x 6 moves:");
    expect(lines.join("\n")).toMatch(/positions\/s[\s\S]*bytes\/position/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
