// The child keys of a test graph's listed moves, kept beside it. The graph keeps none (a dig
// makes a leaf's key from its position, and finds the edges into a position from its side by
// retrograde generation); the abstract books of tests have no positions, so they are kept here.
import type { BookGraph, NodeInput, ParentLink } from "../book/graph.js";

const k = (hi: number, lo: number) => `${hi >>> 0}:${lo >>> 0}`;

export class ChildKeys {
  private readonly byEdge = new Map<string, [number, number]>();
  private readonly into = new Map<string, ParentLink[]>();

  /** Keys of every listed move of these nodes. */
  static of(inputs: Iterable<NodeInput>): ChildKeys {
    const keys = new ChildKeys();
    for (const input of inputs) keys.record(input);
    return keys;
  }

  /** Records a node's listed moves (each NodeInput the graph is given). */
  record(input: NodeInput): this {
    for (const l of input.listed) {
      const edge = `${k(input.keyHi, input.keyLo)}:${l.move}`;
      if (this.byEdge.has(edge)) continue;
      this.byEdge.set(edge, [l.childHi >>> 0, l.childLo >>> 0]);
      const child = k(l.childHi, l.childLo);
      const links = this.into.get(child) ?? [];
      links.push({ keyHi: input.keyHi >>> 0, keyLo: input.keyLo >>> 0, move: l.move });
      this.into.set(child, links);
    }
    return this;
  }

  /** The key of the child of `move` from node `node` of `g`. */
  child(g: BookGraph, node: number, move: number): [number, number] {
    const key = this.byEdge.get(`${k(g.keyHi[node]!, g.keyLo[node]!)}:${move}`);
    if (!key) throw new Error(`no listed move ${move} recorded for node ${node}`);
    return key;
  }

  /** The key of a selection's leaf. */
  leaf(g: BookGraph, s: { leaf: { node: number; move: number } }): [number, number] {
    return this.child(g, s.leaf.node, s.leaf.move);
  }

  /** The (parent, move) links of every recorded listed move into the position. */
  parents(hi: number, lo: number): ParentLink[] {
    return this.into.get(k(hi, lo)) ?? [];
  }

  /** Puts a position in flight, or takes it out, through its recorded parents. */
  fly(g: BookGraph, hi: number, lo: number, on: boolean): void {
    g.setInFlight(hi, lo, on, this.parents(hi, lo));
  }

  /** Seeds a position (kifu) through its recorded parents. */
  kifu(g: BookGraph, hi: number, lo: number): void {
    g.addKifu(hi, lo, this.parents(hi, lo));
  }
}
