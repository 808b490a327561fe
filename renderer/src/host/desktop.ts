// The Electron client: the preload exposes window.horu (contextIsolation), which already
// speaks the contract; this only adds the desktop extras (file dialogs, dropped file paths).
import type { Args, HostClient, HostEvent, Method, Result } from "../../../shared/api/contract";

export type PickKind = "open-book" | "new-book" | "engine" | "records" | "export" | "folder" | "books" | "backup" | "backup-dir";

export interface HoruBridge {
  platform: "electron";
  call(method: string, args: unknown): Promise<unknown>;
  onEvent(listener: (e: HostEvent) => void): () => void;
  pickPaths(req: { kind: PickKind }): Promise<string[]>;
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    horu?: HoruBridge;
  }
}

export function electronBridge(): HoruBridge | null {
  const h = typeof window !== "undefined" ? window.horu : undefined;
  return h && h.platform === "electron" ? h : null;
}

export class ElectronHostClient implements HostClient {
  constructor(readonly bridge: HoruBridge) {}
  call<M extends Method>(method: M, args: Args<M>): Promise<Result<M>> {
    return this.bridge.call(method, args) as Promise<Result<M>>;
  }
  onEvent(listener: (e: HostEvent) => void): () => void {
    return this.bridge.onEvent(listener);
  }
}
