// The Quality view's runs through the host: a library engine measures the open book in the
// background (quality.status events to the end), the searches stay in the book so a run
// without an engine reports from them at once, and only engines of the library run.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HostService } from "./service.js";
import { parseCall, type HostEvent, type Method, type QualityStatusView } from "../../shared/api/contract.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { EngineLibrary } from "../engines/library.js";
import { writeQualityBook } from "../testing/quality-book.js";
import { until as untilSeen } from "../testing/until.js";

const dir = tempDir("horu-quality-view-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function call(s: HostService, method: Method, args: unknown): Promise<unknown> {
  const parsed = parseCall(method, args);
  return s.call(parsed.method, parsed.args as never);
}

const until = (seen: QualityStatusView[], ok: (v: QualityStatusView) => boolean, ms = 120_000) => untilSeen(seen, ok, ms, "quality status");

describe.skipIf(!haveFairy)(`quality view (${NO_ENGINE})`, () => {
  it("measures the open book with a library engine, then reports from the kept searches without one", async () => {
    const lib = new EngineLibrary(dir);
    const e = lib.add({ name: "fairy", command: FAIRY, args: [], cwd: null, options: { Threads: 1, USI_Hash: 16 }, enabled: true });
    const s = new HostService({ configDir: dir, recentFile: path.join(dir, "recent.json") });
    const seen: QualityStatusView[] = [];
    s.onEvent((ev: HostEvent) => ev.type === "quality.status" && seen.push(ev.status));
    const file = path.join(dir, "q.horu");
    writeQualityBook(file);
    try {
      await expect(call(s, "quality.start", { engineId: e.id })).rejects.toThrow(/no book|open/i);
      await call(s, "book.open", { path: file });
      await expect(call(s, "quality.start", { engineId: e.id + 100 })).rejects.toThrow(/library/);
      expect(() => parseCall("quality.start", { command: FAIRY })).toThrow(/invalid arguments/);

      const started = (await call(s, "quality.start", {
        engineId: e.id,
        oracleFactor: 3,
        perBand: 5,
        coverageRuns: 2,
      })) as QualityStatusView;
      expect(started.state).toBe("running");
      const done = await until(seen, (v) => v.state === "done" || v.state === "failed");
      expect(done.error).toBeNull();
      const r = done.report!;
      expect(r.positions).toBe(4);
      expect(r.oracleNodes).toBe(3000); // 3 x the book's 1,000 nodes
      expect(r.searched).toBeGreaterThan(0);
      expect(r.rootNow?.move).toBe("2g2f"); // the minimax best of the hand-made book
      const all = r.bands.find((b) => b.band === "all")!;
      expect(all.book.best.n).toBe(r.scored);
      expect(r.coverage).toHaveLength(2);
      // It said where it was: the oracle's searches, counted to the end.
      expect(seen.some((v) => v.progress?.phase === "oracle" && v.progress.done === v.progress.total && v.progress.nodes === 3000)).toBe(
        true,
      );

      // Without an engine: at once, from what the first run kept (at the same oracle).
      const before = seen.length;
      const kept = (await call(s, "quality.start", { oracleFactor: 3, perBand: 5 })) as QualityStatusView;
      // Should it still run, its own "done" comes after the first run's events.
      const again = kept.state === "running" ? await until(seen, (v) => seen.indexOf(v) >= before && v.state === "done") : kept;
      expect(again.report!.searched).toBe(0);
      expect(again.report!.reused).toBe(r.scored);
      expect(again.report!.bands.find((b) => b.band === "all")!.book.best.value).toBe(all.book.best.value);
      expect(((await call(s, "quality.status", {})) as QualityStatusView).state).toBe("done");
    } finally {
      await s.closeBook();
    }
  }, 180_000);
});
