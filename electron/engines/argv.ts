// A user-written engine command line as argv words and back: split the way a shell would,
// without running one, so `ssh host /path/engine` works and nothing gets expanded.

/**
 * Splits a user-written command line into argv: whitespace separates words,
 * '...' is literal, "..." allows \" and \\, a backslash outside quotes escapes
 * the next character. No variables, globs or other shell expansion.
 */
export function parseCommandLine(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else cur += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) cur += text[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in command line`);
  if (inWord) out.push(cur);
  return out;
}

/** The command line parseCommandLine reads back as `argv`: words with spaces, quotes or backslashes are quoted. */
export function formatCommandLine(argv: string[]): string {
  return argv.map((w) => (w === "" || /[\s"'\\]/.test(w) ? `"${w.replace(/(["\\])/g, "\\$1")}"` : w)).join(" ");
}

/** `command [args...]` from a user-written command line (see parseCommandLine). */
export function commandLineSpec(text: string): { command: string; args: string[] } {
  const [command, ...args] = parseCommandLine(text);
  if (command === undefined || command === "") throw new Error("empty engine command line");
  return { command, args };
}
