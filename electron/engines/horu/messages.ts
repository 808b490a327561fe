// Messages between the USI thread and the two search threads (alpha-beta, Monte-Carlo).
import type { SearchOptions } from "../../../shared/horu-engine/search.js";
import type { MctsOptions, MctsResult } from "../../../shared/horu-engine/mcts.js";

/** Slots of the shared control array (Int32Array over a SharedArrayBuffer). */
export const CTL_STOP = 0;
/** Alpha-beta's current best root move and value, for the Monte-Carlo thread and the final rule. */
export const CTL_AB_MOVE = 1;
export const CTL_AB_VALUE = 2;
export const CTL_AB_DEPTH = 3;
export const CTL_SIZE = 8;

export type ToWorker =
  | { kind: "init"; role: "ab" | "mcts"; control: SharedArrayBuffer; tt: SharedArrayBuffer }
  | { kind: "tt"; tt: SharedArrayBuffer }
  | { kind: "newgame" }
  /** A short search on a private table, so the first real move is not spent compiling code. */
  | { kind: "warmup" }
  | {
      kind: "go";
      id: number;
      position: string;
      depth?: number;
      nodes?: number;
      searchMoves?: string[];
      mateMs?: number | "infinite";
      search: SearchOptions;
      mcts: Partial<MctsOptions>;
      /** The Monte-Carlo thread's nice value above the engine's own (Linux only). */
      mctsNice: number;
    };

export type FromWorker =
  | { kind: "info"; id: number; line: string }
  | { kind: "ab-done"; id: number; best: number; ponder: number; value: number; depth: number; nodes: number; ms: number }
  | { kind: "mate-done"; id: number; line: string }
  | { kind: "mcts-done"; id: number; result: MctsResult; ms: number }
  | { kind: "warm" }
  | { kind: "error"; id: number; message: string };
