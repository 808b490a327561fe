// Fast self-play: horu's engine against itself at a tiny node budget, checking that every
// move it chooses is legal (by the rules core's independent isLegal and the generated
// list). Games start from the initial position or from record openings for variety, and
// every K-th game lets the hybrid rule (Monte-Carlo beside alpha-beta) choose the moves.
import { parseArgs } from "node:util";
import { readFileSync, existsSync } from "node:fs";
import { Position } from "../../../../shared/rules/position.js";
import { moveToUsi } from "../../../../shared/rules/usi.js";
import { formatUsiPosition, parseUsiPosition } from "../../../../shared/rules/usi-position.js";
import { Searcher } from "../../../../shared/horu-engine/search.js";
import type { QuiescenceChecks } from "../../../../shared/horu-engine/search.js";
import { TranspositionTable } from "../../../../shared/horu-engine/tt.js";
import { Mcts } from "../../../../shared/horu-engine/mcts.js";
import { DEFAULT_HYBRID, decide } from "../../../../shared/horu-engine/hybrid.js";
import { rng } from "../../../../shared/util/rng.js";
import { wholeNumber, printJson } from "../../command.js";
import { recordsFile } from "../../../engines/horu/positions.js";

export interface SelfplayOptions {
  games: number;
  nodes: number;
  /** Every K-th game uses the hybrid rule (0: never). */
  hybridEvery: number;
  seed: number;
  openings?: string[];
  maxPlies?: number;
  onGame?: (g: GameRecord, index: number) => void;
}

export interface GameRecord {
  moves: string[];
  result: "black" | "white" | "draw";
  reason: "mate" | "repetition" | "perpetual check" | "declaration" | "max plies";
  illegal: string | null;
}

export interface SelfplaySummary {
  games: number;
  moves: number;
  illegal: number;
  black: number;
  white: number;
  draws: number;
  reasons: Record<string, number>;
  seconds: number;
}

/** Record openings (`startpos moves ...` lines) cut to 0..16 plies, for varied starts. */
export function recordOpenings(file: string, count: number, seed: number): string[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("startpos"));
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count && lines.length; i++) {
    const line = lines[Math.floor(r() * lines.length)];
    out.push(formatUsiPosition(parseUsiPosition(line, Math.floor(r() * 17))));
  }
  return out;
}

export function playGame(
  start: string,
  nodes: number,
  hybrid: boolean,
  seed: number,
  qChecks: QuiescenceChecks,
  maxPlies = 320,
): GameRecord {
  const pos = Position.fromUsi(start);
  const tt = new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(2)));
  const searcher = new Searcher(tt, { qChecks });
  const mcts = hybrid ? new Mcts({}, tt, seed) : null;
  const moves: string[] = [];
  for (let ply = 0; ply < maxPlies; ply++) {
    const legal = pos.legalMoves();
    if (legal.length === 0) return { moves, result: pos.side === 0 ? "white" : "black", reason: "mate", illegal: null };
    if (pos.declarationWin()) return { moves, result: pos.side === 0 ? "black" : "white", reason: "declaration", illegal: null };
    const r = searcher.search(pos, { nodes });
    let move = r.best;
    if (mcts) {
      const m = mcts.run(pos, 64);
      move = decide({ move: r.best, value: r.value }, m, { ...DEFAULT_HYBRID, minPlayouts: 32 }).move;
    }
    if (!legal.includes(move) || !pos.isLegal(move))
      return { moves, result: "draw", reason: "max plies", illegal: `${moveToUsi(move)} at ply ${ply + 1} in ${pos.toSfen()}` };
    pos.doMove(move);
    moves.push(moveToUsi(move));
    const rep = pos.repetition();
    if (rep !== "none") {
      if (rep === "draw") return { moves, result: "draw", reason: "repetition", illegal: null };
      // "win"/"lose" are from the side to move's view: the other side checked throughout.
      const winner = rep === "win" ? pos.side : pos.side ^ 1;
      return { moves, result: winner === 0 ? "black" : "white", reason: "perpetual check", illegal: null };
    }
  }
  return { moves, result: "draw", reason: "max plies", illegal: null };
}

export function selfplay(o: SelfplayOptions): SelfplaySummary {
  const t0 = performance.now();
  const sum: SelfplaySummary = { games: 0, moves: 0, illegal: 0, black: 0, white: 0, draws: 0, reasons: {}, seconds: 0 };
  const variants: QuiescenceChecks[] = ["threat", "none", "all"];
  for (let g = 0; g < o.games; g++) {
    const start = o.openings?.length ? o.openings[g % o.openings.length] : "startpos";
    const hybrid = o.hybridEvery > 0 && g % o.hybridEvery === o.hybridEvery - 1;
    const rec = playGame(start, o.nodes, hybrid, o.seed + g, variants[g % 3], o.maxPlies);
    sum.games++;
    sum.moves += rec.moves.length;
    if (rec.illegal) sum.illegal++;
    if (rec.result === "black") sum.black++;
    else if (rec.result === "white") sum.white++;
    else sum.draws++;
    sum.reasons[rec.reason] = (sum.reasons[rec.reason] ?? 0) + 1;
    o.onGame?.(rec, g);
  }
  sum.seconds = (performance.now() - t0) / 1000;
  return sum;
}

export async function selfplayCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      games: { type: "string" },
      nodes: { type: "string" },
      "hybrid-every": { type: "string" },
      seed: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const games = wholeNumber("games", values.games, 1) ?? 1000;
  const nodes = wholeNumber("nodes", values.nodes, 1) ?? 150;
  const hybridEvery = wholeNumber("hybrid-every", values["hybrid-every"], 0) ?? 10;
  const seed = wholeNumber("seed", values.seed, 0) ?? 1;
  const data = recordsFile();
  if (!existsSync(data))
    throw new Error(`${data} is missing (the records2016 collection of ../shared/data): self-play starts from its openings`);
  const openings = recordOpenings(data, games, seed);
  const say = (s: string) => process.stdout.write(s + "\n");
  const sum = selfplay({
    games,
    nodes,
    hybridEvery,
    seed,
    openings,
    onGame: (rec, i) => {
      if (rec.illegal) say(`game ${i + 1}: ILLEGAL ${rec.illegal}`);
      else if ((i + 1) % 50 === 0 || i + 1 === games)
        say(`game ${i + 1}/${games}: ${rec.moves.length} plies, ${rec.result} (${rec.reason})`);
    },
  });
  say(
    `${sum.games} games, ${sum.moves} moves, ${sum.illegal} illegal; black ${sum.black}, white ${sum.white}, draws ${sum.draws}; ${Object.entries(
      sum.reasons,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}; ${sum.seconds.toFixed(1)} s`,
  );
  if (values.json) printJson(sum);
  return sum.illegal === 0 ? 0 : 1;
}
