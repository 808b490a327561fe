// Live analysis (検討) through the host: a library engine searches the position without end in
// its own process, its lines (legal from the position) deepen, a new start restarts it on the
// new position, and stop or the book's close ends the process.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { HostService } from "./service.js";
import { parseCall, type AnalysisUpdate, type HostEvent, type Method } from "../../shared/api/contract.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { EngineLibrary } from "../engines/library.js";
import { Position } from "../../shared/rules/position.js";
import { until as untilSeen } from "../testing/until.js";

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

function call(s: HostService, method: Method, args: unknown): Promise<unknown> {
  const parsed = parseCall(method, args);
  return s.call(parsed.method, parsed.args as never);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const until = (updates: AnalysisUpdate[], ok: (u: AnalysisUpdate) => boolean, ms = 30_000) => untilSeen(updates, ok, ms, "analysis update");

describe.skipIf(!haveFairy)(`live analysis (${NO_ENGINE})`, () => {
  it("analyses in its own process, lines legal and deepening, restarts on a new position, stops", async () => {
    const dir = tempDir();
    const lib = new EngineLibrary(dir);
    const e = lib.add({ name: "fairy", command: FAIRY, args: [], cwd: null, options: { Threads: 1, Hash: 16 }, enabled: true });
    const s = new HostService({ configDir: dir, recentFile: path.join(dir, "recent.json") });
    const updates: AnalysisUpdate[] = [];
    s.onEvent((ev: HostEvent) => ev.type === "analysis.update" && updates.push(ev.update));
    try {
      await expect(call(s, "analysis.start", { engineId: e.id + 100, sfen: START })).rejects.toThrow(/library/);
      expect(() => parseCall("analysis.start", { command: FAIRY, sfen: START })).toThrow(/invalid arguments/);

      const r = (await call(s, "analysis.start", { engineId: e.id, sfen: START, multipv: 3 })) as { id: number };
      const pid = s.analysis.pid!;
      expect(pid).toBeGreaterThan(0);
      const first = await until(updates, (u) => u.id === r.id && u.lines.length === 3);
      const later = await until(updates, (u) => u.id === r.id && u.lines.length === 3 && u.lines[0]!.depth > first.lines[0]!.depth + 2);
      for (const u of [first, later])
        for (const l of u.lines) expect(() => Position.fromUsi(`sfen ${START} moves ${l.moves.join(" ")}`)).not.toThrow();

      // The board moved on: the same process searches the new position.
      const moved = Position.fromUsi(`sfen ${START} moves 7g7f`).toSfen();
      const r2 = (await call(s, "analysis.start", { engineId: e.id, sfen: moved, multipv: 2 })) as { id: number };
      expect(s.analysis.pid).toBe(pid);
      await until(updates, (u) => u.id === r.id && u.state === "stopped");
      const second = await until(updates, (u) => u.id === r2.id && u.lines.length === 2 && u.lines[0]!.depth >= 3);
      expect(second.sfen).toBe(moved);
      for (const l of second.lines) expect(() => Position.fromUsi(`sfen ${moved} moves ${l.moves.join(" ")}`)).not.toThrow();

      await call(s, "analysis.stop", {});
      expect(s.analysis.pid).toBeUndefined();
      expect(alive(pid)).toBe(false);
      expect(updates.some((u) => u.id === r2.id && u.state === "stopped")).toBe(true);

      // Closing the book ends an analysis too.
      await call(s, "analysis.start", { engineId: e.id, sfen: START });
      const pid3 = s.analysis.pid!;
      await s.closeBook();
      expect(alive(pid3)).toBe(false);
    } finally {
      await s.analysis.stop();
    }
  }, 90_000);
});
