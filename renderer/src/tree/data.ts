// The tree's data: what the host said about each position (book.graph), kept while one book
// is open (a new book starts an empty cache), fetched when a node opens and read again when
// the host says the book changed: book.updated while a dig stores results, book.changed after
// an edit or a followed dig's progress, and every drawn node when the dig changes state.
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { GraphNodeView } from "../../../shared/api/contract";
import { hostClient, useStore } from "../store";
import { inRect, type Placed, type Rect, type TNode } from "./model";

/** Positions asked for in one book.graph call. */
export const BATCH = 64;

/** What the host said about each position of one book, with its JSON so a read that brings nothing new changes nothing. */
export class NodeCache {
  readonly nodes = new Map<string, GraphNodeView>();
  private readonly json = new Map<string, string>();
  private readonly pending = new Set<string>();
  private closed = false;

  constructor(
    /** The book's path (a new book, a new cache). */
    readonly book: string | null,
    private readonly read: (sfens: string[]) => Promise<GraphNodeView[]>,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Reads positions not cached nor on their way (all of them when forced); true when something changed. */
  async fetch(sfens: readonly string[], force: boolean): Promise<boolean> {
    const want = [...new Set(sfens)].filter((s) => force || (!this.nodes.has(s) && !this.pending.has(s)));
    let changed = false;
    for (let i = 0; i < want.length && !this.closed; i += BATCH) {
      const part = want.slice(i, i + BATCH);
      part.forEach((s) => this.pending.add(s));
      try {
        const nodes = await this.read(part);
        if (this.closed) return false; // another book opened meanwhile
        for (const n of nodes) {
          const json = JSON.stringify(n);
          if (this.json.get(n.sfen) === json) continue;
          this.nodes.set(n.sfen, n);
          this.json.set(n.sfen, json);
          changed = true;
        }
      } catch (e) {
        this.onError(e);
      } finally {
        part.forEach((s) => this.pending.delete(s));
      }
    }
    return changed && !this.closed;
  }

  /** Forgets every position but these (read again when drawn). */
  keepOnly(keep: ReadonlySet<string>): void {
    for (const s of [...this.nodes.keys()]) {
      if (!keep.has(s)) {
        this.nodes.delete(s);
        this.json.delete(s);
      }
    }
  }

  /** The book was closed or another opened: answers still on their way are dropped. */
  close(): void {
    this.closed = true;
  }
}

/** The cache of the open book and the count of reads that changed it (the layout is made again on a new count). */
export function useNodeCache(bookPath: string | null): {
  cache: NodeCache;
  version: number;
  fetchNodes: (sfens: readonly string[], force: boolean) => Promise<void>;
} {
  const [version, setVersion] = useState(0);
  // One cache per book: nothing of one book is drawn under another.
  const cache = useMemo(() => newCache(bookPath), [bookPath]);
  useEffect(() => () => cache.close(), [cache]);
  const fetchNodes = useCallback(
    async (sfens: readonly string[], force: boolean) => {
      // Only what changed rebuilds and lays out the tree (a dig's refresh mostly brings nothing new).
      if (await cache.fetch(sfens, force)) setVersion((v) => v + 1);
    },
    [cache],
  );
  return { cache, version, fetchNodes };
}

function newCache(book: string | null): NodeCache {
  return new NodeCache(
    book,
    (sfens) => hostClient().call("book.graph", { sfens }),
    (e) => useStore.setState({ error: e instanceof Error ? e.message : String(e) }),
  );
}

/** Open nodes the host has not described yet are fetched (lazy expansion), and the current node, so its parents are known. */
export function useFetchMissing(
  tree: TNode,
  placed: readonly Placed[],
  current: Placed | undefined,
  fetchNodes: (sfens: readonly string[], force: boolean) => Promise<void>,
): void {
  useEffect(() => {
    const missing = [tree.sfen, ...placed.filter((p) => p.node.expanded && !p.node.info).map((p) => p.node.sfen)];
    if (tree.expanded || !tree.info) void fetchNodes(missing, false);
    if (current && !current.node.info) void fetchNodes([current.node.sfen], false);
  }, [tree, placed, current, fetchNodes]);
}

/** What is drawn now: the layout, and the layout rectangle near the viewport. */
export interface Drawn {
  placed: readonly Placed[];
  near: Rect;
}

/**
 * Reads the drawn nodes again when the host says the book changed. `drawn` is read when a
 * refresh runs, so neither a pan nor a new layout restarts anything.
 */
export function useRefreshOnChange(
  cache: NodeCache,
  fetchNodes: (sfens: readonly string[], force: boolean) => Promise<void>,
  drawn: RefObject<Drawn>,
): void {
  const digState = useStore((s) => s.status?.state ?? null);
  const bookInfo = useStore((s) => s.book);

  /** Reads the drawn nodes again: the open ones near the viewport, or every drawn one. */
  const refresh = useCallback(
    (scope: "near" | "all"): Promise<void> => {
      const { placed, near } = drawn.current;
      if (scope === "near") {
        // The drawn nodes last read in flight first, wherever they are and open or not: their own
        // answer outranks their parent's edge (model.ts edgeState), so unread they would stay
        // marked in flight after their think was stored.
        const flying = placed.filter((p) => p.node.info?.state === "in-flight").map((p) => p.node.sfen);
        const open = placed.filter((p) => p.node.expanded && inRect(p, near)).map((p) => p.node.sfen);
        return fetchNodes([...new Set([...flying, ...open])].slice(0, BATCH * 2), true);
      }
      // Everything drawn; what is cached but not drawn is dropped, to be read again when drawn.
      cache.keepOnly(new Set(placed.map((p) => p.node.sfen)));
      return fetchNodes(
        placed.filter((p) => cache.nodes.has(p.node.sfen)).map((p) => p.node.sfen),
        true,
      );
    },
    [cache, fetchNodes, drawn],
  );

  // While digging, the host tells when results were stored (book.updated, a few a second at
  // most): the open nodes near the viewport are read again, one read at a time.
  useEffect(() => {
    let running = false;
    let again = false;
    const run = () => {
      running = true;
      void refresh("near").finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
    };
    return hostClient().onEvent((e) => {
      if (e.type !== "book.updated") return;
      if (running) again = true;
      else run();
    });
  }, [refresh]);

  // When the dig changes state (paused, stopped, finished), and when the tab opens, every
  // drawn node is read again: no think stays marked live after Stop. An edit or a followed
  // dig's progress (book.changed) reads the nearby ones again.
  const mounted = useRef(false);
  useEffect(() => {
    void refresh("all");
  }, [digState, refresh]);
  useEffect(() => {
    if (mounted.current) void refresh("near");
    mounted.current = true;
  }, [bookInfo, refresh]);
}
