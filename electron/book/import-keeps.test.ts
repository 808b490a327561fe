// An import never overwrites what an engine thought. A .db whose only line
// is the start position with one move used to replace the root's engine candidates with
// `7g7f 0 0 1`; now the imported moves join the engine's, and the import can be undone.
import { afterEach, describe, expect, it } from "vitest";
import { rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { HostService } from "../host/service.js";
import { OpenBook } from "./open-book.js";
import { HORU, tempDir } from "../testing/paths.js";
import { positionAfter, writeTranspositionBook } from "../testing/transposition-book.js";
import { Position } from "../../shared/rules/position.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ROOT = Position.startpos().sfenKey();

function stored(file: string, sfen: string) {
  const b = OpenBook.open(file, {}, { readonly: true });
  try {
    return b.store.thoughts.get(sfen);
  } finally {
    b.close();
  }
}

function db(dir: string, name: string, blocks: Array<[string, string[]]>): string {
  const file = path.join(dir, name);
  writeFileSync(file, ["#YANEURAOU-DB2016 1.00", ...blocks.flatMap(([sfen, moves]) => [`sfen ${sfen} 1`, ...moves]), ""].join("\n"));
  return file;
}

describe("an import keeps every thought position's engine results", () => {
  it("the start position with one move does not replace the root's candidates; a new move joins them; undo takes it back", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = path.join(dir, "t.horu");
    writeTranspositionBook(file);
    const before = stored(file, ROOT)!;
    expect(before.candidates.length).toBeGreaterThan(1);
    expect(before.provenance.kind).toBe("engine");

    const service = new HostService({ configDir: path.join(dir, "config") });
    await service.call("book.open", { path: file });
    try {
      // The file: the root with one move the engine listed, at value 0.
      const listed = before.candidates[0]!.move;
      const [same] = await service.call("book.import", { paths: [db(dir, "same.db", [[ROOT, [`${listed} none 0 0 1`]]])] });
      expect(same).toMatchObject({ positions: 1, added: 0, joined: 0 });
      expect(stored(file, ROOT)).toEqual(before);

      // A move the engine did not list joins at the end with the import's value; a new position is added.
      const child = positionAfter(["1g1f"]).sfenKey();
      const [other] = await service.call("book.import", {
        paths: [
          db(dir, "other.db", [
            [ROOT, [`${listed} none 0 0 1`, "1g1f none 33 5 2"]],
            [child, ["9c9d none -10 5 1"]],
          ]),
        ],
      });
      expect(other).toMatchObject({ positions: 2, added: 1, joined: 1 });
      const joined = stored(file, ROOT)!;
      expect(joined.provenance).toEqual(before.provenance);
      expect(joined.thoughtAt).toBe(before.thoughtAt);
      expect(joined.candidates.slice(0, before.candidates.length)).toEqual(before.candidates);
      expect(joined.candidates.at(-1)).toMatchObject({ move: "1g1f", value: 33 });
      expect(stored(file, child)?.provenance).toEqual({ kind: "import", file: "other.db" });
      const info = (await service.call("book.info", {}))!;
      expect(info.imports.map((i) => i.file)).toEqual(["other.db", "same.db"]);

      // Undo: the root's moves as the engine left them, the added position gone.
      const undone = await service.call("book.undoImport", {});
      expect(undone).toMatchObject({ file: "other.db", removed: 1, restored: 1, kept: 0 });
      expect(stored(file, ROOT)).toEqual(before);
      expect(stored(file, child)).toBeUndefined();
      expect((await service.call("book.info", {}))!.positions).toBe(info.positions - 1);
    } finally {
      await service.closeBook();
    }
  });

  it("undo leaves a position thought again since the import; horu import --undo, and exits 1 when a file yields nothing", () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = path.join(dir, "t.horu");
    writeTranspositionBook(file);
    const child = positionAfter(["1g1f"]).sfenKey();
    const src = db(dir, "a.db", [[child, ["9c9d none -10 5 1"]]]);
    const run = (...args: string[]) => spawnSync(process.execPath, [HORU, "import", "--book", file, ...args], { encoding: "utf8" });
    const first = run(src);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/1 new, 0 thought positions joined/);
    // The engine thinks the imported position again: undo keeps its result.
    const b = OpenBook.open(file);
    const pos = Position.fromSfen(child);
    b.store.thoughts.add({
      sfen: child,
      keyHi: pos.keyHi,
      keyLo: pos.keyLo,
      thoughtAt: Date.now() + 1,
      provenance: { kind: "engine", engine: "e", nodes: 1, depth: 1, timeMs: 1 },
      candidates: [{ move: "3c3d", value: 5, depth: 1, pv: ["3c3d"] }],
    });
    b.close();
    const undo = run("--undo");
    expect(undo.status, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(
      "undid the import of a.db: 0 position(s) removed, 0 given their moves as they were, 1 thought again since and kept",
    );
    expect(stored(file, child)?.candidates.map((c) => c.move)).toEqual(["3c3d"]);
    expect(run("--undo").status).toBe(1);

    // Files that yield nothing: random bytes as .db and .bin, a text file as a record.
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    for (const name of ["junk.db", "junk.bin", "notes.txt"]) {
      const p = path.join(dir, name);
      writeFileSync(p, name === "notes.txt" ? "shopping list\nmilk\neggs\n" : junk);
      const r = run(p);
      expect(r.status, `${name}: ${r.stdout}${r.stderr}`).not.toBe(0);
      expect(r.stdout + r.stderr).toContain(name);
    }
  });
});
