// USI `info` text for search results.
import { VALUE_MATE } from "../rules/types.js";
import { moveToUsi } from "../rules/usi.js";
import { VALUE_MATE_BOUND } from "../rules/types.js";
import type { Iteration } from "./search.js";

/** `cp V`, or `mate N` / `mate -N` in plies for mate values. */
export function usiScore(v: number): string {
  if (v >= VALUE_MATE_BOUND) return `mate ${VALUE_MATE - v}`;
  if (v <= -VALUE_MATE_BOUND) return `mate -${VALUE_MATE + v}`;
  return `cp ${v}`;
}

/** One `info` line per MultiPV line of a completed iteration. */
export function iterationInfo(it: Iteration, ms: number, hashfull: number): string[] {
  const nps = ms > 0 ? Math.round((it.nodes * 1000) / ms) : it.nodes;
  return it.lines.map(
    (l, k) =>
      `info depth ${it.depth} seldepth ${Math.max(it.seldepth, it.depth)} multipv ${k + 1} score ${usiScore(l.value)} nodes ${it.nodes} nps ${nps} time ${Math.round(ms)} hashfull ${hashfull} pv ${l.pv.map(moveToUsi).join(" ")}`,
  );
}
