// What people wrote on positions: the book's comments (table comments), and what a
// ShogiGUI book carried besides moves (table sbk_states, its author and description in meta).
import type { SbkStateRecord } from "../../shared/book/records.js";
import type { StoreDb } from "./db.js";
import { keyToInt64 } from "./keys.js";
import type { PositionKey } from "./thought-rows.js";

export class Notes {
  constructor(private readonly c: StoreDb) {}

  /** Sets a position's comment; an empty text removes it. */
  setComment(p: PositionKey & { sfen: string }, text: string): void {
    this.c.write(() => {
      if (text.trim() === "") this.c.q("DELETE FROM comments WHERE sfen = ?").run(p.sfen);
      else
        this.c
          .q(
            "INSERT INTO comments (sfen, key, text, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (sfen) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at",
          )
          .run(p.sfen, keyToInt64(p.keyHi, p.keyLo), text, Date.now());
    });
  }

  getComment(sfen: string): string | null {
    const row = this.c.q("SELECT text FROM comments WHERE sfen = ?").get(sfen) as { text: string } | undefined;
    return row?.text ?? null;
  }

  listComments(): Array<{ sfen: string; text: string; updatedAt: number }> {
    return this.c.q("SELECT sfen, text, updated_at AS updatedAt FROM comments ORDER BY updated_at DESC").all() as Array<{
      sfen: string;
      text: string;
      updatedAt: number;
    }>;
  }

  /** Every position comment and .sbk state the book keeps, by SFEN (small tables: read whole). */
  all(): Map<string, { comment?: string; sbk?: SbkStateRecord }> {
    const out = new Map<string, { comment?: string; sbk?: SbkStateRecord }>();
    for (const r of this.c.q("SELECT sfen, text FROM comments").all() as { sfen: string; text: string }[])
      out.set(r.sfen, { comment: r.text });
    for (const r of this.c.q("SELECT sfen, data FROM sbk_states").all() as { sfen: string; data: string }[]) {
      const n = out.get(r.sfen) ?? {};
      n.sbk = JSON.parse(r.data) as SbkStateRecord;
      out.set(r.sfen, n);
    }
    return out;
  }

  /** The author and description of the ShogiGUI book last imported (written back into .sbk exports). */
  sbkBookMeta(): { author?: string; description?: string } {
    const m = this.c.meta();
    return { author: m["sbk_author"], description: m["sbk_description"] };
  }

  setSbkBookMeta(meta: { author: string; description: string }): void {
    this.c.write(() =>
      this.c.db.transaction(() => {
        const set = this.c.q("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
        set.run("sbk_author", meta.author);
        set.run("sbk_description", meta.description);
      })(),
    );
  }
}
