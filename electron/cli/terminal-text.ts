// Text from outside horu (an engine's name in a book or the library, an engine's messages)
// printed to a terminal: a control byte in it (ESC starts sequences that retitle the window,
// move the cursor, rewrite the screen or, in some terminals, answer back) is shown as \xNN instead.

/** C0 controls but line break and tab, DEL, and C1 controls (U+0080..U+009F, which some terminals obey too). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` with each control character written as its escape (`\x1b`), so the terminal shows it and obeys nothing. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
