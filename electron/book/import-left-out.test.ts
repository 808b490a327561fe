// A .db with damaged lines (issue 42 item 7): `horu import` and the GUI/web import store the
// rest and list each left-out line as file:line: why, as YaneuraOu and ShogiHome read such a
// book; `--strict` (the import dialog's checkbox: `strict` in book.import) refuses the whole
// file naming its first damaged line. Either way nothing the book held is lost.
import { afterEach, describe, expect, it } from "vitest";
import { rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { HostService } from "../host/service.js";
import { HORU, tempDir } from "../testing/paths.js";
import { bookRows } from "../testing/intact.js";
import { writeTranspositionBook } from "../testing/transposition-book.js";
import { OpenBook } from "./open-book.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const AFTER_76 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
/** Lines 3 and 9 are good; 5 (malformed), 6 (no position, with its move on 7) and 10 (illegal) are damaged. */
const DAMAGED = [
  "#YANEURAOU-DB2016 1.00",
  `sfen ${START}`,
  "1g1f none 33 5 2",
  "",
  "7g7f none 1O 5 1",
  "sfen 9/9/9 b - 1",
  "2g2f",
  `sfen ${AFTER_76}`,
  "3c3d none 12 5 1",
  "3c3e none 11 5 1",
].join("\n");
const LEFT_OUT = (f: string) => [
  `${f}:5: value is not an integer: '1O'; the line left out`,
  `${f}:6: board field must have 9 ranks separated by '/', got 3; the position and its moves left out`,
  `${f}:10: move 3c3e is illegal in ${AFTER_76.replace(/ 2$/, "")}: that piece cannot move so (or the move would leave the king in check, or is an illegal pawn drop); the line left out`,
];

function setup(): { dir: string; file: string; bad: string } {
  const dir = tempDir();
  dirs.push(dir);
  const file = path.join(dir, "t.horu");
  writeTranspositionBook(file);
  const bad = path.join(dir, "damaged.db");
  writeFileSync(bad, DAMAGED + "\n");
  return { dir, file, bad };
}

/** The moves the book holds at `sfen` (null: not a thought position), and the book's position count. */
function movesAt(file: string, sfen: string): { moves: string[] | null; count: number } {
  const book = OpenBook.open(file, {}, { readonly: true });
  try {
    const t = book.store.thoughts.get(sfen.replace(/ \d+$/, ""));
    return { moves: t ? t.candidates.map((c) => c.move).sort() : null, count: book.store.thoughts.count() };
  } finally {
    book.close();
  }
}

describe("a .db with damaged lines", () => {
  it("horu import: the rest imported, each left-out line on stdout as file:line: why; --strict refuses it whole naming the first", () => {
    const { file, bad } = setup();
    const run = (...args: string[]) => spawnSync(process.execPath, [HORU, "import", "--book", file, ...args], { encoding: "utf8" });
    const before = movesAt(file, START);
    expect(before.moves).not.toBeNull();
    // Opened by horu import once (nothing to undo), so the book's last writer is already horu import.
    expect(run("--undo").stdout).toBe(`${file}: no import to undo\n`);
    const rows = bookRows(file);

    const strict = run(bad, "--strict");
    expect(strict.stderr).toBe(
      `horu import: ${bad}: refused, nothing imported: a damaged line:\n  ${bad}:5: value is not an integer: '1O'\n`,
    );
    expect(strict.status).toBe(1);
    expect(bookRows(file)).toBe(rows);

    const r = run(bad);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /positions, 2 moves imported .*; 3 problem\(s\), 3 damaged line\(s\) left out \(--strict refuses such a file\)\n/,
    );
    for (const line of LEFT_OUT(bad)) expect(r.stdout).toContain(`  ${line}\n`);
    // The start position kept its own moves and gained 1g1f; the position after 7g7f has 3c3d only.
    const after = movesAt(file, START);
    expect(after.moves).toEqual([...new Set([...before.moves!, "1g1f"])].sort());
    expect(movesAt(file, AFTER_76).moves).toContain("3c3d");
    expect(movesAt(file, AFTER_76).moves).not.toContain("3c3e");
  });

  it("the GUI/web import: the report lists the left-out lines by the file's name; strict: importRefused naming the first, the book as it was", async () => {
    const { dir, file, bad } = setup();
    const service = new HostService({ configDir: path.join(dir, "config") });
    await service.call("book.open", { path: file });
    try {
      const rows = bookRows(file);
      const err = (await service.call("book.import", { paths: [bad], strict: true }).catch((e: unknown) => e)) as Error & {
        code?: string;
        key?: string;
      };
      expect(err.code).toBe("user");
      expect(err.key).toBe("importRefused");
      expect(err.message).toBe("damaged.db: refused, nothing imported: a damaged line:\n  damaged.db:5: value is not an integer: '1O'");
      expect(bookRows(file)).toBe(rows);
      expect((await service.call("book.info", {}))!.imports).toEqual([]);

      const [report] = await service.call("book.import", { paths: [bad] });
      expect(report).toMatchObject({ file: "damaged.db", moves: 2, errorCount: 3, leftOut: 3 });
      expect(report.errors).toEqual(LEFT_OUT(bad).map((l) => l.split(bad).join("damaged.db")));
      expect((await service.call("book.info", {}))!.imports.map((i) => i.file)).toEqual(["damaged.db"]);
    } finally {
      await service.closeBook();
    }
  });
});

describe("a .db position without moves", () => {
  it("is left out and said so, not stored as a thought dead end the dig would never think", () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = path.join(dir, "o.horu");
    OpenBook.create(file).close();
    // The start position listed with no move line (a file cut after its sfen line), the one after 7g7f with one.
    const db = path.join(dir, "orphan.db");
    writeFileSync(db, ["#YANEURAOU-DB2016 1.00", `sfen ${START}`, `sfen ${AFTER_76}`, "3c3d none 12 5 1", ""].join("\n"));
    const r = spawnSync(process.execPath, [HORU, "import", "--book", file, db], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: 1 positions, 1 moves imported/);
    expect(r.stdout).toContain(`${db}:2: a position without moves; left out (a dig thinks it)`);
    expect(movesAt(file, START)).toEqual({ moves: null, count: 1 });
    expect(movesAt(file, AFTER_76).moves).toEqual(["3c3d"]);
  });
});
