// Move-generation benchmark figures for `horu bench` (not a timed test).
import { Position, perft } from "../../shared/rules/position.js";

/** A middle-game position with many pieces in hand (drops dominate its move count). */
export const DROP_RICH_SFEN = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

function line(label: string, pos: Position, depth: number, expected: number): string {
  const t0 = Date.now();
  const nodes = perft(pos, depth);
  const ms = Math.max(1, Date.now() - t0);
  const rate = Math.round((nodes / ms) * 1000);
  const ok = nodes === expected ? "ok" : `MISMATCH (expected ${expected.toLocaleString("en-US")})`;
  return `perft ${label} depth ${depth}: ${nodes.toLocaleString("en-US")} nodes in ${ms} ms, ${rate.toLocaleString("en-US")} nodes/s ${ok}`;
}

/** Printable lines: perft(5) from the start position and depth 3 from a drop-rich position. */
export function benchPerft(): string[] {
  return [line("startpos", Position.startpos(), 5, 19_861_490), line("drop-rich", Position.fromSfen(DROP_RICH_SFEN), 3, 4_809_015)];
}
