// The record open in the record pane, kept while the pane is not shown: switching tabs (its own
// "Show in the book" among them) unmounted the pane, and the record and its ply went with it.
import { create } from "zustand";
import type { RecordLines } from "./model";

export interface RecordPaneState {
  rec: RecordLines | null;
  /** A reader's problem with the last file chosen, named. */
  error: string | null;
  /** Which line of the record (0: the main line) and the ply on it. */
  current: number;
  ply: number;
}

export const useRecordPane = create<RecordPaneState>(() => ({ rec: null, error: null, current: 0, ply: 0 }));
