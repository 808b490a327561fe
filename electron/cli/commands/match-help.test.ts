// horu match --help lists every option the command takes: --quiet worked but was not listed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { matchCommand } from "./match.js";

describe("horu match --help", () => {
  it("lists every option the command parses", () => {
    const src = readFileSync(new URL("./match.ts", import.meta.url), "utf8");
    const block = /options:\s*\{([\s\S]*?)\n\s{6}\},/.exec(src)?.[1] ?? "";
    const names = [...block.matchAll(/"?([a-z][a-z0-9-]*)"?\s*:\s*\{\s*type/g)].map((m) => m[1]!);
    expect(names).toContain("quiet");
    const unlisted = names.filter((n) => !new RegExp(`--${n}(?![a-z0-9-])`).test(matchCommand.usage));
    expect(unlisted).toEqual([]);
  });
});
