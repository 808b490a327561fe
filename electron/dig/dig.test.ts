import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { getPriority } from "node:os";
import path from "node:path";
import { OpenBook } from "../book/open-book.js";
import { availableParallelism } from "node:os";
import { BOOK_VALUE_SHARE, Dig, ENGINE_NICE, ENGINE_NICE_CROWDED, engineNice, positionsAhead, type DigEvent } from "./dig.js";
import { nextLeaves } from "../cli/commands/select.js";
import { BookStore } from "../store/book-store.js";
import { FAIRY, FAKE_ENGINE, GPSUSI, HORU, NO_ENGINE, haveFairy, haveGps, tempDir } from "../testing/paths.js";
import { recentFile } from "../engines/places.js";
import { Position } from "../../shared/rules/position.js";
import { missing } from "../testing/missing.js";
import type { EngineLogEntry } from "../engines/usi/engine.js";
import { DEFAULT_DYNAMIC } from "../engines/usi/widen.js";
import { firstMultiPv } from "../../shared/usi/multipv.js";
import { parseUsiMove } from "../../shared/rules/usi.js";

/** This process's child processes (Linux /proc): pid and command name. */
function childProcesses(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid) out.push(`${pid} ${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU ticks of this process's reaped children (cutime + cstime). */
function childCpuTicks(): number {
  const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return Number(f[13]) + Number(f[14]);
}

/** gpsusi reads its tables before usiok: on a loaded machine that took 65 s, over the 30 s default. */
const GPS_START = { usiokMs: 300_000, readyokMs: 300_000 };

const fairy = (n: number) => ({ command: FAIRY, name: `fairy#${n}`, options: { Threads: 1, Hash: 16 } });

/** The nice value of each thread of process `pid`, and of its autogroup (null where the kernel has none). */
function niceness(pid: string): { threads: number[]; group: number | null } {
  const threads = readdirSync(`/proc/${pid}/task`).map((t) => {
    const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
  let group: number | null = null;
  try {
    group = Number(/nice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, "utf8"))![1]);
  } catch {
    // no autogroups on this kernel
  }
  return { threads, group };
}

/** A dig's event listener that reads, at its first stored result, the nice values of the fairy-stockfish processes running. */
function nicenessAtFirstResult(): { look: (e: DigEvent) => void; seen: () => Array<ReturnType<typeof niceness>> } {
  let seen: Array<ReturnType<typeof niceness>> = [];
  return {
    look: (e) => {
      if (e.kind !== "result" || seen.length !== 0) return;
      seen = childProcesses()
        .filter((c) => c.endsWith(" fairy-stockfish"))
        .map((c) => niceness(c.split(" ")[0]));
    },
    seen: () => seen,
  };
}

/**
 * A dig's event listener that holds the thread at each stored result, as a slow selection would:
 * 10 times the longest search time the engines have reported (at least 150 ms), not a fixed
 * time, since on a loaded machine the niced engines' thinks take longer, and the shares the
 * tests assert hold only relative to them.
 */
function holdEachResult(): (e: DigEvent) => void {
  let longestSearch = 0;
  return (e) => {
    if (e.kind === "info") longestSearch = Math.max(longestSearch, e.info.timeMs ?? 0);
    if (e.kind !== "result") return;
    const until = performance.now() + Math.max(150, 10 * longestSearch);
    while (performance.now() < until);
  };
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`digging with real engines (${NO_ENGINE})`, () => {
  it("digs 50 positions with 2 engines, stores them, reopens and digs on; horu select agrees", { timeout: 600_000 }, async () => {
    const file = path.join(tempDir(), "book.horu");
    const book = OpenBook.create(file, { limit: { nodes: 3000 }, multipv: 4 });
    const events: DigEvent[] = [];
    const summary = await new Dig(book, { engines: [fairy(1), fairy(2)], positions: 50, onEvent: (e) => events.push(e) }).run();
    expect(summary.thought).toBeGreaterThanOrEqual(50);
    expect(summary.failed).toBe(0);
    expect(events.filter((e) => e.kind === "result")).toHaveLength(summary.thought);
    book.close();

    // Everything is in the file: positions with candidates, engine provenance, a thought root.
    const store = BookStore.open(file);
    expect(store.thoughts.count()).toBe(summary.thought);
    const root = store.thoughts.get(Position.startpos().sfenKey());
    expect(root?.candidates.length).toBeGreaterThanOrEqual(1);
    expect(root?.provenance.kind).toBe("engine");
    for (const t of store.thoughts.iterate()) {
      for (const c of t.candidates) expect(Math.abs(c.value)).toBeLessThanOrEqual(32000);
      expect(Position.fromSfen(t.sfen).sfenKey()).toBe(t.sfen);
    }
    store.close();

    // Reopen: the graph is rebuilt from the file and digging goes on.
    const again = OpenBook.open(file);
    expect(again.graph.nodeCount).toBe(summary.thought);
    const inProcess = nextLeaves(again, 3);
    const more = await new Dig(again, { engines: [fairy(1), fairy(2)], positions: 10 }).run();
    expect(more.thought).toBeGreaterThanOrEqual(10);
    const size = again.graph.nodeCount;
    again.close();
    expect(size).toBeGreaterThanOrEqual(summary.thought + 10);

    // `horu select` (another process, read-only) agrees with the selection in this process.
    const reopened = OpenBook.open(file, {}, { readonly: true });
    const expected = nextLeaves(reopened, 3).leaves;
    reopened.close();
    const out = execFileSync(process.execPath, [HORU, "select", "--book", file, "--count", "3", "--json"], { encoding: "utf8" });
    const json = JSON.parse(out.trim().split("\n").pop()!);
    expect(json.leaves).toEqual(expected);
    expect(json.leaves).toHaveLength(3);
    expect(inProcess.leaves).toHaveLength(3);
  });

  it("counts an engine idle while its bestmove waits on this thread (the busy share is search time)", { timeout: 300_000 }, async () => {
    const book = OpenBook.create(path.join(tempDir(), "busy.horu"), { limit: { nodes: 2000 }, multipv: 2 });
    // Each stored result holds the thread, as a slow selection would, so the engines spend most
    // of the dig waiting to be noticed.
    const summary = await new Dig(book, { engines: [fairy(1), fairy(2)], positions: 12, onEvent: holdEachResult() }).run();
    book.close();
    expect(summary.thought).toBeGreaterThanOrEqual(12);
    expect(summary.busyShare).toBeGreaterThan(0);
    expect(summary.busyShare).toBeLessThan(0.5);
  });

  it("counts a think the stop cut short as search (the closing busy share)", { timeout: 300_000 }, async () => {
    // One long think, stopped halfway: the engine searched the whole time, though nothing is stored.
    const book = OpenBook.create(path.join(tempDir(), "cut.horu"), { limit: { nodes: 50_000_000 }, multipv: 2 });
    let stopping = false;
    const dig: Dig = new Dig(book, {
      engines: [fairy(1)],
      onEvent: (e) => {
        if (e.kind === "info" && (e.info.timeMs ?? 0) >= 500 && !stopping) {
          stopping = true;
          void dig.stop();
        }
      },
    });
    const summary = await dig.run();
    book.close();
    expect(stopping).toBe(true);
    expect(summary.thought).toBe(0);
    expect(summary.busyShare).toBeGreaterThan(0.5);
    expect(summary.busyShare).toBeLessThanOrEqual(1.0001);
  });

  it(
    "reports no engine failure for the engines a stop at once kills (Ctrl-C twice said 'failed ... (signal SIGKILL)')",
    { timeout: 300_000 },
    async () => {
      const book = OpenBook.create(path.join(tempDir(), "kill.horu"), { limit: { nodes: 50_000_000 }, multipv: 2 });
      let stopping = false;
      const events: DigEvent[] = [];
      const dig: Dig = new Dig(book, {
        engines: [fairy(1), fairy(2)],
        onEvent: (e) => {
          events.push(e);
          if (e.kind === "info" && (e.info.timeMs ?? 0) >= 300 && !stopping) {
            stopping = true;
            void dig.stop({ graceMs: 60_000 });
            void dig.stop({ now: true });
          }
        },
      });
      const summary = await dig.run();
      book.close();
      expect(stopping).toBe(true);
      expect(summary.thought).toBe(0);
      expect(events.filter((e) => e.kind === "engine-failure")).toEqual([]);
    },
  );

  it("counts an engine waiting for a position when nothing was selected ahead (the waiting share)", { timeout: 300_000 }, async () => {
    // No position selected ahead: after each result the engine waits for it to be stored and
    // the next one selected, here held.
    const book = OpenBook.create(path.join(tempDir(), "waiting.horu"), { limit: { nodes: 2000 }, multipv: 2, prefetch: 0 });
    // The shares the Dig view shows while digging, read as each result comes.
    const seen: Array<{ busy: number | null; waiting: number | null }> = [];
    const hold = holdEachResult();
    const dig: Dig = new Dig(book, {
      engines: [fairy(1)],
      positions: 8,
      onEvent: (e) => {
        if (e.kind === "result") seen.push({ busy: dig.progress.busyShare, waiting: dig.progress.waitingShare });
        hold(e);
      },
    });
    expect(dig.progress.busyShare).toBeNull(); // not known before a think, not 0
    const summary = await dig.run();
    book.close();
    expect(summary.thought).toBeGreaterThanOrEqual(8);
    expect(summary.waitingShare).toBeGreaterThan(0.5);
    expect(summary.waitingShare + summary.busyShare).toBeLessThanOrEqual(1.0001);
    expect(seen.length).toBeGreaterThanOrEqual(8);
    for (const { busy, waiting } of seen) {
      expect(busy).toBeGreaterThan(0);
      expect(busy! + waiting!).toBeLessThanOrEqual(1.0001);
    }
    // By the last results, most of the engine's time went waiting on the held thread.
    expect(seen.at(-1)!.waiting).toBeGreaterThan(0.4);

    // Fed faster than it thinks, with positions selected ahead (the default prefetch), an engine
    // that finishes takes the next one at once: its idle moments are not waits on the feed.
    const fed = OpenBook.create(path.join(tempDir(), "fed.horu"), { limit: { nodes: 20_000 }, multipv: 2 });
    const plain = await new Dig(fed, { engines: [fairy(1)], positions: 10 }).run();
    fed.close();
    expect(plain.thought).toBeGreaterThanOrEqual(10);
    expect(plain.waitingShare).toBeLessThan(0.1);
  });

  it("keeps the plain book value's searches to their share while a huge book's search goes on", { timeout: 300_000 }, async () => {
    const book = OpenBook.create(path.join(tempDir(), "share.horu"), { limit: { nodes: 2000 }, multipv: 2 });
    // A book whose plain search never ends: each call costs a 40 ms slice, as on a 15M book.
    let slices = 0;
    book.bookValue = () => {
      slices++;
      const until = performance.now() + 40;
      while (performance.now() < until);
      return null;
    };
    Object.defineProperty(book, "bookValueCurrent", { get: () => false });
    const t0 = performance.now();
    const summary = await new Dig(book, { engines: [fairy(1), fairy(2)], positions: 60 }).run();
    const wallMs = performance.now() - t0;
    book.close();
    expect(summary.thought).toBeGreaterThanOrEqual(60);
    // One slice at the start, the settling ones at the stop, and 2% of the dig's time between;
    // a slice after every stored result would be 60 or more.
    expect(slices).toBeLessThanOrEqual(3 + Math.ceil((BOOK_VALUE_SHARE * wallMs) / 40));
  });

  it("leaves the plain book value out when told: its search (a selector of its own) never runs", { timeout: 300_000 }, async () => {
    const book = OpenBook.create(path.join(tempDir(), "plain-off.horu"), { limit: { nodes: 2000 }, multipv: 2 });
    let searches = 0;
    const real = book.bookValue.bind(book);
    book.bookValue = (budgetMs?: number) => {
      searches++;
      return real(budgetMs);
    };
    const off = new Dig(book, { engines: [fairy(1)], positions: 6, bookValue: false });
    await off.run();
    expect(searches).toBe(0);
    expect(off.progress.bookValue).toBeNull();
    const on = new Dig(book, { engines: [fairy(1)], positions: 6 });
    await on.run();
    const shown = on.progress.bookValue;
    book.close();
    expect(searches).toBeGreaterThan(0);
    expect(shown).not.toBeNull();
  });

  it(
    "runs its engines nicer than itself, every thread and their sessions' group, so its own work has a core",
    { timeout: 300_000 },
    async () => {
      const book = OpenBook.create(path.join(tempDir(), "nice.horu"), { limit: { nodes: 2000 }, multipv: 2 });
      const ours = niceness(String(process.pid)),
        ourNice = getPriority();
      const engines = nicenessAtFirstResult();
      await new Dig(book, {
        engines: [fairy(1), { ...fairy(2), options: { Threads: 2, Hash: 16 } }],
        positions: 4,
        onEvent: engines.look,
      }).run();
      book.close();
      const seen = engines.seen();
      const want = Math.min(19, ourNice + engineNice(2));
      expect(seen.length).toBe(2);
      // Threads: 2 made a search thread at setoption, after the last call: it started niced.
      expect(Math.max(...seen.map((e) => e.threads.length))).toBeGreaterThanOrEqual(3);
      for (const engine of seen) {
        expect(engine.threads.length).toBeGreaterThanOrEqual(2);
        for (const n of engine.threads) expect(n).toBe(want);
        if (ours.group !== null) expect(engine.group).toBe(Math.min(19, ours.group + engineNice(2)));
      }
      // horu itself, and its own group, are left as they were.
      expect(niceness(String(process.pid)).group).toBe(ours.group);
      expect(getPriority()).toBe(ourNice);
    },
  );

  it("runs engines that outnumber the cores nicer still, so the thread that feeds them keeps a core", { timeout: 300_000 }, async () => {
    expect([engineNice(2, 2), engineNice(3, 2), engineNice(64, 2), engineNice(64, 64)]).toEqual([
      ENGINE_NICE,
      ENGINE_NICE_CROWDED,
      ENGINE_NICE_CROWDED,
      ENGINE_NICE,
    ]);
    const count = availableParallelism() + 1;
    const book = OpenBook.create(path.join(tempDir(), "crowded.horu"), { limit: { nodes: 2000 }, multipv: 2 });
    const ourNice = getPriority();
    const running = nicenessAtFirstResult();
    await new Dig(book, { engines: Array.from({ length: count }, (_, i) => fairy(i + 1)), positions: 2, onEvent: running.look }).run();
    book.close();
    const seen = running.seen();
    expect(seen.length).toBe(count);
    for (const engine of seen) {
      expect(engine.threads.length).toBeGreaterThanOrEqual(1);
      for (const n of engine.threads) expect(n).toBe(Math.min(19, ourNice + ENGINE_NICE_CROWDED));
    }
  });

  it("resolves run() only once its engines have quit, so their CPU time is this process's children's", { timeout: 300_000 }, async () => {
    const book = OpenBook.create(path.join(tempDir(), "quit.horu"), { limit: { nodes: 3000 }, multipv: 4 });
    const before = childCpuTicks();
    const summary = await new Dig(book, { engines: [fairy(1), fairy(2)], positions: 6 }).run();
    book.close();
    expect(summary.thought).toBeGreaterThanOrEqual(6);
    // No engine process is left (they would be zombies or still running), and their CPU has been counted.
    expect(childProcesses()).toEqual([]);
    expect(childCpuTicks()).toBeGreaterThan(before);
  });

  it(
    "with the first MultiPV from the parent's spread, starts each position at firstMultiPv of its parent's stored values",
    { timeout: 300_000 },
    async () => {
      // After 8h2b+ White must recapture: the root has one move in the window, so its child starts narrow.
      const root = "startpos moves 7g7f 3c3d 8h2b+";
      const book = OpenBook.create(path.join(tempDir(), "parent.horu"), { limit: { nodes: 3000 }, multipv: "auto", root });
      const rule = { narrow: 2, wide: 8 };
      const sent: string[] = [];
      const engine = { ...fairy(1), logTraffic: true, log: (e: EngineLogEntry) => e.stream === "stdin" && sent.push(e.line) };
      const summary = await new Dig(book, {
        engines: [engine],
        positions: 6,
        dynamic: { ...DEFAULT_DYNAMIC.dynamic, firstFromParent: rule },
      }).run();
      expect(summary.thought).toBeGreaterThanOrEqual(6);
      // Each first search (at the full limit): the MultiPV in force and the position.
      const first: Array<{ sfen: string; k: number }> = [];
      let k = 1,
        position = "";
      for (const line of sent) {
        const mpv = /^setoption name MultiPV value (\d+)$/.exec(line);
        if (mpv) k = Number(mpv[1]);
        else if (line.startsWith("position ")) position = line.slice("position ".length);
        else if (line === "go nodes 3000") first.push({ sfen: Position.fromUsi(position).sfenKey(), k });
      }
      expect(first.length).toBeGreaterThanOrEqual(6);
      const rootKey = Position.fromUsi(root).sfenKey();
      const parentOf = new Map<string, number[]>();
      for (const t of book.store.thoughts.iterate()) {
        for (const c of t.candidates) {
          const child = Position.fromSfen(t.sfen);
          child.doMove(parseUsiMove(c.move)!);
          parentOf.set(
            child.sfenKey(),
            t.candidates.map((x) => x.value),
          );
        }
      }
      book.close();
      for (const f of first) {
        const expected = f.sfen === rootKey ? 4 : firstMultiPv(parentOf.get(f.sfen), 4, DEFAULT_DYNAMIC.dynamic.withinCp, rule);
        expect(f, `first MultiPV of ${f.sfen}`).toEqual({ sfen: f.sfen, k: expected });
      }
      // Both ways were taken: narrow after the forced recapture, wider after close parents.
      expect(first[1]!.k).toBe(2);
      expect(first.some((f) => f.sfen !== rootKey && f.k >= 4)).toBe(true);
    },
  );

  it("pauses (running thinks finish and are stored, positions selected ahead wait), resumes and stops", { timeout: 300_000 }, async () => {
    const file = path.join(tempDir(), "pause.horu");
    const book = OpenBook.create(file, { limit: { nodes: 3000 }, multipv: 3, prefetch: 2 });
    let resolvePaused!: () => void, resolveMore!: () => void;
    const paused = new Promise<void>((r) => (resolvePaused = r));
    const more = new Promise<void>((r) => (resolveMore = r));
    let atPause = -1;
    const dig: Dig = new Dig(book, {
      engines: [fairy(1), fairy(2)],
      onEvent: (e) => {
        if (e.kind === "result" && dig.progress.thought === 5) dig.pause();
        if (e.kind === "progress" && e.progress.state === "paused" && atPause < 0) {
          atPause = e.progress.thought;
          resolvePaused();
        }
        if (e.kind === "result" && atPause >= 0 && dig.progress.thought >= atPause + 3) resolveMore();
      },
    });
    const started = performance.now();
    const run = dig.run();
    await paused;
    expect(dig.progress.state).toBe("paused");
    expect(dig.progress.engines.every((e) => e.state !== "thinking")).toBe(true);
    expect(book.store.thoughts.count()).toBe(atPause);
    // Paused three times as long as it dug: the time paused is no engine's, so the busy share the
    // Dig view shows does not fall to a quarter for it (it may fall some: after the resume the
    // engines wait for positions selected afresh).
    const busyAtPause = dig.progress.busyShare!;
    expect(busyAtPause).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, Math.max(1000, 3 * (performance.now() - started))));
    dig.resume();
    await more;
    expect(dig.progress.busyShare!).toBeGreaterThan(0.5 * busyAtPause);
    await dig.stop();
    const summary = await run;
    expect(summary.thought).toBeGreaterThanOrEqual(atPause + 3);
    expect(summary.busyShare).toBeGreaterThan(0.5 * busyAtPause);
    expect(book.store.thoughts.count()).toBe(summary.thought);
    expect(book.jobs.inFlight).toEqual([]);
    book.close();
  });

  // gpsusi reads its tables at start: on a loaded machine usiok and readyok took 65 s.
  it.skipIf(missing(haveGps, "/usr/games/gpsusi"))("digs with gpsusi too", { timeout: 600_000 }, async () => {
    const file = path.join(tempDir(), "gps.horu");
    // GPS Shogi searches by time only.
    const book = OpenBook.create(file, { limit: { movetimeMs: 300 }, multipv: 2 });
    const summary = await new Dig(book, { engines: [{ command: GPSUSI, name: "gpsusi", timeouts: GPS_START }], positions: 5 }).run();
    expect(summary.thought).toBeGreaterThanOrEqual(5);
    expect(book.store.thoughts.count()).toBe(summary.thought);
    book.close();
  });
});

