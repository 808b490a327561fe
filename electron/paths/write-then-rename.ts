// A file written beside its name, then renamed in: a reader (or a crash) never finds half a
// file under the name. Caches beside a book (graph snapshot, selection bounds) use it.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";

/**
 * Writes `file` through `fill`, which hands its bytes to `put` (any size: written in pieces
 * of at most 1 GiB, one write of more than 2 GiB being refused); `fsync` before the rename
 * when asked. Returns the bytes written. On an error the temporary file is removed.
 */
export function writeThenRename(
  file: string,
  fill: (put: (bytes: ArrayBufferView) => void) => void,
  opts: { fsync?: boolean } = {},
): number {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  let total = 0;
  try {
    fill((v) => {
      const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      for (let at = 0; at < b.length;) at += writeSync(fd, b, at, Math.min(1 << 30, b.length - at));
      total += b.length;
    });
    if (opts.fsync) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
  return total;
}
