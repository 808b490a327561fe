import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isUsiMove } from "../../../shared/usi/info.js";
import {
  EngineCrashError,
  EngineProtocolError,
  EngineOptionError,
  EngineStartError,
  EngineTimeoutError,
  EngineUnsupportedError,
  UsiEngine,
  type EngineLogEntry,
  type ThinkResult,
  type UsiEngineOptions,
} from "./engine.js";
import { commandLineSpec, parseCommandLine } from "../argv.js";
import { positionArgument } from "./protocol.js";
import { legalMovesOf } from "./widen.js";
import { missing } from "../../testing/missing.js";

const FAIRY = "/usr/games/fairy-stockfish";
const GPS = "/usr/games/gpsusi";
const FAKE = fileURLToPath(new URL("./testing/fake-engine.mjs", import.meta.url));

const engines: UsiEngine[] = [];
function engine(opts: UsiEngineOptions): UsiEngine {
  const e = new UsiEngine(opts);
  engines.push(e);
  return e;
}
afterEach(async () => {
  for (const e of engines.splice(0)) {
    e.kill();
    await e.exited;
  }
});

function fake(mode: string, extra: string[] = [], opts: Partial<UsiEngineOptions> = {}) {
  const log: EngineLogEntry[] = [];
  const e = engine({
    command: process.execPath,
    args: [FAKE, "--mode", mode, ...extra],
    name: `fake-${mode}`,
    timeouts: { usiokMs: 2000, readyokMs: 2000, thinkMs: 2000, graceMs: 500, quitMs: 500 },
    log: (x) => log.push(x),
    ...opts,
  });
  return { e, log };
}

function checkCandidates(r: ThinkResult, windowCp: number) {
  expect(r.status).toBe("ok");
  expect(r.candidates.length).toBeGreaterThan(0);
  for (const c of r.candidates) {
    expect(isUsiMove(c.move), c.move).toBe(true);
    expect(c.pv[0]).toBe(c.move);
    for (const m of c.pv) expect(isUsiMove(m), m).toBe(true);
    expect(Math.abs(c.value)).toBeLessThanOrEqual(32000);
    expect(c.value).toBeGreaterThanOrEqual(r.candidates[0]!.value - windowCp);
  }
  for (let i = 1; i < r.candidates.length; i++) expect(r.candidates[i]!.value).toBeLessThanOrEqual(r.candidates[i - 1]!.value);
  expect(new Set(r.candidates.map((c) => c.move)).size).toBe(r.candidates.length);
  expect(r.nodes).toBeGreaterThan(0);
  expect(r.depth).toBeGreaterThan(0);
}

describe("parseCommandLine", () => {
  it("splits words and honours quotes without expanding anything", () => {
    expect(parseCommandLine("ssh host /path/engine")).toEqual(["ssh", "host", "/path/engine"]);
    expect(parseCommandLine(`  "/opt/my engine/run" --eval 'a b' x\\ y "q\\"q" $HOME *`)).toEqual([
      "/opt/my engine/run",
      "--eval",
      "a b",
      "x y",
      'q"q',
      "$HOME",
      "*",
    ]);
    expect(parseCommandLine(`a "" ''`)).toEqual(["a", "", ""]);
    expect(parseCommandLine("")).toEqual([]);
    expect(() => parseCommandLine(`"open`)).toThrow(/unterminated/);
  });
});

describe("commandLineSpec / positionArgument", () => {
  it("builds a spawn spec", () => {
    expect(commandLineSpec("ssh host '/opt/eng ine'")).toEqual({ command: "ssh", args: ["host", "/opt/eng ine"] });
    expect(() => commandLineSpec("   ")).toThrow(/empty/);
  });
  it("normalizes positions", () => {
    expect(positionArgument("startpos")).toBe("startpos");
    expect(positionArgument("startpos moves 7g7f")).toBe("startpos moves 7g7f");
    expect(positionArgument("sfen 9/9/9/9/9/9/9/9/9 b - 1")).toBe("sfen 9/9/9/9/9/9/9/9/9 b - 1");
    expect(positionArgument("4k4/9/9/9/9/9/9/9/4K4 b G")).toBe("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1");
    expect(positionArgument("4k4/9/9/9/9/9/9/9/4K4 b G 7 moves G*5b")).toBe("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 7 moves G*5b");
    expect(positionArgument(" 4k4/9/9/9/9/9/9/9/4K4 w - moves 5a4a")).toBe("sfen 4k4/9/9/9/9/9/9/9/4K4 w - 1 moves 5a4a");
  });
});

