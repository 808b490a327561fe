// Issue 42: `horu dig` on a crafted book whose engines table names an engine with control
// bytes in its name (ESC ] 0 ; ... BEL retitles the terminal; ESC [ 2 J clears it) prints the
// name with those bytes as escapes: nothing from the book reaches the terminal as a command.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { OpenBook } from "../../book/open-book.js";
import { HORU, haveFairy, tempDir } from "../../testing/paths.js";

describe.skipIf(!haveFairy && !process.env.CI)("horu dig and a crafted engine name", () => {
  it("prints the book's engine name with its control bytes escaped", { timeout: 120_000 }, () => {
    const dir = tempDir("horu-dig-name-");
    try {
      const file = path.join(dir, "b.horu");
      OpenBook.create(file, { limit: { nodes: 500 }, multipv: 1 }).close();
      const db = new Database(file);
      db.prepare("INSERT INTO engines (name, command, args) VALUES (?, ?, ?)").run(
        "evil\x1b]0;pwned\x07\x1b[2J\x9b",
        "/nowhere/evil",
        "[]",
      );
      db.close();
      const r = spawnSync(process.execPath, [HORU, "dig", "--book", file, "--positions", "1"], {
        encoding: "utf8",
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, ".config") },
        timeout: 100_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain("evil\\x1b]0;pwned\\x07\\x1b[2J\\x9b");
      // eslint-disable-next-line no-control-regex -- no control byte but line breaks may reach the terminal
      expect(r.stderr + r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
