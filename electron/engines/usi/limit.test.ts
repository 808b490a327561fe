import { describe, expect, it } from "vitest";
import { scaleLimit, searchLimitOf, searchTimeoutMs } from "./limit.js";
import { goCommand } from "./protocol.js";

const t = { thinkMs: 300_000, graceMs: 10_000 };

describe("a search limit", () => {
  it("becomes the go text the engine gets", () => {
    expect(goCommand({ kind: "nodes", nodes: 1000.7 })).toBe("go nodes 1000");
    expect(goCommand({ kind: "depth", depth: 8 })).toBe("go depth 8");
    expect(goCommand({ kind: "movetime", ms: 500 })).toBe("go btime 0 wtime 0 byoyomi 500");
    expect(goCommand({ kind: "clock", btime: 6000, wtime: 5000, byoyomi: 1000 })).toBe("go btime 6000 wtime 5000 byoyomi 1000");
    expect(goCommand({ kind: "clock", btime: 6000, wtime: 5000, byoyomi: 0, binc: 100, winc: 100 })).toBe(
      "go btime 6000 wtime 5000 binc 100 winc 100",
    );
    for (const n of [0, -1, NaN, Infinity]) expect(goCommand({ kind: "nodes", nodes: n })).toBeNull();
  });

  it("gives the timeout from the typed value", () => {
    expect(searchTimeoutMs({ kind: "nodes", nodes: 1 }, t)).toBe(300_000);
    expect(searchTimeoutMs({ kind: "depth", depth: 3 }, t)).toBe(300_000);
    expect(searchTimeoutMs({ kind: "movetime", ms: 500 }, t)).toBe(10_500);
    expect(searchTimeoutMs({ kind: "clock", btime: 6000, wtime: 5000, byoyomi: 1000 }, t)).toBe(17_000);
    expect(searchTimeoutMs({ kind: "clock", btime: 6000, wtime: 5000, byoyomi: 1000, binc: 100, winc: 200 }, t)).toBe(16_300);
  });

  it("is scaled for a widening search and read from a book's stored limit", () => {
    expect(scaleLimit({ kind: "nodes", nodes: 10_000 }, 0.1)).toEqual({ kind: "nodes", nodes: 1000 });
    expect(scaleLimit({ kind: "depth", depth: 2 }, 0.1)).toEqual({ kind: "depth", depth: 1 });
    expect(scaleLimit({ kind: "movetime", ms: 50 }, 0.001)).toEqual({ kind: "movetime", ms: 1 });
    expect(searchLimitOf({ nodes: 5 })).toEqual({ kind: "nodes", nodes: 5 });
    expect(searchLimitOf({ depth: 5 })).toEqual({ kind: "depth", depth: 5 });
    expect(searchLimitOf({ movetimeMs: 5 })).toEqual({ kind: "movetime", ms: 5 });
  });
});
