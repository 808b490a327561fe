// Fits the evaluation's placement and king-safety weights to the game records, by the
// move-prediction (comparison) method: in each record position the played move should
// lead to the child the evaluation likes best. The model is a conditional logit over the
// legal moves,
//     P(move j) = softmax_j( beta * material_j + u . phi_j ),
// with phi_j the mover-signed feature vector of child j (the parent's features cancel in
// the softmax, so only what the move changes is stored) and material_j its material. It is
// linear in (beta, u), so the negative log-likelihood plus an L2 penalty is convex; the
// evaluation weights in centipawns are w = u / beta (material stays fixed, as in docs/DESIGN.md §11.2).
// records2016 holds the first 24 plies of each game and no results, which is why the
// records are used through the moves played rather than the outcomes.
import { parseArgs } from "node:util";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { Position } from "../../../../shared/rules/position.js";
import { F_HAND, N_FEATURES, features } from "../../../../shared/horu-engine/eval.js";
import { moveToUsi } from "../../../../shared/rules/usi.js";
import { see } from "../../../../shared/horu-engine/attacks.js";
import { rng } from "../../../../shared/util/rng.js";
import { wholeNumber } from "../../command.js";

interface Sample {
  /** children of this position: [start, end) into the child arrays. */
  start: number;
  end: number;
  played: number;
}

export interface FitEvalResult {
  weights: number[];
  beta: number;
  trainPositions: number;
  testPositions: number;
  children: number;
  /** Held-out move prediction: material alone vs the fitted evaluation. */
  top1MaterialOnly: number;
  top1Fitted: number;
  nllMaterialOnly: number;
  nllFitted: number;
}

import { recordsFile } from "../../../engines/horu/positions.js";

export function fitEval(file: string, positions: number, seed = 7, log: (s: string) => void = () => {}): FitEvalResult {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("startpos"));
  const r = rng(seed);
  // Sparse child features: (index, value) pairs per child.
  let idx = new Uint16Array(1 << 22),
    val = new Float32Array(1 << 22),
    nnz = 0;
  const childStart: number[] = [0],
    childMat: number[] = [];
  const samples: Sample[] = [];
  const parent = new Float64Array(N_FEATURES),
    child = new Float64Array(N_FEATURES);
  const buf = new Uint16Array(600),
    reply = new Uint16Array(600);
  while (samples.length < positions) {
    const moves = lines[Math.floor(r() * lines.length)].trim().split(/\s+/).slice(2);
    const ply = 4 + Math.floor(r() * (moves.length - 4));
    let pos: Position;
    try {
      pos = Position.fromUsi(`startpos moves ${moves.slice(0, ply).join(" ")}`);
    } catch {
      continue;
    }
    const played = moves[ply];
    if (!played || pos.inCheck()) continue;
    const sign = pos.side === 0 ? 1 : -1;
    const pMat = features(pos, parent);
    const n = pos.generateLegal(buf);
    let playedIdx = -1;
    const first = childMat.length;
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      pos.doMove(m);
      // The child's material net of the opponent's best exchange (SEE), so a capture that
      // is taken straight back, or a piece left hanging, counts for what it is.
      const mat = features(pos, child) - sign * bestExchange(pos, reply);
      pos.undoMove();
      if (played === moveToUsi(m)) playedIdx = i;
      if (nnz + N_FEATURES > idx.length) {
        const i2 = new Uint16Array(idx.length * 2),
          v2 = new Float32Array(val.length * 2);
        i2.set(idx);
        v2.set(val);
        idx = i2;
        val = v2;
      }
      for (let k = 0; k < N_FEATURES; k++) {
        const d = (child[k] - parent[k]) * sign;
        if (d !== 0) {
          idx[nnz] = k;
          val[nnz] = d;
          nnz++;
        }
      }
      childMat.push(((mat - pMat) * sign) / 100);
      childStart.push(nnz);
    }
    if (playedIdx < 0) {
      // Not a legal move here (should not happen): drop what was added.
      childMat.length = first;
      childStart.length = first + 1;
      nnz = childStart[first];
      continue;
    }
    samples.push({ start: first, end: childMat.length, played: first + playedIdx });
    if (samples.length % 2000 === 0) log(`  ${samples.length} positions, ${childMat.length} children`);
  }
  const nTest = Math.max(1, Math.floor(samples.length / 10));
  const test = samples.slice(0, nTest),
    train = samples.slice(nTest);
  // Parameters: theta[0] = beta (per 100 cp of material), theta[1..] = u.
  const P = N_FEATURES + 1;
  const theta = new Float64Array(P);
  theta[0] = 1;
  const score = (c: number): number => {
    let s = theta[0] * childMat[c];
    for (let k = childStart[c]; k < childStart[c + 1]; k++) s += theta[1 + idx[k]] * val[k];
    return s;
  };
  const evaluateSet = (set: Sample[]) => {
    let nll = 0,
      top = 0;
    for (const s of set) {
      let mx = -Infinity,
        arg = -1;
      const sc: number[] = [];
      for (let c = s.start; c < s.end; c++) {
        const v = score(c);
        sc.push(v);
        if (v > mx) {
          mx = v;
          arg = c;
        }
      }
      let z = 0;
      for (const v of sc) z += Math.exp(v - mx);
      nll += -(sc[s.played - s.start] - mx - Math.log(z));
      if (arg === s.played) top++;
    }
    return { nll: nll / set.length, top1: top / set.length };
  };
  // Material alone: fit beta only first (u = 0), as the baseline.
  const lambda = 1e-3;
  const grad = new Float64Array(P),
    m1 = new Float64Array(P),
    m2 = new Float64Array(P);
  const step = (fitU: boolean, iters: number, lr: number) => {
    m1.fill(0);
    m2.fill(0);
    for (let it = 1; it <= iters; it++) {
      grad.fill(0);
      let nll = 0;
      for (const s of train) {
        let mx = -Infinity;
        const sc = new Float64Array(s.end - s.start);
        for (let c = s.start; c < s.end; c++) {
          sc[c - s.start] = score(c);
          if (sc[c - s.start] > mx) mx = sc[c - s.start];
        }
        let z = 0;
        for (let i = 0; i < sc.length; i++) {
          sc[i] = Math.exp(sc[i] - mx);
          z += sc[i];
        }
        nll -= Math.log(sc[s.played - s.start] / z);
        for (let c = s.start; c < s.end; c++) {
          const g = sc[c - s.start] / z - (c === s.played ? 1 : 0);
          if (g === 0) continue;
          grad[0] += g * childMat[c];
          if (fitU) for (let k = childStart[c]; k < childStart[c + 1]; k++) grad[1 + idx[k]] += g * val[k];
        }
      }
      const n = train.length;
      for (let p = 0; p < P; p++) {
        if (!fitU && p > 0) continue;
        const g = grad[p] / n + (p > 0 ? lambda * theta[p] : 0);
        m1[p] = 0.9 * m1[p] + 0.1 * g;
        m2[p] = 0.999 * m2[p] + 0.001 * g * g;
        const mh = m1[p] / (1 - 0.9 ** it),
          vh = m2[p] / (1 - 0.999 ** it);
        theta[p] -= (lr * mh) / (Math.sqrt(vh) + 1e-8);
      }
      if (it % 25 === 0) log(`  iteration ${it}: train nll ${(nll / n).toFixed(4)}, beta ${theta[0].toFixed(3)}`);
    }
  };
  step(false, 100, 0.05);
  const base = evaluateSet(test);
  step(true, 400, 0.02);
  const fitted = evaluateSet(test);
  const beta = theta[0];
  const weights = Array.from(theta.subarray(1), (u) => Math.round((u / beta) * 100 * 10) / 10);
  // Hand features are never seen in the first 24 plies: leave them at zero rather than noise.
  for (let t = 0; t < 8; t++) weights[F_HAND + t] = 0;
  return {
    weights,
    beta,
    trainPositions: train.length,
    testPositions: test.length,
    children: childMat.length,
    top1MaterialOnly: base.top1,
    top1Fitted: fitted.top1,
    nllMaterialOnly: base.nll,
    nllFitted: fitted.nll,
  };
}

