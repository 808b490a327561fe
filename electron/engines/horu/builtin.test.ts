// horu's engine as the built-in engine "horu (built in)": started through the engine
// library's built-in mechanism (its runner in dist/engines), it answers USI and searches.
import { describe, expect, it } from "vitest";
import { builtinEngine } from "../builtin.js";
import { specFromConfig } from "../choose.js";
import { UsiEngine as UsiProcess } from "../usi/engine.js";

describe("horu (built in)", () => {
  it("is listed, starts from its runner, and thinks with MultiPV", { timeout: 60_000 }, async () => {
    const b = builtinEngine("builtin:horu")!;
    expect(b.name).toBe("horu (built in)");
    const spec = specFromConfig({ name: "", command: "builtin:horu", args: [], cwd: null, options: {}, enabled: true });
    expect(spec.args?.[0]).toMatch(/dist[\\/]engines[\\/]horu\.cjs$/);
    const engine = new UsiProcess(spec);
    try {
      const hs = await engine.start();
      expect(hs.idName).toMatch(/^horu/);
      expect(hs.options.some((o) => o.name === "Hybrid")).toBe(true);
      const r = await engine.think(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        { kind: "depth", depth: 2 },
        { fixed: 2 },
      );
      expect(r.candidates.length).toBe(2);
      expect(r.engine).toMatch(/^horu/);
    } finally {
      await engine.quit();
    }
  });
});
