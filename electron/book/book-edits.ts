// Working on the book by hand: think a position now or deeper, add a move, lift a ban,
// release failed positions, prune a subtree and undo it, comment a position.
import { existsSync } from "node:fs";
import { insertEntry, thoughtParents } from "../../shared/book/link.js";
import { userError } from "../../shared/api/user-error.js";
import type { ThinkLimit } from "../../shared/dig/settings.js";
import { Position } from "../../shared/rules/position.js";
import { parseUsiMove } from "../../shared/rules/usi.js";
import type { BookCore } from "./book-core.js";
import { snapshotPath, storeStamp, writeSnapshot } from "./graph-snapshot.js";
import type { Jobs } from "./jobs.js";
import { SNAPSHOT_MIN_POSITIONS } from "./load-graph.js";

/** A limit beyond the book's: "think it deeper" (nodes and time x4, depth +4). */
export function deeperLimit(l: ThinkLimit, factor = 4): ThinkLimit {
  return "nodes" in l
    ? { nodes: l.nodes * factor }
    : "depth" in l
      ? { depth: Math.min(127, l.depth + factor) }
      : { movetimeMs: l.movetimeMs * factor };
}

/**
 * A position an engine may be asked to think, from the user's SFEN: a legal SFEN (Position's
 * checks: piece counts, dead pieces, two pawns on a file, the side not to move in check) with
 * both kings on the board (Position alone allows a missing king, for mate problems; an engine
 * told to search a board without kings answers nonsense, and a book is of games).
 */
export function gamePosition(sfen: string): Position {
  const pos = Position.fromSfen(sfen);
  for (const [c, name] of [
    [0, "black"],
    [1, "white"],
  ] as const)
    if (pos.kingSquare(c) < 0)
      throw userError(`not a game position: ${name} has no king in ${pos.sfenKey()}`, {
        key: "noKing",
        params: { side: name, sfen: pos.sfenKey() },
      });
  return pos;
}

export class BookEdits {
  constructor(
    private readonly book: BookCore,
    private readonly jobs: Jobs,
  ) {}

  private writable(): void {
    const store = this.book.store;
    if (store.readonly) {
      const h = store.lockHolder();
      throw userError(`read-only: ${h ? `pid ${h.pid} on ${h.host} is writing this book` : "this book is open read-only"}`, {
        key: "readOnly",
      });
    }
  }

  /**
   * Thinks a position next, ahead of the queue and of selection. `limit` thinks it with
   * that limit, also when it is thought already (the new result replaces the old one in
   * the transaction that stores it). A failed position is released first.
   */
  thinkNow(sfen: string, limit?: ThinkLimit, source = "think now"): { sfen: string; limit: ThinkLimit | null } {
    this.writable();
    const pos = gamePosition(sfen);
    const key = pos.sfenKey();
    if (this.jobs.isFlying(pos.keyHi, pos.keyLo)) throw userError(`${key} is being thought now`, { key: "beingThought" });
    if (this.book.graph.find(pos.keyHi, pos.keyLo) >= 0 && limit === undefined) limit = deeperLimit(this.book.settings.limit, 1);
    this.retry(key);
    this.book.store.queue.putFirst({ sfen: key, keyHi: pos.keyHi, keyLo: pos.keyLo, source, limit });
    return { sfen: key, limit: limit ?? null };
  }

  /**
   * Thinks a position again with a higher limit than the book's, and than its own think: one
   * thought deeper already (a settle round thinks 8x the book's limit) is thought with twice
   * that, never replaced by a shallower think.
   */
  thinkDeeper(sfen: string, factor = 4): { sfen: string; limit: ThinkLimit | null } {
    let limit = deeperLimit(this.book.settings.limit, factor);
    const had = this.book.store.thoughts.get(gamePosition(sfen).sfenKey())?.provenance;
    if (had?.kind === "engine") {
      if ("nodes" in limit && had.nodes >= limit.nodes) limit = { nodes: had.nodes * 2 };
      else if ("depth" in limit && had.depth >= limit.depth) limit = { depth: Math.min(127, had.depth + factor) };
      else if ("movetimeMs" in limit && had.timeMs >= limit.movetimeMs) limit = { movetimeMs: had.timeMs * 2 };
    }
    return this.thinkNow(sfen, limit, "think deeper");
  }

  /**
   * Adds a move to the book: its position is thought next, and once thought the move is
   * an internal edge of every thought position it is legal from (docs/DESIGN.md §2).
   */
  addMove(sfen: string, usi: string): { sfen: string; limit: ThinkLimit | null } {
    const pos = gamePosition(sfen);
    const m = parseUsiMove(usi);
    if (m === null || !pos.isLegal(m)) throw userError(`${usi} is not a legal move in ${pos.sfenKey()}`, { key: "illegalMove" });
    pos.doMove(m);
    if (this.book.graph.find(pos.keyHi, pos.keyLo) >= 0) return { sfen: pos.sfenKey(), limit: null }; // already in the book
    return this.thinkNow(pos.sfenKey(), undefined, "added move");
  }

