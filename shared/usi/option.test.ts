import { describe, expect, it } from "vitest";
import {
  optionTakes,
  optionValueOk,
  optionValueProblem,
  parseIdLine,
  parseOptionLine,
  setOptionCommand,
  type UsiOption,
} from "./option.js";

describe("parseOptionLine", () => {
  it("reads fairy-stockfish options", () => {
    expect(parseOptionLine("option name Threads type spin default 1 min 1 max 512")).toEqual({
      name: "Threads",
      type: "spin",
      default: 1,
      min: 1,
      max: 512,
    });
    expect(parseOptionLine("option name Contempt type spin default 24 min -100 max 100")).toEqual({
      name: "Contempt",
      type: "spin",
      default: 24,
      min: -100,
      max: 100,
    });
    expect(parseOptionLine("option name Clear Hash type button")).toEqual({ name: "Clear Hash", type: "button" });
    expect(parseOptionLine("option name Ponder type check default false")).toEqual({ name: "Ponder", type: "check", default: false });
    expect(parseOptionLine("option name Syzygy50MoveRule type check default true")).toEqual({
      name: "Syzygy50MoveRule",
      type: "check",
      default: true,
    });
    expect(parseOptionLine("option name Analysis Contempt type combo default Both var Both var Off var White var Black")).toEqual({
      name: "Analysis Contempt",
      type: "combo",
      default: "Both",
      vars: ["Both", "Off", "White", "Black"],
    });
    expect(parseOptionLine("option name Debug Log File type string default ")).toEqual({
      name: "Debug Log File",
      type: "string",
      default: "",
    });
    expect(parseOptionLine("option name SyzygyPath type string default <empty>")).toEqual({
      name: "SyzygyPath",
      type: "string",
      default: "",
    });
  });

  it("reads gpsusi options", () => {
    expect(parseOptionLine("option name BookDepth type spin default 30 min 0 max 100")).toEqual({
      name: "BookDepth",
      type: "spin",
      default: 30,
      min: 0,
      max: 100,
    });
    expect(parseOptionLine("option name CSAFile type string default <empty>")).toEqual({ name: "CSAFile", type: "string", default: "" });
  });

  it("reads other shapes", () => {
    expect(parseOptionLine("option name BookFile type filename default user book1.db")).toEqual({
      name: "BookFile",
      type: "filename",
      default: "user book1.db",
    });
    expect(parseOptionLine("option name Book type Name type string default a var b")).toEqual({
      name: "Book type Name",
      type: "string",
      default: "a var b",
    });
    expect(parseOptionLine("option name Style type combo default Normal Play var Normal Play var Aggressive")).toEqual({
      name: "Style",
      type: "combo",
      default: "Normal Play",
      vars: ["Normal Play", "Aggressive"],
    });
    expect(parseOptionLine("option name X type spin default abc min 5 max 9")).toEqual({
      name: "X",
      type: "spin",
      default: 5,
      min: 5,
      max: 9,
    });
    expect(parseOptionLine("option name Y type combo var a var b")).toEqual({ name: "Y", type: "combo", default: "a", vars: ["a", "b"] });
  });

  it("returns null on nonsense and never throws", () => {
    for (const s of [
      "",
      "option",
      "option name",
      "option name X",
      "option name type spin",
      "option name X type weird default 1",
      "id name X",
      "optionname X type spin",
    ]) {
      expect(() => parseOptionLine(s)).not.toThrow();
      expect(parseOptionLine(s)).toBeNull();
    }
  });
});

describe("parseIdLine / setOptionCommand", () => {
  it("reads ids", () => {
    expect(parseIdLine("id name Fairy-Stockfish 11.1 LB 64")).toEqual({ kind: "name", value: "Fairy-Stockfish 11.1 LB 64" });
    expect(parseIdLine("id name gpsshogi (smp) vm r3033 wordsize 64 gcc 12.2.0")).toEqual({
      kind: "name",
      value: "gpsshogi (smp) vm r3033 wordsize 64 gcc 12.2.0",
    });
    expect(parseIdLine("id author teamgps")).toEqual({ kind: "author", value: "teamgps" });
    expect(parseIdLine("id author")).toEqual({ kind: "author", value: "" });
    expect(parseIdLine("id foo bar")).toBeNull();
    expect(parseIdLine("identity")).toBeNull();
  });
  it("formats setoption", () => {
    expect(setOptionCommand("USI_Hash", 256)).toBe("setoption name USI_Hash value 256");
    expect(setOptionCommand("USI_OwnBook", false)).toBe("setoption name USI_OwnBook value false");
    expect(setOptionCommand("Clear Hash")).toBe("setoption name Clear Hash");
  });
});

describe("an option value the engine takes (the page's and the command line's one rule)", () => {
  const hash = { name: "Hash", type: "spin", default: 16, min: 1, max: 131072 } as const;
  const contempt: UsiOption = { name: "Analysis Contempt", type: "combo", default: "Both", vars: ["Both", "Off", "White", "Black"] };

  it("a spin's whole number within its range; a check's true or false; a combo's values in any case; text as it is", () => {
    expect([undefined, 1, 131072, "64"].map((v) => optionValueOk(hash, v))).toEqual([true, true, true, true]);
    expect([0, -5, 999999, 1.5, "x", "", true].map((v) => optionValueOk(hash, v))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    const check = { name: "Ponder", type: "check", default: false } as const;
    expect([true, false, "true", "false"].every((v) => optionValueOk(check, v))).toBe(true);
    expect([3, "yes"].some((v) => optionValueOk(check, v))).toBe(false);
    expect(["Off", "off", "BLACK"].every((v) => optionValueOk(contempt, v))).toBe(true);
    expect(optionValueOk(contempt, "Sideways")).toBe(false);
    expect(optionValueOk({ name: "EvalDir", type: "string", default: "eval" }, "any dir")).toBe(true);
    expect(optionValueOk({ name: "Clear Hash", type: "button" }, true)).toBe(true);
  });

  it("a refusal names the engine, the option (and the name it was set under), the value and what it takes", () => {
    expect(optionValueProblem("fairy", hash, 64)).toBeNull();
    expect(optionValueProblem("fairy", hash, 999999, "USI_Hash")).toBe(
      "engine fairy: option USI_Hash (the engine's Hash) cannot be 999999: it takes a whole number from 1 to 131072",
    );
    expect(optionValueProblem("fairy", contempt, "Sideways")).toBe(
      'engine fairy: option Analysis Contempt cannot be "Sideways": it takes one of Both, Off, White, Black',
    );
    expect(optionTakes({ name: "N", type: "spin", default: 0, min: 0 })).toBe("a whole number of at least 0");
    const many: UsiOption = { name: "UCI_Variant", type: "combo", default: "v0", vars: Array.from({ length: 20 }, (_, i) => `v${i}`) };
    expect(optionTakes(many)).toBe("one of v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, ... (20 values)");
  });
});
