import { describe, expect, it } from "vitest";
import { terminalText } from "./terminal-text.js";

describe("terminalText", () => {
  it("writes ESC, BEL, CR, NUL, DEL and C1 controls as escapes; keeps line breaks, tabs and Japanese", () => {
    expect(terminalText("evil\x1b]0;pwned\x07\r\0\x7f\x9b2J 定跡\tok\n")).toBe("evil\\x1b]0;pwned\\x07\\x0d\\x00\\x7f\\x9b2J 定跡\tok\n");
  });
});