describe("digging when engines fail", () => {
  it("gives up on a position after 3 crashes, marks it failed and stops when nothing is left", { timeout: 600_000 }, async () => {
    const file = path.join(tempDir(), "fail.horu");
    const book = OpenBook.create(file, { limit: { nodes: 1000 }, multipv: 2 });
    const events: DigEvent[] = [];
    const crash = {
      command: process.execPath,
      args: [FAKE_ENGINE, "--mode", "crash-mid-think", "--delay", "50"],
      name: "crasher",
      // Node starting the fake engine, four times: on a loaded machine one start took over 5 s.
      timeouts: { usiokMs: 60_000, readyokMs: 60_000 },
    };
    const summary = await new Dig(book, { engines: [crash], onEvent: (e) => events.push(e) }).run();
    expect(summary.thought).toBe(0);
    expect(summary.failed).toBe(1);
    expect(events.filter((e) => e.kind === "engine-failure").length).toBeGreaterThanOrEqual(3);
    expect(events.find((e) => e.kind === "failed")).toMatchObject({ sfen: Position.startpos().sfenKey() });
    expect([...book.store.failures.iterateFailed()].map((f) => f.sfen)).toEqual([Position.startpos().sfenKey()]);
    book.close();
  });

  it.skipIf(missing(haveGps, "/usr/games/gpsusi"))(
    "pauses with a clear error when the engine cannot follow the think limit, marking nothing failed",
    { timeout: 600_000 }, // gpsusi's start (above)
    async () => {
      const file = path.join(tempDir(), "unsupported.horu");
      const book = OpenBook.create(file, { limit: { nodes: 1000 } });
      const events: DigEvent[] = [];
      const dig = new Dig(book, {
        engines: [{ command: GPSUSI, name: "gpsusi", timeouts: GPS_START }],
        onEvent: (e) => {
          events.push(e);
          if (e.kind === "error") void dig.stop();
        },
      });
      const summary = await dig.run();
      expect(summary.failed).toBe(0);
      expect(events.find((e) => e.kind === "error")).toMatchObject({ message: expect.stringContaining("time limit") });
      expect([...book.store.failures.iterateFailed()]).toEqual([]);
      book.close();
    },
  );

  it("refuses an engine path that does not exist, naming it", async () => {
    const file = path.join(tempDir(), "nopath.horu");
    let err = "";
    try {
      execFileSync(process.execPath, [HORU, "dig", "--book", file, "--engine", "/no/such/engine", "--positions", "1"], {
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (e) {
      err = String((e as { stderr?: string }).stderr);
    }
    expect(err).toContain("/no/such/engine");
    // The book it made for a dig that never started is not left behind, empty, and that is said
    // (it had said "created FILE" and no more).
    expect(existsSync(file)).toBe(false);
    expect(err).toContain(`${file} not kept: the dig never started, so the book just created held nothing`);
    // Nor is it left on the recent-books list the app and horu web offer (it was put there at the start).
    expect(readFileSync(recentFile(), "utf8")).not.toContain(file);
    // A book that exists, dug with other settings and the same wrong engine: they are not
    // stored, since no engine took them.
    OpenBook.create(file, { limit: { nodes: 1000 } }).close();
    const before = BookStore.open(file, { readonly: true });
    const settings = before.settings.all();
    before.close();
    const again = spawnSync(
      process.execPath,
      [HORU, "dig", "--book", file, "--engine", "/no/such/engine", "--nodes", "5", "--window", "0", "--root", "startpos moves 9g9f"],
      { encoding: "utf8" },
    );
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain("/no/such/engine");
    const after = BookStore.open(file, { readonly: true });
    expect(after.settings.all()).toEqual(settings);
    after.close();
    // A record to seed that is not there is refused before anything, as horu import refuses it.
    const seedless = path.join(tempDir(), "seedless.horu");
    const seed = spawnSync(
      process.execPath,
      [HORU, "dig", "--book", seedless, "--engine", "/no/such/engine", "--seed", "/no/such/game.kif"],
      {
        encoding: "utf8",
      },
    );
    expect(seed.status).toBe(2);
    expect(seed.stderr).toContain("--seed: /no/such/game.kif does not exist");
    expect(existsSync(seedless)).toBe(false);
  });

  it.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(
    "--prefetch is kept as the book's setting; a setting out of its range is refused before a book is made",
    { timeout: 600_000 }, // five runs of the command line, one with an engine
    () => {
      const file = path.join(tempDir(), "prefetch.horu");
      const refused = spawnSync(
        process.execPath,
        [HORU, "dig", "--book", file, "--engine", FAIRY, "--positions", "1", "--prefetch", "65"],
        {
          encoding: "utf8",
          timeout: 120_000,
        },
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("--prefetch must be at most 64, not '65'");
      expect(existsSync(file)).toBe(false);
      // The same check for every setting given on the command line: the settings' own ranges.
      for (const [flag, raw, max] of [
        ["--window", "70000", 64000],
        ["--depth", "200", 127],
        ["--max-ply", "2000", 1024],
      ] as const) {
        // Bounded, so that were it taken it would end (and fail here) rather than dig on.
        const r = spawnSync(process.execPath, [HORU, "dig", "--book", file, "--engine", FAIRY, "--positions", "1", flag, raw], {
          encoding: "utf8",
          timeout: 120_000,
        });
        expect(r.status).toBe(2);
        expect(r.stderr).toContain(`${flag} must be at most ${max}, not '${raw}'`);
      }
      expect(existsSync(file)).toBe(false);
      const made = spawnSync(
        process.execPath,
        [HORU, "dig", "--book", file, "--engine", FAIRY, "--engines", "1", "--nodes", "1000", "--positions", "1", "--prefetch", "0"],
        { encoding: "utf8" },
      );
      expect(made.status, made.stderr).toBe(0);
      const store = BookStore.open(file, { readonly: true });
      expect(store.settings.get("prefetch")).toBe(0);
      store.close();
    },
  );
});

describe("positions kept selected ahead", () => {
  it("is the book's prefetch, and with more than 16 engine processes at least a quarter of them", () => {
    expect(positionsAhead(4, 2)).toBe(4);
    expect(positionsAhead(0, 1)).toBe(0); // a book that asks for none, with few engines, gets none
    expect(positionsAhead(4, 16)).toBe(4);
    expect(positionsAhead(4, 17)).toBe(5);
    expect(positionsAhead(4, 64)).toBe(16);
    expect(positionsAhead(32, 64)).toBe(32);
  });
});
