// A short name for a book among others of the same file name: what its scheduled backups are
// named by (so retention deletes only its own) and what a backup records it was made of.
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import path from "node:path";

/** 8 hex digits of the hash of the book's full path (through symbolic links, when it is there). */
export function bookTag(bookPath: string): string {
  let full = path.resolve(bookPath);
  try {
    full = realpathSync.native(full); // the file system's own spelling (case, on macOS)
  } catch {
    // Not there (yet): its path as given.
  }
  return createHash("sha256").update(full).digest("hex").slice(0, 8);
}
