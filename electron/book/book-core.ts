// What the rooms of an open book (jobs.ts, book-edits.ts, follow.ts, ...) share: the
// OpenBook itself, seen through this interface so that none of them imports open-book.ts.
import type { BookGraph } from "../../shared/book/graph.js";
import type { Selector } from "../../shared/book/select.js";
import type { DigSettings, ThinkLimit } from "../../shared/dig/settings.js";
import type { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import type { BookStore } from "../store/book-store.js";

/** A position handed out to be thought: the root itself, or the leaf at the end of the book's PV. */
export interface Job {
  sfen: string;
  keyHi: number;
  keyLo: number;
  /** USI moves from the root. */
  line: string[];
  /** The root value of the selection that chose it, or of the book's minimax when the cover list did (null for the root itself, breadth first). */
  rootValue: number | null;
  /** The book's best line from the root, where it is not `line` (the cover list's positions are off it). */
  pv?: string[];
  /** Its own think limit (think it now / deeper); absent: the book's. */
  limit?: ThinkLimit;
  /** The values of its parent's listed moves (from the parent's side), when selection reached it from a thought parent. */
  parentValues?: number[];
  /** Its best move from a one-line search at its limit (a settle round's deep think: the book plays that move there). */
  oneLineBest?: boolean;
  /** Its legal-move count (the engine widens MultiPV up to it). */
  legalCount?: number;
  /** From the think queue (think now or deeper, an import's plies): thought before the positions selected ahead. */
  asked?: boolean;
}

export interface BookCore {
  readonly store: BookStore;
  readonly graph: BookGraph;
  /** The root, settings and selector change with updateSettings: read them at each use. */
  readonly root: Position;
  readonly settings: DigSettings;
  readonly selector: Selector;
  readonly rootNode: number;
}

/** The values of a node's listed moves (from its side). */
export function listedValues(graph: BookGraph, node: number): number[] {
  return Array.from(graph.eValue.subarray(graph.edgeStart[node], graph.edgeStart[node]! + graph.edgeCount[node]!));
}

/** The stored bans as the graph names them (a ban of a position not in the graph is left out). */
export function* storedBans(store: BookStore, graph: BookGraph): Generator<{ node: number; move: number }> {
  for (const b of store.bans.list()) {
    const node = graph.find(b.keyHi, b.keyLo),
      move = parseUsiMove(b.move);
    if (node >= 0 && move !== null) yield { node, move };
  }
}
