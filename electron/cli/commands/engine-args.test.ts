import { describe, expect, it } from "vitest";
import { parseArgs } from "node:util";
import { UsageError } from "../command.js";
import { commandLineEngines, engineArgOptions, processesOf, readEngineArgs } from "./engine-args.js";

const parse = (args: string[]) => parseArgs({ args, options: { ...engineArgOptions } }).values;

describe("the engine options dig and book quality share", () => {
  it("reads --option as typed settings and --engines as a count; nothing given is nothing set", () => {
    expect(readEngineArgs(parse(["--option", "Threads=2", "--option", "USI_Ponder=false", "--engines", "3"]))).toEqual({
      options: { Threads: 2, USI_Ponder: false },
      copies: 3,
    });
    expect(readEngineArgs(parse([]))).toEqual({ options: {}, copies: undefined });
  });

  it("refuses a count below one and an option without a value", () => {
    expect(() => readEngineArgs(parse(["--engines", "0"]))).toThrow(UsageError);
    expect(() => readEngineArgs(parse(["--engines", "0"]))).toThrow("--engines must be a whole number >= 1, not '0'");
    expect(() => readEngineArgs(parse(["--option", "Threads"]))).toThrow("engine option 'Threads' is not NAME=VALUE");
  });

  it("makes --engine's command lines engines with the options, and numbers the processes of each", () => {
    const values = parse(["--engine", "builtin", "--option", "USI_Hash=16"]);
    const specs = commandLineEngines(values, readEngineArgs(values));
    expect(specs).toHaveLength(1);
    expect(specs[0]!.options).toMatchObject({ USI_Hash: 16 });
    expect(commandLineEngines(parse([]), readEngineArgs(parse([])))).toEqual([]);
    expect(processesOf(specs, 1).map((s) => s.name)).toEqual([specs[0]!.name]);
    expect(processesOf(specs, 2).map((s) => s.name)).toEqual([`${specs[0]!.name}#1`, `${specs[0]!.name}#2`]);
  });
});
