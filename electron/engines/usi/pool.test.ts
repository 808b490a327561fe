import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  EngineCrashError,
  EngineOptionError,
  EngineProtocolError,
  EngineStartError,
  EngineTimeoutError,
  type UsiEngineOptions,
} from "./engine.js";
import { EnginePool, mergeInfo, type EngineFailureEvent, type EngineSlotState, type PoolJob, type PoolOutcome } from "./pool.js";
import { Position } from "../../../shared/rules/position.js";
import { parseUsiMove } from "../../../shared/rules/usi.js";
import type { UsiInfo } from "../../../shared/usi/info.js";
import { missing } from "../../testing/missing.js";

const FAIRY = "/usr/games/fairy-stockfish";
const FAKE = fileURLToPath(new URL("./testing/fake-engine.mjs", import.meta.url));
const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

const pools: EnginePool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.stop();
});

function pool(specs: UsiEngineOptions[]) {
  const p = new EnginePool(specs, { restartDelayMs: 10 });
  pools.push(p);
  const failures: EngineFailureEvent[] = [];
  const states: [number, EngineSlotState][] = [];
  p.on("failure", (f) => failures.push(f));
  p.on("state", (v) => states.push([v.index, v.state]));
  return { p, failures, states };
}

const fast = { usiokMs: 2000, readyokMs: 2000, thinkMs: 2000, graceMs: 300, quitMs: 300 };
const fakeSpec = (name: string, ...args: string[]): UsiEngineOptions => ({
  command: process.execPath,
  args: [FAKE, ...args],
  name,
  timeouts: fast,
});
/** Resolves when engine `index` reaches `state` (now or by a later state event). */
function waitState(p: EnginePool, index: number, state: EngineSlotState): Promise<void> {
  return new Promise((resolve) => {
    if (p.states[index]!.state === state) return resolve();
    const off = p.on("state", (v) => {
      if (v.index === index && v.state === state) {
        off();
        resolve();
      }
    });
  });
}

const job = (sfen: string): PoolJob => ({ sfen, limit: { kind: "nodes", nodes: 100 }, multipv: { fixed: 2 } });

describe("an engine's live view of a think", () => {
  it("takes score and PV from the best line only, counters from every line", () => {
    let v = mergeInfo(null, { depth: 5, multipv: 1, value: 30, pv: ["7g7f"] });
    v = mergeInfo(v, { depth: 6, multipv: 2, value: -10, pv: ["2g2f"], nodes: 900 });
    expect(v).toEqual({ depth: 6, multipv: 1, value: 30, pv: ["7g7f"], nodes: 900 });
    v = mergeInfo(v, { depth: 7, value: 12, pv: ["2g2f", "8c8d"] });
    expect(v).toMatchObject({ depth: 7, value: 12, pv: ["2g2f", "8c8d"], nodes: 900 });
  });
});