/** The side to move's best SEE gain from one capture or promotion (0 when none gains). */
export function bestExchange(pos: Position, buf: Uint16Array): number {
  const n = pos.generateLegal(buf);
  let best = 0;
  for (let i = 0; i < n; i++) {
    const m = buf[i];
    const from = (m >> 7) & 127;
    if ((from < 81 && pos.board[m & 127] !== 0) || m & 16384) {
      const g = see(pos.board, m, pos.side);
      if (g > best) best = g;
    }
  }
  return best;
}

/** Replaces one `export const NAME: number[] = [...];` line of the weights file. */
export function writeWeights(file: string, name: string, weights: number[]): void {
  const text = readFileSync(file, "utf8");
  const re = new RegExp(`export const ${name}: number\\[\\] = \\[[^\\]]*\\];`);
  if (!re.test(text)) throw new Error(`${file}: no "export const ${name}: number[] = [...]" to replace`);
  writeFileSync(file, text.replace(re, `export const ${name}: number[] = [${weights.join(", ")}];`));
}

export async function fitEvalCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { positions: { type: "string" }, out: { type: "string" }, seed: { type: "string" } } });
  const positions = wholeNumber("positions", values.positions, 100) ?? 12000;
  const seed = wholeNumber("seed", values.seed, 0) ?? 7;
  const file = recordsFile();
  if (!existsSync(file)) throw new Error(`${file} is missing (the records2016 collection of ../shared/data)`);
  const say = (s: string) => process.stdout.write(s + "\n");
  say(`fitting the evaluation on ${positions} positions of ${file}`);
  const t0 = performance.now();
  const r = fitEval(file, positions, seed, say);
  say(
    `held-out move prediction (${r.testPositions} positions): material only top-1 ${(100 * r.top1MaterialOnly).toFixed(1)}%, nll ${r.nllMaterialOnly.toFixed(4)}; fitted top-1 ${(100 * r.top1Fitted).toFixed(1)}%, nll ${r.nllFitted.toFixed(4)}`,
  );
  say(`beta ${r.beta.toFixed(4)} per 100 cp; ${r.children} children; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const out = values.out ?? path.resolve("shared", "horu-engine", "weights.ts");
  writeWeights(out, "EVAL_WEIGHTS", r.weights);
  say(`wrote EVAL_WEIGHTS to ${out}`);
  return 0;
}
