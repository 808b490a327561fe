// Whether two paths name one file: the same device and inode (hard links, symlinks, other
// spellings of a path); a path that cannot be read (not there yet) by its resolved text.
import { statSync } from "node:fs";
import path from "node:path";

export function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a),
      sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}
