import { describe, expect, it } from "vitest";
import { parseIdLine, parseOptionLine, setOptionCommand } from "./option.js";

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
