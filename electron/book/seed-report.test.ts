// The command line's seed report, per file.
import { describe, expect, it } from "vitest";
import { seedReportLines } from "./seed.js";

const file = { file: "pic.png", encoding: "shift_jis" as const, records: 0, positions: 0, filtered: 0, perRecord: [], added: 0 };

describe("a file's seed report line", () => {
  it("names no encoding for a file read as no record (binary data said 'unknown (shift_jis)')", () => {
    const [line] = seedReportLines({
      ...file,
      format: "unknown",
      errors: [{ file: "pic.png", message: "not a game record: binary data" }],
    });
    expect(line).toBe("pic.png: format unknown, 0 record(s), 0 position(s) seeded; 1 error(s): not a game record: binary data");
    const [kif] = seedReportLines({ ...file, file: "a.kif", format: "kif", errors: [] });
    expect(kif).toBe("a.kif: kif (shift_jis), 0 record(s), 0 position(s) seeded");
  });
});
