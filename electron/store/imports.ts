// Imports of other programs' books (tables imports and import_undo): each recorded as a
// batch, with what it changed, so the newest can be taken back.
import type { StoreDb } from "./db.js";
import { keyToInt64 } from "./keys.js";
import type { StoreLog } from "./log.js";
import type { KeyedThought, StoredThought } from "./thought-rows.js";
import type { Thoughts } from "./thoughts.js";

export interface ImportBatch {
  batch: number;
  file: string;
  positions: number;
  at: number;
}

export class Imports {
  /**
   * The book summary lists the imports on every change, and counting the rows of a big one
   * takes long (0.1 s per 3M positions imported): the list is kept until this store changes
   * it. Only a writer keeps it (it holds the writer lock: nothing else changes it).
   */
  private memo: ImportBatch[] | null = null;

  constructor(
    private readonly c: StoreDb,
    private readonly thoughts: Thoughts,
    private readonly log: StoreLog,
  ) {}

  /** Starts recording an import of `file` (undo takes it back); returns its batch number. */
  begin(file: string): number {
    this.memo = null;
    return this.c.write(() => {
      const batch = ((this.c.q("SELECT max(batch) AS b FROM imports").get() as { b: number | null }).b ?? 0) + 1;
      this.c.q("INSERT INTO imports (batch, file, at) VALUES (?, ?, ?)").run(batch, file, Date.now());
      return batch;
    });
  }

  /**
   * Stores imported positions in one transaction, recorded under `batch`. A position not
   * thought yet is added; a thought one keeps its moves, values and provenance (an engine's
   * results are never overwritten), and the imported moves it does not list join them at the
   * end, with the import's values. Returns positions added, joined (moves added) and moves added.
   */
  add(batch: number, list: Iterable<KeyedThought>): { added: number; joined: number; moves: number } {
    this.memo = null;
    return this.c.transaction(() => {
      let added = 0,
        joined = 0,
        moves = 0,
        fresh = 0;
      const undo = this.c.q("INSERT INTO import_undo (batch, position_id, thought_at, data) VALUES (?, ?, ?, ?)");
      for (const p of list) {
        const existing = this.thoughts.rowOfKey(keyToInt64(p.keyHi, p.keyLo));
        if (!existing || existing.state !== "thought" || existing.sfen !== p.sfen) {
          const [id, isNew] = this.thoughts.put(p); // a collision throws there
          fresh += isNew;
          undo.run(batch, id, p.thoughtAt, null);
          added++;
          moves += p.candidates.length;
          continue;
        }
        const before = this.thoughts.get(existing.sfen)!;
        const listed = new Set(before.candidates.map((c) => c.move));
        const extra = p.candidates.filter((c) => !listed.has(c.move));
        if (extra.length === 0) continue;
        const { id, ...kept } = before;
        undo.run(batch, id, before.thoughtAt, JSON.stringify(before));
        this.thoughts.put({ ...kept, candidates: [...before.candidates, ...extra] });
        joined++;
        moves += extra.length;
      }
      if (fresh > 0) this.thoughts.bumpCount(fresh);
      this.log.insert("info", "import", `${added} positions added, ${joined} joined`, { batch, added, joined, moves });
      return { added, joined, moves };
    });
  }

  /** The imports that can be undone, newest first (with the positions each added or joined). */
  list(): ImportBatch[] {
    const list =
      this.memo ??
      (this.c
        .q(
          "SELECT i.batch AS batch, i.file AS file, i.at AS at, (SELECT count(*) FROM import_undo u WHERE u.batch = i.batch) AS positions FROM imports i ORDER BY i.batch DESC",
        )
        .all() as ImportBatch[]);
    if (!this.c.readonly) this.memo = list;
    return list.map((i) => ({ ...i }));
  }

  /**
   * Takes the newest import back (one transaction): positions it added are removed, positions
   * it joined get their moves as they were. A position thought again since the import is left
   * as it is now (`kept`): undo never removes what an engine thought later.
   */
  undo(): { batch: number; file: string; removed: number; restored: number; kept: number } | null {
    this.memo = null;
    return this.c.transaction(() => {
      const last = this.c.q("SELECT batch, file FROM imports ORDER BY batch DESC LIMIT 1").get() as
        { batch: number; file: string } | undefined;
      if (!last) return null;
      const rows = this.c.q("SELECT position_id AS id, thought_at AS at, data FROM import_undo WHERE batch = ?").all(last.batch) as Array<{
        id: number;
        at: number;
        data: string | null;
      }>;
      const now = this.c.q("SELECT thought_at AS at FROM positions WHERE id = ? AND state = 'thought'");
      let removed = 0,
        restored = 0,
        kept = 0;
      for (const r of rows) {
        const cur = now.get(r.id) as { at: number } | undefined;
        if (!cur || cur.at !== r.at) {
          kept++;
          continue;
        }
        if (r.data === null) {
          this.thoughts.remove(r.id);
          removed++;
        } else {
          const { id: _id, ...before } = JSON.parse(r.data) as StoredThought;
          this.thoughts.put(before);
          restored++;
        }
      }
      if (removed > 0) this.thoughts.bumpCount(-removed);
      this.thoughts.bumpGraphEpoch();
      this.c.q("DELETE FROM import_undo WHERE batch = ?").run(last.batch);
      this.c.q("DELETE FROM imports WHERE batch = ?").run(last.batch);
      this.log.insert("info", "unimport", `undid the import of ${last.file}`, { batch: last.batch, removed, restored, kept });
      return { batch: last.batch, file: last.file, removed, restored, kept };
    });
  }
}
