// Every message key the host sends (keyed user errors, export refusals) has a label in the
// renderer's tables, so the page can say it in the user's language. Reads the
// sources (no browser needed); here because the renderer may not read files.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./harness";
import { dictionaries } from "../renderer/src/i18n";

/** Every .ts file under a folder of the repository (tests left out). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "node_modules" ? [] : sources(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

describe("host messages", () => {
  it("translate every message key the host sends (keyed errors, refusals)", () => {
    const root = ROOT;
    const keys = new Set<string>();
    for (const file of [...sources(path.join(root, "electron")), ...sources(path.join(root, "shared"))]) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\bkeyed\(\s*"(\w+)"|\bkey: "(\w+)"/g)) keys.add((m[1] ?? m[2])!);
    }
    expect(keys.size).toBeGreaterThan(10);
    const untranslated = [...keys].filter((k) => !Object.hasOwn(dictionaries.en, `err.${k}`));
    expect(untranslated).toEqual([]);
  });
});
