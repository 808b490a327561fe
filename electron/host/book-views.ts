// What the UI reads of the open book: a position with its moves (book.node), a position with its
// links both ways (book.graph), a page of the bans and the book's summary. Pure reads of an
// OpenBook: no router, no events.

import { SBK_MARKS, userError } from "../../shared/api/contract.js";
import type {
  BanPage,
  BanView,
  BookInfo,
  BoundName,
  GraphEdgeView,
  GraphNodeState,
  GraphNodeView,
  MoveState,
  MoveView,
  NodeView,
} from "../../shared/api/contract.js";
import type { OpenBook } from "../book/open-book.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi, parseUsiMove } from "../../shared/rules/usi.js";
import { kifMoves } from "../../shared/formats/notation.js";
import { VALUE_MATE } from "../../shared/rules/types.js";
import { BOUND_EXACT, BOUND_LOWER } from "../../shared/book/select.js";
import { EDGE_IN_FLIGHT, EDGE_KIFU, NODE_DECLARATION_WIN, NODE_NO_MOVES } from "../../shared/book/graph.js";
import { thoughtParentPositions, thoughtParents } from "../../shared/book/link.js";
import { backupSchedule } from "./backups.js";
import { STATUS_SEARCH_MS } from "./dig-session.js";

/** A position reached by its SFEN or by a line of moves from the root. */
export type NodeRef = { sfen: string } | { line: string[] };

/** A position with its moves, their values and states, as the Book view shows it. */
export function nodeView(book: OpenBook, ref: NodeRef): NodeView {
  currentBounds(book);
  const g = book.graph;
  let pos: Position;
  let line: string[] = [];
  let listedInParent: boolean | null = null;
  if ("line" in ref) {
    pos = book.root.clone();
    for (const [i, usi] of ref.line.entries()) {
      const m = parseUsiMove(usi);
      if (m === null || !pos.isLegal(m))
        throw userError(`move ${i + 1} of the line (${usi}) is not legal there`, {
          key: "lineMoveIllegal",
          params: { n: i + 1, move: usi },
        });
      if (i === ref.line.length - 1) {
        const parent = g.find(pos.keyHi, pos.keyLo);
        if (parent >= 0) {
          listedInParent = false;
          g.forEachEdge(parent, (move, _c, _v, e) => {
            if (move === m && e >= 0) listedInParent = true;
          });
        }
      }
      pos.doMove(m);
    }
    line = ref.line;
  } else pos = Position.fromSfen(ref.sfen);
  const sfen = pos.sfenKey();
  const id = g.find(pos.keyHi, pos.keyLo);
  // The graph holds the moves, children, values, bounds and flags; the store only what it lacks
  // (a listed move's depth and file notes, the think's provenance, game statistics).
  const stored = id >= 0 ? book.store.thoughts.get(sfen) : undefined;
  const listed = byMove(stored?.candidates ?? []);
  const stats = byMove(book.store.moveStats.get(sfen));
  const moves: MoveView[] = [];
  const usis: string[] = [];
  if (id >= 0) {
    g.forEachEdge(id, (move, child, value, e) => {
      const usi = moveToUsi(move); // the one conversion to text of this child's move
      const state = edgeState(book, pos, id, move, child, e);
      // A mating move: mate in one ply, exact (the mated position itself is never searched into).
      const childBound =
        state === "mate" ? { value: -(VALUE_MATE - 1), bound: BOUND_EXACT } : child >= 0 ? book.selector.bound(child) : undefined;
      const s = stats.get(move);
      const c = listed.get(move);
      usis.push(usi);
      moves.push({
        usi,
        kif: "", // all of them below, from one reading of the position
        // A value or depth the imported file did not give is unknown: never shown as the 0 stored for it.
        engineValue: c?.noValue ? null : value,
        valueNone: c?.noValue === true,
        depthNone: c?.noDepth === true,
        mark: c?.mark ? (SBK_MARKS[c.mark - 1] ?? null) : null,
        childValue: value === null && child >= 0 ? childThoughtValue(book, child) : null,
        engineDepth: c === undefined || c.noDepth ? null : c.depth,
        searchValue: childBound ? -childBound.value : null,
        searchBound: childBound
          ? childBound.bound === BOUND_EXACT
            ? "EXACT"
            : childBound.bound === BOUND_LOWER
              ? "UPPER"
              : "LOWER"
          : null,
        state,
        thought: child >= 0,
        kifu: e >= 0 && (g.eFlags[e] & EDGE_KIFU) !== 0,
        games: s?.games ?? null,
        wins: s?.wins ?? null,
      });
    });
    kifMoves(sfen, usis).forEach((kif, i) => (moves[i]!.kif = kif));
  }
  const b = id >= 0 ? nodeBound(book, id) : undefined;
  const boundName: BoundName | null = b ? (b.bound === BOUND_EXACT ? "EXACT" : b.bound === BOUND_LOWER ? "LOWER" : "UPPER") : null;
  const prov = stored?.provenance;
  return {
    sfen,
    line,
    side: pos.side === 0 ? "black" : "white",
    thought: id >= 0,
    inFlight: book.jobs.inFlight.some((j) => j.keyHi === pos.keyHi && j.keyLo === pos.keyLo),
    bound: b && boundName ? { value: b.value, bound: boundName, cyclic: b.cyclic } : null,
    moves,
    parents: thoughtParents(g, pos).length,
    provenance: prov
      ? prov.kind === "engine"
        ? `${prov.engine}, ${prov.nodes} nodes, depth ${deepest(prov.depth, stored?.candidates)}, ${prov.timeMs} ms`
        : `imported from ${prov.file}`
      : null,
    origin: prov
      ? prov.kind === "engine"
        ? // The deepest line of the think: a widening pass's shallow lines do not lower it.
          { kind: "engine", engine: prov.engine, nodes: prov.nodes, depth: deepest(prov.depth, stored?.candidates), timeMs: prov.timeMs }
        : { kind: "import", file: prov.file }
      : null,
    thoughtAt: stored?.thoughtAt ?? null,
    kifu: g.kifu.has(pos.keyHi, pos.keyLo),
    comment: book.store.notes.getComment(sfen),
    failed: id < 0 && g.isInFlight(pos.keyHi, pos.keyLo) && !book.jobs.inFlight.some((j) => j.keyHi === pos.keyHi && j.keyLo === pos.keyLo),
    queued: book.store.queue.limitOf(sfen) !== undefined || book.store.queue.peek(64).some((q) => q.sfen === sfen),
    listedInParent,
    terminal: id < 0 ? null : g.flags[id] & NODE_NO_MOVES ? "mated" : g.flags[id] & NODE_DECLARATION_WIN ? "declaration" : null,
  };
}

