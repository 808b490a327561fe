// A double click on an action (Start, Export, New book, Back up now) runs it once: the second
// click's identical call gets the first one's answer (it ran again and its refusal stood in red
// beside the first one's success).
import { describe, expect, it, vi } from "vitest";
import type { HostClient } from "../../shared/api/contract";

describe("an action clicked twice", () => {
  it("is sent once while the first is under way; other calls and later clicks are sent as they come", async () => {
    vi.stubGlobal("localStorage", { getItem: () => null, setItem: () => {} });
    const { call, connect } = await import("./store");
    const sent: string[] = [];
    let finish: (v: unknown) => void = () => {};
    const client = {
      call: (method: string) => {
        sent.push(method);
        if (method === "backup.now") return new Promise((resolve) => (finish = resolve));
        return Promise.resolve(method === "book.recent" ? [] : null);
      },
      onEvent: () => () => {},
    } as unknown as HostClient;
    await connect(client);
    sent.length = 0;
    const first = call("backup.now", {});
    const second = call("backup.now", {});
    void call("dig.status", {});
    void call("dig.status", {});
    expect(sent).toEqual(["backup.now", "dig.status", "dig.status"]);
    finish({ path: "b", bytes: 1, at: 0 });
    expect(await second).toEqual(await first);
    void call("backup.now", {});
    expect(sent.filter((m) => m === "backup.now")).toHaveLength(2);
    vi.unstubAllGlobals();
  });
});
