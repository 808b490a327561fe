// Small books written by hand for scenario tests: named nodes, USI moves, values.
import { BookGraph, NODE_DECLARATION_WIN, NODE_IN_CHECK, NODE_NO_MOVES, NODE_WHITE } from "../book/graph.js";
import { parseUsiMove } from "../rules/usi.js";
import { ChildKeys } from "./child-keys.js";

export interface HandNode {
  white?: boolean;
  /** The side to move is in check here (the move into this node gave check). */
  check?: boolean;
  noMoves?: boolean;
  declaration?: boolean;
  /** Listed moves: [usi, engine value, child node name (internal) or undefined (leaf)]. */
  moves?: Array<[string, number, string?]>;
  /** Unlisted legal moves to thought nodes: [usi, child node name]. */
  unlisted?: Array<[string, string]>;
}

function hash(s: string): [number, number] {
  let h1 = 0x811c9dc5,
    h2 = 0x01000193;
  for (let i = 0; i < s.length; i++) {
    h1 = Math.imul(h1 ^ s.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 ^ s.charCodeAt(i), 2246822519) >>> 0;
  }
  return [h1, h2 ^ (Math.imul(h1, 3266489917) >>> 0)];
}

export interface HandBook {
  graph: BookGraph;
  id: (name: string) => number;
  /** The key of the leaf child reached by `usi` from node `name`. */
  leafKey: (name: string, usi: string) => [number, number];
  nameOf: (id: number) => string;
  /** The child keys of the listed moves (the graph keeps none). */
  keys: ChildKeys;
}

export function handBook(spec: Record<string, HandNode>): HandBook {
  const g = new BookGraph();
  const key = (name: string) => hash("node:" + name);
  const leafKey = (name: string, usi: string) => hash("leaf:" + name + ":" + usi);
  const mv = (usi: string) => {
    const m = parseUsiMove(usi);
    if (m === null) throw new Error("bad move " + usi);
    return m;
  };
  const ids = new Map<string, number>();
  const keys = new ChildKeys();
  for (const [name, n] of Object.entries(spec)) {
    const [keyHi, keyLo] = key(name);
    const flags =
      (n.white ? NODE_WHITE : 0) |
      (n.check ? NODE_IN_CHECK : 0) |
      (n.noMoves ? NODE_NO_MOVES : 0) |
      (n.declaration ? NODE_DECLARATION_WIN : 0);
    const listed = (n.moves ?? []).map(([usi, value, to]) => {
      const [childHi, childLo] = to ? key(to) : leafKey(name, usi);
      return { move: mv(usi), value, childHi, childLo };
    });
    const input = { keyHi, keyLo, flags, listed };
    keys.record(input);
    ids.set(name, g.addNode(input));
  }
  for (const [name, n] of Object.entries(spec)) {
    const all = [
      ...(n.moves ?? []).map(([usi, , to]) => [usi, to ? key(to) : leafKey(name, usi)] as const),
      ...(n.unlisted ?? []).map(([usi, to]) => [usi, key(to)] as const),
    ];
    g.linkForward(ids.get(name)!, {
      count: all.length,
      moves: all.map(([u]) => mv(u)),
      childHi: all.map(([, k]) => k[0]),
      childLo: all.map(([, k]) => k[1]),
    });
  }
  const names = [...ids.keys()];
  return {
    graph: g,
    id: (name) => {
      const i = ids.get(name);
      if (i === undefined) throw new Error("no node " + name);
      return i;
    },
    leafKey,
    nameOf: (id) => names[id],
    keys,
  };
}
