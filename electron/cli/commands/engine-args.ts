// The engine options `horu dig` and `horu book quality` share: --engine CMD (repeatable),
// --engines N (processes of each) and --option NAME=VALUE (set on every engine, also on the
// ones chosen when no --engine is given). Which engines to choose then, and how many processes
// of each by default, stay with each command: they differ on purpose.
import { wholeNumber } from "../command.js";
import { engineFromCommandLine, parseEngineOption } from "../../engines/command-line.js";
import { EngineOptionError, UsiEngine, type UsiEngineOptions } from "../../engines/usi/engine.js";

/** The parseArgs options, to spread into a command's own. */
export const engineArgOptions = {
  engine: { type: "string", multiple: true },
  engines: { type: "string" },
  option: { type: "string", multiple: true },
} as const;

export interface EngineArgValues {
  engine?: string[];
  engines?: string;
  option?: string[];
}

export interface EngineArgs {
  /** --option's settings by name. */
  options: Record<string, string | number | boolean>;
  /** --engines, when given. */
  copies: number | undefined;
}

/** --option and --engines read and checked (no engine is looked for yet). */
export function readEngineArgs(values: EngineArgValues): EngineArgs {
  const copies = wholeNumber("engines", values.engines, 1);
  return { options: Object.fromEntries((values.option ?? []).map(parseEngineOption)), copies };
}

/** The --engine command lines as engines with --option's settings; empty when none was given. */
export function commandLineEngines(values: EngineArgValues, args: EngineArgs): UsiEngineOptions[] {
  return (values.engine ?? []).map((cmd) => engineFromCommandLine(cmd, args.options));
}

/** `per` processes of each engine, named "#1", "#2" ... after it when more than one. */
export function processesOf(specs: UsiEngineOptions[], per: number): UsiEngineOptions[] {
  return specs.flatMap((s) => Array.from({ length: per }, (_, i) => ({ ...s, name: per > 1 ? `${s.name}#${i + 1}` : s.name })));
}

/**
 * Starts each engine once, together, and quits it: an option value one does not take (outside
 * the range its handshake announces: the engine would ignore it without a word) is refused with
 * its message before the command writes anything, as is any failure of the engines `mustRun`
 * says must run ("all", or only the "first": a dig's pool keeps retrying the others, e.g. an
 * engine on a host that is down now). The other failures are returned, to be said.
 */
export async function startEachOnce(specs: UsiEngineOptions[], mustRun: "all" | "first"): Promise<Error[]> {
  const started = await Promise.allSettled(
    specs.map((spec) => {
      const engine = new UsiEngine(spec);
      return engine.start().finally(() => engine.quit());
    }),
  );
  const failures = started.map((r) => (r.status === "rejected" ? (r.reason as Error) : null));
  const refused = failures.find((e, i) => e && (e instanceof EngineOptionError || mustRun === "all" || i === 0));
  if (refused) throw refused;
  return failures.filter((e) => e !== null);
}
