// Synthetic DB2016 books of a real book's shape, for benchmarks and tests: positions
// reached by play from the start position, each listing 4-8 candidate moves with values,
// most of them leaves. Moves are chosen by a fixed preference per move (plus noise), so the
// same moves recur in other orders and the book has transpositions, as dug books do.

import { Position } from "../rules/position.js";
import { xorshift32 as rng } from "../util/rng.js";

/** A compact synthetic book: block i has moves moveStart[i] .. moveStart[i+1]. */
export interface SyntheticBook {
  sfens: string[];
  moveStart: Int32Array;
  moves: Uint16Array;
  values: Int16Array;
}

/** Grows a book of `positions` positions by expanding random frontier children. */
export function makeSyntheticBook(positions: number, seed = 1): SyntheticBook {
  const random = rng(seed);
  const preference = new Float64Array(1 << 15).map(() => random());
  const sfens: string[] = [];
  const moveStart = new Int32Array(positions + 1);
  const moves = new Uint16Array(positions * 8);
  const values = new Int16Array(positions * 8);
  let moveCount = 0;
  // Frontier children not yet in the book, as (parent block, move): no strings kept.
  let fParent = new Int32Array(1 << 16);
  let fMove = new Uint16Array(1 << 16);
  let fLen = 0;
  const seen = new Set<number>();
  const keyOf = (hi: number, lo: number) => hi * 2097152 + (lo >>> 11);
  const legal = new Uint16Array(600);
  const order: number[] = [];
  const key = new Uint32Array(2);

  let pos = Position.startpos();
  seen.add(keyOf(pos.keyHi >>> 0, pos.keyLo >>> 0));
  for (let id = 0; id < positions; id++) {
    if (id > 0) {
      if (fLen === 0) break;
      const pick = Math.floor(random() * fLen);
      const parent = fParent[pick];
      const m = fMove[pick];
      fParent[pick] = fParent[--fLen];
      fMove[pick] = fMove[fLen];
      pos = Position.fromSfen(sfens[parent]);
      pos.doMove(m);
    }
    sfens.push(pos.toSfen(true));
    moveStart[id] = moveCount;
    const n = pos.generateLegal(legal);
    order.length = 0;
    for (let k = 0; k < n; k++) order.push(k);
    const noise = new Float64Array(n).map(() => random() * 0.3);
    order.sort((a, b) => preference[legal[b]] + noise[b] - (preference[legal[a]] + noise[a]));
    const want = Math.min(n, 4 + Math.floor(random() * 5));
    const base = Math.round((random() - 0.5) * 600);
    for (let k = 0; k < want; k++) {
      const m = legal[order[k]];
      moves[moveCount] = m;
      values[moveCount] = base - k * 20 + Math.round((random() - 0.5) * 100);
      moveCount++;
      pos.keyAfter(m, key);
      const kk = keyOf(key[0], key[1]);
      if (seen.has(kk)) continue;
      seen.add(kk);
      if (fLen === fParent.length) {
        const p2 = new Int32Array(fLen * 2);
        p2.set(fParent);
        fParent = p2;
        const m2 = new Uint16Array(fLen * 2);
        m2.set(fMove);
        fMove = m2;
      }
      fParent[fLen] = id;
      fMove[fLen] = m;
      fLen++;
    }
  }
  moveStart[sfens.length] = moveCount;
  return { sfens, moveStart: moveStart.slice(0, sfens.length + 1), moves: moves.slice(0, moveCount), values: values.slice(0, moveCount) };
}
