// A small mate search: the attacker plays only checks, the defender every legal move, to a
// fixed odd number of plies. It answers `go mate`, proves mates for the tests, and labels
// mate threats (詰めろ) for the threat predictor's training data.
import type { Position } from "../rules/position.js";
import type { Move } from "../rules/types.js";

export class MateBudgetExceeded extends Error {}

export class MateSearch {
  nodes = 0;
  private bufs: Uint16Array[] = [];
  constructor(
    private nodeLimit = Infinity,
    private stop: () => boolean = () => false,
  ) {}

  private buf(ply: number): Uint16Array {
    while (this.bufs.length <= ply) this.bufs.push(new Uint16Array(600));
    return this.bufs[ply];
  }

  private tick(): void {
    if (++this.nodes > this.nodeLimit || ((this.nodes & 1023) === 0 && this.stop())) throw new MateBudgetExceeded();
  }

  /** A checking move that mates within `plies` (odd), or 0. */
  attack(pos: Position, plies: number, ply = 0): Move {
    this.tick();
    const buf = this.buf(ply);
    const n = pos.generateLegal(buf);
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      if (!pos.givesCheck(m)) continue;
      pos.doMove(m);
      const mated = this.defend(pos, plies - 1, ply + 1);
      pos.undoMove();
      if (mated) return m;
    }
    return 0;
  }

  /** Does every reply of the side to move lose to a mate within `plies` (even) more plies? */
  defend(pos: Position, plies: number, ply = 0): boolean {
    this.tick();
    const buf = this.buf(ply);
    const n = pos.generateLegal(buf);
    if (n === 0) return true;
    if (plies <= 0) return false;
    const moves = buf.slice(0, n);
    for (let i = 0; i < n; i++) {
      pos.doMove(moves[i]);
      const m = this.attack(pos, plies - 1, ply + 1);
      pos.undoMove();
      if (m === 0) return false;
    }
    return true;
  }

  /** The shortest mate within `maxPlies` as a line (attacker's fastest, defender's longest), or null. */
  solve(pos: Position, maxPlies: number): Move[] | null {
    for (let plies = 1; plies <= maxPlies; plies += 2) {
      const m = this.attack(pos, plies);
      if (m !== 0) return this.line(pos, m, plies);
    }
    return null;
  }

  private line(pos: Position, first: Move, plies: number): Move[] {
    const out: Move[] = [first];
    pos.doMove(first);
    let made = 1;
    let left = plies - 1;
    while (left > 0) {
      const replies = pos.legalMoves();
      if (replies.length === 0) break;
      // The reply that holds out longest, then the attacker's fastest mate against it.
      let best = replies[0],
        bestLen = -1,
        bestMate: Move = 0;
      for (const r of replies) {
        pos.doMove(r);
        for (let p = 1; p <= left - 1; p += 2) {
          const m = this.attack(pos, p);
          if (m !== 0) {
            if (p > bestLen) {
              best = r;
              bestLen = p;
              bestMate = m;
            }
            break;
          }
        }
        pos.undoMove();
      }
      if (bestMate === 0) break;
      out.push(best, bestMate);
      pos.doMove(best);
      pos.doMove(bestMate);
      made += 2;
      left = bestLen - 1;
    }
    for (let i = 0; i < made; i++) pos.undoMove();
    return out;
  }
}
