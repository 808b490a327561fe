// `horu engines add` on an engine that never answers: a wrapper script whose
// child holds the pipes used to leave `horu` waiting forever after "no usiok"; the whole
// process group is killed and the command exits non-zero at once.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { HORU, tempDir } from "../../testing/paths.js";
import { markedProcesses } from "../../testing/terminal.js";

function horu(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [HORU, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "",
      stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // A hang guard, not a speed test (the suite runs on loaded machines): the wrapper's child
    // sleeps 300 s, so a horu that waits on it fails here. How long the exit took is printed.
    const hung = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`horu ${args.join(" ")} did not exit within 60 s; it printed:\n${stdout}${stderr}`));
    }, 60_000);
    child.on("exit", (code) => {
      clearTimeout(hung);
      resolve({ code, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

describe.skipIf(process.platform === "win32")("horu engines add: an engine that never answers", () => {
  it("a wrapper whose child sleeps with the pipes: killed with its child, exits 1 promptly", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const wrapper = path.join(dir, "wrapper.sh");
    writeFileSync(wrapper, "#!/bin/sh\n# starts the 'engine', which never says usiok and keeps the pipes open\nsleep 300\n");
    chmodSync(wrapper, 0o755);
    const mark = `horu-engines-${randomUUID()}`;
    const config = path.join(dir, "config");
    const r = await horu(["engines", "add", wrapper, "--timeout", "1"], { HORU_CONFIG_DIR: config, HORU_TERMINAL_MARK: mark });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/no usiok within 1000 ms/);
    expect(r.stderr).toMatch(/is not a working USI engine/);
    // Node's start, the 1 s wait and the kill: nothing waits on the sleeping child (the hang guard
    // in horu() fails the test if it does).
    console.log(`horu engines add on a silent wrapper exited after ${(r.ms / 1000).toFixed(1)} s`);
    await expect.poll(() => markedProcesses(mark), { timeout: 30_000, message: "the wrapper's child outlived horu" }).toEqual([]);
    expect(existsSync(path.join(config, "engines.json"))).toBe(false);
  });

  it("a SIGTERM or a terminal's hangup to horu alone ends the engines it started too", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const wrapper = path.join(dir, "wrapper.sh");
    writeFileSync(wrapper, "#!/bin/sh\nsleep 300\n");
    chmodSync(wrapper, 0o755);
    for (const [signal, code] of [
      ["SIGTERM", 143],
      ["SIGHUP", 129],
    ] as const) {
      const mark = `horu-engines-${randomUUID()}`;
      const child = spawn(process.execPath, [HORU, "engines", "test", wrapper], {
        env: { ...process.env, HORU_CONFIG_DIR: path.join(dir, "config"), HORU_TERMINAL_MARK: mark },
        stdio: "ignore",
      });
      const exited = new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
      // The engine's own group: the wrapper and its sleeping child, both waiting for a usiok.
      await expect.poll(() => markedProcesses(mark).filter((p) => p.pid !== child.pid).length, { timeout: 60_000 }).toBe(2);
      child.kill(signal);
      expect(await exited).toBe(code);
      // The SIGKILL to the engine's group is sent before horu exits; on a loaded machine the
      // killed processes may take a moment to go. Unkilled, the sleep would stay for 300 s.
      await expect.poll(() => markedProcesses(mark), { timeout: 30_000, message: `left behind after ${signal}` }).toEqual([]);
    }
  });

  it("--timeout must be a whole number of seconds", async () => {
    const r = await horu(["engines", "add", "/bin/true", "--timeout", "0.5"], { HORU_CONFIG_DIR: path.join(tempDir(), "config") });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timeout must be a whole number >= 1/);
  });
});
