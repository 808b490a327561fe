// With CI=true a test never skips silently: what it needs (a real engine, the browser,
// a tmpfs) is installed by .ci/run, so its absence is an error there.
// Locally a missing part still skips, with the reason in the test's name.

/** Whether CI=true (or 1) is set, as .ci/run does. */
export function onCI(): boolean {
  return /^(true|1)$/i.test(process.env.CI ?? "");
}

/**
 * For describe.skipIf / it.skipIf: true (skip) when `present` is false, except on CI,
 * where it throws, so the test file fails with the reason instead of being skipped.
 */
export function missing(present: boolean, what: string): boolean {
  if (present) return false;
  if (onCI()) throw new Error(`CI=true and ${what} is missing: the tests that need it would be skipped, so they fail instead`);
  return true;
}
