// A search thread of horu's engine (bundled as dist/engine-worker.cjs): alpha-beta or
// Monte-Carlo by its init message. Both stop on the shared stop flag; they share the
// transposition table (SharedArrayBuffer), through which Monte-Carlo reads alpha-beta's
// hash moves and mates (docs/DESIGN.md §11.2).
import { parentPort } from "node:worker_threads";
import { getPriority, setPriority } from "node:os";
import { Position } from "../../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../../shared/rules/usi.js";
import { Searcher } from "../../../shared/horu-engine/search.js";
import { Mcts } from "../../../shared/horu-engine/mcts.js";
import { MateSearch, MateBudgetExceeded } from "../../../shared/horu-engine/mate.js";
import { TranspositionTable } from "../../../shared/horu-engine/tt.js";
import { iterationInfo } from "../../../shared/horu-engine/info.js";
import { CTL_AB_DEPTH, CTL_AB_MOVE, CTL_AB_VALUE, CTL_STOP } from "./messages.js";
import type { FromWorker, ToWorker } from "./messages.js";

const port = parentPort;
if (!port) throw new Error("engine worker runs as a worker thread");
const post = (m: FromWorker) => port.postMessage(m);

let role: "ab" | "mcts" = "ab";
let control: Int32Array<ArrayBufferLike> = new Int32Array(8);
let tt: TranspositionTable | null = null;
let searcher: Searcher | null = null;
let mcts: Mcts | null = null;
/** The thread's nice value when it started (the engine's own, e.g. under `nice -n 19`). */
let baseNice = 0;

/**
 * The hybrid (docs/DESIGN.md §11.2) gives each search its own thread; on a machine with fewer free cores than
 * threads the Monte-Carlo thread would take half of alpha-beta's CPU, so it runs nicer.
 * On Linux a nice value is per thread (setpriority on the calling thread); elsewhere
 * setPriority would change the whole process, so it is left alone.
 */
function niceMcts(n: number): void {
  if (process.platform !== "linux") return;
  try {
    setPriority(0, Math.min(19, baseNice + n));
  } catch {
    // Not allowed (e.g. a lower value than now without the privilege): keep the current one.
  }
}

const stopped = () => Atomics.load(control, CTL_STOP) === 1;

function goAlphaBeta(m: Extract<ToWorker, { kind: "go" }>): void {
  const pos = Position.fromUsi(m.position);
  const start = performance.now();
  if (m.mateMs !== undefined) {
    // go mate: shortest mate by the checks-only search, deepening until found or stopped.
    const ms = new MateSearch(Infinity, stopped);
    let line: string;
    try {
      const pv = ms.solve(pos, 255);
      line = pv ? `checkmate ${pv.map(moveToUsi).join(" ")}` : "checkmate nomate";
    } catch (e) {
      if (!(e instanceof MateBudgetExceeded)) throw e;
      line = "checkmate timeout";
    }
    post({ kind: "mate-done", id: m.id, line });
    return;
  }
  searcher!.opts = m.search;
  const searchMoves = m.searchMoves?.map((t) => parseUsiMove(t)).filter((x): x is number => x !== null);
  const r = searcher!.search(pos, { depth: m.depth, nodes: m.nodes, stop: stopped, searchMoves }, (it) => {
    Atomics.store(control, CTL_AB_MOVE, it.lines[0].move);
    Atomics.store(control, CTL_AB_VALUE, it.lines[0].value);
    Atomics.store(control, CTL_AB_DEPTH, it.depth);
    for (const line of iterationInfo(it, performance.now() - start, tt!.hashfull())) post({ kind: "info", id: m.id, line });
  });
  post({
    kind: "ab-done",
    id: m.id,
    best: r.best,
    ponder: r.ponder,
    value: r.value,
    depth: r.depth,
    nodes: r.nodes,
    ms: performance.now() - start,
  });
}

function goMcts(m: Extract<ToWorker, { kind: "go" }>): void {
  const pos = Position.fromUsi(m.position);
  const start = performance.now();
  mcts!.opts = { ...mcts!.opts, ...m.mcts };
  niceMcts(m.mctsNice);
  const result = mcts!.run(pos, Infinity, stopped);
  post({ kind: "mcts-done", id: m.id, result, ms: performance.now() - start });
}

port.on("message", (m: ToWorker) => {
  try {
    switch (m.kind) {
      case "init":
        role = m.role;
        control = new Int32Array(m.control);
        tt = new TranspositionTable(m.tt);
        if (process.platform === "linux") baseNice = getPriority(0);
        if (role === "ab") searcher = new Searcher(tt);
        else mcts = new Mcts({}, tt, 0x686f7275);
        break;
      case "tt":
        tt = new TranspositionTable(m.tt);
        if (role === "ab") searcher = new Searcher(tt, searcher?.opts);
        else mcts = new Mcts(mcts?.opts, tt, 0x686f7275);
        break;
      case "warmup": {
        // A cold engine spent most of its first 800 ms move compiling (games lost on time
        // on a loaded machine): search a little before readyok instead.
        try {
          const small = new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(1)));
          const pos = Position.fromUsi("startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e");
          if (role === "ab") new Searcher(small).search(pos, { depth: 4 });
          else new Mcts({}, small, 1).run(pos, 40);
        } finally {
          post({ kind: "warm" });
        }
        break;
      }
      case "newgame":
        searcher?.clearHistory();
        break;
      case "go":
        if (role === "ab") goAlphaBeta(m);
        else goMcts(m);
        break;
    }
  } catch (e) {
    post({ kind: "error", id: m.kind === "go" ? m.id : -1, message: e instanceof Error ? e.message : String(e) });
  }
});
