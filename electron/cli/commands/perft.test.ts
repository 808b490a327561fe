import { afterEach, describe, expect, test, vi } from "vitest";
import { perftCommand } from "./perft.js";
import { UsageError } from "../command.js";

function capture(): { lines: () => string[] } {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return { lines: () => out.trimEnd().split("\n") };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("horu perft", () => {
  test("startpos total on the last line", async () => {
    const out = capture();
    expect(await perftCommand.run(["startpos", "3"])).toBe(0);
    expect(out.lines()).toEqual(["25470"]);
  });
  test("SFEN split over several args, with --divide", async () => {
    const out = capture();
    const args = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".split(" ");
    expect(await perftCommand.run([...args, "2", "--divide"])).toBe(0);
    const lines = out.lines();
    expect(lines.length).toBe(31);
    expect(lines).toContain("7g7f: 30");
    expect(lines[30]).toBe("900");
  });
  test("moves after startpos", async () => {
    const out = capture();
    expect(await perftCommand.run(["startpos", "moves", "7g7f", "3c3d", "1"])).toBe(0);
    expect(out.lines()).toEqual(["39"]); // fairy-stockfish agrees
  });
  test("bad input is a usage error", async () => {
    await expect(perftCommand.run(["startpos"])).rejects.toThrow(UsageError);
    await expect(perftCommand.run(["startpos", "x"])).rejects.toThrow(/depth/);
    await expect(perftCommand.run(["9/9 b - 1", "2"])).rejects.toThrow(/bad position/);
    await expect(perftCommand.run(["startpos", "2", "--fast"])).rejects.toThrow(/unknown option/);
  });
});
