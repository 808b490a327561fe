// Where an export may write, decided before a byte is written: never over the open book, never
// over any SQLite file (a horu book, someone's database), never over a folder, and over an
// existing file only when the user said so. Relative paths resolve against a stated folder
// (the open book's folder in the UI, the working directory in the CLI), so a typed name never
// lands in the server's working directory unannounced.

import { closeSync, lstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { userError } from "../../shared/api/user-error.js";
import { sameFile } from "../paths/same-file.js";

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
const SIDE_FILES = ["-wal", "-shm", "-journal"];

export interface ExportTarget {
  /** The absolute path that would be written. */
  path: string;
  /** The folder relative paths were resolved against. */
  folder: string;
  exists: boolean;
  /** Why writing there is refused whatever the user says, or null. */
  refused: string | null;
  /** The refusal's message key and parameters, which the UI translates (renderer/src/i18n.ts "err.<key>"). */
  refusedKey?: string;
  refusedParams?: Record<string, string>;
}

type Refusal = { message: string; key: string; params: Record<string, string> };

/** A file name's longest (bytes): file systems take 255, and the temporary file beside it adds some. */
const MAX_NAME_BYTES = 200;

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether the file at p starts with SQLite's header (a horu book, or any SQLite database). */
export function isSqliteFile(p: string): boolean {
  let fd: number;
  try {
    fd = openSync(p, "r");
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_MAGIC);
  } finally {
    closeSync(fd);
  }
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // Not there yet: resolve its folder (which may be a symlink) and keep the name.
    try {
      return path.join(realpathSync(path.dirname(p)), path.basename(p));
    } catch {
      return path.resolve(p);
    }
  }
}

/**
 * Where `target` resolves and whether an export may write it; `openBook` is the book being
 * exported (or open), if any, or with `source: "input"` the file a conversion reads.
 */
export function planExportTarget(
  target: string,
  folder: string,
  openBook: string | null,
  source: "open book" | "input" = "open book",
): ExportTarget {
  const abs = path.resolve(folder, target);
  const plan = (exists: boolean, refused: Refusal | null): ExportTarget =>
    refused
      ? { path: abs, folder, exists, refused: refused.message, refusedKey: refused.key, refusedParams: refused.params }
      : { path: abs, folder, exists, refused: null };
  const bookReal = openBook ? real(openBook) : null;
  const targetReal = real(abs);
  if (bookReal) {
    for (const side of ["", ...SIDE_FILES]) {
      if (targetReal === bookReal + side || sameFile(abs, openBook + side))
        return plan(true, {
          message:
            source === "input"
              ? `${abs} is the input${side ? `'s ${side.slice(1)} file` : ""}: writing there would destroy it; choose another file`
              : `${abs} is the open book${side ? ` (its ${side.slice(1)} file)` : ""}: exporting there would destroy it; choose another file`,
          key: "exportOpenBook",
          params: { path: abs },
        });
    }
  }
  let st: ReturnType<typeof statSync> | null;
  try {
    st = statSync(abs);
  } catch {
    st = null;
  }
  if (st?.isDirectory())
    return plan(true, {
      message: `${abs} is a folder: give a file name ending in .db, .bin, .ybb or .sbk`,
      key: "exportFolder",
      params: { path: abs },
    });
  // A link is never written through nor replaced (a dangling one too: statSync sees nothing there).
  let isLink: boolean;
  try {
    isLink = lstatSync(abs).isSymbolicLink();
  } catch {
    isLink = false;
  }
  if (isLink)
    return plan(true, {
      message: `${abs} is not a regular file (a link): an export never writes through or replaces a link; choose another file`,
      key: "exportNotRegular",
      params: { path: abs },
    });
  // Only a regular file is ever replaced: never a device (/dev/null), a FIFO or a socket, nor a link to one.
  if (st && !st.isFile())
    return plan(true, {
      message: `${abs} is not a regular file (a device, a pipe or a socket): choose another file`,
      key: "exportNotRegular",
      params: { path: abs },
    });
  const name = Buffer.byteLength(path.basename(abs));
  if (name > MAX_NAME_BYTES)
    return plan(st !== null, {
      message: `the file name is ${name} bytes long; at most ${MAX_NAME_BYTES} (the export writes a temporary file beside it)`,
      key: "exportNameTooLong",
      params: { bytes: String(name), max: String(MAX_NAME_BYTES) },
    });
  const dir = path.dirname(abs);
  if (!st && !isFolder(dir))
    return plan(false, {
      message: `${dir} is not a folder: create it first, or choose another place`,
      key: "exportNoFolder",
      params: { dir },
    });
  if (st && isSqliteFile(abs))
    return plan(true, {
      message: `${abs} is a horu book or another SQLite database, not an exported book: exporting there would destroy it; choose another file`,
      key: "exportSqlite",
      params: { path: abs },
    });
  for (const side of SIDE_FILES) {
    if (abs.endsWith(side) && isSqliteFile(abs.slice(0, -side.length)))
      return plan(st !== null, {
        message: `${abs} belongs to the SQLite database ${abs.slice(0, -side.length)}: choose another file`,
        key: "exportSideFile",
        params: { path: abs, db: abs.slice(0, -side.length) },
      });
  }
  return plan(st !== null, null);
}

/** Throws the reason an export may not write `t` (refused, or existing without `overwrite`). */
export function assertExportTarget(t: ExportTarget, overwrite: boolean, forceHint: string): void {
  if (t.refused) throw userError(t.refused, { key: t.refusedKey, params: t.refusedParams });
  if (t.exists && !overwrite) throw userError(`${t.path} already exists: ${forceHint}`, { key: "exportExists", params: { path: t.path } });
}
