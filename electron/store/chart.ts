// The growth chart's history (table chart_samples), thinned so a months-long dig keeps
// its whole shape in a few hundred KiB.
import type { ChartSample } from "../../shared/api/contract.js";
import type { StoreDb } from "./db.js";

/** Chart samples kept before old ones are thinned, and how many of the newest are never thinned. */
export const CHART_KEEP = 2000;
export const CHART_RECENT = 200;

export class Chart {
  // Thinning is checked every 64 inserts (the count is cheap, but not free on every sample).
  private inserts = 0;

  constructor(private readonly c: StoreDb) {}

  /**
   * Appends a chart sample. Past CHART_KEEP rows, every other old one (gaps kept, the newest
   * CHART_RECENT untouched) goes.
   */
  add(s: ChartSample, limits: { keep: number; recent: number } = { keep: CHART_KEEP, recent: CHART_RECENT }): void {
    this.c.transaction(() => {
      this.c
        .q("INSERT INTO chart_samples (t, thought, root_value, gap) VALUES (?, ?, ?, ?)")
        .run(Math.round(s.t), s.thought, s.rootValue, s.gap ? 1 : 0);
      if (++this.inserts % 64 !== 0 || this.count() <= limits.keep) return;
      this.c
        .q(
          `DELETE FROM chart_samples WHERE id IN (
             SELECT id FROM (SELECT id, gap, row_number() OVER (ORDER BY id) AS r FROM chart_samples
                             WHERE id < (SELECT min(id) FROM (SELECT id FROM chart_samples ORDER BY id DESC LIMIT ?)))
             WHERE gap = 0 AND r % 2 = 0)`,
        )
        .run(limits.recent);
    });
  }

  /** The chart history, oldest first. */
  all(): ChartSample[] {
    const rows = this.c.q("SELECT t, thought, root_value AS rootValue, gap FROM chart_samples ORDER BY id").all() as Array<{
      t: number;
      thought: number;
      rootValue: number | null;
      gap: number;
    }>;
    return rows.map((r) => ({ t: r.t, thought: r.thought, rootValue: r.rootValue, gap: r.gap !== 0 }));
  }

  /** The newest chart sample, if any. */
  last(): ChartSample | undefined {
    const r = this.c.q("SELECT t, thought, root_value AS rootValue, gap FROM chart_samples ORDER BY id DESC LIMIT 1").get() as
      { t: number; thought: number; rootValue: number | null; gap: number } | undefined;
    return r && { t: r.t, thought: r.thought, rootValue: r.rootValue, gap: r.gap !== 0 };
  }

  /** Forgets every sample (the book's root changed: they are the old root's values). */
  clear(): void {
    this.c.q("DELETE FROM chart_samples").run();
  }

  count(): number {
    return (this.c.q("SELECT COUNT(*) AS n FROM chart_samples").get() as { n: number }).n;
  }
}
