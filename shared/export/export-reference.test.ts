// The fast exporter against a slow, literal reading of docs/DESIGN.md §5 on random books full of
// cycles, checks, transpositions, twins, duplicate and empty blocks. The reference finds
// children by making each move and keys twins by the smaller key, does every pass and
// round over all nodes in input order, and caches nothing: if the work lists and dirty
// marks of export.ts changed any result, or the pass caps were emulated wrongly, the
// outputs would differ. Small caps are tried too, so the caps are reached.
import { describe, expect, it } from "vitest";
import { Position } from "../rules/position.js";
import { moveToUsi, parseUsiMove } from "../rules/usi.js";
import { writeDb2016, type Db2016OutBlock } from "../formats/db2016.js";
import { better, exportPetaShock, PETA_LIMITS, type ExportInputBlock, type ExportOptions } from "./export.js";
import { xorshift32 as rng } from "../util/rng.js";

interface Edge {
  move: number;
  child: number; // node id, or -1 for a leaf
  value: number; // leaf value, or the listed value of an internal edge
  listed: boolean;
}

function canonicalKey(p: Position): string {
  const f = p.flipped();
  const a = [p.keyHi >>> 0, p.keyLo >>> 0];
  const b = [f.keyHi >>> 0, f.keyLo >>> 0];
  const k = a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? a : b;
  return `${k[0]}:${k[1]}`;
}

