// The breadth-first policy's hand-out order (shared/book/breadth-first.ts): every leaf of
// one ply within the window before the next ply, instead of the selection's best line.
import { BreadthFirstQueue } from "../../shared/book/breadth-first.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { listedValues, type BookCore, type Job } from "./book-core.js";

export class BreadthFirstJobs {
  private queue: BreadthFirstQueue | null = null;

  constructor(private readonly book: BookCore) {}

  /** The ply of the level the policy is on (0 before it starts). */
  get ply(): number {
    return this.queue?.ply ?? 0;
  }

  /**
   * The next leaf to think (not yet marked in flight), or null when none is left now, up to
   * `maxPly` plies from the root (0: no limit).
   */
  next(root: number, maxPly: number, isFlying: (keyHi: number, keyLo: number) => boolean): Job | null {
    const s = this.book.settings;
    this.queue ??= new BreadthFirstQueue(this.book.graph);
    const leaf = this.queue.next(root, this.book.root, { windowCp: s.windowCp, maxPly, evalLimit: s.evalLimit }, isFlying);
    if (!leaf) return null;
    const pos = this.book.root.clone();
    for (const m of leaf.line) pos.doMove(m);
    return {
      sfen: pos.sfenKey(),
      keyHi: leaf.childHi,
      keyLo: leaf.childLo,
      line: leaf.line.map(moveToUsi),
      rootValue: null,
      parentValues: listedValues(this.book.graph, leaf.parent),
    };
  }
}
