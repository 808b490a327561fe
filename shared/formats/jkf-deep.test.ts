// Issue 42: a crafted JKF nested 100,000 deep (arrays, objects, forks of forks) is a clear
// per-file error, not "Maximum call stack size exceeded"; the records beside it still read.
import { describe, expect, it } from "vitest";
import { parseRecordFile } from "./kifu.js";

const DEPTH = 100_000;
const GOOD = '{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}';

describe("deeply nested JKF", () => {
  it.each([
    ["arrays", '{"header":{},"moves":' + "[".repeat(DEPTH) + "]".repeat(DEPTH) + "}"],
    ["objects", '{"header":' + '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH) + "}"],
    ["forks", '{"header":{},"moves":[{},{"forks":[' + '[{"forks":['.repeat(DEPTH) + "]}]".repeat(DEPTH) + "]}]}"],
    ["inside a list of games", `[${GOOD},{"moves":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}]`],
  ])("%s: one error naming the nesting, no stack overflow", (name, text) => {
    const r = parseRecordFile(Buffer.from(text), "deep.jkf", {});
    const messages = r.errors.map((e) => e.message);
    expect(messages.join("\n")).not.toMatch(/call stack/i);
    expect(messages).toContainEqual(expect.stringMatching(/JKF: nested deeper than \d+ levels/));
    if (name === "inside a list of games") expect(r.games).toHaveLength(1);
    else expect(r.games).toHaveLength(0);
  });

  it("a JKF of usual depth (a game with forks) still reads", () => {
    const r = parseRecordFile(Buffer.from(GOOD), "ok.jkf", {});
    expect(r.errors).toEqual([]);
    expect(r.games).toHaveLength(1);
  });
});