  /** Lifts a ban; selection may pick the move again. */
  unban(sfen: string, move: string): boolean {
    this.writable();
    const pos = Position.fromSfen(sfen);
    const removed = this.book.store.bans.remove(pos.sfenKey(), move);
    const node = this.book.graph.find(pos.keyHi, pos.keyLo),
      m = parseUsiMove(move);
    if (node >= 0 && m !== null) this.book.graph.unban(node, m);
    return removed;
  }

  /** Releases failed positions (all, or one) so selection may hand them out again. */
  retry(sfen?: string): number {
    this.writable();
    const graph = this.book.graph;
    const rows = this.book.store.failures.retryFailed(sfen === undefined ? undefined : Position.fromSfen(sfen).sfenKey());
    for (const r of rows)
      if (!this.jobs.isFlying(r.keyHi, r.keyLo))
        graph.setInFlight(r.keyHi, r.keyLo, false, thoughtParents(graph, Position.fromSfen(r.sfen)));
    return rows.length;
  }

  /**
   * The thought positions a prune of `sfen` removes: it and every thought position below
   * it that the root cannot reach without passing through it (others stay: they are
   * still in the book by another route).
   */
  pruneSet(sfen: string): string[] {
    return this.pruneTargets(sfen).sfens;
  }

  private pruneTargets(sfen: string): { ids: number[]; sfens: string[] } {
    const g = this.book.graph;
    const pos = Position.fromSfen(sfen);
    const target = g.find(pos.keyHi, pos.keyLo);
    if (target < 0) throw userError(`${pos.sfenKey()} is not a thought position of this book`, { key: "notThought" });
    const rootNode = this.book.rootNode;
    if (target === rootNode) throw userError("the root cannot be pruned", { key: "pruneRoot" });
    const reach = (from: number, avoid: number): Uint8Array => {
      const seen = new Uint8Array(g.nodeCount);
      if (from < 0 || from === avoid) return seen;
      const stack = [from];
      seen[from] = 1;
      while (stack.length) {
        g.forEachEdge(stack.pop()!, (_m, child) => {
          if (child >= 0 && child !== avoid && !seen[child]) {
            seen[child] = 1;
            stack.push(child);
          }
        });
      }
      return seen;
    };
    const kept = reach(rootNode, target);
    const below = reach(target, -1);
    const ids: number[] = [];
    for (let n = 0; n < g.nodeCount; n++) if (below[n] && !kept[n]) ids.push(n);
    // SFENs come from the store (by the key index): the graph keeps keys only.
    const sfens: string[] = [];
    for (const n of ids) {
      const sfen = this.book.store.thoughts.sfenOfKey(g.keyHi[n], g.keyLo[n]);
      if (sfen !== null) sfens.push(sfen);
    }
    return { ids, sfens };
  }

  /**
   * Prunes a subtree (see pruneSet), kept for undo. The graph cannot drop nodes, so the
   * caller reopens the book afterwards (HostService does; the CLI works on the file). What
   * remains is saved as the snapshot of the store's new epoch, so that reopen reads it in
   * seconds instead of rebuilding from every position (minutes on a 1M-position book).
   */
  prune(sfen: string): { batch: number; positions: number } {
    this.writable();
    if (this.jobs.flyingCount > 0) throw userError("stop the dig before pruning", { key: "stopDigFirst" });
    const { ids, sfens } = this.pruneTargets(sfen);
    const store = this.book.store,
      graph = this.book.graph;
    const r = store.prunes.prune(sfens, Position.fromSfen(sfen).sfenKey());
    const snap = snapshotPath(store.path);
    if (r.positions > 0 && (graph.nodeCount >= SNAPSHOT_MIN_POSITIONS || existsSync(snap))) {
      const gone = new Uint8Array(graph.nodeCount);
      for (const id of ids) gone[id] = 1;
      const rest = graph.without(gone);
      if (rest.nodeCount === store.thoughts.count()) {
        try {
          writeSnapshot(snap, rest, storeStamp(store));
        } catch (e) {
          store.log.add("warn", "snapshot", `could not save the graph snapshot after the prune: ${(e as Error).message}`);
        }
      }
    }
    return r;
  }

  /** Puts the last pruned subtree back (into the store and the graph); positions thought again since stay as they are (`kept`). */
  undoPrune(): { batch: number; positions: number; kept: number } | null {
    this.writable();
    const r = this.book.store.prunes.undo();
    if (!r) return null;
    for (const t of r.restored) insertEntry(this.book.graph, t);
    return { batch: r.batch, positions: r.restored.length, kept: r.kept };
  }

  /** A position's comment (empty text removes it): only on a position of the book (thought, the root, a seed, or a move from a thought one). */
  comment(sfen: string, text: string): void {
    this.writable();
    const graph = this.book.graph;
    const pos = Position.fromSfen(sfen);
    const inBook =
      graph.find(pos.keyHi, pos.keyLo) >= 0 ||
      pos.sfenKey() === this.book.root.sfenKey() ||
      graph.kifu.has(pos.keyHi, pos.keyLo) ||
      thoughtParents(graph, pos).length > 0;
    if (!inBook && text.trim() !== "")
      throw userError(`${pos.sfenKey()} is not a position of this book: comments go on the book's positions`, {
        key: "notInBook",
        params: { sfen: pos.sfenKey() },
      });
    this.book.store.notes.setComment({ sfen: pos.sfenKey(), keyHi: pos.keyHi, keyLo: pos.keyLo }, text);
  }
}
