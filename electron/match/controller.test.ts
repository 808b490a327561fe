// The match behind the UI contract: match.start plays in this process and pushes
// match.status events until "done"; a folder that already holds a match is refused by
// match.start and resumed by match.open.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildMatchConfig } from "./setup.js";
import { writeConfig } from "./runner.js";
import { HostService } from "../host/service.js";
import { parseCall, type HostEvent, type MatchStatusView } from "../../shared/api/contract.js";
import { FAIRY, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";

function until(service: HostService, done: (s: MatchStatusView) => boolean, timeoutMs: number): Promise<MatchStatusView> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no matching match.status in time")), timeoutMs);
    const off = service.onEvent((e: HostEvent) => {
      if (e.type === "match.status" && done(e.status)) {
        clearTimeout(timer);
        off();
        resolve(e.status);
      }
    });
  });
}

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`match through the host contract (${NO_ENGINE})`, () => {
  it("starts, reports live, finishes; the folder then resumes rather than restarts", { timeout: 120_000 }, async () => {
    const service = new HostService();
    const dir = path.join(tempDir(), "m");
    const args = parseCall("match.start", {
      dir,
      players: [
        { engine: FAIRY, options: { Threads: 1 } },
        { engine: FAIRY, options: { Threads: 1 }, name: "second" },
      ],
      games: 2,
      nodes: 300,
      maxMoves: 30,
    }).args;
    const live = until(service, (s) => s.live.length > 0 && s.live[0]!.moves.length > 0, 60_000);
    const done = until(service, (s) => s.state === "done", 100_000);
    const first = await service.call("match.start", args as never);
    expect(first.state).toBe("running");
    expect(first.players[1]).toBe("second");
    const l = await live;
    expect(l.live[0]!.sfen).toMatch(/ [bw] /);
    const end = await done;
    expect(end.played).toBe(2);
    expect(end.games).toHaveLength(2);
    expect(end.table.elo).not.toBeNull();
    expect(
      end.games.every((g) =>
        ["mate", "resign", "repetition", "perpetual-check", "declaration", "max-moves", "adjudication"].includes(g.reason),
      ),
    ).toBe(true);
    await expect(service.call("match.start", args as never)).rejects.toThrow(/already holds a match/);
    const again = await service.call("match.open", { dir });
    expect(again.played).toBe(2);
    await service.closeMatch();
  });

  it("a folder another process is playing is followed, never played beside it, even between its games", { timeout: 60_000 }, async () => {
    const dir = path.join(tempDir(), "other");
    mkdirSync(dir, { recursive: true });
    writeConfig(
      dir,
      buildMatchConfig({
        players: [
          { engine: FAIRY, options: { Threads: 1 } },
          { engine: FAIRY, options: { Threads: 1 } },
        ],
        games: 2,
        limits: { kind: "nodes", nodes: 300 },
        concurrency: 1,
        rules: { maxPlies: 20 },
      }),
    );
    const live = (pid: number, at: number) => writeFileSync(path.join(dir, "live.json"), JSON.stringify({ pid, at, games: [] }));
    // A live process (the test runner's parent), between games, its live.json a minute old.
    live(process.ppid, Date.now() - 60_000);
    let service = new HostService();
    const followed = await service.call("match.open", { dir });
    expect(followed.state).toBe("watching");
    expect(followed.played).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(existsSync(path.join(dir, "results.jsonl"))).toBe(false); // nothing played here
    await service.closeMatch();
    // Its process gone (a pid that exited) and live.json old: this folder is resumed here.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    live(gone, Date.now() - 60_000);
    service = new HostService();
    const done = until(service, (s) => s.state === "done", 50_000);
    const resumed = await service.call("match.open", { dir });
    expect(resumed.state).toBe("running");
    expect((await done).played).toBe(2);
    await service.closeMatch();
  });
});
