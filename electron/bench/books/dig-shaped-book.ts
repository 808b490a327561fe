// A big real-position book of a dug book's shape, written straight into the store's
// tables: the 15M-position book of the open benchmark and the frames check. Games are
// real (every position reached by legal moves from the start position, stored as the
// store stores it). Values are made up (noise around the parent's), or with values "horu"
// a real evaluation: each listed move gets horu's quiescence value of the position it
// leads to (horu-values.ts), and the listed moves are ranked by it, best first, so the
// main lines follow horu's best listed move. Which moves are listed, and the budget
// handed down them, are the same either way.
//
// Shape: each thought position lists 4-8 candidates (ordered by a fixed preference per
// move plus noise, so the same moves recur in other orders and transpose), and hands its
// budget of positions down the candidates in geometric shares: most to the best move,
// less to each next one. The book is deep along its main lines and bushy near them, as a
// dig makes it. A child already thought is a transposition: it is linked, not grown again.
//
// Written depth-first with one Position (do/undo, no SFEN parsing), rows inserted in id
// order with the file's journal off and a big page cache; the file is put back into WAL
// mode at the end. The graph is built on the way, as a rebuild would build it (each node
// by link.ts's nodeInput from the position's row and the legal moves generated here, then
// every node's legal moves linked, the positions replayed along the recorded tree), and
// saved as the book's graph snapshot: a 15M book then needs no 25-minute rebuild before it
// opens. Tests check that graph against a rebuild from the rows.
//
// The nodes come from nodeInput, the product's one way to make a node, rather than flags
// built here: a graph that drifted from what the product builds would measure the wrong
// thing. It costs about an eighth more CPU than the hand-built nodes did (100k positions,
// without the snapshot: 1.74 s -> 1.97 s, the legal moves passed in, not generated twice).
import Database from "better-sqlite3";
import { OpenBook } from "../../book/open-book.js";
import { parseRoot } from "../../../shared/dig/root.js";
import { Position } from "../../../shared/rules/position.js";
import { moveToUsi } from "../../../shared/rules/usi.js";
import { BookGraph } from "../../../shared/book/graph.js";
import { legalMoves, nodeInput } from "../../../shared/book/link.js";
import { BookStore } from "../../store/book-store.js";
import { snapshotPath, storeStamp, writeSnapshot } from "../../book/graph-snapshot.js";
import { rng } from "../../../shared/util/rng.js";
import { keyToInt64 } from "../../store/keys.js";
import { KING } from "../../../shared/rules/types.js";
import { HoruMoveValues } from "./horu-values.js";

/** Where a dig-shaped book's values come from: made up, or horu's own evaluation. */
export type DigShapedValues = "noise" | "horu";

/** The board move that takes a piece straight back (none for drops and promotions). */
function reverseOf(m: number): number {
  const to = m & 127,
    from = (m >> 7) & 127;
  return from >= 81 || m & (1 << 14) ? -1 : (to << 7) | from;
}

export interface DigShapedOptions {
  seed?: number;
  /** Share of a node's remaining budget its best move gets (the rest goes down the list). */
  mainShare?: number;
  onProgress?: (done: number) => void;
  /** Also save the graph snapshot beside the book (default true). */
  snapshot?: boolean;
  /** Made-up values (default) or horu's quiescence values. */
  values?: DigShapedValues;
  /** The root position's SFEN (default the start position; tests start where one side is ahead). */
  root?: string;
}

