// `horu engines list|add|remove|test`: the engine library (the app's, kept in the config
// folder and shared by every book), what is found on this machine, and the built-in engines.
import { parseArgs } from "node:util";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError, printJson, wholeNumber } from "../command.js";
import { EngineLibrary, type LibraryEngine } from "../../engines/library.js";
import { builtinCandidates, chooseEngines, detectedCandidates, specFromConfig } from "../../engines/choose.js";
import { BUILTIN_ENGINES, BUILTIN_PREFIX, isBuiltinCommand } from "../../engines/builtin.js";
import { parseEngineOption } from "../../engines/command-line.js";
import { EngineOptionError, UsiEngine, type Handshake, type UsiEngineOptions } from "../../engines/usi/engine.js";
import { formatCommandLine, parseCommandLine } from "../../engines/argv.js";

const usage = `usage: horu engines list [--json]
       horu engines add CMD [--name NAME] [--option NAME=VALUE]... [--cwd DIR] [--no-test] [--timeout S] [--json]
       horu engines remove ID|NAME
       horu engines test ID|NAME|CMD [--timeout S] [--json]

The engine library is kept once for the whole app (every book digs with it) in engines.json
in the config folder (${"$"}HORU_CONFIG_DIR, else the platform's: ~/.config/horu,
~/Library/Application Support/horu, %APPDATA%\\horu). A damaged library, or one written by a
newer horu, is reported and never rewritten. Books from before the library keep the
engines they name, but a book can come from anyone: its engines are never run or added on its
say; \`horu dig\` names them with the \`horu engines add\` line that adds one.

  list     the library's engines, the engines found on PATH and in the usual places,
           the built-in engines, and what \`horu dig\` without --engine would use and why
  add      tests the engine (USI handshake) and adds it; CMD is one command line:
           "/path/to/YaneuraOu", "ssh host /opt/engine/YaneuraOu", or builtin:${BUILTIN_ENGINES[0]!.id}
           (--no-test adds it without starting it, e.g. for a host that is down now);
           an --option value the engine does not take (outside its range, not one of
           its values) is refused, naming what it takes (unchecked with --no-test: the
           first dig refuses it then)
  remove   removes an engine from the library (books keep what it thought)
  test     starts the engine, shows what it says about itself, and quits it

  --timeout S  seconds to wait for the engine's usiok and readyok (default 30); an engine
               that does not answer is killed with every process it started

add and test say clearly what is wrong (no such file, not a program, quit during the
handshake, no usiok within S seconds) and exit 1.`;

const commandLineOf = (e: { command: string; args: string[] }) => formatCommandLine([e.command, ...e.args]);

async function handshake(spec: UsiEngineOptions): Promise<{ handshake: Handshake; stderr: string[] }> {
  const stderr: string[] = [];
  const engine = new UsiEngine({ ...spec, log: (l) => l.stream === "stderr" && stderr.push(l.line) });
  try {
    return { handshake: await engine.start(), stderr };
  } catch (e) {
    // The engine runs, but an option value is not one it takes: said as it is (naming the option and its range).
    if (e instanceof EngineOptionError) throw e;
    const tail = stderr.length ? `\nthe engine's last error output:\n  ${stderr.slice(-5).join("\n  ")}` : "";
    const msg = e instanceof Error ? e.message : String(e);
    const why = /spawn \S+ (EACCES|ENOEXEC)/.test(msg)
      ? " (it is not an executable program)"
      : /USI handshake/.test(msg)
        ? " (is it a USI engine?)"
        : /ended|exited|exit code/.test(msg)
          ? " (it quit during the USI handshake: is it a USI engine?)"
          : /timeout|within/i.test(msg)
            ? " (no usiok: is it a USI engine?)"
            : "";
    throw new Error(`${[spec.command, ...(spec.args ?? [])].join(" ")} is not a working USI engine: ${msg}${why}${tail}`, { cause: e });
  } finally {
    await engine.quit().catch(() => engine.kill());
  }
}

function configFromCommandLine(
  text: string,
  name: string | undefined,
  cwd: string | undefined,
  options: Record<string, string | number | boolean>,
): Omit<LibraryEngine, "id"> {
  const t = text.trim();
  if (t === "builtin" || isBuiltinCommand(t)) {
    const command = t === "builtin" ? BUILTIN_PREFIX + BUILTIN_ENGINES[0]!.id : t;
    const b = builtinCandidates().find((c) => c.commandLine === command);
    if (!b) throw new Error(`no built-in engine '${command}' (there are: ${BUILTIN_ENGINES.map((x) => BUILTIN_PREFIX + x.id).join(", ")})`);
    return { name: name ?? b.name, command, args: [], cwd: null, options, enabled: true };
  }
  const [command, ...args] = parseCommandLine(text);
  if (!command) throw new UsageError("the engine command line is empty");
  return { name: name ?? path.basename(command), command, args, cwd: cwd ? path.resolve(cwd) : null, options, enabled: true };
}