describe("EnginePool with faults (fake engine)", () => {
  it("restarts a crashed engine and re-queues the position", async () => {
    const state = join(mkdtempSync(join(tmpdir(), "horu-pool-")), "count");
    const { p, failures, states } = pool([fakeSpec("crashy", "--mode", "ok", "--fail-first", "1", "--state", state)]);
    await p.start();
    const out = await p.run(job(START));
    expect(out.ok).toBe(true);
    expect(out.attempts).toBe(2);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ engine: "crashy", sfen: START, attempt: 1, requeued: true });
    expect(failures[0]!.error).toBeInstanceOf(EngineCrashError);
    expect(p.states[0]).toMatchObject({ state: "idle", restarts: 1 });
    expect(states.map((s) => s[1])).toEqual(expect.arrayContaining(["starting", "idle", "thinking", "restarting"]));
  });

  it("marks a position failed after 3 attempts and keeps going", async () => {
    // A real position (positions are read before they reach an engine) that this engine crashes on.
    const { p, failures } = pool([fakeSpec("picky", "--mode", "ok", "--fail-sfen", "4k4/9/9/9/9/9/9/9/4K4")]);
    const jobFailed: PoolOutcome[] = [];
    p.on("jobFailed", (o) => jobFailed.push(o));
    await p.start();
    const bad = p.run(job("4k4/9/9/9/9/9/9/9/4K4 b G 1"));
    const good = p.run(job(START));
    const [b, g] = await Promise.all([bad, good]);
    expect(b).toMatchObject({ ok: false, reason: "failed", attempts: 3 });
    expect(b.ok === false && b.errors.every((e) => e instanceof EngineCrashError)).toBe(true);
    expect(jobFailed).toHaveLength(1);
    expect(failures.map((f) => [f.attempt, f.requeued])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(g.ok).toBe(true);
    expect(p.states[0]!.restarts).toBe(3);
    expect(p.states[0]!.state).toBe("idle");
  });

  it("a hanging engine is killed and restarted each time; the position fails after 3 timeouts", async () => {
    const { p, failures } = pool([fakeSpec("hangs", "--mode", "hang")]);
    await p.start();
    const o = await p.run({ ...job(START), limit: { kind: "movetime", ms: 50 } });
    expect(o).toMatchObject({ ok: false, reason: "failed", attempts: 3 });
    expect(failures.map((f) => f.error.constructor)).toEqual([EngineTimeoutError, EngineTimeoutError, EngineTimeoutError]);
    await waitState(p, 0, "idle");
    expect(p.states[0]).toMatchObject({ state: "idle", restarts: 3 });
  });

  it("a garbling engine is restarted and the position moves to the other engine", async () => {
    const { p, failures } = pool([fakeSpec("garbles", "--mode", "garbage"), fakeSpec("fine", "--mode", "ok")]);
    await p.start();
    const o = await p.run(job(START));
    expect(o).toMatchObject({ ok: true, engine: "fine", attempts: 2 });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ engine: "garbles", sfen: START, requeued: true });
    expect(failures[0]!.error).toBeInstanceOf(EngineProtocolError);
  });

  it("an engine that never starts is marked failed and queued positions say so", async () => {
    const { p, failures } = pool([{ command: "/nonexistent/engine-binary", name: "ghost" }]);
    await p.start();
    expect(p.states[0]!.state).toBe("failed");
    expect(failures).toHaveLength(5); // five attempts (maxStartFailures), backing off x2 between them
    expect(failures[0]!.error).toBeInstanceOf(EngineStartError);
    expect(failures[0]!.error.message).toContain("/nonexistent/engine-binary");
    expect(await p.run(job(START))).toMatchObject({ ok: false, reason: "no-engine" });
  });
});