describe.skipIf(missing(existsSync(FAIRY), "/usr/games/fairy-stockfish"))(
  `fairy-stockfish (${FAIRY}; install the fairy-stockfish package to run)`,
  () => {
    it("refuses an option value outside the range of its handshake before anything is set or isready sent", async () => {
      const log: EngineLogEntry[] = [];
      const e = engine({
        command: FAIRY,
        name: "fsf",
        options: { Threads: 1, USI_Hash: 999999 },
        log: (x) => log.push(x),
        logTraffic: true,
      });
      const err = await e.start().then(
        () => null,
        (x: unknown) => x,
      );
      expect(err).toBeInstanceOf(EngineOptionError);
      expect((err as Error).message).toBe(
        "engine fsf: option USI_Hash (the engine's Hash) cannot be 999999: it takes a whole number from 1 to 131072",
      );
      const sent = log.filter((l) => l.stream === "stdin").map((l) => l.line);
      expect(sent).toEqual(["usi"]);
      expect(e.handshake.options.find((o) => o.name === "Hash")).toMatchObject({ min: 1, max: 131072 });
    });

    it("handshakes, turns its book off and thinks with fixed MultiPV 4", async () => {
      const log: EngineLogEntry[] = [];
      const e = engine({
        command: FAIRY,
        options: { USI_Hash: 16, Threads: 1, NoSuchOption: 3 },
        log: (x) => log.push(x),
        logTraffic: true,
      });
      const hs = await e.start();
      expect(hs.idName).toMatch(/Fairy-Stockfish/);
      expect(hs.options.find((o) => o.name === "MultiPV")).toMatchObject({ type: "spin", min: 1 });
      // Fairy-Stockfish spells the hash option "Hash": the alias is used; unknown options are skipped.
      expect(log.filter((l) => l.stream === "stdin").map((l) => l.line)).toContain("setoption name Hash value 16");
      expect(log.some((l) => l.stream === "note" && /NoSuchOption/.test(l.line))).toBe(true);
      const infos: unknown[] = [];
      // The book's normalized SFEN has no ply.
      const r = await e.think(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
        { kind: "nodes", nodes: 20000 },
        { fixed: 4 },
        300,
        (i) => infos.push(i),
      );
      checkCandidates(r, 300);
      expect(r.engine).toMatch(/Fairy-Stockfish/);
      expect(r.multipv).toBe(4);
      expect(r.candidates.length).toBeLessThanOrEqual(4);
      expect(infos.length).toBeGreaterThan(0);
      // A second think on the same process, with a depth limit and startpos moves.
      const r2 = await e.think("startpos moves 7g7f 3c3d", { kind: "depth", depth: 6 }, { fixed: 2 }, 300);
      checkCandidates(r2, 300);
      await e.quit();
      expect((await e.exited).code).toBe(0);
    });

    it("dynamic MultiPV: the first search at the full limit, widening searches at a share of it, never past the legal moves", async () => {
      const log: EngineLogEntry[] = [];
      const e = engine({ command: FAIRY, log: (x) => log.push(x), logTraffic: true });
      await e.start();
      const sent = () => log.filter((l) => l.stream === "stdin").map((l) => l.line);
      const goes = () => sent().filter((l) => l.startsWith("go "));
      // At the start position the 4th line is well within 300 cp: one wide search of all 30 moves follows.
      const r = await e.think(
        "startpos",
        { kind: "nodes", nodes: 10000 },
        { dynamic: { start: 4, widenBy: 0, withinCp: 300, widenShare: 0.1 } },
        300,
      );
      expect(r.passes).toBe(2);
      expect(goes()).toEqual(["go nodes 10000", "go nodes 1000"]);
      expect(sent()).toContain("setoption name MultiPV value 30");
      expect(r.multipv).toBe(30);
      expect(r.candidates.length).toBeGreaterThan(4);
      checkCandidates(r, 300 + 300); // widened moves sit within the window of their own search's best
      // Widening by 4 at a share: 4, 8, 12, ... lines, every re-search at 1000 nodes, capped at 30.
      log.length = 0;
      const wide = await e.think(
        "startpos",
        { kind: "nodes", nodes: 10000 },
        { dynamic: { start: 4, widenBy: 4, withinCp: 100000, widenShare: 0.1 } },
        100000,
      );
      expect(goes()).toEqual(["go nodes 10000", ...Array<string>(wide.passes - 1).fill("go nodes 1000")]);
      expect(wide.passes).toBe(8); // 4, 8, ..., 28, then 30 = every legal move
      expect(wide.multipv).toBe(30);
      expect(
        sent()
          .filter((l) => l.startsWith("setoption name MultiPV"))
          .at(-1),
      ).toBe("setoption name MultiPV value 30");
      expect(wide.candidates.length).toBe(30);
      // A position with 2 legal moves never asks for more than 2 lines.
      log.length = 0;
      const few = "4k4/9/4G4/9/9/9/9/9/4K4 w - 1";
      expect(legalMovesOf(positionArgument(few))).toHaveLength(2);
      const r2 = await e.think(
        few,
        { kind: "nodes", nodes: 2000 },
        { dynamic: { start: 4, widenBy: 4, withinCp: 100000, widenShare: 0.1 } },
        100000,
      );
      expect(r2.passes).toBe(1);
      expect(sent().filter((l) => l.startsWith("setoption name MultiPV"))).toEqual(["setoption name MultiPV value 2"]);
      await e.quit();
    });

    it("deep-best: one line at the full limit gives the best move and value, the others come from a cheaper search and sit below it", async () => {
      const log: EngineLogEntry[] = [];
      const e = engine({ command: FAIRY, log: (x) => log.push(x), logTraffic: true });
      await e.start();
      const sent = () => log.filter((l) => l.stream === "stdin").map((l) => l.line);
      const r = await e.think(
        "startpos",
        { kind: "nodes", nodes: 10000 },
        { deepBest: { share: 0.25, others: { start: 4, widenBy: 0, withinCp: 300, widenShare: 0.1 } } },
        300,
      );
      const goes = sent().filter((l) => l.startsWith("go "));
      expect(goes.slice(0, 2)).toEqual(["go nodes 10000", "go nodes 2500"]);
      // Widening at auto's share of the full limit (a tenth), not a tenth of the quarter.
      expect(goes.length).toBeGreaterThan(2); // the start position's 4th line is within 300 cp: it widens
      expect(goes.slice(2).every((g) => g === "go nodes 1000")).toBe(true);
      // The one-line search came first, at MultiPV 1.
      const first = sent().findIndex((l) => l.startsWith("go "));
      expect(
        sent()
          .slice(0, first)
          .filter((l) => l.startsWith("setoption name MultiPV"))
          .at(-1),
      ).toBe("setoption name MultiPV value 1");
      const [best, ...rest] = r.candidates;
      expect(rest.length).toBeGreaterThan(0);
      // No other move is valued above the best, and the best was searched deepest.
      for (const c of rest) {
        expect(c.value).toBeLessThan(best!.value);
        expect(c.depth).toBeLessThanOrEqual(best!.depth);
      }
      expect(r.passes).toBe(goes.length);
      checkCandidates(r, 300);
      await e.quit();
    });

    it("auto-bounded: the moves only the widening search found sit below the full search's last line", async () => {
      const dyn = { start: 4, widenBy: 0, withinCp: 300, widenShare: 0.1 };
      const e = engine({ command: FAIRY });
      await e.start();
      const r = await e.think("startpos", { kind: "nodes", nodes: 100000 }, { dynamic: { ...dyn, boundWidened: true } }, 300);
      expect(r.passes).toBe(2); // the start position's 4th line is within 300 cp: it widens
      // The first search's 4 lines are searched deepest; every widened move is below the lowest of
      // them. At 100,000 nodes, unbounded, a widened move of the start position is valued 198
      // against a last line of 127: this fails without the bound.
      const deepest = Math.max(...r.candidates.map((c) => c.depth));
      const full = r.candidates.filter((c) => c.depth === deepest);
      const widened = r.candidates.filter((c) => c.depth < deepest);
      expect(full.length).toBeGreaterThanOrEqual(4);
      expect(widened.length).toBeGreaterThan(0);
      const floor = Math.min(...full.map((c) => c.value));
      for (const c of widened) expect(c.value).toBeLessThan(floor);
      checkCandidates(r, 300);
      await e.quit();
    });

    it("reports mates and resignation", async () => {
      const e = engine({ command: FAIRY });
      await e.start();
      const mate = await e.think("4k4/9/4G4/9/9/9/9/9/4K4 b G 1", { kind: "depth", depth: 5 }, { fixed: 2 }, 300);
      expect(mate.candidates[0]).toMatchObject({ move: "G*5b", value: 31999 });
      const mate1 = await e.think("4k4/9/4G4/9/9/9/9/9/4K4 b G 1", { kind: "depth", depth: 5 }, { fixed: 1 }, 300);
      expect(mate1).toMatchObject({ status: "ok", passes: 1, candidates: [{ move: "G*5b", value: 31999 }] });
      const matedIn2 = await e.think("4k4/9/4G4/9/9/9/9/9/4K4 w G 1", { kind: "depth", depth: 5 }, { fixed: 1 }, 300);
      expect(matedIn2.candidates[0]!.value).toBe(-31998);
      const mated = await e.think("4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1", { kind: "nodes", nodes: 1000 }, { fixed: 1 });
      expect(mated).toMatchObject({ status: "resign", candidates: [] });
      await e.quit();
    });

    it("stops a long search on request", async () => {
      const e = engine({ command: FAIRY });
      await e.start();
      const p = e.think("startpos", { kind: "nodes", nodes: 50_000_000 }, { fixed: 1 });
      setTimeout(() => e.stop(), 300);
      const r = await p;
      expect(r.status).toBe("ok");
      expect(r.candidates.length).toBe(1);
      await e.quit();
    });
  },
);

