// horu's USI engine, the protocol side (the command thread and time keeper of docs/DESIGN.md §11.2): reads
// commands, keeps the position and options, runs alpha-beta and Monte-Carlo on their own
// worker threads, stops them when time is up, and picks the final move by the hybrid
// rules. Every bad input is answered with `info string error: ...`; nothing ends the
// process but `quit` or the end of standard input.
import { Worker } from "node:worker_threads";
import { Position } from "../../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../../shared/rules/usi.js";
import { TranspositionTable } from "../../../shared/horu-engine/tt.js";
import { decide } from "../../../shared/horu-engine/hybrid.js";
import type { MctsResult } from "../../../shared/horu-engine/mcts.js";
import { applySetoption, defaultValues, hybridRules, mctsOptions, optionLines, searchOptions } from "./options.js";
import type { OptionValues } from "./options.js";
import { CTL_SIZE, CTL_STOP } from "./messages.js";
import type { FromWorker, ToWorker } from "./messages.js";
import { bundledFile } from "../../paths/bundled.js";

/** How long the final move waits for the Monte-Carlo thread after alpha-beta has stopped. */
const MCTS_GRACE_MS = 100;

export const ENGINE_NAME = "horu 0.1 (alpha-beta + MCTS)";

/** dist/engine-worker.cjs beside the running bundle (dist/horu.cjs) or one folder up (a runner in dist/engines/). */
export function defaultEngineWorker(): string {
  return bundledFile("engine-worker.cjs");
}

interface GoState {
  id: number;
  infinite: boolean;
  ponder: boolean;
  stopRequested: boolean;
  hybrid: boolean;
  mate: boolean;
  budgetOnPonderhit: number | null;
  ab: Extract<FromWorker, { kind: "ab-done" }> | null;
  mcts: MctsResult | null;
  mctsDone: boolean;
  mateLine: string | null;
  timer: NodeJS.Timeout | null;
  /** Waits for Monte-Carlo's result once alpha-beta is done; mctsLate when it ran out. */
  mctsGrace?: NodeJS.Timeout;
  mctsLate?: boolean;
  startedAt: number;
  playouts?: number;
}

export class UsiEngine {
  private values: OptionValues = defaultValues();
  private positionText: string | null = "startpos";
  private position: Position | null = Position.startpos();
  private ab: Worker | null = null;
  private mcts: Worker | null = null;
  private control = new Int32Array(new SharedArrayBuffer(CTL_SIZE * 4));
  private ttBuffer: SharedArrayBuffer | null = null;
  private ttMegabytes = 0;
  private go: GoState | null = null;
  private nextId = 1;
  private quitting = false;
  /** Search threads still warming up, and isready commands waiting for them. */
  private warming = 0;
  private readyWaiting = 0;

  constructor(
    private readonly out: (line: string) => void,
    private readonly workerFile = defaultEngineWorker(),
    private readonly onQuit: () => void = () => {},
  ) {}

  private error(message: string): void {
    this.out(`info string error: ${message}`);
  }

  handle(raw: string): void {
    const line = raw.trim();
    if (line === "") return;
    const [cmd, ...args] = line.split(/\s+/);
    try {
      switch (cmd) {
        case "usi":
          this.out(`id name ${ENGINE_NAME}`);
          this.out("id author horu contributors");
          for (const o of optionLines()) this.out(o);
          this.out("usiok");
          return;
        case "isready":
          this.ensureWorkers();
          // readyok once both threads have warmed up (at once after the first time).
          if (this.warming === 0) this.out("readyok");
          else this.readyWaiting++;
          return;
        case "setoption":
          if (this.go) return this.error("setoption while searching is ignored");
          applySetoption(this.values, args);
          return;
        case "usinewgame":
          if (this.go) return this.error("usinewgame while searching is ignored");
          this.ensureWorkers();
          new Int32Array(this.ttBuffer!).fill(0);
          this.post({ kind: "newgame" });
          return;
        case "position":
          return this.setPosition(args);
        case "go":
          return this.startGo(args);
        case "stop":
          if (!this.go) return;
          this.go.stopRequested = true;
          Atomics.store(this.control, CTL_STOP, 1);
          this.maybeFinish();
          return;
        case "ponderhit":
          if (!this.go || !this.go.ponder) return this.error("ponderhit without go ponder");
          this.go.ponder = false;
          if (this.go.budgetOnPonderhit !== null) this.arm(this.go.budgetOnPonderhit);
          this.maybeFinish();
          return;
        case "gameover":
          if (this.go) {
            this.go.stopRequested = true;
            Atomics.store(this.control, CTL_STOP, 1);
          }
          return;
        case "quit":
          this.quit();
          return;
        default:
          this.error(`unknown command "${cmd}"`);
      }
    } catch (e) {
      this.error(e instanceof Error ? e.message : String(e));
    }
  }

  quit(): void {
    if (this.quitting) return;
    this.quitting = true;
    Atomics.store(this.control, CTL_STOP, 1);
    void this.ab?.terminate();
    void this.mcts?.terminate();
    this.onQuit();
  }

