// The breadth-first policy in a real dig (fairy-stockfish, two engines, `horu dig --policy
// breadth-first`): checked against the book it stored by an independent walk over
// positions (not the graph the policy walks): every position within the window at ply n is
// thought before any at ply n+1, each at the ply of its shortest line.
import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { BookStore } from "../store/book-store.js";
import { FAIRY, HORU, NO_ENGINE, haveFairy, tempDir } from "../testing/paths.js";
import { missing } from "../testing/missing.js";
import { Position } from "../../shared/rules/position.js";
import { walkWindow } from "../testing/window-walk.js";
import type { StoredThought } from "../store/book-store.js";

const WINDOW = 40;

describe.skipIf(missing(haveFairy, "/usr/games/fairy-stockfish"))(`breadth-first dig (${NO_ENGINE})`, () => {
  it("thinks every position within the window at ply n before any at ply n+1", { timeout: 240_000 }, () => {
    const file = path.join(tempDir(), "bf.horu");
    const out = execFileSync(
      process.execPath,
      [
        HORU,
        "dig",
        "--book",
        file,
        "--policy",
        "breadth-first",
        "--engine",
        FAIRY,
        "--engines",
        "2",
        "--option",
        "Threads=1",
        "--option",
        "USI_Hash=16",
        "--nodes",
        "2000",
        "--multipv",
        "4",
        "--window",
        String(WINDOW),
        "--positions",
        "30",
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(out).toMatch(/positions thought: 30 \(failed 0\)/);

    const store = BookStore.open(file, { readonly: true });
    // In the order they were stored (ids), with their moves.
    const thought: StoredThought[] = [...store.thoughts.iterate()];
    expect(store.settings.all().policy).toBe("breadth-first");
    store.close();
    expect(thought).toHaveLength(30);
    const byKey = new Map(thought.map((t) => [t.sfen, t]));
    // Plies within the window, walked over positions from the stored candidates.
    const { ply, unthought: frontier } = walkWindow(thought, WINDOW);
    // Every thought position is within the window, and plies never go down in the order stored.
    const plies = thought.map((t) => ply.get(t.sfen));
    for (const p of plies) expect(p).toBeDefined();
    for (let i = 1; i < plies.length; i++) expect(plies[i]!, `position ${i}`).toBeGreaterThanOrEqual(plies[i - 1]!);
    const last = plies.at(-1)!;
    expect(last).toBeGreaterThanOrEqual(2);
    // Nothing within the window is left unthought at a ply before the last one reached.
    for (const [d, keys] of frontier) if (d < last) expect(keys.size, `unthought at ply ${d}`).toBe(0);
    // The first plies are complete: ply 1 holds every move of the root within the window.
    const root = byKey.get(Position.startpos().sfenKey())!;
    const best = Math.max(...root.candidates.map((c) => c.value));
    expect(plies.filter((p) => p === 1)).toHaveLength(root.candidates.filter((c) => c.value >= best - WINDOW).length);
  });

  it("refuses an unknown policy", () => {
    const r = spawnSync(process.execPath, [HORU, "dig", "--book", path.join(tempDir(), "x.horu"), "--policy", "depth-first"], {
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--policy must be tera-shock or breadth-first, not 'depth-first'/);
  });
});
