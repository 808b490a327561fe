import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError, joinNegativeValues, wholeNumber } from "./command.js";
import { HORU, tempDir } from "../testing/paths.js";

describe("command-line values", () => {
  it("takes whole numbers written out in digits only", () => {
    expect(wholeNumber("nodes", "20000", 1)).toBe(20000);
    expect(wholeNumber("eval-limit", "+300", 0)).toBe(300);
    for (const raw of ["0x10", "1e3", " 7", "7.0", "", "12abc"]) expect(() => wholeNumber("positions", raw, 1)).toThrow(UsageError);
    expect(() => wholeNumber("positions", "0", 1)).toThrow(/--positions must be a whole number >= 1, not '0'/);
  });

  it("passes a negative value on with its option (parseArgs took it for an option)", () => {
    expect(joinNegativeValues(["--draw-white", "-50", "--json", "--nodes", "7", "-x"])).toEqual([
      "--draw-white=-50",
      "--json",
      "--nodes",
      "7",
      "-x",
    ]);
    expect(joinNegativeValues(["--draw-black=-3", "--eval-limit", "-1.5"])).toEqual(["--draw-black=-3", "--eval-limit=-1.5"]);
  });

  it("horu peta takes --draw-black -50 through the command line", () => {
    const dir = tempDir();
    const input = path.join(dir, "in.db");
    writeFileSync(input, ["#YANEURAOU-DB2016 1.00", "sfen 4k4/9/9/9/9/9/P8/9/4K4 b - 1", "5i5h none 0", "9g9f none -100", ""].join("\n"));
    const out = path.join(dir, "out.db");
    const r = spawnSync(process.execPath, [HORU, "peta", input, out, "--draw-black", "-50", "--draw-white", "30"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("sfen 4k4/9/9/9/9/9/P8/9/4K4 b - 1");
  });
});
