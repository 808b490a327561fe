// Junk is not a game record: a junk .csa, /etc/passwd, a huge junk .kif each say
// "not a game record" with the reason, while every real record in the shared data still reads.
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { MAX_RECORD_BYTES, parseRecordFile, parseRecordText } from "./kifu.js";
import { rng } from "../util/rng.js";

const KIFU = path.join(import.meta.dirname, "testdata", "kifu");

describe("junk is not a game record", () => {
  it.each([
    ["junk.csa", "hello world\nthis is junk\n"],
    ["passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"],
    ["junk.kif", "x".repeat(1000) + "\n1234 abc\n"],
    ["junk.ki2", "lorem ipsum 12 34\n"],
    ["junk.jkf", '{"name": "not a record"}'],
  ])("%s", (name, text) => {
    const r = parseRecordText(text, name);
    expect(r.games).toEqual([]);
    expect(r.format).toBe("unknown");
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: name, message: expect.stringMatching(/^not a game record/) });
  });

  it("a junk .kif over the size limit is refused at once, without parsing it", () => {
    const text = "▲".padEnd(MAX_RECORD_BYTES + 10, "x");
    // Refused by its size (the message says so), not after parsing it: no time is asserted.
    const r = parseRecordText(text, "huge.kif");
    expect(r.games).toEqual([]);
    expect(r.errors[0].message).toMatch(/^not a game record: .* MiB is far more than a KIF record holds/);
  });

  it("a multi-game CSA file keeps its real games and names the junk one by line", () => {
    const text = ["V2.2", "PI", "+", "+7776FU", "-3334FU", "/", "junk line", "more junk", "/", "V2.2", "PI", "+", "+2726FU"].join("\n");
    const r = parseRecordText(text, "mixed.csa");
    expect(r.games.map((g) => g.moves)).toEqual([["7g7f", "3c3d"], ["2g2f"]]);
    expect(r.errors).toEqual([
      { file: "mixed.csa", line: 7, message: "not a game record: no CSA version, player, position or move line found" },
    ]);
  });

  it("random bytes without an extension are binary data, never a record (one in 20 was once seeded as KIF: ▲ or △ by chance)", () => {
    const next = rng(19);
    let kifMarks = 0;
    for (let i = 0; i < 200; i++) {
      const bytes = Uint8Array.from({ length: 5120 }, () => Math.floor(next() * 256));
      const r = parseRecordFile(bytes, `random${i}`);
      expect(r.games, `random${i}`).toEqual([]);
      expect(r.format).toBe("unknown");
      expect(r.errors).toEqual([
        { file: `random${i}`, message: expect.stringMatching(/^not a game record: binary data, not text \(\d+ control/) },
      ]);
      if (/[▲△]/.test(new TextDecoder("shift_jis").decode(bytes))) kifMarks++;
    }
    // The danger was real in this sample: some files hold a KIF mark.
    expect(kifMarks).toBeGreaterThan(0);
    // A record ending in a DOS end-of-file mark, with a form feed, still reads.
    const kif = readFileSync(path.join(KIFU, "conversion_input_kifu-utf8.kifu"), "utf8");
    const r = parseRecordText(`${kif}\f\n\u001a`, "old.kifu");
    expect(r.errors).toEqual([]);
    expect(r.games[0]!.moves.length).toBeGreaterThan(10);
  });

  it("every real record in the test data still reads, with moves", () => {
    const names = readdirSync(KIFU).filter((f) => !f.startsWith("LICENSE"));
    expect(names.length).toBeGreaterThan(5);
    for (const f of names) {
      const r = parseRecordFile(readFileSync(path.join(KIFU, f)), f);
      expect(r.format, f).not.toBe("unknown");
      expect(r.games.length, f).toBeGreaterThan(0);
      expect(
        r.games.some((g) => g.moves.length > 0),
        f,
      ).toBe(true);
      expect(
        r.errors.filter((e) => /not a game record/.test(e.message)),
        f,
      ).toEqual([]);
    }
  });
});
