// `horu bench engines`: every engine found on this machine and every built-in one, side by
// side at the same node limit on the same positions, one process each, thinking as a dig
// does (dynamic MultiPV): nodes per second and positions per hour.
import { UsiEngine, type UsiEngineOptions } from "./usi/engine.js";
import { DEFAULT_DYNAMIC } from "./usi/widen.js";
import { BUILTIN_ENGINES, builtinSpec } from "./builtin.js";
import { detectEngines } from "./detect.js";

/** Opening positions a dig meets early, as `position` texts. */
const POSITIONS = [
  "startpos",
  "startpos moves 7g7f",
  "startpos moves 2g2f",
  "startpos moves 7g7f 3c3d",
  "startpos moves 7g7f 8c8d",
  "startpos moves 2g2f 8c8d 2f2e",
];

export interface EngineBenchRow {
  name: string;
  where: string;
  positions: number;
  nodes: number;
  wallMs: number;
  startMs: number;
  nodesPerSecond: number;
  positionsPerHour: number;
  error?: string;
}

async function benchOne(spec: UsiEngineOptions, where: string, nodes: number): Promise<EngineBenchRow> {
  const engine = new UsiEngine(spec);
  const name = spec.name ?? spec.command;
  const t0 = performance.now();
  try {
    await engine.start();
    const startMs = performance.now() - t0;
    let total = 0;
    const t1 = performance.now();
    for (const p of POSITIONS) total += (await engine.think(p, { kind: "nodes", nodes }, DEFAULT_DYNAMIC)).nodes;
    const wallMs = performance.now() - t1;
    return {
      name,
      where,
      positions: POSITIONS.length,
      nodes: total,
      wallMs,
      startMs,
      nodesPerSecond: total / (wallMs / 1000),
      positionsPerHour: (POSITIONS.length / wallMs) * 3_600_000,
    };
  } catch (e) {
    return {
      name,
      where,
      positions: 0,
      nodes: 0,
      wallMs: 0,
      startMs: 0,
      nodesPerSecond: 0,
      positionsPerHour: 0,
      error: e instanceof Error ? e.message : String(e),
    };
  } finally {
    await engine.quit().catch(() => engine.kill());
  }
}

export async function benchEngines(opts: { nodes: number; print: (line: string) => void }): Promise<EngineBenchRow[]> {
  const { nodes, print } = opts;
  const rows: EngineBenchRow[] = [];
  const targets: Array<{ spec: UsiEngineOptions; where: string }> = [];
  for (const f of detectEngines()) {
    if (f.timeOnly) {
      print(`   ${f.name} (${f.command}) searches by time only: not comparable at a node limit, skipped`);
      continue;
    }
    targets.push({
      spec: { command: f.command, cwd: f.cwd ?? undefined, name: `${f.name} (native)`, options: { Threads: 1, USI_Hash: 64 } },
      where: f.command,
    });
  }
  for (const b of BUILTIN_ENGINES) targets.push({ spec: builtinSpec(b, { Threads: 1, USI_Hash: 64 }), where: `builtin:${b.id}` });
  print(
    `   ${POSITIONS.length} opening positions at ${nodes.toLocaleString("en")} nodes each, dynamic MultiPV (4, widened while close), 1 thread, one process per engine`,
  );
  for (const t of targets) rows.push(await benchOne(t.spec, t.where, nodes));
  const width = Math.max(...rows.map((r) => r.name.length), 6);
  print(`   ${"engine".padEnd(width)}  ${"nodes/s".padStart(10)}  ${"positions/hour".padStart(14)}  ${"start".padStart(7)}  where`);
  for (const r of rows) {
    if (r.error) print(`   ${r.name.padEnd(width)}  failed: ${r.error}`);
    else
      print(
        `   ${r.name.padEnd(width)}  ${Math.round(r.nodesPerSecond).toLocaleString("en").padStart(10)}  ${Math.round(r.positionsPerHour).toLocaleString("en").padStart(14)}  ${(r.startMs / 1000).toFixed(1).padStart(6)}s  ${r.where}`,
      );
  }
  const fastest = rows.filter((r) => !r.error).sort((a, b) => b.nodesPerSecond - a.nodesPerSecond)[0];
  if (fastest)
    for (const r of rows)
      if (!r.error && r !== fastest)
        print(`   ${r.name}: ${((r.nodesPerSecond / fastest.nodesPerSecond) * 100).toFixed(0)}% of ${fastest.name}'s speed`);
  return rows;
}