export function writeDigShapedBook(
  file: string,
  positions: number,
  o: DigShapedOptions = {},
): { ms: number; positions: number; edges: number; transpositions: number; maxPly: number; evalNodes: number } {
  const t0 = performance.now();
  const horu = o.values === "horu" ? new HoruMoveValues() : null;
  // The book's root setting is the root grown from, so a dig or selection starts there too.
  const rootPosition = () => (o.root === undefined ? Position.startpos() : parseRoot(o.root));
  // Made-up values: nothing to settle (a new book's default), as the earlier figures' books had.
  OpenBook.create(file, { settleFactor: 0, ...(o.root === undefined ? {} : { root: o.root }) }).close();
  const random = rng(o.seed ?? 9);
  const mainShare = o.mainShare ?? 0.6;
  const preference = new Float64Array(1 << 16).map(() => random());
  const db = new Database(file);
  db.pragma("journal_mode = DELETE");
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -1048576"); // 1 GiB: most of the sfen and key indexes stay in memory
  const insPos = db.prepare(
    "INSERT INTO positions (id, sfen, key, state, thought_at, source, file) VALUES (?, ?, ?, 'thought', ?, 'import', 'dig-shaped')",
  );
  const insMoves: Database.Statement[] = [];
  for (let n = 1; n <= 8; n++)
    insMoves[n] = db.prepare(
      `INSERT INTO moves (position_id, rank, move, value, depth, pv, count) VALUES ${Array(n).fill("(?, ?, ?, ?, 20, ?, NULL)").join(", ")}`,
    );
  // The graph is also the set of positions thought so far.
  const graph = new BookGraph(Math.max(1024, positions));
  // The tree the walk made (by row id): each position's parent and the move from it.
  const parentOf = new Int32Array(positions + 1);
  const moveOf = new Uint16Array(positions + 1);
  const now = Date.now();
  let id = 0;
  let edges = 0;
  let transpositions = 0;
  let maxPly = 0;
  let inTx = 0;
  db.exec("BEGIN");
  const commitSometimes = () => {
    if (++inTx < 50_000) return;
    db.exec("COMMIT");
    db.exec("BEGIN");
    inTx = 0;
    o.onProgress?.(id);
  };
  const legalBuf: Uint16Array[] = [];
  const scoreBuf: Float64Array[] = [];
  const path: number[] = [];
  const gauss = () => (random() + random() + random() + random() - 2) * 1.7;

  // Thinks `pos` (its value v for the side to move) and grows up to `budget` positions
  // under it, itself included; returns how many it grew.
  const grow = (pos: Position, budget: number, v: number, ply: number, parent: number): number => {
    if (id === positions) return 0;
    const legal = (legalBuf[ply] ??= new Uint16Array(600));
    const n = pos.generateLegal(legal);
    if (n === 0) return 0;
    ++id;
    parentOf[id] = parent;
    moveOf[id] = parent > 0 ? path[ply - 1] : 0;
    if (ply > maxPly) maxPly = ply;
    const want = Math.min(n, 4 + Math.floor(random() * 5));
    // The `want` best by preference plus noise, by selection (n is 30-100, want at most 8).
    const score = (scoreBuf[ply] ??= new Float64Array(600));
    // Kings mostly stay home, and a piece does not go straight back where it came from (a
    // dug book has few cycles), else a fixed taste per move plus noise.
    const back = ply >= 2 ? reverseOf(path[ply - 2]) : -1;
    for (let k = 0; k < n; k++) {
      const m = legal[k],
        from = (m >> 7) & 127;
      score[k] = preference[m] + random() * 0.3 - (m === back ? 5 : 0) - (from < 81 && (pos.board[from] & 15) === KING ? 0.4 : 0);
    }
    const order: number[] = [];
    for (let k = 0; k < want; k++) {
      let best = k;
      for (let j = k + 1; j < n; j++) if (score[j] > score[best]) best = j;
      [score[k], score[best]] = [score[best], score[k]];
      [legal[k], legal[best]] = [legal[best], legal[k]];
      order.push(legal[k]);
    }
    const args: unknown[] = [];
    const values: number[] = [];
    const candidates: { move: string; value: number }[] = [];
    if (horu) {
      // Ranked by value as an engine's MultiPV lines are (ties keep the preference order).
      const valued = order.map((m) => ({ m, value: horu.value(pos, m) }));
      valued.sort((a, b) => b.value - a.value);
      valued.forEach((x, k) => ((order[k] = x.m), values.push(x.value)));
    }
    for (let k = 0; k < want; k++) {
      const value = horu ? values[k] : Math.max(-3000, Math.min(3000, Math.round(v + gauss() * 20 - k * 25 - random() * 20)));
      if (!horu) values.push(value);
      const usi = moveToUsi(order[k]);
      args.push(id, k, usi, value, usi);
      candidates.push({ move: usi, value });
    }
    // The node as the product makes it of this row, from the legal moves generated above.
    const node = nodeInput(pos, candidates, legal.subarray(0, n));
    if (node.skipped.length) throw new Error(`dig-shaped book: listed moves not legal: ${node.skipped.join(" ")}`);
    const listed = node.input.listed;
    if (graph.addNode(node.input) !== id - 1) throw new Error("dig-shaped book: graph ids out of step with row ids");
    const self = id;
    insPos.run(id, pos.sfenKey(), keyToInt64(pos.keyHi, pos.keyLo), now);
    insMoves[want].run(args);
    edges += want;
    commitSometimes();
    let left = budget - 1;
    let grown = 1;
    // Shares of the remaining budget: mainShare to the first, then geometric down the list.
    for (let k = 0; k < want && left > 0; k++) {
      const share = k === want - 1 ? 1 : mainShare;
      const give = Math.max(k === 0 ? 1 : 0, Math.round(left * share));
      if (give === 0) continue;
      if (graph.find(listed[k].childHi, listed[k].childLo) >= 0) {
        transpositions++;
        continue;
      }
      path[ply] = order[k];
      pos.doMove(order[k]);
      // Not thought yet, so not on the line here either: no repetition to check.
      const got = grow(pos, give, -values[k], ply + 1, self);
      pos.undoMove();
      left -= got;
      grown += got;
    }
    return grown;
  };

  // Budget a subtree could not use (mates, transpositions) goes to the next sibling; only
  // what the root's own moves cannot take is missing from the book (reported).
  grow(rootPosition(), positions, 30, 0, 0);
  db.exec("COMMIT");
  db.prepare("UPDATE meta SET value = ? WHERE key = 'thought_count'").run(String(id));
  db.pragma("journal_mode = WAL");
  db.close();
  o.onProgress?.(id);
  if (o.snapshot ?? true) {
    // Every node's legal moves linked (buildGraph's second pass), positions replayed along the tree.
    const pos = rootPosition();
    const stack: number[] = [];
    for (let i = 1; i <= id; i++) {
      if (i > 1) {
        while (stack.at(-1) !== parentOf[i]) {
          pos.undoMove();
          stack.pop();
        }
        pos.doMove(moveOf[i]);
      }
      stack.push(i);
      graph.linkForward(i - 1, legalMoves(pos));
    }
    const store = BookStore.open(file, { readonly: true });
    try {
      writeSnapshot(snapshotPath(file), graph, storeStamp(store));
    } finally {
      store.close();
    }
  }
  return { ms: performance.now() - t0, positions: id, edges, transpositions, maxPly, evalNodes: horu?.nodes ?? 0 };
}
