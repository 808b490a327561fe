// An engine path that names a folder or a file without execute permission: the start says
// which, in words (it said "spawn /tmp EACCES"), in horu dig, match and engines test alike.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UsiEngine } from "./engine.js";
import { HORU, tempDir } from "../../testing/paths.js";

async function startError(command: string): Promise<string> {
  const e = new UsiEngine({ command, args: [] });
  try {
    await e.start();
    return "started";
  } catch (err) {
    return String((err as Error).message);
  } finally {
    e.kill();
    await e.exited;
  }
}

describe("an engine path that is no program", () => {
  it("a folder is said to be a folder", async () => {
    const dir = tempDir();
    expect(await startError(dir)).toBe(
      `cannot start engine ${dir}: ${dir} is a folder, not a program (EACCES): name the engine's executable inside it`,
    );
  });

  it("a file without execute permission is said to be not executable, with the chmod that fixes a program", async () => {
    const dir = tempDir();
    const file = path.join(dir, "engine.sh");
    writeFileSync(file, "#!/bin/sh\necho usiok\n", { mode: 0o644 });
    expect(await startError(file)).toBe(
      `cannot start engine ${file}: ${file} is not executable (EACCES): not a program, or a program without its execute permission (chmod +x ${file})`,
    );
    // horu engines test says it once (it added "(it is not an executable program)" to the system's words).
    const r = spawnSync(process.execPath, [HORU, "engines", "test", file], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `horu engines: ${file} is not a working USI engine: cannot start engine ${file}: ${file} is not executable (EACCES): not a program, or a program without its execute permission (chmod +x ${file})\n`,
    );
  });

  it("a program that ends before usiok is said to have ended before finishing the USI handshake", async () => {
    const dir = tempDir();
    const file = path.join(dir, "hello.sh");
    writeFileSync(file, "#!/bin/sh\necho hello\n", { mode: 0o755 });
    expect(await startError(file)).toBe("hello.sh: engine process ended (exit code 0) before finishing the USI handshake (no usiok)");
  });
});