describe.skipIf(missing(existsSync(GPS), "/usr/games/gpsusi"))(`gpsusi (${GPS}; install the gpsshogi package to run)`, () => {
  it("handshakes, turns BookDepth off, thinks by time with MultiPVWidth, refuses node limits", async () => {
    const log: EngineLogEntry[] = [];
    const e = engine({ command: GPS, options: { Threads: 1 }, log: (x) => log.push(x), logTraffic: true });
    const hs = await e.start();
    expect(hs.idName).toMatch(/^gpsshogi/);
    const sent = log.filter((l) => l.stream === "stdin").map((l) => l.line);
    expect(sent).toContain("setoption name BookDepth value 0");
    expect(sent).toContain("setoption name Thread value 1");
    await expect(e.think("startpos", { kind: "nodes", nodes: 1000 }, { fixed: 1 })).rejects.toBeInstanceOf(EngineUnsupportedError);
    const r = await e.think("startpos", { kind: "movetime", ms: 800 }, { fixed: 4 }, 300);
    checkCandidates(r, 300);
    expect(r.candidates.length).toBeGreaterThan(1);
    const one = await e.think("startpos moves 7g7f", { kind: "movetime", ms: 500 }, { fixed: 1 }, 300);
    checkCandidates(one, 300);
    expect(one.candidates.length).toBe(1);
    // MultiPVWidth already covers the window: dynamic MultiPV takes one pass.
    const dyn = await e.think("startpos", { kind: "movetime", ms: 500 }, { dynamic: { start: 4, widenBy: 4, withinCp: 100 } }, 300);
    expect(dyn.passes).toBe(1);
    checkCandidates(dyn, 300);
    await e.quit();
  });
});

