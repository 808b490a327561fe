// The command line's dispatch, help and error handling, shared by the whole `horu` bundle
// and the small one `horu peta` starts from (peta-main.ts).
import type { Command } from "./command.js";
import { UsageError, joinNegativeValues } from "./command.js";
import { killAllEngines } from "../engines/usi/live.js";
import { markOutputClosed } from "./output-closed.js";

function help(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    "usage: horu <command> [options]",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "`horu <command> --help` shows a command's options.",
  ].join("\n");
}

/**
 * SQLite's own messages ("database disk image is malformed", "attempt to write a readonly
 * database", "unable to open database file") name no file: said of the book the command was
 * given, unless the message names a file already.
 */
function sqliteErrorNamed(e: unknown, args: readonly string[]): string | null {
  if (!(e instanceof Error) || !/^SQLITE_/.test(String((e as { code?: unknown }).code ?? ""))) return null;
  const at = args.findIndex((a) => a === "--book" || a.startsWith("--book="));
  const book = at < 0 ? undefined : args[at].startsWith("--book=") ? args[at].slice("--book=".length) : args[at + 1];
  if (!book || e.message.includes(book)) return null;
  return `${book}: ${e.message}`;
}

async function run(commands: readonly Command[], argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(help(commands) + "\n");
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`horu: unknown command '${name}'\n\n${help(commands)}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(command.usage + "\n");
    return 0;
  }
  try {
    return await command.run(joinNegativeValues(rest));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`horu ${name}: ${e.message}\n\n${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`horu ${name}: ${sqliteErrorNamed(e, rest) ?? (e instanceof Error ? e.message : String(e))}\n`);
    if (process.env.HORU_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    return 1;
  }
}

// Signals that end horu: a command that handles one itself (horu dig: SIGINT, SIGTERM) has its
// own listener; otherwise horu ends as the signal would have ended it, but first kills the
// engines it started (they are in process groups of their own, engines/usi/process.ts, so the
// terminal's hangup or a SIGTERM to horu alone would not reach them).
const FATAL: Array<[NodeJS.Signals, number]> = [
  ["SIGHUP", 129],
  ["SIGINT", 130],
  ["SIGTERM", 143],
];

function endOnSignals(): void {
  for (const [signal, code] of FATAL) {
    const listener = () => {
      if (process.listenerCount(signal) > 1) return; // the command's own handler decides
      killAllEngines();
      process.exit(code);
    };
    process.on(signal, listener);
  }
}

/**
 * The reader of horu's output went away (\`horu dig --print-results | head -3\`): Node ignores
 * SIGPIPE, so the next write failed with an unhandled EPIPE, a stack trace and a dig cut off
 * holding its lock. Instead horu ends as a SIGTERM would end it: a dig stores its running
 * thinks and stops cleanly, another command exits. Nothing more is written to a closed pipe.
 */
function endWhenOutputCloses(): void {
  let ending = false;
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", () => {
      if (ending) return;
      ending = true;
      markOutputClosed();
      process.kill(process.pid, "SIGTERM");
    });
}

/** Runs the command argv names and sets the exit code. */
export function main(commands: readonly Command[], argv: string[]): void {
  endOnSignals();
  endWhenOutputCloses();
  run(commands, argv).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`horu: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
