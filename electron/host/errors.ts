// The host's user-facing errors: what the UI shows as the user's mistake, not a fault.

import { BookLockedError } from "../store/book-store.js";
import { BookOpenError } from "../store/errors.js";
import { SfenError } from "../../shared/rules/position.js";
import { Db2016Error } from "../../shared/formats/db2016.js";

/** An error the UI translates by its key (the message is the English text). */
export function keyed(key: string, message: string, params?: Record<string, string | number>): Error {
  // Every keyed message is one the user can act on: code "user" (HTTP 400 in web mode).
  return Object.assign(new Error(message), { key, code: "user", ...(params ? { params } : {}) });
}

/**
 * Errors the user can correct (a missing or locked book, a bad SFEN or record, a refusal that
 * carries a message key such as "illegalMove" or "pruneRoot") carry code "user"; faults keep theirs.
 */
export function asUserError(e: unknown): unknown {
  if (e instanceof BookOpenError || e instanceof BookLockedError || e instanceof SfenError || e instanceof Db2016Error) {
    return Object.assign(e, { code: "user" });
  }
  if (e instanceof Error && typeof (e as { key?: unknown }).key === "string" && (e as { code?: unknown }).code === undefined) {
    return Object.assign(e, { code: "user" });
  }
  return e;
}
