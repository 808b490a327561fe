// The settle thread (bundled as dist/settle-worker.cjs): reads the book's thoughts through
// its own read-only connection, computes the export's minimax over them and answers the
// round: the positions the book plays into, likeliest first, whose think was shallower than
// half the deep limit (shared/book/settle.ts). An imported position is never among them.
import { parentPort, workerData } from "node:worker_threads";
import { BookStore } from "../store/index.js";
import { DEFAULT_PLAYED, bookLine, playedPositions, type QMove } from "../../shared/book/quality.js";
import { playChoice, settleRound } from "../../shared/book/settle.js";
import { Position } from "../../shared/rules/position.js";
import { minimaxBook } from "./book-minimax.js";
import type { SettleWorkerData, SettleWorkerMessage } from "./settle-thread.js";

const port = parentPort;
if (!port) throw new Error("settle-worker.ts runs as a worker thread (see settleRoundInThread)");
const data = workerData as SettleWorkerData;
const post = (m: SettleWorkerMessage) => port.postMessage(m);

let store: BookStore | null = null;
try {
  store = BookStore.open(data.book, { readonly: true });
  const raw = new Map<string, QMove[]>();
  const imported = new Set<string>();
  const thinkNodes = new Map<string, number>();
  for (const t of store.thoughts.iterate()) {
    raw.set(
      t.sfen,
      t.candidates.map((c) => ({ move: c.move, value: c.value, depth: c.depth })),
    );
    if (t.provenance.kind === "engine") thinkNodes.set(t.sfen, t.provenance.nodes);
    else imported.add(t.sfen);
  }
  const s = data.settings;
  const book = minimaxBook(raw, imported, { drawBlack: s.drawBlack, drawWhite: s.drawWhite });
  const root = Position.fromSfen(data.root);
  const lookup = (k: string) => book.get(k);
  const choice = playChoice(s);
  const played = playedPositions({ rootSfen: data.root, lookup }, root, { ...DEFAULT_PLAYED, choice });
  post({
    kind: "done",
    round: settleRound(played, (sfen) => thinkNodes.get(sfen), data.digNodes, data.options),
    line: bookLine(root, lookup, choice),
    positions: raw.size,
  });
} catch (e) {
  post({ kind: "error", message: e instanceof Error ? e.message : String(e) });
} finally {
  store?.close();
}
