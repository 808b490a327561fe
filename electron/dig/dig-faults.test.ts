// Dig-loop faults found in review: every engine failing mid-dig, and Ctrl-C while the
// engines are still starting. Both must end the dig, never spin or hang.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { Dig, type DigEvent } from "./dig.js";
import { FAKE_ENGINE, HORU, tempDir } from "../testing/paths.js";

describe("dig faults", () => {
  it("stops with an error when every engine has failed, instead of selecting forever", { timeout: 60_000 }, async () => {
    const dir = tempDir();
    // Starts once (and crashes mid-think), then refuses to start again.
    const wrapper = path.join(dir, "once.mjs");
    writeFileSync(
      wrapper,
      `
import { existsSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
const marker = ${JSON.stringify(path.join(dir, "started"))};
if (existsSync(marker)) { process.stderr.write("cannot start again\\n"); process.exit(2); }
writeFileSync(marker, "1");
const r = spawnSync(process.execPath, [${JSON.stringify(FAKE_ENGINE)}, "--mode", "crash-mid-think", "--delay", "50"], { stdio: "inherit" });
process.exit(r.status ?? 1);
`,
    );
    const book = OpenBook.create(path.join(dir, "b.horu"), { limit: { nodes: 1000 } });
    const events: DigEvent[] = [];
    const dig = new Dig(book, {
      engines: [{ command: process.execPath, args: [wrapper], name: "once", timeouts: { usiokMs: 3000, readyokMs: 3000 } }],
      onEvent: (e) => events.push(e),
    });
    const summary = await dig.run();
    expect(summary.thought).toBe(0);
    expect(dig.progress.state).toBe("stopped");
    expect(events.some((e) => e.kind === "error" && /every engine has failed/.test(e.message))).toBe(true);
    expect(book.jobs.inFlight).toEqual([]);
    book.close();
  });

  it("Ctrl-C while the engines are still starting ends `horu dig` cleanly", { timeout: 60_000 }, async () => {
    const file = path.join(tempDir(), "b.horu");
    const child = spawn(
      process.execPath,
      [HORU, "dig", "--book", file, "--engine", `${process.execPath} ${FAKE_ENGINE} --mode slow-readyok --delay 1500`],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    const started = new Promise<void>((resolve) => {
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        if (/digging( \([a-z-]+\))? from/.test(stderr)) resolve();
      });
    });
    await started;
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("finishing the running thinks");
  });
});
