// A damaged DB2016 file is refused whole by `horu import` and by the GUI/web import
// (electron/host/imports.ts): the error names the file and each damaged line, and the book
// keeps every row as it was (a malformed line used to be skipped and the rest stored).
import { afterEach, describe, expect, it } from "vitest";
import { rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { HostService } from "../host/service.js";
import { HORU, tempDir } from "../testing/paths.js";
import { bookRows } from "../testing/intact.js";
import { writeTranspositionBook } from "../testing/transposition-book.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/** Line 3 is good (and a move the book does not list); 5 and 7 are damaged. */
const DAMAGED = ["#YANEURAOU-DB2016 1.00", `sfen ${START}`, "1g1f none 33 5 2", "", "7g7f none 1O 5 1", "sfen 9/9/9 b - 1", "2g2f"].join(
  "\n",
);

function setup(): { dir: string; file: string; bad: string; good: string } {
  const dir = tempDir();
  dirs.push(dir);
  const file = path.join(dir, "t.horu");
  writeTranspositionBook(file);
  const bad = path.join(dir, "damaged.db");
  writeFileSync(bad, DAMAGED + "\n");
  const good = path.join(dir, "good.db");
  writeFileSync(good, `#YANEURAOU-DB2016 1.00\nsfen ${START}\n9g9f none 1 1 1\n`);
  return { dir, file, bad, good };
}

describe("a damaged .db is refused and stores nothing", () => {
  it("horu import: exit 1, the file and each damaged line on stderr, every row of the book as it was", () => {
    const { file, bad, good } = setup();
    const run = (...args: string[]) => spawnSync(process.execPath, [HORU, "import", "--book", file, ...args], { encoding: "utf8" });
    // A good import first, so the book's last writer is already horu import.
    expect(run(good).status).toBe(0);
    const before = bookRows(file);
    const r = run(bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `horu import: ${bad}: refused, nothing imported: 2 damaged lines:\n` +
        `  ${bad}:5: value is not an integer: '1O'\n` +
        `  ${bad}:6: board field must have 9 ranks separated by '/', got 3\n`,
    );
    expect(r.stdout).toBe("");
    expect(bookRows(file)).toBe(before);
  });

  it("the GUI/web import: a user error keyed importRefused naming the file by its name and the lines; the book as it was", async () => {
    const { dir, file, bad, good } = setup();
    const service = new HostService({ configDir: path.join(dir, "config") });
    await service.call("book.open", { path: file });
    try {
      const before = bookRows(file);
      const err = (await service.call("book.import", { paths: [bad] }).catch((e: unknown) => e)) as Error & {
        code?: string;
        key?: string;
        params?: Record<string, string>;
      };
      expect(err.code).toBe("user");
      expect(err.key).toBe("importRefused");
      const detail =
        "damaged.db: refused, nothing imported: 2 damaged lines:\n  damaged.db:5: value is not an integer: '1O'\n  damaged.db:6: board field must have 9 ranks separated by '/', got 3";
      expect(err.message).toBe(detail);
      expect(err.params).toEqual({ detail });
      expect(bookRows(file)).toBe(before);
      expect((await service.call("book.info", {}))!.imports).toEqual([]);
      // A good file before it is imported (its own import) and the error says so; the damaged one adds nothing.
      const again = (await service.call("book.import", { paths: [good, bad] }).catch((e: unknown) => e)) as Error;
      expect(again.message).toBe(`${detail}\n(imported before it: good.db)`);
      expect((await service.call("book.info", {}))!.imports.map((i) => i.file)).toEqual(["good.db"]);
    } finally {
      await service.closeBook();
    }
  });
});
