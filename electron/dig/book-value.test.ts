// The plain book value's searches during a dig: a new one 10 s after the last at the soonest,
// and all their slices under 2% of the dig's time (on a 15M book the first takes seconds, and
// once took a 40 ms slice after every stored result).
import { describe, expect, it } from "vitest";
import { BOOK_VALUE_SHARE, bookValueDue } from "./dig.js";

describe("the plain book value's share of a dig", () => {
  const at = (o: Partial<Parameters<typeof bookValueDue>[0]>) =>
    bookValueDue({ now: 100_000, startedAt: 0, lastAt: -Infinity, spentMs: 0, busy: false, ...o });

  it("starts a new search no sooner than 10 s after the last one ended", () => {
    expect(at({ lastAt: 95_000 })).toBe(false);
    expect(at({ lastAt: 89_000 })).toBe(true);
    expect(at({ now: 0 }), "the first one, at the dig's start").toBe(true);
  });

  it("gives a search, its slices all counted, no more than its share of the dig's time", () => {
    const share = BOOK_VALUE_SHARE * 100_000;
    expect(at({ busy: true, lastAt: 99_000, spentMs: share - 1 }), "a search under way goes on within the share").toBe(true);
    expect(at({ busy: true, lastAt: 99_000, spentMs: share + 1 }), "and waits beyond it").toBe(false);
    expect(at({ lastAt: 50_000, spentMs: share + 1 }), "a new one waits too").toBe(false);
  });
});
