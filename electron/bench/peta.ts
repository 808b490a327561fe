// `horu bench peta`: the whole `horu peta` process on a DB2016 book, timed from spawn to
// exit, with its peak RSS as `/usr/bin/time -v` reports it (the kernel's high-water mark
// for the child; without /usr/bin/time, the child's own getrusage figure, the same number).
// The figures: YaneuraOu's peta_shock 28.5 s and 301 MiB on the 1M synthetic book.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { makeSyntheticBook } from "../../shared/synth/synth-book.js";
import { moveToUsi } from "../../shared/rules/usi.js";
import { db2016BlockText, db2016HeaderLines } from "../../shared/formats/db2016.js";
import { percentile } from "../dig/stats.js";

export interface PetaBenchOptions {
  /** The DB2016 book to convert; else a synthetic one of `positions` positions. */
  file?: string;
  positions: number;
  runs: number;
  /** The horu CLI script (bin/horu.js). */
  horu: string;
  print: (line: string) => void;
}

export interface PetaRun {
  wallMs: number;
  maxRssKiB: number;
  cpuMs: number;
  summary: Record<string, unknown>;
}

const TIME = "/usr/bin/time";

/** One `horu peta IN OUT --json` in a child process. */
export function runPetaProcess(horu: string, input: string, output: string): Promise<PetaRun> {
  const useTime = existsSync(TIME);
  const args = [process.execPath, horu, "peta", input, output, "--json"];
  const t0 = performance.now();
  const child = useTime ? spawn(TIME, ["-v", ...args]) : spawn(args[0], args.slice(1));
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - t0;
      if (code !== 0) return reject(new Error(`horu peta exited with ${code}: ${err.trim().slice(-500)}`));
      const summary = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, unknown>;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      const user = /User time \(seconds\): ([\d.]+)/.exec(err);
      const sys = /System time \(seconds\): ([\d.]+)/.exec(err);
      resolve({
        wallMs,
        maxRssKiB: rss ? Number(rss[1]) : Number(summary.maxRssKiB),
        cpuMs: user && sys ? (Number(user[1]) + Number(sys[1])) * 1000 : Number(summary.cpuMs),
        summary,
      });
    });
  });
}

/** A synthetic dug book as a sorted DB2016 file (the shape of the gen-book.mjs books). */
export function writeSyntheticDb2016(file: string, positions: number): void {
  const book = makeSyntheticBook(positions, 1);
  const order = Array.from(book.sfens.keys()).sort((a, b) =>
    book.sfens[a] < book.sfens[b] ? -1 : book.sfens[a] > book.sfens[b] ? 1 : a - b,
  );
  const parts: string[] = [db2016HeaderLines(positions).join("\n") + "\n"];
  for (const i of order) {
    const moves = [];
    for (let j = book.moveStart[i]; j < book.moveStart[i + 1]; j++)
      moves.push({ move: moveToUsi(book.moves[j]), value: book.values[j], depth: 20, count: 1 });
    parts.push(db2016BlockText({ sfen: book.sfens[i], moves }));
  }
  writeFileSync(file, parts.join(""));
}

async function sha256(file: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex").slice(0, 16);
}

const MiB = 1024;

export async function benchPeta(o: PetaBenchOptions): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "horu-bench-peta-"));
  try {
    let input = o.file;
    if (!input) {
      input = path.join(dir, "synthetic.db");
      const t = performance.now();
      writeSyntheticDb2016(input, o.positions);
      o.print(
        `wrote a synthetic ${o.positions.toLocaleString("en")}-position book in ${((performance.now() - t) / 1000).toFixed(1)} s (use --book FILE for another book)`,
      );
    }
    o.print(
      `input ${input}: ${(statSync(input).size / 2 ** 20).toFixed(0)} MiB; memory figures by ${existsSync(TIME) ? "/usr/bin/time -v" : "getrusage in the child"}`,
    );
    const runs: PetaRun[] = [];
    let digest = "";
    for (let k = 0; k < o.runs; k++) {
      const output = path.join(dir, "out.db");
      const load = loadavg()[0];
      const r = await runPetaProcess(o.horu, input, output);
      const d = await sha256(output);
      if (digest && d !== digest) throw new Error(`run ${k + 1} wrote another book than run 1`);
      digest = d;
      runs.push(r);
      const s = r.summary;
      o.print(
        `run ${k + 1}: ${(r.wallMs / 1000).toFixed(2)} s whole process, ${(r.cpuMs / 1000).toFixed(2)} s CPU (user+sys), peak RSS ${(r.maxRssKiB / MiB).toFixed(0)} MiB, ` +
          `load average ${load.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after (${s.threads} threads: read ${s.readMs} ms, edges and minimax ${s.exportMs} ms, write ${s.writeMs} ms; ${Number(s.writtenPositions).toLocaleString("en")} positions, ${Number(s.writtenMoves).toLocaleString("en")} moves, sha256 ${d})`,
      );
      rmSync(output, { force: true });
    }
    const wall = percentile(
      runs.map((r) => r.wallMs),
      0.5,
    );
    const cpu = percentile(
      runs.map((r) => r.cpuMs),
      0.5,
    );
    const rss = Math.max(...runs.map((r) => r.maxRssKiB));
    o.print(
      `horu peta: median ${(wall / 1000).toFixed(2)} s whole process, ${(cpu / 1000).toFixed(2)} s CPU over ${runs.length} run(s), peak RSS ${(rss / MiB).toFixed(0)} MiB ` +
        `(targets on the issue's 1M book: <= 14 s, <= 301 MiB; peta_shock there: 28.5 s, 301 MiB)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
