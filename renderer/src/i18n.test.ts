import { describe, expect, it } from "vitest";
import { dictionaries } from "./i18n";

describe("the label tables", () => {
  it("give every English label a Japanese one", () => {
    const missing = Object.keys(dictionaries.en).filter((k) => !(dictionaries.ja as Record<string, string | undefined>)[k]?.trim());
    expect(missing).toEqual([]);
  });
});
