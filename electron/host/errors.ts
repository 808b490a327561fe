// Which of the errors the services throw are the user's to correct (the UI shows them as a
// mistake to fix, HTTP 400 in web mode) rather than faults; made with shared/api/user-error.ts.

import { BookLockedError } from "../store/book-store.js";
import { BookDataError, BookOpenError } from "../store/errors.js";
import { SfenError } from "../../shared/rules/position.js";
import { Db2016Error } from "../../shared/formats/db2016.js";
import { asUserError } from "../../shared/api/user-error.js";

/** A missing or locked book, a bad SFEN or record: marked code "user"; faults keep theirs (refusals are made as user errors). */
export function userErrorIfCorrectable(e: unknown): unknown {
  if (e instanceof BookDataError) return asUserError(e, { key: "bookDataDamaged", params: { detail: e.message } });
  if (e instanceof BookOpenError || e instanceof BookLockedError || e instanceof SfenError || e instanceof Db2016Error)
    return asUserError(e);
  return e;
}
