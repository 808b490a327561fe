// Test helpers: seeded random play to reach varied positions (used by the rules tests only).
import { Position } from "../rules/position.js";
import { rng } from "../util/rng.js";
import { moveToUsi } from "../rules/usi.js";

export { rng };

/**
 * Random legal play from the start position. With `captureBias`, captures are preferred
 * so hands fill up and drops dominate. Stops early at a position with no legal move.
 */
export function randomPosition(seed: number, plies: number, captureBias = 0): Position {
  const r = rng(seed);
  const pos = Position.startpos();
  const buf = new Uint16Array(600);
  for (let i = 0; i < plies; i++) {
    const n = pos.generateLegal(buf);
    if (n === 0) break;
    let m = buf[Math.floor(r() * n)];
    if (captureBias > 0 && r() < captureBias) {
      const caps: number[] = [];
      for (let j = 0; j < n; j++) {
        const from = (buf[j] >> 7) & 127;
        if (from < 81 && pos.board[buf[j] & 127] !== 0) caps.push(buf[j]);
      }
      if (caps.length) m = caps[Math.floor(r() * caps.length)];
    }
    pos.doMove(m);
  }
  return pos;
}

/** A sample of varied positions: quiet openings, long games, capture-heavy (drop-rich) games. */
export function samplePositions(count: number, seed = 1): Position[] {
  const out: Position[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    const plies = kind === 0 ? 10 + (i % 30) : kind === 1 ? 60 + (i % 80) : 40 + (i % 60);
    out.push(randomPosition(seed * 1000 + i, plies, kind === 2 ? 0.8 : 0));
  }
  return out;
}

/**
 * A game collection like the widely used `startpos moves ...` files: `count` lines of
 * random legal play, `plies` moves each (fewer where a game reaches a position with no move).
 */
export function randomGameLines(count: number, plies: number, seed = 1): string {
  const r = rng(seed);
  const buf = new Uint16Array(600);
  const lines: string[] = [];
  for (let g = 0; g < count; g++) {
    const pos = Position.startpos();
    const moves: string[] = [];
    for (let i = 0; i < plies; i++) {
      const n = pos.generateLegal(buf);
      if (n === 0) break;
      const m = buf[Math.floor(r() * n)];
      moves.push(moveToUsi(m));
      pos.doMove(m);
    }
    lines.push(`startpos moves ${moves.join(" ")}`);
  }
  return lines.join("\n") + "\n";
}
