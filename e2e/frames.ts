// Frame timing of the renderer while a big book digs (the target: no frame over 50 ms while a
// 1M-position book digs): a real-position book written straight into SQLite, and a recorder
// of requestAnimationFrame gaps and long tasks inside the page.
import type { Page } from "playwright-core";
import { writeSyntheticBook } from "../electron/bench/books/synthetic-book.js";

/** A big book of real positions in a new file (see electron/bench/books/synthetic-book.ts). */
export function makeBigBook(file: string, positions: number): { ms: number; positions: number } {
  return writeSyntheticBook(file, positions);
}

export interface FrameFigures {
  label: string;
  seconds: number;
  frames: number;
  p50: number;
  p99: number;
  max: number;
  /** Frames longer than 50 ms. */
  over50: number;
  longTasks: number;
  longTaskMax: number;
}

type Recorder = { deltas: number[]; longtasks: number[]; running: boolean };

/** Starts recording rAF gaps and long tasks in the page (replacing any earlier recording). */
export async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { horuFrames?: Recorder; horuObserver?: PerformanceObserver };
    if (w.horuFrames) w.horuFrames.running = false;
    w.horuObserver?.disconnect();
    const rec: Recorder = { deltas: [], longtasks: [], running: true };
    w.horuFrames = rec;
    let last = -1;
    const tick = (t: number) => {
      if (!rec.running) return;
      if (last >= 0) rec.deltas.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => rec.longtasks.push(e.duration)));
    obs.observe({ type: "longtask", buffered: false });
    w.horuObserver = obs;
  });
}

/** Stops the recording and sums it up. */
export async function stopRecording(page: Page, label: string, seconds: number): Promise<FrameFigures> {
  const rec = await page.evaluate(() => {
    const w = window as unknown as { horuFrames: Recorder; horuObserver?: PerformanceObserver };
    w.horuFrames.running = false;
    w.horuObserver?.disconnect();
    return { deltas: w.horuFrames.deltas, longtasks: w.horuFrames.longtasks };
  });
  const sorted = rec.deltas.slice().sort((a, b) => a - b);
  const q = (x: number) => sorted[Math.min(sorted.length - 1, Math.floor(x * sorted.length))] ?? 0;
  return {
    label,
    seconds,
    frames: sorted.length,
    p50: q(0.5),
    p99: q(0.99),
    max: sorted[sorted.length - 1] ?? 0,
    over50: sorted.filter((d) => d > 50).length,
    longTasks: rec.longtasks.length,
    longTaskMax: Math.max(0, ...rec.longtasks),
  };
}

export function formatFigures(f: FrameFigures): string {
  return (
    `${f.label}: ${f.frames} frames in ${f.seconds} s, gap p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, max ${f.max.toFixed(1)} ms, ` +
    `${f.over50} over 50 ms; long tasks ${f.longTasks} (max ${f.longTaskMax.toFixed(0)} ms)`
  );
}

/** A contract call from inside the page (same token and origin as the app's own). */
export function apiCall<T>(page: Page, method: string, args: unknown): Promise<T> {
  return page.evaluate(
    async ([m, a]) => {
      const r = await fetch("/api/call", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Horu-Token": sessionStorage.getItem("horu.token") ?? "" },
        body: JSON.stringify({ method: m, args: a }),
      });
      const body = (await r.json()) as { result?: unknown; error?: string };
      if (!r.ok) throw new Error(body.error ?? `${m}: HTTP ${r.status}`);
      return body.result;
    },
    [method, args] as const,
  ) as Promise<T>;
}
