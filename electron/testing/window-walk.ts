// The dig tests' independent view of a stored book: the ply of every position reachable from
// the start position through stored candidates within a window of their position's best,
// walked over positions (not over the graph the dig walks).
import type { StoredThought } from "../store/book-store.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";

export interface WindowWalk {
  /** Each position's ply by its shortest line (SFEN key to ply), thought or not. */
  ply: Map<string, number>;
  /** The positions within the window not thought, by ply. */
  unthought: Map<number, Set<string>>;
}

export function walkWindow(thoughts: readonly StoredThought[], windowCp: number): WindowWalk {
  const byKey = new Map(thoughts.map((t) => [t.sfen, t]));
  const ply = new Map<string, number>([[Position.startpos().sfenKey(), 0]]);
  const unthought = new Map<number, Set<string>>();
  let level = [Position.startpos()];
  for (let d = 1; level.length > 0; d++) {
    const next: Position[] = [];
    for (const p of level) {
      const t = byKey.get(p.sfenKey())!;
      const best = Math.max(...t.candidates.map((c) => c.value));
      for (const c of t.candidates) {
        if (c.value < best - windowCp) continue;
        const child = p.clone();
        child.doMove(parseUsiMove(c.move)!);
        const key = child.sfenKey();
        if (ply.has(key)) continue;
        ply.set(key, d);
        if (byKey.has(key)) next.push(child);
        else unthought.set(d, (unthought.get(d) ?? new Set()).add(key));
      }
    }
    level = next;
  }
  return { ply, unthought };
}
