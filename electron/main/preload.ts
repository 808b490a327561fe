// The preload (bundled as dist/preload.cjs; sandboxed, so it may only require "electron").
// It gives the page `window.horu`, the HostClient of the Electron build:
//   { platform: "electron", call, onEvent, pickPaths, pathForFile }
// contextBridge copies errors without their custom properties, so call() is finished in the
// page's own world: there a failed reply becomes a real Error carrying .code.

import { contextBridge, ipcRenderer, webUtils } from "electron";
import type { CallError, HostEvent } from "../../shared/api/contract.js";

type Reply = { result: unknown } | CallError;

const bridge = {
  platform: "electron" as const,
  invoke: (method: string, args: unknown): Promise<Reply> => ipcRenderer.invoke("horu:call", { method, args }) as Promise<Reply>,
  onEvent(listener: (e: HostEvent) => void): () => void {
    const handler = (_event: unknown, e: HostEvent) => listener(e);
    ipcRenderer.on("horu:event", handler);
    return () => void ipcRenderer.removeListener("horu:event", handler);
  },
  pickPaths: (options: { kind: string; title?: string; defaultPath?: string }): Promise<string[]> =>
    ipcRenderer.invoke("horu:pick", options) as Promise<string[]>,
  /** The real path of a dropped File (Electron only), for seed.paths. */
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
};

/** Runs in the page's world (serialised by Electron: it must not use anything from here). */
export function installClient(): void {
  const w = window as unknown as { horuBridge: typeof bridge; horu?: unknown };
  const b = w.horuBridge;
  const client = Object.freeze({
    platform: b.platform,
    async call(method: string, args: unknown): Promise<unknown> {
      const reply = await b.invoke(method, args ?? {});
      if ("error" in reply) throw Object.assign(new Error(reply.error), { code: reply.code, key: reply.key, params: reply.params });
      return reply.result;
    },
    onEvent: (listener: (e: HostEvent) => void) => b.onEvent(listener),
    pickPaths: (options: { kind: string }) => b.pickPaths(options),
    pathForFile: (file: File) => b.pathForFile(file),
  });
  Object.defineProperty(window, "horu", { value: client, enumerable: true });
}

if (typeof contextBridge.executeInMainWorld === "function") {
  contextBridge.exposeInMainWorld("horuBridge", bridge);
  contextBridge.executeInMainWorld({ func: installClient });
} else {
  // Without executeInMainWorld (experimental in Electron): the same client, errors lose .code.
  contextBridge.exposeInMainWorld("horu", {
    platform: bridge.platform,
    async call(method: string, args: unknown): Promise<unknown> {
      const reply = await bridge.invoke(method, args ?? {});
      if ("error" in reply) throw new Error(reply.error);
      return reply.result;
    },
    onEvent: bridge.onEvent,
    pickPaths: bridge.pickPaths,
    pathForFile: bridge.pathForFile,
  });
}
