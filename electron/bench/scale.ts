// `horu bench scale`: the same dig on an empty book and on copies of big books, each for the
// same time, as whole `horu dig` processes under /usr/bin/time -v: positions/s and its ratio
// to the empty book, the first selection, selection p50/p99, the CPU selecting per position
// against the engines' CPU per position, horu's own CPU per position, the engines' share of
// the machine's CPU and peak RSS, with the load average (figures, never assertions). A big
// book's copy takes its graph snapshot and selection bounds along when it has them (as a dig's
// close, `horu bench book` and an import leave them; the line says whether they were taken).
// Each big book is then opened again for a short dig: the first selection after a reopen goes
// on from the bounds saved at the close. Each dig's second half is also given alone: on the
// 15M made-up book a dig's first minute selects far slower than the rest.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { copyBook } from "./books/copy-book.js";
import { DEFAULT_DIG_SETTINGS } from "../../shared/dig/settings.js";
import type { DigHalf } from "../dig/stats.js";

export interface ScaleCase {
  label: string;
  /** A book to dig a copy of; none: a new empty book. */
  book?: string;
}

export interface ScaleRow {
  label: string;
  thought: number;
  rate: number;
  openMs: number;
  selectP50Ms: number;
  selectP99Ms: number;
  /** The first selection (after the open): a search of the whole book unless saved bounds were taken. */
  firstSelectMs: number;
  /** horu's CPU time while selecting, per position (the figure set against the engines' CPU). */
  selectCpuMsPerPosition: number;
  /** Wall time selecting per position: more than its CPU while the engines hold the cores. */
  selectMsPerPosition: number;
  /** Engine CPU per position (ms), to set the selection's against. */
  engineCpuMsPerPosition: number;
  boundsRestored: boolean;
  horuCpuMsPerPosition: number;
  engineCpuShare: number;
  busyShare: number;
  /** Share of the engines' span they waited with no position to take (DigSummary.waitingShare). */
  waitingShare: number;
  maxRssMiB: number;
  load: string;
  /** The dig's second half alone: on the 15M made-up book a dig's first minute selects far slower than the rest (docs/DESIGN.md §3.5). */
  secondHalf: {
    thought: number;
    rate: number;
    selectP50Ms: number;
    selectP99Ms: number;
    selectCpuMsPerPosition: number;
    horuCpuMsPerPosition: number;
    /** The engines' waits for a position over the second half, as a share of their time in it. */
    waitingShare: number;
  } | null;
}

const TIME = "/usr/bin/time";

async function digOnce(
  horu: string,
  book: string,
  engine: string,
  seconds: number,
  nodes: number,
  prefetch: number,
): Promise<Omit<ScaleRow, "label" | "load">> {
  const args = [process.execPath, horu, "dig", "--book", book, "--engine", engine, "--engines", "2"];
  args.push(
    "--option",
    "Threads=1",
    "--option",
    "Hash=16",
    "--nodes",
    String(nodes),
    "--multipv",
    "auto",
    // The dig the earlier figures measured: no settle rounds (a new book's default since the eleventh session).
    "--settle",
    "0",
    "--prefetch",
    String(prefetch),
    "--time",
    String(seconds),
    "--json",
  );
  const useTime = existsSync(TIME);
  const t0 = performance.now();
  const child = useTime ? spawn(TIME, ["-v", ...args]) : spawn(args[0], args.slice(1));
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code: number | null = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const wallMs = performance.now() - t0;
  if (code !== 0) throw new Error(`horu dig on ${book} exited with ${code}: ${err.trim().slice(-500)}`);
  const s = JSON.parse(out.trim().split("\n").at(-1)!) as {
    thought: number;
    wallMs: number;
    selectP50Ms: number;
    selectP99Ms: number;
    firstSelectMs: number;
    selectTotalMs: number;
    selectCpuMs: number;
    busyShare: number;
    waitingShare: number;
    horuCpuMs: number;
    digCpuMs: number;
    boundsRestored: boolean;
    secondHalf: DigHalf | null;
  };
  const h = s.secondHalf;
  const num = (re: RegExp) => Number(re.exec(err)?.[1] ?? NaN);
  const totalCpuMs = (num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/)) * 1000;
  const engineCpuMs = totalCpuMs - s.horuCpuMs;
  return {
    thought: s.thought,
    rate: s.thought / (s.wallMs / 1000),
    openMs: wallMs - s.wallMs,
    selectP50Ms: s.selectP50Ms,
    selectP99Ms: s.selectP99Ms,
    firstSelectMs: s.firstSelectMs,
    selectCpuMsPerPosition: s.thought > 0 ? s.selectCpuMs / s.thought : 0,
    selectMsPerPosition: s.thought > 0 ? s.selectTotalMs / s.thought : 0,
    engineCpuMsPerPosition: s.thought > 0 ? engineCpuMs / s.thought : 0,
    boundsRestored: s.boundsRestored,
    // While it dug: the open (seconds on a huge book) is not a cost per position.
    horuCpuMsPerPosition: s.thought > 0 ? s.digCpuMs / s.thought : 0,
    engineCpuShare: engineCpuMs / (s.wallMs * cpus().length),
    busyShare: s.busyShare,
    waitingShare: s.waitingShare,
    maxRssMiB: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024,
    secondHalf:
      h && h.wallMs > 0 && h.thought > 0
        ? {
            thought: h.thought,
            rate: h.thought / (h.wallMs / 1000),
            selectP50Ms: h.selectP50Ms,
            selectP99Ms: h.selectP99Ms,
            selectCpuMsPerPosition: h.selectCpuMs / h.thought,
            horuCpuMsPerPosition: h.cpuMs / h.thought,
            waitingShare: h.waitingShare,
          }
        : null,
  };
}