export const enginesCommand: Command = {
  name: "engines",
  summary: "the engine library: list (with what is found here and built in), add, remove, test",
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        name: { type: "string" },
        option: { type: "string", multiple: true },
        cwd: { type: "string" },
        "no-test": { type: "boolean" },
        timeout: { type: "string" },
        json: { type: "boolean" },
      },
    });
    const library = new EngineLibrary();
    const say = (line: string) => process.stdout.write(line + "\n");
    const timeoutMs = values.timeout === undefined ? undefined : wholeNumber("timeout", values.timeout, 1)! * 1000;
    const tested = (spec: UsiEngineOptions): UsiEngineOptions =>
      timeoutMs === undefined ? spec : { ...spec, timeouts: { ...spec.timeouts, usiokMs: timeoutMs, readyokMs: timeoutMs } };
    switch (sub) {
      case "list": {
        if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
        const state = library.load();
        const detected = detectedCandidates();
        const builtin = builtinCandidates();
        const choice = chooseEngines({ library });
        say(`engine library (${library.file}):`);
        if (state.problem) say(`  cannot be used: ${state.problem}`);
        else if (state.engines.length === 0) say("  (empty: add one with `horu engines add CMD`)");
        for (const e of state.engines)
          say(
            `  ${String(e.id).padStart(3)}  ${e.name}${e.enabled ? "" : " (disabled)"}  ${commandLineOf(e)}${
              Object.keys(e.options).length
                ? `  ${Object.entries(e.options)
                    .map(([k, v]) => `${k}=${String(v)}`)
                    .join(" ")}`
                : ""
            }`,
          );
        say("found on this machine:");
        if (detected.length === 0) say("  (none on PATH or in the usual places)");
        for (const d of detected) say(`       ${d.name}  ${d.commandLine}  (${d.where}${d.timeOnly ? "; searches by time only" : ""})`);
        say("built in:");
        for (const b of builtin) say(`       ${b.name}  ${b.commandLine}`);
        say(`horu dig without --engine uses: ${choice.why}`);
        if (values.json)
          printJson({
            libraryFile: library.file,
            libraryProblem: state.problem,
            library: state.engines,
            detected,
            builtin,
            choice: { source: choice.source, names: choice.configs.map((c) => c.name), why: choice.why },
          });
        if (state.problem) process.stderr.write(`horu engines: ${state.problem}\n`);
        return state.problem ? 1 : 0;
      }
      case "add": {
        if (positionals.length !== 1)
          throw new UsageError(
            positionals.length === 0
              ? "give the engine's command line (quote it when it has spaces)"
              : `give the command line as one argument: "${positionals.join(" ")}"`,
          );
        const options = Object.fromEntries((values.option ?? []).map(parseEngineOption));
        const config = configFromCommandLine(positionals[0]!, values.name, values.cwd, options);
        library.list(); // a damaged or newer library is reported before anything is started
        const spec = specFromConfig(config);
        let idName = "";
        if (!values["no-test"]) {
          const h = await handshake(tested(spec));
          idName = h.handshake.idName;
          if (!values.name && idName && !isBuiltinCommand(config.command)) config.name = idName;
        }
        const added = library.add(config);
        say(`added engine ${added.id}: ${added.name} (${commandLineOf(added)})${idName ? `; it answered as '${idName}'` : ""}`);
        say(`library: ${library.file}`);
        if (values.json) printJson(added);
        return 0;
      }
      case "remove": {
        if (positionals.length !== 1) throw new UsageError("give the engine's id or name (horu engines list shows them)");
        const e = library.find(positionals[0]!);
        if (!e) throw new Error(`no engine '${positionals[0]}' in the library (${library.file}); horu engines list shows them`);
        library.remove(e.id);
        say(`removed engine ${e.id}: ${e.name}`);
        return 0;
      }
      case "test": {
        if (positionals.length !== 1) throw new UsageError("give an engine id or name from the library, or a command line");
        const ref = positionals[0]!;
        const state = library.load();
        const inLibrary = state.problem ? undefined : library.find(ref);
        const config =
          inLibrary ?? configFromCommandLine(ref, undefined, values.cwd, Object.fromEntries((values.option ?? []).map(parseEngineOption)));
        const t0 = performance.now();
        const { handshake: h, stderr } = await handshake(tested(specFromConfig(config)));
        const ms = performance.now() - t0;
        say(
          `${config.name}: answered as '${h.idName}'${h.idAuthor ? ` by ${h.idAuthor}` : ""} in ${(ms / 1000).toFixed(1)} s, ${h.options.length} options`,
        );
        for (const o of h.options) say(`  option ${o.name} (${o.type})`);
        if (values.json) printJson({ ok: true, name: config.name, idName: h.idName, idAuthor: h.idAuthor, options: h.options, ms, stderr });
        return 0;
      }
      case undefined:
        throw new UsageError("give a subcommand: list, add, remove or test");
      default:
        throw new UsageError(`unknown subcommand '${sub}'`);
    }
  },
};