describe("faults (fake engine)", () => {
  it("ok mode: sends options and turns the book off", async () => {
    const { e, log } = fake("ok", [], { options: { USI_Hash: 64, USI_OwnBook: true }, logTraffic: true });
    await e.start();
    // What we wrote (stderr echoes of the fake arrive asynchronously, so check our side).
    const sent = log.filter((l) => l.stream === "stdin").map((l) => l.line);
    expect(sent).toContain("setoption name USI_Hash value 64");
    expect(sent).toContain("setoption name USI_OwnBook value true"); // the user's explicit choice wins
    expect(sent).not.toContain("setoption name USI_OwnBook value false");
    expect(sent).toContain("setoption name BookFile value no_book");
    expect(sent.indexOf("setoption name BookFile value no_book")).toBeLessThan(sent.indexOf("isready"));
    expect(e.handshake.options.map((o) => o.name)).toContain("Eval Dir");
    const r = await e.think("startpos", { kind: "nodes", nodes: 100 }, { fixed: 3 }, 300);
    expect(r.candidates.map((c) => c.value)).toEqual([100, 80, 60]);
    await expect(e.think("startpos", { kind: "nodes", nodes: 0 })).rejects.toBeInstanceOf(EngineUnsupportedError);
    await expect(e.think("startpos\nquit", { kind: "nodes", nodes: 1 })).rejects.toBeInstanceOf(EngineUnsupportedError);
    expect(e.running).toBe(true);
  });

  it("crash mid-think: EngineCrashError with exit code and stderr tail", async () => {
    const { e } = fake("crash-mid-think");
    await e.start();
    const err = await e.think("startpos", { kind: "nodes", nodes: 100 }).catch((x) => x);
    expect(err).toBeInstanceOf(EngineCrashError);
    expect(err.exitCode).toBe(139);
    expect(err.stderrTail.join("\n")).toMatch(/segmentation fault/);
    expect(e.running).toBe(false);
  });

  it("bare bestmove without info: asks again at MultiPV 2, then reports noinfo", async () => {
    const { e } = fake("bare-bestmove");
    await e.start();
    const r = await e.think("startpos", { kind: "nodes", nodes: 10 }, { fixed: 1 });
    expect(r).toMatchObject({ status: "ok", passes: 2, bestmove: "7g7f" });
    expect(r.candidates.map((c) => c.move)).toEqual(["7g7f"]);
    const never = fake("bare-always");
    await never.e.start();
    expect(await never.e.think("startpos", { kind: "nodes", nodes: 10 }, { fixed: 1 })).toMatchObject({
      status: "noinfo",
      candidates: [],
      bestmove: "7g7f",
      passes: 2,
    });
  });

  it("stop ignored: EngineTimeoutError after the grace period", async () => {
    const { e } = fake("hang");
    await e.start();
    const p = e.think("startpos", { kind: "nodes", nodes: 1000 }).catch((x) => x);
    e.stop();
    expect(await p).toBeInstanceOf(EngineTimeoutError);
    expect((await e.exited).signal).toBe("SIGKILL");
  });

  it("hang: EngineTimeoutError and the process is killed", async () => {
    const { e } = fake("hang");
    await e.start();
    const err = await e.think("startpos", { kind: "movetime", ms: 200 }).catch((x) => x);
    expect(err).toBeInstanceOf(EngineTimeoutError);
    expect((await e.exited).signal).toBe("SIGKILL");
  });

  it("garbage: EngineProtocolError", async () => {
    const { e } = fake("garbage");
    await e.start();
    await expect(e.think("startpos", { kind: "nodes", nodes: 100 })).rejects.toBeInstanceOf(EngineProtocolError);
    await e.exited;
  });

  it("no usiok: EngineStartError after the timeout", async () => {
    const { e } = fake("no-usiok", [], { timeouts: { usiokMs: 300 } });
    await expect(e.start()).rejects.toThrow(/no usiok within 300 ms/);
    await e.exited;
  });

  it("exit at start: EngineStartError with the exit code", async () => {
    const { e } = fake("exit-at-start");
    const err = await e.start().catch((x) => x);
    expect(err).toBeInstanceOf(EngineStartError);
    expect(err.message).toMatch(/exit code 2/);
    expect(err.message).toMatch(/evaluation file/);
  });

  it("slow readyok: waits when allowed, fails when not", async () => {
    const slow = fake("slow-readyok", ["--delay", "400"], { timeouts: { readyokMs: 3000 } });
    await slow.e.start();
    const tooSlow = fake("slow-readyok", ["--delay", "3000"], { timeouts: { readyokMs: 300 } });
    await expect(tooSlow.e.start()).rejects.toThrow(/no readyok within 300 ms/);
  });

  it("path that does not exist: the error names the path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "horu-usi-"));
    const missing = join(dir, "no-such-engine");
    const e = engine({ command: missing });
    const err = await e.start().catch((x) => x);
    expect(err).toBeInstanceOf(EngineStartError);
    expect(err.message).toContain(missing);
    await e.exited;
  });

  it("flood: an 8 MiB line is dropped and the think still succeeds", async () => {
    const { e, log } = fake("flood");
    await e.start();
    const r = await e.think("startpos", { kind: "nodes", nodes: 100 }, { fixed: 2 });
    expect(r.candidates.length).toBe(2);
    expect(log.some((l) => l.stream === "note" && /dropped/.test(l.line))).toBe(true);
  });

  it("no newline: endless output without a line end does not grow memory; it times out", async () => {
    const { e } = fake("no-newline");
    await e.start();
    await expect(e.think("startpos", { kind: "movetime", ms: 300 })).rejects.toBeInstanceOf(EngineTimeoutError);
  });

  it("invalid UTF-8 and CRLF are tolerated", async () => {
    const bad = fake("invalid-utf8");
    await bad.e.start();
    expect(bad.e.handshake.idName).toMatch(/^fake\uFFFD engine$/);
    expect((await bad.e.think("startpos", { kind: "nodes", nodes: 1 }, { fixed: 2 })).candidates.length).toBe(2);
    const crlf = fake("crlf");
    await crlf.e.start();
    expect((await crlf.e.think("startpos", { kind: "nodes", nodes: 1 }, { fixed: 3 })).candidates.map((c) => c.move)).toEqual([
      "7g7f",
      "2g2f",
      "5g5f",
    ]);
  });
});
