import { describe, expect, it } from "vitest";
import { LineSplitter } from "./lines.js";

describe("LineSplitter", () => {
  it("splits across chunks, strips CR, flushes the tail", () => {
    const lines: string[] = [];
    const s = new LineSplitter(
      100,
      (l) => lines.push(l),
      () => {},
    );
    s.push(Buffer.from("usi"));
    s.push(Buffer.from("ok\r\nid na"));
    s.push(Buffer.from("me x\n\nlast"));
    s.flush();
    expect(lines).toEqual(["usiok", "id name x", "", "last"]);
  });

  it("drops an overlong line without keeping it, then carries on", () => {
    const lines: string[] = [];
    const dropped: number[] = [];
    const s = new LineSplitter(
      1024,
      (l) => lines.push(l),
      (n) => dropped.push(n),
    );
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    for (let i = 0; i < 200; i++) s.push(chunk); // 12.5 MiB without a newline
    expect((s as unknown as { size: number }).size).toBe(0);
    s.push(Buffer.from("tail\nreadyok\n"));
    expect(lines).toEqual(["readyok"]);
    expect(dropped.length).toBe(1);
  });

  it("decodes UTF-8 split across chunks and replaces invalid bytes", () => {
    const lines: string[] = [];
    const s = new LineSplitter(
      100,
      (l) => lines.push(l),
      () => {},
    );
    const bytes = Buffer.from("id name 将棋\n");
    s.push(bytes.subarray(0, 10));
    s.push(bytes.subarray(10));
    s.push(Buffer.from([0x61, 0xff, 0x62, 0x0a]));
    expect(lines).toEqual(["id name 将棋", "a\uFFFDb"]);
  });
});
