// The preload with `electron` replaced by a stand-in: what the page gets as window.horu.
import { afterAll, describe, expect, it, vi } from "vitest";

const fake = vi.hoisted(() => {
  const exposed: Record<string, unknown> = {};
  const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
  const invoke = vi.fn(async (channel: string, payload: { method?: string; args?: unknown; kind?: string }): Promise<unknown> => {
    if (channel === "horu:pick") return ["/picked/" + payload.kind];
    if (payload.method === "book.info") return { result: { path: "/b.horu" } };
    return { error: "book.open: invalid arguments at path: expected string", code: "invalid-args" };
  });
  // The page's world: executeInMainWorld runs the function with this as `window`.
  const page = {} as Record<string, unknown>;
  (globalThis as Record<string, unknown>).window = page;
  return { exposed, listeners, invoke, page };
});

vi.mock("electron", () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => {
      fake.exposed[key] = api;
      fake.page[key] = api;
    },
    executeInMainWorld: ({ func }: { func: () => void }) => func(),
  },
  ipcRenderer: {
    invoke: fake.invoke,
    on: (channel: string, l: (...a: unknown[]) => void) =>
      fake.listeners.set(channel, new Set([...(fake.listeners.get(channel) ?? []), l])),
    removeListener: (channel: string, l: (...a: unknown[]) => void) => fake.listeners.get(channel)?.delete(l),
  },
  webUtils: { getPathForFile: (f: { name: string }) => `/dropped/${f.name}` },
}));

await import("./preload.js");

interface Client {
  platform: string;
  call(method: string, args: unknown): Promise<unknown>;
  onEvent(l: (e: unknown) => void): () => void;
  pickPaths(o: { kind: string }): Promise<string[]>;
  pathForFile(f: unknown): string;
}

afterAll(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe("the preload", () => {
  const horu = () => fake.page.horu as Client;

  it("exposes window.horu with the Electron client", () => {
    expect(horu().platform).toBe("electron");
    expect(Object.isFrozen(horu())).toBe(true);
  });

  it("calls through horu:call and turns failed replies into Errors with .code", async () => {
    expect(await horu().call("book.info", {})).toEqual({ path: "/b.horu" });
    expect(fake.invoke).toHaveBeenCalledWith("horu:call", { method: "book.info", args: {} });
    const err = await horu()
      .call("book.open", { path: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ message: "book.open: invalid arguments at path: expected string", code: "invalid-args" });
  });

  it("delivers horu:event messages until unsubscribed", () => {
    const seen: unknown[] = [];
    const off = horu().onEvent((e) => seen.push(e));
    for (const l of fake.listeners.get("horu:event") ?? []) l({}, { type: "book.changed", info: null });
    off();
    for (const l of fake.listeners.get("horu:event") ?? []) l({}, { type: "book.changed", info: null });
    expect(seen).toEqual([{ type: "book.changed", info: null }]);
  });

  it("opens dialogs through horu:pick and gives dropped files their real paths", async () => {
    expect(await horu().pickPaths({ kind: "records" })).toEqual(["/picked/records"]);
    expect(horu().pathForFile({ name: "game.kif" })).toBe("/dropped/game.kif");
  });
});
