// The Book view shows what the imported formats carry. A move whose file gave no
// value or depth (DB2016 `none`, a .sbk move without an evaluation, .bin's missing depth) is
// sent as unknown (valueNone/depthNone, engineValue null), never as the 0 stored for the
// graph; ShogiGUI's marks kept from a .sbk are sent with each move.
import { afterEach, describe, expect, it } from "vitest";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HostService } from "./service.js";
import { OpenBook } from "../book/open-book.js";
import { tempDir } from "../testing/paths.js";
import { shogiguiBook } from "../../shared/testing/shogigui-sbk.js";
import { Position } from "../../shared/rules/position.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("book.node and book.graph for imported books", () => {
  it("unknown values and depths stay unknown, and .sbk marks reach the move table", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = path.join(dir, "b.horu");
    OpenBook.create(file).close();
    const sbk = path.join(dir, "shogigui.sbk");
    writeFileSync(sbk, shogiguiBook());
    const db = path.join(dir, "none.db");
    // The start position (in the .sbk too: these moves join it) and one position of its own.
    writeFileSync(
      db,
      [
        "#YANEURAOU-DB2016 1.00",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "9g9f none none none 2",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL w - 2",
        "9c9d none none 12 1",
        "1c1d none 0 none 1",
        "",
      ].join("\n"),
    );
    const service = new HostService({ configDir: path.join(dir, "config") });
    await service.call("book.open", { path: file });
    try {
      await service.call("book.import", { paths: [sbk, db] });
      const root = await service.call("book.node", { line: [] });
      const row = (usi: string) => {
        const m = root.moves.find((x) => x.usi === usi);
        expect(m, usi).toBeDefined();
        return { value: m!.engineValue, valueNone: m!.valueNone, depth: m!.engineDepth, depthNone: m!.depthNone, mark: m!.mark };
      };
      expect(row("7g7f")).toEqual({ value: 25, valueNone: false, depth: 27, depthNone: false, mark: "good" });
      expect(row("5g5f")).toEqual({ value: -43, valueNone: false, depth: 25, depthNone: false, mark: "bad" });
      expect(row("2g2f")).toEqual({ value: 18, valueNone: false, depth: 27, depthNone: false, mark: null });
      // No evaluation in the .sbk: unknown value and depth, not 0.
      expect(row("1g1f")).toEqual({ value: null, valueNone: true, depth: null, depthNone: true, mark: "blunder" });
      // DB2016 `none none none`, joined to the .sbk's position.
      expect(row("9g9f")).toEqual({ value: null, valueNone: true, depth: null, depthNone: true, mark: null });
      const after = await service.call("book.node", { line: ["9g9f"] });
      const m = (usi: string) => after.moves.find((x) => x.usi === usi)!;
      expect([m("9c9d").engineValue, m("9c9d").valueNone, m("9c9d").engineDepth, m("9c9d").depthNone]).toEqual([null, true, 12, false]);
      // A real 0 from the file is a value.
      expect([m("1c1d").engineValue, m("1c1d").valueNone, m("1c1d").engineDepth, m("1c1d").depthNone]).toEqual([0, false, null, true]);
      // The tree's edges say the same: unknown is null, not 0.
      const [graph] = await service.call("book.graph", { sfens: [Position.startpos().sfenKey()] });
      const edge = (usi: string) => graph!.children.find((c) => c.usi === usi)?.engineValue;
      expect([edge("7g7f"), edge("1g1f"), edge("9g9f")]).toEqual([25, null, null]);
    } finally {
      await service.closeBook();
    }
  });
});