/** Stored rows by the graph's move number (the store keeps moves as text); the last of duplicates wins. */
function byMove<T extends { move: string }>(rows: readonly T[]): Map<number, T> {
  const out = new Map<number, T>();
  for (const r of rows) {
    const m = parseUsiMove(r.move);
    if (m !== null) out.set(m, r);
  }
  return out;
}

/** The deepest of a think's lines (and what its provenance says). */
function deepest(depth: number, candidates: ReadonlyArray<{ depth: number }> | undefined): number {
  return (candidates ?? []).reduce((d, c) => Math.max(d, c.depth), depth);
}

/** A thought child's own value from its parent's side: its best listed move's value, negated; null when it lists none. */
function childThoughtValue(book: OpenBook, child: number): number | null {
  const g = book.graph;
  let best: number | null = null;
  g.forEachEdge(child, (_m, _c, v) => {
    if (v !== null && (best === null || v > best)) best = v;
  });
  return best === null ? null : -best;
}

/**
 * Values shown are the selection's bounds as the book is now: a change (a result stored, a
 * leaf handed out, the dig's last results at its stop) drops those above it until a search
 * makes them again, and without this the Book table would show none where the Tree shows the
 * engine's value.
 */
function currentBounds(book: OpenBook): void {
  if (!book.previewCurrent) book.preview(STATUS_SEARCH_MS); // the rest goes on at the next call or status
}

/** Positions for the Tree (a few per call): the bounds brought up to date once for all of them. */
export function graphNodeViews(book: OpenBook, sfens: readonly string[]): GraphNodeView[] {
  currentBounds(book);
  return sfens.map((sfen) => graphNodeView(book, sfen));
}