const pct = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "-");

export async function benchScale(o: {
  horu: string;
  engine: string;
  cases: ScaleCase[];
  seconds: number;
  nodes: number;
  /** Positions selected ahead (the same on every book: a book's own setting would differ between them); default: a new book's. */
  prefetch?: number;
  print: (line: string) => void;
}): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const prefetch = o.prefetch ?? DEFAULT_DIG_SETTINGS.prefetch;
  o.print(
    `scale: 2 x ${o.engine}, go nodes ${o.nodes}, --multipv auto, --settle 0, --prefetch ${prefetch}, ${o.seconds} s each; ${cpus().length} cores`,
  );
  // The empty book's rate spreads between runs (on 2 cores by up to 1.5x: the engines' CPU a
  // position with it), so it runs again at the end, and the ratios are given against both.
  const again = o.cases.length > 1 && !o.cases[0].book ? [{ ...o.cases[0], label: `${o.cases[0].label}, again` }] : [];
  for (const c of [...o.cases, ...again]) {
    const dir = mkdtempSync(path.join(tmpdir(), "horu-scale-"));
    try {
      const book = path.join(dir, "book.horu");
      if (c.book) copyBook(c.book, book); // a copy: the dig writes to it
      const load = () =>
        loadavg()
          .map((x) => x.toFixed(2))
          .join(" ");
      const r = await digOnce(o.horu, book, o.engine, o.seconds, o.nodes, prefetch);
      const row: ScaleRow = { label: c.label, ...r, load: load() };
      rows.push(row);
      const ratio = rows[0] && rows[0].rate > 0 ? row.rate / rows[0].rate : 1;
      o.print(
        `${c.label}: ${row.thought} positions, ${row.rate.toFixed(2)}/s (${ratio.toFixed(3)}x ${rows[0].label}); open ${(row.openMs / 1000).toFixed(1)} s; ` +
          `first selection ${(row.firstSelectMs / 1000).toFixed(2)} s${c.book ? ` (bounds saved beside the book ${row.boundsRestored ? "taken" : "none or not taken: a search of the whole book"})` : ""}; selection p50 ${row.selectP50Ms.toFixed(2)} ms, p99 ${row.selectP99Ms.toFixed(2)} ms; ` +
          `selecting ${row.selectCpuMsPerPosition.toFixed(1)} ms CPU/position = ${pct(row.selectCpuMsPerPosition, row.engineCpuMsPerPosition)} of the engines' CPU per position (${row.engineCpuMsPerPosition.toFixed(0)} ms; ${row.selectMsPerPosition.toFixed(1)} ms wall); ` +
          `horu CPU ${row.horuCpuMsPerPosition.toFixed(1)} ms/position while digging (selection, insert and store); engines ${(row.engineCpuShare * 100).toFixed(1)}% of the machine's CPU, ` +
          `busy share ${(row.busyShare * 100).toFixed(1)}%, waiting for a position ${(row.waitingShare * 100).toFixed(1)}%; peak RSS ${row.maxRssMiB.toFixed(0)} MiB (load ${row.load})`,
      );
      const half = row.secondHalf,
        firstHalf = rows[0].secondHalf;
      if (half)
        o.print(
          `${c.label}, second half: ${half.thought} positions, ${half.rate.toFixed(2)}/s${firstHalf ? ` (${(half.rate / firstHalf.rate).toFixed(3)}x ${rows[0].label}'s second half)` : ""}; ` +
            `selection p50 ${half.selectP50Ms.toFixed(2)} ms, p99 ${half.selectP99Ms.toFixed(2)} ms; selecting ${half.selectCpuMsPerPosition.toFixed(1)} ms CPU/position ` +
            `= ${pct(half.selectCpuMsPerPosition, row.engineCpuMsPerPosition)} of the engines' CPU per position over the whole dig; horu CPU ${half.horuCpuMsPerPosition.toFixed(1)} ms/position; ` +
            `engines waiting for a position ${(half.waitingShare * 100).toFixed(1)}%`,
        );
      if (c === again[0]) {
        // Each big book's rate against the mean of both empty runs, over the whole dig and its second half.
        const ratios = (title: string, rate: (r: ScaleRow) => number | undefined) => {
          const mean = ((rate(rows[0]) ?? NaN) + (rate(row) ?? NaN)) / 2;
          if (!(mean > 0)) return;
          const each = rows.slice(1, -1).map((r) => {
            const x = rate(r);
            return `${r.label} ${x === undefined ? "-" : (x / mean).toFixed(3)}x`;
          });
          o.print(`${title} (${mean.toFixed(2)}/s): ${each.join(", ")}`);
        };
        ratios(`ratios against the mean of both ${rows[0].label} runs`, (r) => r.rate);
        ratios(`second halves against the mean of both ${rows[0].label} runs'`, (r) => r.secondHalf?.rate);
      }
      if (c.book) {
        // Opened again after the dig closed it: the selection's bounds saved at the close are taken.
        const again = await digOnce(o.horu, book, o.engine, Math.min(o.seconds, 20), o.nodes, prefetch);
        o.print(
          `${c.label}, opened again: open ${(again.openMs / 1000).toFixed(1)} s; bounds from the last close ${again.boundsRestored ? "taken" : "NOT taken"}; ` +
            `first selection ${(again.firstSelectMs / 1000).toFixed(2)} s; peak RSS ${again.maxRssMiB.toFixed(0)} MiB (load ${load()})`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
