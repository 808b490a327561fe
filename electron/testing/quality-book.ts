// A hand-made book whose right answers are known, in a real file, for the quality tests
// (electron/book/quality.test.ts, electron/host/quality-session.test.ts).
import { BookStore } from "../store/index.js";
import { Position } from "../../shared/rules/position.js";

const at = (moves: string): Position => Position.fromUsi(`startpos${moves ? ` moves ${moves}` : ""}`);

/**
 * The hand-made book of shared/book/quality.test.ts, in a real file: black's book plays 2g2f,
 * the engine alone 7g7f. `rootImported`: the root's moves came from an imported file.
 */
export function writeQualityBook(file: string, o: { rootImported?: boolean } = {}): void {
  const store = BookStore.create(file);
  const put = (moves: string, cands: Array<[string, number]>) => {
    const pos = at(moves);
    store.thoughts.add({
      sfen: pos.sfenKey(),
      keyHi: pos.keyHi,
      keyLo: pos.keyLo,
      candidates: cands.map(([move, value]) => ({ move, value, depth: 10, pv: [move] })),
      provenance:
        o.rootImported && moves === ""
          ? { kind: "import", file: "theirs.db" }
          : { kind: "engine", engine: "hand", nodes: 1000, depth: 10, timeMs: 1 },
      thoughtAt: Date.now(),
    });
  };
  store.settings.setMany({ limit: { nodes: 1000 } });
  put("", [
    ["7g7f", 30],
    ["2g2f", 20],
    ["5g5f", -100],
  ]);
  put("2g2f", [
    ["8c8d", 10],
    ["3c3d", 0],
    ["4a3b", -100],
  ]);
  // After 2g2f 8c8d black's 2f2e leaves the book: a leaf worth 45 for black, which makes 2g2f the minimax best (45 > 30).
  put("2g2f 8c8d", [["2f2e", 45]]);
  put("2g2f 3c3d", [
    ["2f2e", 80],
    ["7g7f", 20],
  ]);
  store.close();
}
