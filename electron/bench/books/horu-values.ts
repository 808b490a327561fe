// Book values from horu's own engine, for benchmark books whose values are a real
// evaluation rather than noise: a listed move is worth minus the quiescence value of the
// position it leads to (static evaluation, then captures and promotions that do not lose
// material by SEE, every evasion in check, checks after a predicted mate threat), from the
// side to move's view, as the book stores an engine's MultiPV scores. Quiescence rather
// than a depth-1 search: it settles hanging pieces and exchanges for 1.3 nodes a listed
// move in a dig-shaped book (6 on positions of random games, ~50 us), where depth 1 costs
// ~75 nodes (~320 us): 6M listed moves (1M positions) would take about half an hour.
import type { Position } from "../../../shared/rules/position.js";
import type { Move } from "../../../shared/rules/types.js";
import { Searcher } from "../../../shared/horu-engine/search.js";
import { TranspositionTable } from "../../../shared/horu-engine/tt.js";
import { VALUE_MATE_BOUND } from "../../../shared/rules/types.js";

/**
 * A value seen from the position before the move: negated, and a mate one ply further
 * away (the child mated now, matedIn(0), is the mover's mate in 1, mateIn(1)).
 */
export function fromChild(v: number): number {
  if (v >= VALUE_MATE_BOUND) return -v + 1;
  if (v <= -VALUE_MATE_BOUND) return -v - 1;
  return -v;
}

export class HoruMoveValues {
  // Quiescence does not read the table; the searcher only needs one.
  private readonly searcher = new Searcher(new TranspositionTable(new ArrayBuffer(TranspositionTable.bytesFor(1))));

  /** Nodes searched so far (all calls). */
  get nodes(): number {
    return this.searcher.nodes;
  }

  /** The value of `move` for the side to move at `pos`, in centipawns (mates per docs/DESIGN.md §2); `pos` is left as found. */
  value(pos: Position, move: Move): number {
    pos.doMove(move);
    try {
      return fromChild(this.searcher.quiescenceOnly(pos, 64));
    } finally {
      pos.undoMove();
    }
  }
}