  private ensureWorkers(): void {
    const mb = this.values.USI_Hash as number;
    if (!this.ttBuffer || this.ttMegabytes !== mb) {
      this.ttBuffer = new SharedArrayBuffer(TranspositionTable.bytesFor(mb));
      this.ttMegabytes = mb;
      if (this.ab) this.post({ kind: "tt", tt: this.ttBuffer });
    }
    if (this.ab) return;
    const spawn = (role: "ab" | "mcts") => {
      const w = new Worker(this.workerFile);
      w.on("message", (m: FromWorker) => this.onWorker(m));
      w.on("error", (e) => {
        this.error(`${role} thread failed: ${e.message}`);
        this.warmed(this.warming);
        this.failGo();
      });
      w.postMessage({ kind: "init", role, control: this.control.buffer as SharedArrayBuffer, tt: this.ttBuffer! } satisfies ToWorker);
      w.unref();
      return w;
    };
    this.ab = spawn("ab");
    this.mcts = spawn("mcts");
    this.warming = 2;
    this.post({ kind: "warmup" });
  }

  private warmed(threads: number): void {
    if (this.warming === 0) return;
    this.warming = Math.max(0, this.warming - threads);
    if (this.warming === 0) for (; this.readyWaiting > 0; this.readyWaiting--) this.out("readyok");
  }

  private post(m: ToWorker): void {
    this.ab?.postMessage(m);
    this.mcts?.postMessage(m);
  }

  private setPosition(args: string[]): void {
    if (this.go) return this.error("position while searching is ignored");
    try {
      const text = args.join(" ");
      if (args[0] !== "startpos" && args[0] !== "sfen")
        throw new Error(`position needs "startpos" or "sfen <sfen>", got "${args[0] ?? ""}"`);
      this.position = Position.fromUsi(text);
      this.positionText = text;
    } catch (e) {
      this.position = null;
      this.positionText = null;
      throw new Error(
        `bad position (${e instanceof Error ? e.message : String(e)}); go will answer resign until a valid position is given`,
        { cause: e },
      );
    }
  }