describe.skipIf(missing(existsSync(FAIRY), "/usr/games/fairy-stockfish"))(
  `EnginePool with fairy-stockfish (${FAIRY}; install fairy-stockfish to run)`,
  () => {
    it("tags every info with its think and position: one engine's next think never shows the last one's PV", async () => {
      const { p } = pool([{ command: FAIRY, name: "fsf" }]);
      await p.start();
      const seen: Array<{ info: UsiInfo; sfen: string; think: number }> = [];
      p.on("info", (_i, info, t) => seen.push({ info, ...t }));
      // Black to move, then White to move: no first move of one is legal in the other.
      const sfens = ["startpos", "startpos moves 7g7f", "startpos"];
      for (const sfen of sfens)
        expect((await p.run({ sfen, limit: { kind: "nodes", nodes: 20_000 }, multipv: { fixed: 3 } })).ok).toBe(true);
      const thinks = [...new Set(seen.map((s) => s.think))];
      expect(thinks).toHaveLength(3);
      expect(thinks).toEqual([...thinks].sort((a, b) => a - b));
      for (const s of seen) {
        expect(s.sfen).toBe(sfens[thinks.indexOf(s.think)]);
        if (!s.info.pv?.length) continue;
        const m = parseUsiMove(s.info.pv[0]!);
        expect(m !== null && Position.fromUsi(s.sfen).isLegal(m), `${s.info.pv[0]} in ${s.sfen}`).toBe(true);
      }
      expect(p.states[0]).toMatchObject({ state: "idle", sfen: null, think: thinks[2], lastInfo: null });
    });

    it("an urgent position goes ahead of the queued ones, after the urgent ones queued before it", async () => {
      const { p } = pool([{ command: FAIRY, name: "fsf" }]);
      await p.start();
      const order: string[] = [];
      const run = (sfen: string, urgent: boolean) =>
        p.run({ sfen, limit: { kind: "nodes", nodes: 2000 }, multipv: { fixed: 1 }, urgent }).then((o) => {
          expect(o.ok).toBe(true);
          order.push(sfen);
        });
      // Paused, so nothing is taken while the queue fills: the order is the queue's alone.
      p.pause();
      const ahead = ["startpos", "startpos moves 7g7f", "startpos moves 2g2f"].map((sfen) => run(sfen, false));
      const asked = ["startpos moves 5g5f", "startpos moves 1g1f"].map((sfen) => run(sfen, true));
      expect(p.queued).toBe(5);
      p.resume();
      await Promise.all([...ahead, ...asked]);
      expect(order).toEqual(["startpos moves 5g5f", "startpos moves 1g1f", "startpos", "startpos moves 7g7f", "startpos moves 2g2f"]);
    });

    it("an engine given an option value it does not take fails at once (no restarts) with the range; the other thinks", async () => {
      const { p, failures } = pool([
        { command: FAIRY, name: "fsf-bad", options: { Threads: -5 } },
        { command: FAIRY, name: "fsf-ok", options: { Threads: 1 } },
      ]);
      await p.start();
      expect(p.states.map((s) => s.state)).toEqual(["failed", "idle"]);
      expect(failures).toHaveLength(1);
      expect(failures[0]!.error).toBeInstanceOf(EngineOptionError);
      expect(failures[0]!.error.message).toBe("engine fsf-bad: option Threads cannot be -5: it takes a whole number from 1 to 512");
      expect(await p.run({ sfen: "startpos", limit: { kind: "nodes", nodes: 2000 }, multipv: { fixed: 1 } })).toMatchObject({
        ok: true,
        engine: "fsf-ok",
      });
    });

    it("thinks positions on two engines, then stop waits for bestmove and quits", async () => {
      const { p, failures } = pool([
        { command: FAIRY, name: "fsf-a" },
        { command: FAIRY, name: "fsf-b" },
      ]);
      await p.start();
      expect(p.states.map((s) => s.handshake?.idName)).toEqual([expect.stringMatching(/Fairy/), expect.stringMatching(/Fairy/)]);
      const sfens = ["startpos", "startpos moves 7g7f", "startpos moves 2g2f", "startpos moves 7g7f 3c3d"];
      const outs = await Promise.all(sfens.map((sfen) => p.run({ sfen, limit: { kind: "nodes", nodes: 5000 }, multipv: { fixed: 3 } })));
      const used = new Set<string>();
      for (const o of outs) {
        expect(o.ok).toBe(true);
        if (o.ok) {
          expect(o.result.candidates.length).toBeGreaterThan(0);
          used.add(o.engine);
        }
      }
      expect(used.size).toBe(2);
      expect(failures).toEqual([]);
      // Pause: positions wait in the queue; resume hands them out.
      p.pause();
      const waiting = p.run({ sfen: "startpos moves 5g5f", limit: { kind: "nodes", nodes: 2000 }, multipv: { fixed: 1 } });
      expect(p.queued).toBe(1);
      expect(p.states.map((s) => s.state)).toEqual(["idle", "idle"]);
      p.resume();
      expect((await waiting).ok).toBe(true);
      const long = p.run({ sfen: "startpos", limit: { kind: "nodes", nodes: 50_000_000 }, multipv: { fixed: 1 } });
      await new Promise<void>((r) => {
        const off = p.on("info", () => {
          off();
          r();
        });
      });
      expect(p.states.some((s) => s.state === "thinking" && s.sfen === "startpos")).toBe(true);
      await p.stop();
      const o = await long;
      expect(o).toMatchObject({ ok: true, stopped: true });
      expect(p.states.map((s) => s.state)).toEqual(["stopped", "stopped"]);
    });
  },
);
