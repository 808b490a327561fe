import { describe, expect, it } from "vitest";
import { parseStoredThinkLimit } from "./settings.js";

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