function reference(blocks: ExportInputBlock[], opts: ExportOptions): Db2016OutBlock[] {
  const limits = opts.limits ?? PETA_LIMITS;
  const n = blocks.length;
  const pos = blocks.map((b) => Position.fromSfen(b.sfen));
  // Step 1: the last block with a key owns it.
  const index = new Map<string, number>();
  pos.forEach((p, i) => index.set(canonicalKey(p), i));
  // Step 2.
  const edges: Edge[][] = pos.map((p, i) => {
    const listed: { move: number; value: number }[] = [];
    for (const m of blocks[i].moves) {
      const code = parseUsiMove(m.move);
      if (code === null || listed.some((l) => l.move === code)) continue;
      listed.push({ move: code, value: Math.max(-32000, Math.min(32000, m.value ?? 0)) });
    }
    const out: Edge[] = [];
    for (const m of p.legalMoves()) {
      const c = p.clone();
      c.doMove(m);
      const child = index.get(canonicalKey(c));
      if (child === undefined) continue;
      const l = listed.find((x) => x.move === m);
      out.push({ move: m, child, value: l ? l.value : 0, listed: l !== undefined });
    }
    for (const l of listed) if (!out.some((e) => e.move === l.move)) out.push({ move: l.move, child: -1, value: l.value, listed: true });
    return out;
  });
  // Step 9: nodes without edges are absent, until nothing more becomes absent.
  const absent = new Array<boolean>(n).fill(false);
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < n; i++) {
      if (absent[i]) continue;
      edges[i] = edges[i].flatMap((e) => (e.child >= 0 && absent[e.child] ? (e.listed ? [{ ...e, child: -1 }] : []) : [e]));
      if (edges[i].length === 0) {
        absent[i] = true;
        changed = true;
      }
    }
  }
  const inCheck = pos.map((p) => p.inCheck());
  const best = (i: number, val: number[], dep: number[]): [number, number] => {
    let b: [number, number] | null = null;
    for (const e of edges[i]) {
      const v = e.child < 0 ? e.value : val[e.child];
      const d = e.child < 0 ? 0 : dep[e.child];
      if (!b || better(v, d, b[0], b[1])) b = [v, d];
    }
    return b!;
  };
  // Step 4.
  const settled = new Array<boolean>(n).fill(false);
  const val0 = new Array<number>(n).fill(0);
  const dep0 = new Array<number>(n).fill(9999);
  for (let pass = 0; pass < limits.settlePasses; pass++) {
    let changed = false;
    for (let i = 0; i < n; i++) {
      if (settled[i] || absent[i] || !edges[i].every((e) => e.child < 0 || settled[e.child])) continue;
      const [v, d] = best(i, val0, dep0);
      val0[i] = -v;
      dep0[i] = Math.min(d + 1, 9999);
      settled[i] = true;
      changed = true;
    }
    if (!changed) break;
  }
  // Step 5.
  const open = (i: number) => !settled[i] && !absent[i];
  const inSet = pos.map((_, i) => open(i) && inCheck[i]);
  for (let pass = 0; pass < limits.checkPasses; pass++) {
    let changed = false;
    for (let x = 0; x < n; x++) {
      if (!inSet[x]) continue;
      const keep = edges[x].some((e) => e.child >= 0 && edges[e.child].some((f) => f.child >= 0 && inSet[f.child]));
      if (!keep) {
        inSet[x] = false;
        changed = true;
      }
    }
    if (!changed) break;
  }
  const loop = inSet.slice();
  for (let x = 0; x < n; x++) {
    if (!inSet[x]) continue;
    for (const e of edges[x]) {
      if (e.child >= 0 && edges[e.child].some((f) => f.child >= 0 && inSet[f.child])) loop[e.child] = true;
    }
  }
  // Steps 6 and 7, once per owner.
  const runPass = (owner: number, draw: number) => {
    const val = val0.slice();
    const dep = dep0.slice();
    for (let i = 0; i < n; i++) {
      if (!open(i)) continue;
      dep[i] = 9999;
      if (loop[i]) val[i] = inCheck[i] ? -32000 : 32000;
      else val[i] = pos[i].side !== owner ? draw : -draw;
    }
    const onPath = new Set<number>();
    const dfs = (i: number): [number, number] => {
      if (onPath.has(i)) return inCheck[i] ? [-32000, 9997] : [32000, 9998];
      onPath.add(i);
      let b: [number, number] | null = null;
      for (const e of edges[i]) {
        const r: [number, number] = e.child < 0 ? [e.value, 0] : !loop[e.child] ? [val[e.child], dep[e.child]] : dfs(e.child);
        if (!b || better(r[0], r[1], b[0], b[1])) b = r;
      }
      onPath.delete(i);
      return [-b![0], Math.min(b![1] + 1, 9999)];
    };
    for (let round = 0; round < limits.rounds; round++) {
      let changed = false;
      for (let i = 0; i < n; i++) {
        if (!open(i) || loop[i]) continue;
        const [v, d] = best(i, val, dep);
        const nv = -v;
        let nd = Math.min(d + 1, 9999);
        if (nd > 256) nd = 9999;
        if (nv !== val[i] || nd !== dep[i]) changed = true;
        val[i] = nv;
        dep[i] = nd;
      }
      for (let i = 0; i < n; i++) {
        if (!open(i) || !loop[i]) continue;
        [val[i], dep[i]] = dfs(i);
      }
      if (!changed) break;
    }
    return { val, dep };
  };
  const db = opts.drawBlack ?? 0;
  const dw = opts.drawWhite ?? 0;
  const passes = db === 0 && dw === 0 ? [runPass(0, 0), null] : [runPass(0, db), runPass(1, dw)];
  // Step 8.
  const out: Db2016OutBlock[] = [];
  for (let i = 0; i < n; i++) {
    if (absent[i]) continue;
    const { val, dep } = passes[pos[i].side] ?? passes[0]!;
    const moves = edges[i].map((e) =>
      e.child < 0
        ? { move: moveToUsi(e.move), value: e.value, depth: 0 }
        : { move: moveToUsi(e.move), value: val[e.child], depth: loop[e.child] && inCheck[e.child] ? 9997 : dep[e.child] },
    );
    moves.sort((a, b) => (better(a.value, a.depth, b.value, b.depth) ? -1 : better(b.value, b.depth, a.value, a.depth) ? 1 : 0));
    const kept = opts.shrink ? moves.filter((m) => m.value === moves[0].value) : moves;
    const [bv, bd] = [kept[0].value, kept[0].depth];
    for (let k = 1; k < kept.length; k++) if (kept[k].value === bv && kept[k].depth !== bd) kept[k].value = bv - 1;
    out.push({ sfen: blocks[i].sfen, moves: kept });
  }
  return out;
}

/** Moves with identical (value, depth) in move order: their order is not specified. */
function canonical(blocks: Db2016OutBlock[]): string {
  const sorted = blocks.map((b) => ({
    sfen: b.sfen,
    moves: [...b.moves].sort((x, y) =>
      better(x.value!, x.depth!, y.value!, y.depth!) ? -1 : better(y.value!, y.depth!, x.value!, x.depth!) ? 1 : x.move < y.move ? -1 : 1,
    ),
  }));
  return writeDb2016(sorted);
}