  private startGo(args: string[]): void {
    if (this.go) return this.error("go while searching is ignored");
    const pos = this.position;
    const id = this.nextId++;
    const limits: Record<string, number> = {};
    let infinite = false,
      ponder = false,
      mate: number | "infinite" | null = null;
    let searchMoves: string[] | undefined;
    const numeric = new Set(["btime", "wtime", "byoyomi", "binc", "winc", "movetime", "depth", "nodes"]);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (numeric.has(a)) {
        const v = args[i + 1];
        if (v === undefined || !/^[0-9]+$/.test(v)) {
          this.error(`go ${a} needs a whole number, got "${v ?? ""}"; ignored`);
          // Skip the bad value too, unless it is the next keyword.
          if (v !== undefined && !numeric.has(v) && !["infinite", "ponder", "mate", "searchmoves"].includes(v)) i++;
          continue;
        }
        limits[a] = Number(v);
        i++;
      } else if (a === "infinite") infinite = true;
      else if (a === "ponder") ponder = true;
      else if (a === "mate") {
        const v = args[i + 1];
        if (v === "infinite") {
          mate = "infinite";
          i++;
        } else if (v !== undefined && /^[0-9]+$/.test(v)) {
          mate = Number(v);
          i++;
        } else mate = "infinite";
      } else if (a === "searchmoves") {
        searchMoves = [];
        while (i + 1 < args.length && parseUsiMove(args[i + 1]) !== null) searchMoves.push(args[++i]);
      } else this.error(`go: unknown parameter "${a}"; ignored`);
    }
    if (!pos || !this.positionText) {
      this.error("no valid position");
      this.out(mate !== null ? "checkmate nomate" : "bestmove resign");
      return;
    }
    if (mate === null && pos.legalMoves().length === 0) {
      this.out("bestmove resign");
      return;
    }
    if (mate === null && pos.declarationWin()) {
      this.out("bestmove win");
      return;
    }
    if (searchMoves) {
      const bad = searchMoves.filter((t) => !pos.isLegal(parseUsiMove(t)!));
      if (bad.length) this.error(`searchmoves: ${bad.join(" ")} not legal here; ignored`);
      searchMoves = searchMoves.filter((t) => !bad.includes(t));
      if (searchMoves.length === 0) searchMoves = undefined;
    }
    this.ensureWorkers();
    Atomics.store(this.control, CTL_STOP, 0);
    const hybrid = mate === null && (this.values.Hybrid as boolean) && limits.depth === undefined && limits.nodes === undefined;
    const budget = this.budget(limits, pos.side);
    this.go = {
      id,
      infinite: infinite || mate === "infinite",
      ponder,
      stopRequested: false,
      hybrid,
      mate: mate !== null,
      budgetOnPonderhit: ponder ? budget : null,
      ab: null,
      mcts: null,
      mctsDone: !hybrid,
      mateLine: null,
      timer: null,
      startedAt: performance.now(),
    };
    const go: ToWorker = {
      kind: "go",
      id,
      position: this.positionText,
      depth: limits.depth,
      nodes: limits.nodes,
      searchMoves,
      mateMs: mate === null ? undefined : mate,
      search: searchOptions(this.values),
      mcts: mctsOptions(this.values),
      mctsNice: this.values.MctsNice as number,
    };
    this.ab!.postMessage(go);
    if (hybrid) this.mcts!.postMessage(go);
    if (typeof mate === "number") this.arm(mate);
    else if (!infinite && !ponder && budget !== null) this.arm(budget);
  }

  /** Milliseconds to think, or null for no time limit (depth/nodes only, or nothing given). */
  private budget(l: Record<string, number>, side: number): number | null {
    const margin = this.values.TimeMargin as number;
    if (l.movetime !== undefined) return Math.max(1, l.movetime - margin);
    const mine = side === 0 ? l.btime : l.wtime;
    const inc = (side === 0 ? l.binc : l.winc) ?? 0;
    const byoyomi = l.byoyomi ?? 0;
    if (mine === undefined && l.byoyomi === undefined && inc === 0) return null;
    const time = mine ?? 0;
    const planned = time / 40 + inc * 0.8 + byoyomi;
    const cap = time + inc + byoyomi - margin;
    return Math.max(1, Math.min(planned - (byoyomi > 0 ? margin : 0), cap));
  }

  private arm(ms: number): void {
    const go = this.go!;
    if (go.timer) clearTimeout(go.timer);
    go.timer = setTimeout(() => {
      if (this.go !== go) return;
      go.stopRequested = true;
      Atomics.store(this.control, CTL_STOP, 1);
    }, ms);
  }

  private onWorker(m: FromWorker): void {
    if (m.kind === "warm") return this.warmed(1);
    const go = this.go;
    if (!go || m.id !== go.id) return;
    switch (m.kind) {
      case "info":
        this.out(m.line);
        return;
      case "ab-done":
        go.ab = m;
        // Monte-Carlo runs only as long as alpha-beta does.
        if (go.hybrid) Atomics.store(this.control, CTL_STOP, 1);
        if (!go.mctsDone) {
          // A starved Monte-Carlo thread (a busy machine, and it runs nicer) must not make the
          // move late: after a short grace alpha-beta's move is played without its result.
          go.mctsGrace = setTimeout(() => {
            if (this.go !== go || go.mctsDone) return;
            go.mctsDone = true;
            go.mctsLate = true;
            this.maybeFinish();
          }, MCTS_GRACE_MS);
        }
        break;
      case "mcts-done":
        if (go.mctsLate) return;
        if (go.mctsGrace) clearTimeout(go.mctsGrace);
        go.mcts = m.result;
        go.mctsDone = true;
        break;
      case "mate-done":
        go.mateLine = m.line;
        break;
      case "error":
        this.error(m.message);
        this.failGo();
        return;
    }
    this.maybeFinish();
  }

  private failGo(): void {
    const go = this.go;
    if (!go) return;
    if (go.timer) clearTimeout(go.timer);
    // The other thread may still be searching: stop it before the next go.
    Atomics.store(this.control, CTL_STOP, 1);
    this.go = null;
    this.out(go.mate ? "checkmate nomate" : "bestmove resign");
  }

  /** bestmove once every thread is done, and (infinite/ponder) once stop or ponderhit came. */
  private maybeFinish(): void {
    const go = this.go;
    if (!go) return;
    if (go.mate) {
      if (go.mateLine === null) return;
      this.finish(go, go.mateLine);
      return;
    }
    if (!go.ab || !go.mctsDone) return;
    if ((go.infinite || go.ponder) && !go.stopRequested) return;
    const ab = go.ab;
    let move = ab.best,
      ponderMove = ab.ponder;
    if (go.hybrid && go.mctsLate) this.out("info string hybrid: alphabeta (Monte-Carlo did not stop in time)");
    if (go.hybrid && go.mcts) {
      const d = decide({ move: ab.best, value: ab.value }, go.mcts, hybridRules(this.values));
      const stat = go.mcts.moves.find((s) => s.move === d.move);
      this.out(
        `info string hybrid: ${d.by} ${moveToUsi(d.move)} (${d.reason}); playouts ${go.mcts.playouts}, Monte-Carlo best ${moveToUsi(go.mcts.best)} rate ${go.mcts.rate.toFixed(3)}${stat ? `, played move rate ${stat.rate.toFixed(3)}` : ""}`,
      );
      if (d.move !== move) {
        move = d.move;
        ponderMove = 0;
      }
    }
    this.finish(go, move ? `bestmove ${moveToUsi(move)}${ponderMove ? ` ponder ${moveToUsi(ponderMove)}` : ""}` : "bestmove resign");
  }

  private finish(go: GoState, line: string): void {
    if (go.timer) clearTimeout(go.timer);
    if (go.mctsGrace) clearTimeout(go.mctsGrace);
    this.go = null;
    this.out(line);
  }
}
