import { afterEach, describe, expect, it } from "vitest";
import { missing } from "./missing.js";

describe("missing(): a skip on a developer machine, a failure on CI", () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  });

  it("never skips what is present", () => {
    process.env.CI = "true";
    expect(missing(true, "the widget")).toBe(false);
    delete process.env.CI;
    expect(missing(true, "the widget")).toBe(false);
  });

  it("skips what is absent without CI, and fails with the reason on CI", () => {
    delete process.env.CI;
    expect(missing(false, "the widget")).toBe(true);
    process.env.CI = "false";
    expect(missing(false, "the widget")).toBe(true);
    process.env.CI = "true";
    expect(() => missing(false, "the widget")).toThrow("CI=true and the widget is missing");
    process.env.CI = "1";
    expect(() => missing(false, "the widget")).toThrow(/widget/);
  });
});
