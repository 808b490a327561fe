// Pruning (table pruned): thought positions removed by hand, each batch kept whole so the
// newest can be put back.
import type { StoreDb } from "./db.js";
import { BookDataError } from "./errors.js";
import type { StoreLog } from "./log.js";
import type { KeyedThought, StoredThought } from "./thought-rows.js";
import type { Thoughts } from "./thoughts.js";

export interface PruneBatch {
  batch: number;
  rootSfen: string;
  positions: number;
  at: number;
}

export class Prunes {
  /**
   * The book summary lists the prunes on every change, and counting the rows of a big one
   * takes long: the list is kept until this store changes it. Only a writer keeps it (it
   * holds the writer lock: nothing else changes it).
   */
  private memo: PruneBatch[] | null = null;

  constructor(
    private readonly c: StoreDb,
    private readonly thoughts: Thoughts,
    private readonly log: StoreLog,
  ) {}

  /**
   * Removes thought positions in one transaction, keeping each (moves and provenance) in
   * the `pruned` table under a new batch number, so undo can put them back.
   */
  prune(sfens: Iterable<string>, rootSfen: string): { batch: number; positions: number } {
    this.memo = null;
    return this.c.transaction(() => {
      const batch = ((this.c.q("SELECT max(batch) AS b FROM pruned").get() as { b: number | null }).b ?? 0) + 1;
      const now = Date.now();
      let n = 0;
      for (const sfen of sfens) {
        const t = this.thoughts.get(sfen);
        if (!t) continue;
        this.c
          .q("INSERT INTO pruned (batch, sfen, data, pruned_at, root_sfen) VALUES (?, ?, ?, ?, ?)")
          .run(batch, sfen, JSON.stringify(t), now, rootSfen);
        this.thoughts.remove(t.id);
        n++;
      }
      if (n > 0) {
        this.thoughts.bumpCount(-n);
        this.thoughts.bumpGraphEpoch();
      }
      this.log.insert("info", "prune", `pruned ${n} position(s) below ${rootSfen}`, { batch, positions: n });
      return { batch, positions: n };
    });
  }

  /** The prune batches that can be undone, newest first. */
  list(): PruneBatch[] {
    const list =
      this.memo ??
      (this.c
        .q(
          "SELECT batch, root_sfen AS rootSfen, count(*) AS positions, max(pruned_at) AS at FROM pruned GROUP BY batch ORDER BY batch DESC",
        )
        .all() as PruneBatch[]);
    if (!this.c.readonly) this.memo = list;
    return list.map((p) => ({ ...p }));
  }

  /**
   * Puts the newest prune batch back (one transaction); returns the positions restored. A
   * position thought again since the prune is left as it is now (`kept`), as an import's undo
   * leaves it: the older copy never replaces what an engine thought later.
   */
  undo(): { batch: number; restored: KeyedThought[]; kept: number } | null {
    this.memo = null;
    return this.c.transaction(() => {
      const last = this.c.q("SELECT max(batch) AS b FROM pruned").get() as { b: number | null };
      if (last.b === null) return null;
      const rows = this.c.q("SELECT sfen, data FROM pruned WHERE batch = ?").all(last.b) as { sfen: string; data: string }[];
      // Every copy read before any is put back: a damaged one refuses the undo with nothing changed.
      const copies: KeyedThought[] = rows.map((r) => storedCopy(r, last.b!));
      const restored = copies.filter((t) => !this.thoughts.has(t.sfen));
      let fresh = 0;
      for (const t of restored) fresh += this.thoughts.put(t)[1];
      if (fresh > 0) this.thoughts.bumpCount(fresh);
      const kept = copies.length - restored.length;
      this.c.q("DELETE FROM pruned WHERE batch = ?").run(last.b);
      this.log.insert("info", "unprune", `restored ${restored.length} pruned position(s), kept ${kept} thought again since`, {
        batch: last.b,
        kept,
      });
      return { batch: last.b, restored, kept };
    });
  }
}

/** A pruned position's stored copy as prune wrote it; a crafted or damaged one is said so (BookDataError), naming it. */
function storedCopy(r: { sfen: string; data: string }, batch: number): KeyedThought {
  let t: Partial<StoredThought> | undefined;
  try {
    t = JSON.parse(r.data) as Partial<StoredThought>;
  } catch {
    t = undefined;
  }
  if (
    !t ||
    typeof t !== "object" ||
    typeof t.sfen !== "string" ||
    !Array.isArray(t.candidates) ||
    !t.candidates.every((c) => typeof c?.move === "string") ||
    typeof t.keyHi !== "number" ||
    typeof t.keyLo !== "number"
  )
    throw new BookDataError(
      `the newest prune (batch ${batch}) cannot be undone: its stored copy of ${r.sfen.slice(0, 120)} is damaged (not what prune wrote); the book is unchanged`,
    );
  const { id: _id, ...kept } = t as StoredThought;
  return kept;
}
