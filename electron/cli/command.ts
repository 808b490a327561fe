// One `horu` subcommand. Commands print their own output; they return the exit code.
export interface Command {
  name: string;
  /** One line for `horu --help`. */
  summary: string;
  /** Full usage text for `horu NAME --help` and for usage errors. */
  usage: string;
  run(args: string[]): Promise<number>;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** A whole-number option: undefined when absent, a UsageError naming the option when not a whole number >= min. */
export function wholeNumber(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  // Written out in decimal digits: Number() would also take "0x10", "1e3" and " 7 ".
  const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number >= ${min}, not '${raw}'`);
  return n;
}

/** Prints `value` as the one JSON object on the last line of standard output. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + "\n");
}

/**
 * Progress while a book opens, on standard error (standard output stays the command's):
 * one line rewritten in place on a terminal, else a line at most every 2 s.
 */
export function openProgress(stream: NodeJS.WriteStream = process.stderr): (p: { phase: string; done: number; total: number }) => void {
  const words: Record<string, string> = {
    snapshot: "reading the graph snapshot",
    replay: "replaying positions stored after it",
    positions: "reading positions",
    links: "linking moves",
  };
  let shown = 0;
  let lastText = "";
  return (p) => {
    const now = performance.now();
    const end = p.done >= p.total;
    if (!stream.isTTY && now - shown < 2000 && !end) return;
    shown = now;
    const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 100;
    const text = `opening the book: ${words[p.phase] ?? p.phase} ${pct}%`;
    if (text === lastText) return;
    lastText = text;
    // The open ends with the replay (from a snapshot) or the links (a rebuild).
    const last = end && (p.phase === "replay" || p.phase === "links");
    if (stream.isTTY) stream.write(`\r${text}\x1b[K${last ? "\n" : ""}`);
    else stream.write(text + "\n");
  };
}

/**
 * `--draw-white -50` as `--draw-white=-50`: node's parseArgs takes a value that starts with a
 * dash for an option and refuses it ("argument is ambiguous"), while draw values, eval limits
 * and values are naturally negative.
 */
export function joinNegativeValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!,
      next = args[i + 1];
    if (a.startsWith("--") && !a.includes("=") && next !== undefined && /^-\d+(\.\d+)?$/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}
