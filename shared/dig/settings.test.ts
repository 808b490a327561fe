import { describe, expect, it } from "vitest";
import { DEFAULT_DIG_SETTINGS, parseStoredThinkLimit, settingsFrom } from "./settings.js";

describe("a book's settings", () => {
  it("are deep best with settling for a new book", () => {
    expect(DEFAULT_DIG_SETTINGS.multipv).toBe("deep-best");
    expect(DEFAULT_DIG_SETTINGS.settleFactor).toBe(8);
  });

  it("keep what a book made before those defaults had: no settling, auto, when the file lacks the keys", () => {
    const { settings, problems } = settingsFrom({ limit: { nodes: 20000 }, policy: "tera-shock" });
    expect(settings.settleFactor).toBe(0);
    expect(settings.multipv).toBe("auto");
    expect(settings.limit).toEqual({ nodes: 20000 });
    expect(problems).toEqual([]);
    // Stored values win; a bad one falls back to the older default, said.
    expect(settingsFrom({ settleFactor: 8, multipv: "deep-best" }).settings).toMatchObject({ settleFactor: 8, multipv: "deep-best" });
    const bad = settingsFrom({ settleFactor: -3 });
    expect(bad.settings.settleFactor).toBe(0);
    expect(bad.problems[0]).toMatch(/^setting settleFactor: .*using the default/);
  });
});

describe("a stored think limit", () => {
  it("reads back the JSON the think queue keeps", () => {
    expect(parseStoredThinkLimit('{"nodes":400000}', "startpos")).toEqual({ nodes: 400000 });
    expect(parseStoredThinkLimit('{"depth":12}', "startpos")).toEqual({ depth: 12 });
    expect(parseStoredThinkLimit('{"movetimeMs":500}', "startpos")).toEqual({ movetimeMs: 500 });
  });

  it("says what is wrong with a bad one, and where", () => {
    for (const bad of ["nodes 400000", '{"nodes":-1}', '{"nodes":1,"depth":2}', "null", ""])
      expect(() => parseStoredThinkLimit(bad, "startpos moves 7g7f")).toThrow(/^startpos moves 7g7f: the stored think limit .* is not/);
  });
});
