// Errors the store raises. Each names what the user needs to act on (a path, a holder,
// both colliding SFENs), so callers can print `message` as it is.
import { hostname } from "node:os";

/** Why a file could not be opened as a book. */
export type BookOpenReason =
  "missing" | "exists" | "not-sqlite" | "not-horu" | "newer-schema" | "needs-migration" | "bad-path" | "no-folder" | "hard-linked";

export class BookOpenError extends Error {
  override readonly name = "BookOpenError";
  constructor(
    readonly path: string,
    readonly reason: BookOpenReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A field of the book file that horu did not write so (a crafted or damaged book): the user's
 * to know about (HTTP 4xx, the message names the table and row), never a fault of horu's.
 */
export class BookDataError extends Error {
  override readonly name = "BookDataError";
}

/** Who holds the writer lock of a book. */
export interface LockHolder {
  pid: number;
  host: string;
  /** Epoch milliseconds when the holder opened the book. */
  since: number;
}

export class BookLockedError extends Error {
  override readonly name = "BookLockedError";
  constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    super(
      holder.pid === process.pid && holder.host === hostname()
        ? `${path} is already open for writing in this horu process (pid ${holder.pid}, since ${new Date(holder.since).toISOString()}): use the open book, or close it first`
        : `${path} is open for writing by another process (pid ${holder.pid} on ${holder.host}, since ${new Date(holder.since).toISOString()})` +
            (holder.host === hostname()
              ? // Said what to do: the refusal alone left a user asking a dig to think a position with nowhere to go.
                `: wait for it to end or stop it; while a dig runs, its page (horu dig --web) takes positions to think`
              : `; a process on another machine cannot be checked from here: if it is gone (its machine or container restarted under another name), \`horu book unlock --book ${path}\` frees the book`),
    );
  }
}

/** Two different positions hash to the same 64-bit key: the graph could not tell them apart. */
export class KeyCollisionError extends Error {
  override readonly name = "KeyCollisionError";
  constructor(
    readonly sfen: string,
    readonly existingSfen: string,
    readonly keyHi: number,
    readonly keyLo: number,
  ) {
    super(`position key ${keyHex(keyHi, keyLo)} collision: "${sfen}" has the same key as the stored "${existingSfen}"`);
  }
}

/** The disk (or the configured size limit) is full; the write was rolled back, earlier results are intact. */
export class StoreFullError extends Error {
  override readonly name = "StoreFullError";
  constructor(
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: the disk is full; the last result was not stored (earlier results are intact)`, options);
  }
}

export function keyHex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, "0") + (lo >>> 0).toString(16).padStart(8, "0");
}
