// A benchmark digs a copy of a big book, never the book itself. The copy takes along what a
// dig's close (or `horu bench book`, an import) leaves beside it: the graph snapshot, or the
// open rebuilds the graph (minutes at 15M), and the selection's bounds, or the first selection
// searches the whole book.
import { copyFileSync, existsSync } from "node:fs";
import { snapshotPath } from "../../book/graph-snapshot.js";
import { boundsPath } from "../../book/selection-bounds.js";

export function copyBook(from: string, to: string): void {
  copyFileSync(from, to);
  if (existsSync(snapshotPath(from))) copyFileSync(snapshotPath(from), snapshotPath(to));
  if (existsSync(boundsPath(from))) copyFileSync(boundsPath(from), boundsPath(to));
}