/**
 * A random book from a sparse position (kings, a rook, golds): few legal moves, so
 * positions recur (cycles, transpositions) and checks are common.
 */
function randomBook(seed: number, size: number): ExportInputBlock[] {
  const random = rng(seed);
  const bases = ["3gk4/9/9/9/9/9/9/5R3/4K4 b - 1", "4k4/9/3G5/9/9/9/9/r8/4K4 w - 1", "4k4/4r4/9/9/9/9/9/3G5/4K4 b - 1"];
  const root = Position.fromSfen(bases[seed % bases.length]);
  const blocks: ExportInputBlock[] = [];
  const seen = new Set<string>([root.sfenKey()]);
  const frontier: Position[] = [root];
  const pickValue = () => (random() < 0.05 ? (random() < 0.5 ? 31990 : -31990) : Math.round((random() - 0.5) * 400));
  while (blocks.length < size && frontier.length > 0) {
    const at = Math.floor(random() * frontier.length);
    const p = frontier[at];
    frontier[at] = frontier[frontier.length - 1];
    frontier.pop();
    const legal = p.legalMoves();
    const moves: { move: string; value: number }[] = [];
    for (const m of legal) {
      if (random() > 3 / legal.length) continue;
      moves.push({ move: moveToUsi(m), value: pickValue() });
      const c = p.clone();
      c.doMove(m);
      const k = c.sfenKey();
      if (!seen.has(k)) {
        seen.add(k);
        frontier.push(Position.fromSfen(c.toSfen(false)));
      }
    }
    const r = random();
    if (r < 0.06)
      blocks.push({ sfen: p.toSfen(true), moves: [] }); // an empty entry
    else if (r < 0.09)
      blocks.push({ sfen: p.toSfen(true), moves: [...moves, { move: "none", value: 1 }, { move: moves[0]?.move ?? "resign", value: 5 }] });
    else blocks.push({ sfen: p.toSfen(true), moves });
    if (random() < 0.04) {
      // The colour-flipped twin, with moves of its own.
      const t = p.flipped();
      blocks.push({
        sfen: t.toSfen(true),
        moves: t
          .legalMoves()
          .slice(0, 2)
          .map((m) => ({ move: moveToUsi(m), value: pickValue() })),
      });
    }
    if (random() < 0.04 && blocks.length > 3) {
      // A duplicate of an earlier block, with other values.
      const d = blocks[Math.floor(random() * blocks.length)];
      blocks.push({ sfen: d.sfen, moves: d.moves.map((m) => ({ move: m.move, value: pickValue() })) });
    }
  }
  return blocks;
}

describe("export against a literal reference", () => {
  const small = { settlePasses: 2, checkPasses: 1, rounds: 3 };
  const cases: [string, ExportOptions][] = [
    ["plain", {}],
    ["shrink", { shrink: true }],
    ["contempt", { drawBlack: -40, drawWhite: 25 }],
    ["small caps", { limits: small }],
    ["small caps, contempt", { limits: small, drawBlack: 60, drawWhite: -10 }],
  ];
  it("agrees on random books with cycles, checks, twins, duplicates and empty blocks", () => {
    let loopNodes = 0;
    let open = 0;
    let settlePasses = 0;
    let rounds = 0;
    let absent = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const book = randomBook(seed, 60 + (seed % 4) * 40);
      for (const [name, opts] of cases) {
        const fast = exportPetaShock(book, opts);
        const ref = reference(book, opts);
        expect(canonical(fast.blocks), `seed ${seed}, ${name}`).toBe(canonical(ref));
        if (name === "plain") {
          loopNodes += fast.counts.loopNodes;
          open += fast.counts.written - fast.counts.settled;
          settlePasses = Math.max(settlePasses, fast.counts.settlePasses);
          rounds = Math.max(rounds, fast.counts.rounds[0]);
          absent += fast.counts.absent;
        }
      }
    }
    // The books must exercise the cyclic parts, perpetual checks included.
    expect(open).toBeGreaterThan(100);
    expect(loopNodes).toBeGreaterThan(0);
    expect(absent).toBeGreaterThan(0);
    // ... and the small caps must cut passes and rounds short.
    expect(settlePasses).toBeGreaterThan(small.settlePasses);
    expect(rounds).toBeGreaterThan(small.rounds);
  });
});
