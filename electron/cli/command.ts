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

/** Prints `value` as the one JSON object on the last line of standard output. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + "\n");
}
