// Engines on another machine, for real: Debian's sshd on 127.0.0.1 (a free port, a throwaway
// host key and user key), two fairy-stockfish engines reached through `ssh ... engine`, one
// connection cut mid-think by killing the sshd process serving it while sshd itself is down.
// The position is thought again by the other engine, nothing is lost, and the cut engine is
// reconnected with back-off once sshd is back.
import { describe, expect, it } from "vitest";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import { OpenBook } from "../../book/open-book.js";
import { Dig, type DigEvent } from "../../dig/dig.js";
import { BookStore } from "../../store/book-store.js";
import { engineFromCommandLine } from "../command-line.js";
import { EngineLibrary } from "../library.js";
import { specFromConfig } from "../choose.js";
import { FAIRY, tempDir } from "../../testing/paths.js";
import { Position } from "../../../shared/rules/position.js";

const SSHD = "/usr/sbin/sshd";
const ready = existsSync(SSHD) && existsSync("/usr/bin/ssh") && existsSync(FAIRY);
if (process.env.CI && !ready)
  throw new Error(
    "the SSH test needs openssh-server, openssh-client and fairy-stockfish (apt-get install openssh-server openssh-client fairy-stockfish); CI installs them",
  );

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The processes whose parent is `pid` (Linux). */
function children(pid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, "127.0.0.1");
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });
}

/** sshd in the foreground on 127.0.0.1:port, errors to stderr; resolves once it accepts connections. */
async function startSshd(config: string, port: number): Promise<ChildProcess> {
  const p = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  let exited: number | null | undefined;
  p.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  p.once("exit", (code) => (exited = code));
  const deadline = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (exited !== undefined) throw new Error(`sshd exited (${exited}):\n${err}`);
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port} within 20 s:\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return p;
}

describe.skipIf(!ready)("engines over SSH", () => {
  it(
    "digs with two engines through sshd, survives a connection cut mid-think and reconnects with back-off",
    { timeout: 180_000 },
    async () => {
      const dir = tempDir("horu-ssh-");
      const port = await freePort();
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.join(dir, "host_key")]);
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.join(dir, "user_key")]);
      writeFileSync(path.join(dir, "authorized_keys"), readFileSync(path.join(dir, "user_key.pub")));
      const config = path.join(dir, "sshd_config");
      writeFileSync(
        config,
        [
          `Port ${port}`,
          "ListenAddress 127.0.0.1",
          `HostKey ${path.join(dir, "host_key")}`,
          `PidFile ${path.join(dir, "sshd.pid")}`,
          `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
          "PasswordAuthentication no",
          "KbdInteractiveAuthentication no",
          "PermitRootLogin prohibit-password",
          "StrictModes no",
          "UsePAM no",
          "LogLevel ERROR",
          "",
        ].join("\n"),
      );
      if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true }); // sshd's privilege separation folder
      let sshd = await startSshd(config, port);
      const cleanup: ChildProcess[] = [sshd];
      try {
        const user = userInfo().username;
        const line = `ssh -p ${port} -i ${path.join(dir, "user_key")} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR ${user}@127.0.0.1 ${FAIRY}`;
        // The library stores a remote engine like a local one: a command line, split without a shell.
        const library = new EngineLibrary(dir);
        const stored = library.add({ ...toConfig(line), name: "remote fairy" });
        expect(library.list()[0]).toMatchObject({ command: "ssh", args: expect.arrayContaining([`${user}@127.0.0.1`, FAIRY]) });
        const engines = [1, 2].map((i) => ({ ...specFromConfig(stored), name: `ssh#${i}` }));

        const file = path.join(dir, "remote.horu");
        const book = OpenBook.create(file, { limit: { nodes: 150_000 }, multipv: 3 });
        const events: Array<DigEvent & { at: number }> = [];
        let cut: { engine: string; sfen: string | null } | null = null;
        let restart: Promise<void> | null = null;
        let restarted = false;
        let lostEngine: string | null = null;
        let cameBack = false;
        let stopping = false;
        let results = 0;
        // The dig runs until the cut engine, reconnected, has stored a result and 12 are stored:
        // a fixed position count could be used up by the other engine alone while sshd is down.
        const dig: Dig = new Dig(book, {
          engines,
          positions: 400,
          onEvent: (e) => {
            events.push({ ...e, at: Date.now() });
            if (e.kind === "result") results++;
            if (e.kind === "engine-failure" && e.sfen !== null) lostEngine = e.engine;
            if (e.kind === "result" && restarted && e.engine === lostEngine) cameBack = true;
            if (cameBack && !stopping && results >= 12) {
              stopping = true;
              void dig.stop();
            }
            if (cut === null && e.kind === "info" && results >= 2 && (e.info.nodes ?? 0) > 0) {
              // sshd goes down (its sessions stay up), then the session serving one engine is killed.
              const sessions = children(sshd.pid!);
              if (sessions.length !== 2) return;
              cut = { engine: `ssh#${e.engine + 1}`, sfen: null };
              sshd.kill("SIGKILL");
              process.kill(sessions[0]!, "SIGKILL");
              // sshd comes back 2.5 s later; the cut engine's reconnection attempts fail until then.
              restart = new Promise((r) => setTimeout(r, 2500)).then(async () => {
                sshd = await startSshd(config, port);
                cleanup.push(sshd);
                restarted = true;
              });
            }
          },
        });
        const summary = await dig.run();
        await restart;
        book.close();

        expect(cut).not.toBeNull();
        expect(summary.failed).toBe(0);
        expect(summary.thought).toBeGreaterThanOrEqual(12);
        // One engine lost its connection mid-think: its position went back to the queue ...
        const midThink = events.filter(
          (e): e is Extract<DigEvent, { kind: "engine-failure" }> & { at: number } => e.kind === "engine-failure" && e.sfen !== null,
        );
        expect(midThink).toHaveLength(1);
        expect(midThink[0]!.requeued).toBe(true);
        const lost = midThink[0]!;
        // ... its reconnection attempts failed while sshd was down, further and further apart ...
        const attempts = events.filter((e) => e.kind === "engine-failure" && e.sfen === null && e.engine === lost.engine);
        expect(attempts.length).toBeGreaterThanOrEqual(2);
        // The pool waits 500 ms after the first failed start, then twice as long after each one
        // more: lower bounds, which a busy machine can only lengthen.
        const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
        gaps.forEach((gap, i) => expect(gap, `wait before reconnection attempt ${i + 2}`).toBeGreaterThanOrEqual(500 * 2 ** i - 20));
        // ... and it came back: it stored results after the cut.
        const after = events.filter((e) => e.kind === "result" && e.engine === lost.engine && e.at > attempts[attempts.length - 1]!.at);
        expect(after.length).toBeGreaterThanOrEqual(1);
        // Nothing lost: the cut position was thought again and stored, every result is in the file.
        const store = BookStore.open(file);
        try {
          expect(store.thoughts.get(Position.fromSfen(lost.sfen!).sfenKey())).toBeDefined();
          expect(store.thoughts.count()).toBe(summary.thought);
          expect(events.filter((e) => e.kind === "result")).toHaveLength(summary.thought);
        } finally {
          store.close();
        }
      } finally {
        for (const p of cleanup) p.kill("SIGKILL");
      }
    },
  );
});

function toConfig(line: string) {
  const spec = engineFromCommandLine(line);
  return {
    name: spec.name ?? "",
    command: spec.command,
    args: spec.args ?? [],
    cwd: null,
    options: { Threads: 1, Hash: 16 },
    enabled: true,
  };
}
