// The figures a dig keeps about itself (positions thought, each selection's time and CPU) and
// the small statistics its summary and the benchmarks report them with.

/** The p-quantile of unsorted values (0 for none): what a dig reports as p50 and p99. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

/** The mean (0 for none). */
export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** The selection figures of a stretch of a dig. */
export interface SelectionFigures {
  selections: number;
  selectP50Ms: number;
  selectP99Ms: number;
  /** This process's CPU time while selecting, summed. */
  selectCpuMs: number;
}

/** What a dig counts over a stretch of it (the whole dig, its second half): positions thought, each selection's time and CPU. */
export class Tally {
  thought = 0;
  readonly selectMs: number[] = [];
  selectCpuMs = 0;

  selected(ms: number, cpuMs: number): void {
    this.selectMs.push(ms);
    this.selectCpuMs += cpuMs;
  }

  thoughtOne(): void {
    this.thought++;
  }

  selectionFigures(): SelectionFigures {
    return {
      selections: this.selectMs.length,
      selectP50Ms: percentile(this.selectMs, 0.5),
      selectP99Ms: percentile(this.selectMs, 0.99),
      selectCpuMs: this.selectCpuMs,
    };
  }
}

/** A dig's figures over its second half (see DigSummary.secondHalf). */
export interface DigHalf extends SelectionFigures {
  wallMs: number;
  thought: number;
  /** This process's CPU time in all (selection, inserts, the store). */
  cpuMs: number;
  /**
   * Share of the engines' time in this stretch they waited for a position (DigSummary.waitingShare):
   * the waits that ended in it, over the engines' count times its wall time.
   */
  waitingShare: number;
}

/** The tally of a dig from some moment on, with the wall and CPU time since. */
export class StretchTally extends Tally {
  private readonly cpu = process.cpuUsage();
  private waited = 0;

  /** From `at` (performance.now() ms), with `engines` engine slots. */
  constructor(
    private readonly engines: number,
    private readonly at = performance.now(),
  ) {
    super();
  }

  /** An engine's wait for a position that ended now (its part since the stretch began). */
  waitedFrom(since: number, now: number): void {
    this.waited += now - Math.max(since, this.at);
  }

  figures(now: number): DigHalf {
    const cpu = process.cpuUsage(this.cpu);
    const wallMs = now - this.at;
    return {
      wallMs,
      thought: this.thought,
      ...this.selectionFigures(),
      cpuMs: (cpu.user + cpu.system) / 1000,
      waitingShare: wallMs > 0 && this.engines > 0 ? Math.min(1, this.waited / (this.engines * wallMs)) : 0,
    };
  }
}
