// A new root on the open book takes the board there and reads the status and chart again,
// whether the settings call's answer or the book.changed event brings it first.
import { describe, expect, it, vi } from "vitest";
import type { BookInfo, HostClient } from "../../shared/api/contract";

describe("a new root", () => {
  it("empties the board's line and the chart, and asks for the status and chart again", async () => {
    vi.stubGlobal("localStorage", { getItem: () => null, setItem: () => {} });
    const { connect, useStore } = await import("./store");
    const sent: string[] = [];
    const client = {
      call: (method: string) => {
        sent.push(method);
        return Promise.resolve(method === "book.recent" || method === "dig.history" ? [] : null);
      },
      onEvent: () => () => {},
    } as unknown as HostClient;
    await connect(client);
    const book = { path: "/b.horu", rootSfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -" } as BookInfo;
    useStore.setState({ book, line: ["7g7f", "3c3d"], samples: [{ t: 1, thought: 1, rootValue: 50, gap: false }] });
    // The same root again (another answer): nothing is reset.
    useStore.setState({ book: { ...book } });
    expect(useStore.getState().line).toEqual(["7g7f", "3c3d"]);
    sent.length = 0;
    useStore.setState({ book: { ...book, rootSfen: "4k4/9/4P4/9/9/9/9/9/4K4 w G" } });
    expect(useStore.getState().line).toEqual([]);
    expect(useStore.getState().samples).toEqual([]);
    expect(sent).toEqual(expect.arrayContaining(["dig.status", "dig.history"]));
    vi.unstubAllGlobals();
  });
});
