// The one way to say "the user can correct this" (a missing file, a bad SFEN, a refused path):
// code "user" travels with the error to the UI (HTTP 4xx in web mode), where a fault is "failed".

export type UserError = Error & { code: "user"; key?: string; params?: Record<string, string | number> };

export interface UserErrorOptions {
  cause?: unknown;
  /** A message key the UI translates (renderer/src/i18n.ts), with its parameters; the message is the English text. */
  key?: string;
  params?: Record<string, string | number>;
}

/** A new error that is the user's to correct. */
export function userError(message: string, options: UserErrorOptions = {}): UserError {
  return asUserError(new Error(message, options.cause === undefined ? undefined : { cause: options.cause }), options);
}

/** Marks an existing error (a locked book, a bad record) as the user's to correct; it keeps its class and message. */
export function asUserError<E extends Error>(e: E, options: Pick<UserErrorOptions, "key" | "params"> = {}): E & UserError {
  return Object.assign(
    e,
    { code: "user" as const },
    options.key ? { key: options.key } : {},
    options.params ? { params: options.params } : {},
  );
}
