// Files horu writes or reads by name are never a link or a special file someone planted
// (docs/SECURITY.md): temporary files are created exclusively without following a link, a
// file about to be replaced must be a regular file (or absent), and a file read by path must
// be a regular file, found so before anything can block on it (a FIFO opened for reading
// waits for a writer).

import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { userError } from "../../shared/api/user-error.js";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

function kind(p: string): "absent" | "file" | "link" | "dir" | "special" {
  try {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return "link";
    if (st.isFile()) return "file";
    if (st.isDirectory()) return "dir";
    return "special";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    throw e;
  }
}

/** Whether anything is at `p`, a dangling link included. */
export function entryExists(p: string): boolean {
  return kind(p) !== "absent";
}

function notRegular(p: string, what: string): Error {
  return userError(`${p} is ${what}, not a regular file: horu neither writes through it nor reads it`, {
    key: "notRegularFile",
    params: { path: p },
  });
}

const said = { link: "a link", dir: "a folder", special: "a special file (FIFO, device or socket)" } as const;

/** Refuses to replace `p` unless it is a regular file or absent (a planted link is never followed nor replaced). */
export function checkReplaceable(p: string): void {
  const k = kind(p);
  if (k !== "absent" && k !== "file") throw notRegular(p, said[k]);
}

/**
 * A new temporary file at `p` for writing, created exclusively and never through a link: a
 * stale entry of ours at that name (a crash) is removed first (unlink removes a link, never its target).
 */
export function createTemp(p: string): number {
  const k = kind(p);
  if (k === "dir") throw notRegular(p, said.dir);
  if (k !== "absent") rmSync(p, { force: true });
  return openSync(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
}

/** Creates an empty temporary file at `p` (createTemp), closed: for writers that open it by name (SQLite). */
export function touchTemp(p: string): void {
  closeSync(createTemp(p));
}

/**
 * Opens `p` for reading only if it is a regular file: lstat first (a link to a file is
 * followed only when `followLinks`), then opened without blocking and checked again on the
 * descriptor (the name may have changed between the two).
 */
export function openRegular(p: string, opts: { followLinks?: boolean } = {}): number {
  const k = kind(p);
  if (k === "absent") throw userError(`${p} does not exist`, { key: "missingFile", params: { path: p } });
  if (k === "dir" || k === "special" || (k === "link" && !opts.followLinks)) throw notRegular(p, said[k]);
  const fd = openSync(p, constants.O_RDONLY | NONBLOCK | (opts.followLinks ? 0 : NOFOLLOW));
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(p, said.special);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
}

/** Refuses a file read by path unless it is a regular file (a link to one is followed when `followLinks`). */
export function checkRegular(p: string, opts: { followLinks?: boolean } = {}): void {
  closeSync(openRegular(p, opts));
}

/** The whole of the regular file `p` (a link to one followed): a FIFO or device is refused, never waited on. */
export function readRegular(p: string): Buffer {
  const fd = openRegular(p, { followLinks: true });
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A path named to be read that may be a file or a folder (game records are seeded from
 * folders): a FIFO, device or socket, or a link to one, is refused before anything opens it.
 */
export function checkFileOrFolder(p: string): void {
  let st;
  try {
    st = statSync(p); // stat never opens: a FIFO does not block it
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw userError(`${p} does not exist`, { key: "missingFile", params: { path: p } });
    throw e;
  }
  if (!st.isDirectory()) checkRegular(p, { followLinks: true });
}

/**
 * A folder horu is to write into (a match's): absent (made then) or a folder, a link to one
 * followed. A file, a FIFO or a link to either is refused, so mkdir fails on nothing halfway.
 */
export function checkFolderOrAbsent(p: string): void {
  let st;
  try {
    st = statSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  if (!st.isDirectory())
    throw userError(`${p} is not a folder (${st.isFile() ? "a file" : "a special file"}, or a link to one): choose a folder for it`, {
      key: "notAFolderForMatch",
      params: { path: p },
    });
}

/** Copies the regular file `from` to a new temporary `tmp` (createTemp), synced to disk. */
export function copyToTemp(from: string, tmp: string, opts: { followLinks?: boolean } = {}): void {
  const src = openRegular(from, opts);
  try {
    const dst = createTemp(tmp);
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      for (;;) {
        const n = readSync(src, buf, 0, buf.length, null);
        if (n === 0) break;
        for (let off = 0; off < n;) off += writeSync(dst, buf, off, n - off);
      }
      fsyncSync(dst);
    } finally {
      closeSync(dst);
    }
  } finally {
    closeSync(src);
  }
}
