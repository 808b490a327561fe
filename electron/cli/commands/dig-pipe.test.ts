// `horu dig --print-results | head -3`: the reader of horu's output goes away. horu used to
// die of an unhandled EPIPE with a stack trace, its lock left behind; now it stops as a
// SIGTERM stops it: the running thinks stored, exit 0, the book sound and free for the next.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import path from "node:path";
import { BookStore } from "../../store/book-store.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../../testing/paths.js";
import { missing } from "../../testing/missing.js";

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`horu dig whose output is closed (${NO_ENGINE})`, () => {
  it("stops cleanly when the reader of its output goes away", { timeout: 120_000 }, async () => {
    const file = path.join(tempDir(), "pipe.horu");
    const child = spawn(
      process.execPath,
      [HORU, "dig", "--book", file, "--engine", FAIRY, "--engines", "1", "--option", "Threads=1", "--nodes", "5000", "--print-results"],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HORU_HUGE_PAGES: "0" } },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    // Read three results, then close the pipe as `head -3` does.
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        for (const m of out.matchAll(/^stored (.+)$/gm)) if (!seen.includes(m[1]!)) seen.push(m[1]!);
        if (seen.length >= 3) resolve();
      });
    });
    child.stdout.destroy();
    const code = await exited;
    expect(stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/stopped: \d+ thought/);
    // Nobody sent a SIGTERM: the reason given is the one there was.
    expect(stderr).toMatch(/output closed: finishing the running thinks/);
    expect(stderr).not.toMatch(/SIGTERM:/);
    // Sound, with every result it printed, and no lock left: it opens for writing at once.
    const store = BookStore.open(file);
    try {
      expect(store.integrityCheck()).toBe("ok");
      for (const s of seen) expect(store.thoughts.has(s), `lost ${s}`).toBe(true);
    } finally {
      store.close();
    }
  });
});
