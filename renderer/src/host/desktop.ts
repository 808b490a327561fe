// The Electron client: the preload exposes window.horu (contextIsolation), which already
// speaks the contract; this only adds the desktop extras (file dialogs, dropped file paths).
import type { Args, HostClient, HostEvent, Method, Result } from "../../../shared/api/contract";

export type PickKind = "open-book" | "new-book" | "engine" | "records" | "export" | "folder" | "books" | "backup" | "backup-dir";

export interface HoruBridge {
  platform: "electron";
  call(method: string, args: unknown): Promise<unknown>;
  onEvent(listener: (e: HostEvent) => void): () => void;
  pickPaths(req: { kind: PickKind; defaultPath?: string; labels?: Partial<Record<FilterLabel, string>> }): Promise<string[]>;
  pathForFile(file: File): string;
}

/** The file dialog's filter names (electron/main/shell.ts FILTER_LABELS), sent in the UI's language. */
const FILTER_LABELS = ["books", "db", "bin", "ybb", "sbk", "recordsAndBooks", "horu", "backups", "all"] as const;
export type FilterLabel = (typeof FILTER_LABELS)[number];

/** The filter names in the UI's language, for pickPaths. */
export function filterLabels(t: (k: `filter.${FilterLabel}`) => string): Record<FilterLabel, string> {
  return Object.fromEntries(FILTER_LABELS.map((k) => [k, t(`filter.${k}`)])) as Record<FilterLabel, string>;
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
