// The language saved from an earlier visit governs the values' words from the first render:
// after a reload the English page wrote mates as "詰 1" (the words' default, Japanese).
import { describe, expect, it, vi } from "vitest";
import { VALUE_MATE } from "../../shared/rules/types";

describe("the language at start", () => {
  it("a saved English choice writes mates in English, whatever the browser's language", async () => {
    vi.stubGlobal("localStorage", { getItem: (k: string) => (k === "horu.lang" ? "en" : null), setItem: () => {} });
    vi.stubGlobal("navigator", { language: "ja-JP", languages: ["ja-JP"] });
    const { useStore } = await import("./store");
    const { formatValue } = await import("./logic");
    expect(useStore.getState().lang).toBe("en");
    expect(formatValue(VALUE_MATE - 1)).toBe("mate 1");
    vi.unstubAllGlobals();
  });
});
