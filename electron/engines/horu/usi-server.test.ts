// USI conformance of `horu engine`, run as the separate process engines are: every command
// of the protocol, info lines, MultiPV, and bad input answered with `info string error`.
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { Position } from "../../../shared/rules/position.js";
import { parseUsiMove } from "../../../shared/rules/usi.js";
import { HORU } from "../../testing/paths.js";

class Client {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  private waiters: Array<() => void> = [];
  exit: Promise<number | null>;
  constructor() {
    this.proc = spawn(process.execPath, [HORU, "engine"], { stdio: ["pipe", "pipe", "pipe"] });
    let buf = "";
    this.proc.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        this.lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.exit = new Promise((resolve) => this.proc.on("exit", (code) => resolve(code)));
  }
  send(...cmds: string[]): void {
    for (const c of cmds) this.proc.stdin.write(c + "\n");
  }
  /** Waits for a line (after `from`) matching `re`; returns its index. */
  async waitFor(re: RegExp, from = 0, ms = 30_000): Promise<number> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.lines.findIndex((l, k) => k >= from && re.test(l));
      if (i >= 0) return i;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${re}; got:\n${this.lines.slice(from).join("\n")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
  async ready(): Promise<void> {
    const from = this.lines.length;
    this.send("isready");
    await this.waitFor(/^readyok$/, from);
  }
}

let client: Client | null = null;
afterEach(() => {
  client?.proc.kill();
  client = null;
});

const bestmoveOf = (line: string) => line.split(/\s+/)[1];

describe("horu engine (USI)", () => {
  it("handshakes, declares its options, searches with info lines, and quits", async () => {
    const c = (client = new Client());
    c.send("usi");
    await c.waitFor(/^usiok$/);
    expect(c.lines[0]).toMatch(/^id name horu/);
    expect(c.lines.some((l) => l.startsWith("id author"))).toBe(true);
    for (const name of [
      "USI_Hash",
      "MultiPV",
      "QuiescenceChecks",
      "Hybrid",
      "HybridMinPlayouts",
      "HybridLowWinRate",
      "HybridLowValue",
      "HybridMateWins",
    ]) {
      expect(
        c.lines.some((l) => l.startsWith(`option name ${name} type`)),
        name,
      ).toBe(true);
    }
    await c.ready();
    c.send("usinewgame", "position startpos moves 7g7f 3c3d", "go depth 3");
    const bm = await c.waitFor(/^bestmove /);
    const infos = c.lines.filter((l) => l.startsWith("info depth"));
    expect(infos.length).toBeGreaterThanOrEqual(3);
    expect(infos[2]).toMatch(/^info depth 3 seldepth \d+ multipv 1 score cp -?\d+ nodes \d+ nps \d+ time \d+ hashfull \d+ pv \S+/);
    const pos = Position.fromUsi("startpos moves 7g7f 3c3d");
    expect(pos.isLegal(parseUsiMove(bestmoveOf(c.lines[bm]))!)).toBe(true);
    c.send("quit");
    expect(await c.exit).toBe(0);
  });

  it("MultiPV: one info line per candidate, distinct moves, values best first", async () => {
    const c = (client = new Client());
    c.send("usi", "setoption name MultiPV value 4", "setoption name Hybrid value false");
    await c.ready();
    c.send("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2", "go depth 2");
    await c.waitFor(/^bestmove /);
    const last = c.lines.filter((l) => l.startsWith("info depth 2 "));
    expect(last.map((l) => Number(/multipv (\d+)/.exec(l)![1]))).toEqual([1, 2, 3, 4]);
    const moves = last.map((l) => / pv (\S+)/.exec(l)![1]);
    expect(new Set(moves).size).toBe(4);
    const values = last.map((l) => Number(/score cp (-?\d+)/.exec(l)![1]));
    for (let i = 1; i < 4; i++) expect(values[i]).toBeLessThanOrEqual(values[i - 1]);
  });

  it("go nodes, movetime, clock and byoyomi, each answered with a legal bestmove", async () => {
    const c = (client = new Client());
    c.send("usi");
    await c.ready();
    for (const go of [
      "go nodes 500",
      "go movetime 300",
      "go btime 1000 wtime 1000 byoyomi 200",
      "go btime 2000 wtime 2000 binc 100 winc 100",
    ]) {
      const from = c.lines.length;
      c.send("position startpos moves 2g2f 8c8d", go);
      const i = await c.waitFor(/^bestmove /, from);
      expect(Position.fromUsi("startpos moves 2g2f 8c8d").isLegal(parseUsiMove(bestmoveOf(c.lines[i]))!), go).toBe(true);
    }
  });

  it("go infinite answers only after stop; go ponder answers after ponderhit; the hybrid reports its choice", async () => {
    const c = (client = new Client());
    c.send("usi", "setoption name HybridMinPlayouts value 1");
    await c.ready();
    let from = c.lines.length;
    c.send("position startpos", "go infinite");
    await c.waitFor(/^info depth 2 /, from);
    expect(c.lines.slice(from).some((l) => l.startsWith("bestmove"))).toBe(false);
    c.send("stop");
    await c.waitFor(/^bestmove /, from);
    expect(c.lines.slice(from).some((l) => l.startsWith("info string hybrid: "))).toBe(true);
    from = c.lines.length;
    c.send("position startpos moves 7g7f", "go ponder btime 0 wtime 0 byoyomi 300");
    await c.waitFor(/^info depth 1 /, from);
    expect(c.lines.slice(from).some((l) => l.startsWith("bestmove"))).toBe(false);
    c.send("ponderhit");
    await c.waitFor(/^bestmove /, from);
  });

  // Linux keeps a nice value per thread; the test reads them from /proc.
  it.runIf(process.platform === "linux")("runs the Monte-Carlo thread MctsNice nicer than the engine while it searches", async () => {
    const c = (client = new Client());
    c.send("usi", "setoption name MctsNice value 7");
    await c.ready();
    const from = c.lines.length;
    c.send("position startpos", "go infinite");
    await c.waitFor(/^info depth 2 /, from);
    const pid = c.proc.pid!;
    const niceOf = (tid: string) => {
      const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      return Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[16]);
    };
    const base = niceOf(String(pid));
    const want = Math.min(19, base + 7);
    // The Monte-Carlo thread sets its value when its go message arrives, which may be after
    // alpha-beta's first lines: poll the threads for a while.
    let nices: number[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      nices = readdirSync(`/proc/${pid}/task`).map(niceOf);
      if (nices.includes(want)) break;
    }
    c.send("stop");
    await c.waitFor(/^bestmove /, from);
    // Under `nice -n 13` or more the thread can only reach 19, which is then everybody's value.
    expect(nices.filter((n) => n === want).length).toBe(want > base ? 1 : nices.length);
    expect(nices.filter((n) => n === base).length).toBeGreaterThan(want > base ? 1 : 0);
  });

  it("go mate finds a mate, says nomate when there is none, and timeout when stopped", async () => {
    const c = (client = new Client());
    c.send("usi");
    await c.ready();
    let from = c.lines.length;
    c.send("position sfen 9/k8/9/+P8/9/9/9/9/4K4 b 2R 1", "go mate 5000");
    let i = await c.waitFor(/^checkmate /, from);
    const line = c.lines[i].split(" ").slice(1);
    expect(line.length).toBe(3);
    const pos = Position.fromSfen("9/k8/9/+P8/9/9/9/9/4K4 b 2R 1");
    for (const m of line) pos.doMove(parseUsiMove(m)!);
    expect(pos.legalMoves().length).toBe(0);
    from = c.lines.length;
    c.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1", "go mate 2000");
    i = await c.waitFor(/^checkmate /, from);
    expect(c.lines[i]).toBe("checkmate nomate");
    from = c.lines.length;
    c.send("position startpos", "go mate infinite");
    await new Promise((r) => setTimeout(r, 300));
    c.send("stop");
    i = await c.waitFor(/^checkmate /, from);
    expect(["checkmate timeout", "checkmate nomate"]).toContain(c.lines[i]);
  });

  it("answers bad input with info string errors and keeps working", async () => {
    const c = (client = new Client());
    c.send("usi");
    await c.ready();
    const from = c.lines.length;
    const bad = [
      "frobnicate",
      "setoption name NoSuchOption value 3",
      "setoption name MultiPV value many",
      "setoption name MultiPV value 0",
      "setoption name Hybrid value maybe",
      "setoption name QuiescenceChecks value sometimes",
      "setoption",
      "position",
      "position sfen lnsgkgsnl/9/9 b - 1",
      "position startpos moves 7g7f 7g7f",
      "position startpos moves zz99",
    ];
    c.send(...bad);
    await c.ready();
    const errors = c.lines.slice(from).filter((l) => l.startsWith("info string error: "));
    expect(errors.length).toBe(bad.length);
    // After a bad position, go answers resign rather than searching a stale one.
    let mark = c.lines.length;
    c.send("go depth 1");
    let i = await c.waitFor(/^bestmove /, mark);
    expect(c.lines[i]).toBe("bestmove resign");
    // Bad go parameters are reported and skipped; the search still runs.
    mark = c.lines.length;
    c.send("position startpos", "go depth x nodes 300 sideways");
    i = await c.waitFor(/^bestmove /, mark);
    expect(c.lines.slice(mark, i).filter((l) => l.startsWith("info string error: ")).length).toBe(2);
    expect(Position.startpos().isLegal(parseUsiMove(bestmoveOf(c.lines[i]))!)).toBe(true);
    // A mated side resigns; commands during a search are refused, not obeyed.
    mark = c.lines.length;
    c.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "go depth 3");
    i = await c.waitFor(/^bestmove /, mark);
    expect(c.lines[i]).toBe("bestmove resign");
    mark = c.lines.length;
    c.send("position startpos", "go infinite", "position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1", "go depth 1", "stop");
    i = await c.waitFor(/^bestmove /, mark);
    expect(Position.startpos().isLegal(parseUsiMove(bestmoveOf(c.lines[i]))!)).toBe(true);
    expect(c.lines.slice(mark).filter((l) => l.startsWith("info string error: ")).length).toBeGreaterThanOrEqual(2);
    c.send("gameover win", "quit");
    expect(await c.exit).toBe(0);
  });

  it("ends cleanly when standard input closes", async () => {
    const c = (client = new Client());
    c.send("usi");
    await c.waitFor(/^usiok$/);
    c.proc.stdin.end();
    expect(await c.exit).toBe(0);
  });
});
