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
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number >= ${min}, not '${raw}'`);
  return n;
}

/** Prints `value` as the one JSON object on the last line of standard output. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + "\n");
}
