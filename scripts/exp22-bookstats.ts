// Book shape for docs/MATCH.md's experiment: positions by ply (shortest line from the root
// through the book), the deepest ply, and the book's best line as the selection sees it.
import { OpenBook } from "../electron/book/open-book.js";

for (const file of process.argv.slice(2)) {
  const book = OpenBook.open(file, {}, { readonly: true });
  const g = book.graph;
  const root = book.rootNode;
  const dist = new Int32Array(g.nodeCount).fill(-1);
  dist[root] = 0;
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    g.forEachEdge(n, (_m, child) => {
      if (child >= 0 && dist[child] === -1) {
        dist[child] = dist[n]! + 1;
        queue.push(child);
      }
    });
  }
  const byPly = new Map<number, number>();
  for (let n = 0; n < g.nodeCount; n++) byPly.set(dist[n]!, (byPly.get(dist[n]!) ?? 0) + 1);
  const plies = [...byPly.entries()].sort((a, b) => a[0] - b[0]);
  const p = book.preview();
  console.log(
    `${file}: ${g.nodeCount} positions; by ply ${plies.map(([d, c]) => `${d}:${c}`).join(" ")}; root value ${p?.rootValue ?? "-"}; best line ${p?.line.length ?? 0} plies: ${p?.line.slice(0, 12).join(" ") ?? ""}`,
  );
  book.close();
}