/** One position with its children (drawable without another call) and its thought parents. */
export function graphNodeView(book: OpenBook, sfen: string): GraphNodeView {
  const g = book.graph;
  let pos: Position;
  try {
    pos = Position.fromSfen(sfen);
  } catch (e) {
    throw userError(`not a position: ${sfen} (${e instanceof Error ? e.message : String(e)})`, { cause: e, key: "notAPosition" });
  }
  const key = pos.sfenKey();
  const id = g.find(pos.keyHi, pos.keyLo);
  const children: GraphEdgeView[] = [];
  const stored = id >= 0 ? book.store.thoughts.get(key) : undefined;
  const noValue = new Set(byMove(stored?.candidates.filter((c) => c.noValue) ?? []).keys());
  if (id >= 0) {
    g.forEachEdge(id, (move, child, value, e) => {
      const state = edgeState(book, pos, id, move, child, e);
      pos.doMove(move);
      const childBound = child >= 0 ? boundView(book.selector.bound(child)) : null;
      children.push({
        usi: moveToUsi(move), // the one conversion to text of this child's move
        to: pos.sfenKey(),
        engineValue: noValue.has(move) ? null : value,
        state,
        kifu: e >= 0 && (g.eFlags[e] & EDGE_KIFU) !== 0,
        childBound,
        childParents: child >= 0 ? thoughtParents(g, pos).length : 1,
      });
      pos.undoMove();
    });
  }
  const parents = thoughtParentPositions(g, pos).map((p) => ({ sfen: p.parent.sfenKey(), usi: moveToUsi(p.move) }));
  let state: GraphNodeState;
  const flying = book.jobs.inFlight.some((j) => j.keyHi === pos.keyHi && j.keyLo === pos.keyLo);
  if (flying) state = "in-flight";
  else if (id >= 0) state = "thought";
  else if (g.isInFlight(pos.keyHi, pos.keyLo)) state = "failed";
  else if (g.kifu.has(pos.keyHi, pos.keyLo)) state = "kifu";
  else state = "leaf";
  const prov = stored?.provenance;
  return {
    sfen: key,
    side: pos.side === 0 ? "black" : "white",
    state,
    bound: id >= 0 ? boundView(nodeBound(book, id)) : null,
    thinkDepth: prov?.kind === "engine" ? deepest(prov.depth, stored?.candidates) : null,
    children,
    parents,
  };
}

/** One page of the bans, each with the line stored when it was made: no search of the book. */
export function banPage(book: OpenBook, offset: number, limit: number): BanPage {
  const store = book.store;
  const bans = store.bans.list(offset, limit).map(({ keyHi: _hi, keyLo: _lo, ...ban }): BanView => ban);
  return { total: store.bans.count(), offset, bans };
}

/** The open book's summary: size, settings, counts, writer, prunes and backup schedule. */
export function bookInfo(book: OpenBook): BookInfo {
  return {
    path: book.store.path,
    positions: book.graph.nodeCount,
    settings: book.settings,
    rootSfen: book.root.sfenKey(),
    openMs: book.timings.graphMs,
    kifuSeeds: book.graph.kifu.size,
    bans: book.store.bans.count(),
    failed: book.store.failures.countFailed(),
    readonly: book.store.readonly,
    writer: writerOf(book),
    queued: book.store.queue.count(),
    prunes: book.store.readonly ? [] : book.store.prunes.list(),
    imports: book.store.readonly ? [] : book.store.imports.list(),
    backup: backupSchedule(book),
  };
}

/**
 * A position's bound for the views: the selection's, else, when the selection keeps none
 * because a move mates there (a finished line is left out of selection, and with no other
 * move nothing is left), mate in one, exact, as its mating move shows.
 */
function nodeBound(book: OpenBook, id: number): { value: number; bound: number; cyclic: boolean } | undefined {
  const b = book.selector.bound(id);
  if (b) return b;
  const g = book.graph;
  let mates = false;
  g.forEachEdge(id, (_m, child) => {
    if (child >= 0 && g.flags[child] & NODE_NO_MOVES) mates = true;
  });
  return mates ? { value: VALUE_MATE - 1, bound: BOUND_EXACT, cyclic: false } : undefined;
}

const childKey = new Uint32Array(2);

/** A move's state from node `id` (position `at`): banned, to a thought child, being thought, given up on, or a leaf. */
export function edgeState(book: OpenBook, at: Position, id: number, move: number, child: number, e: number): MoveState {
  const g = book.graph;
  // A mating move's line is finished: selection leaves it out (a ban by design), but it is the best move, not a bad one.
  if (child >= 0 && g.flags[child] & NODE_NO_MOVES) return "mate";
  if (g.isBanned(id, move)) return "banned";
  if (child >= 0) return "thought";
  if (e >= 0 && g.eFlags[e] & EDGE_IN_FLIGHT) {
    at.keyAfter(move, childKey);
    const [hi, lo] = childKey;
    return book.jobs.inFlight.some((j) => j.keyHi === hi && j.keyLo === lo) ? "in-flight" : "failed";
  }
  return "leaf";
}

/** A selection bound as the UI names it (from the bound position's side to move). */
export function boundView(b: { value: number; bound: number; cyclic: boolean } | undefined): GraphEdgeView["childBound"] {
  if (!b) return null;
  return { value: b.value, bound: b.bound === BOUND_EXACT ? "EXACT" : b.bound === BOUND_LOWER ? "LOWER" : "UPPER", cyclic: b.cyclic };
}

function writerOf(book: OpenBook): BookInfo["writer"] {
  const h = book.store.lockHolder();
  return h ? { pid: h.pid, host: h.host, since: h.since, self: !book.store.readonly } : null;
}
