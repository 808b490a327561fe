// Parsing of the engine's handshake: `id name|author ...` and `option name ... type ...`.
// The result feeds the options form in the UI, so it keeps every option it can read.

interface OptionBase {
  name: string;
}
export type UsiOption =
  | (OptionBase & { type: "spin"; default: number; min?: number; max?: number })
  | (OptionBase & { type: "check"; default: boolean })
  | (OptionBase & { type: "combo"; default: string; vars: string[] })
  | (OptionBase & { type: "string"; default: string })
  | (OptionBase & { type: "filename"; default: string })
  | (OptionBase & { type: "button" });

export type UsiOptionType = UsiOption["type"];

const TYPES: ReadonlySet<string> = new Set(["spin", "check", "combo", "string", "filename", "button"]);
const FIELD_KEYS: ReadonlySet<string> = new Set(["default", "min", "max", "var"]);

/** USI spells an empty string default as "<empty>". */
function unempty(s: string): string {
  return s === "<empty>" ? "" : s;
}

function int(s: string | undefined): number | undefined {
  if (s === undefined || !/^[+-]?\d{1,16}$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Parses `option name <name> type <t> [default d] [min m] [max M] [var v]...`; null if it is not one. */
export function parseOptionLine(line: string): UsiOption | null {
  if (typeof line !== "string") return null;
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== "option" || tokens[1] !== "name") return null;
  // The name may contain spaces (even the word "type"): it ends at the first
  // "type <known type>" pair.
  let typeAt = -1;
  for (let i = 3; i < tokens.length - 1; i++) {
    if (tokens[i] === "type" && TYPES.has(tokens[i + 1]!)) {
      typeAt = i;
      break;
    }
  }
  if (typeAt < 0) return null;
  const name = tokens.slice(2, typeAt).join(" ");
  if (name === "") return null;
  const type = tokens[typeAt + 1] as UsiOptionType;

  // Fields: each keyword's value runs until the next keyword (values may contain spaces).
  let defaultText: string | undefined;
  let minText: string | undefined;
  let maxText: string | undefined;
  const vars: string[] = [];
  let i = typeAt + 2;
  while (i < tokens.length) {
    const key = tokens[i]!;
    if (!FIELD_KEYS.has(key)) {
      i++;
      continue;
    }
    let j = i + 1;
    // String/filename defaults are free text: only "default" ends at the end of the line.
    const freeText = key === "default" && (type === "string" || type === "filename");
    while (j < tokens.length && (freeText || !FIELD_KEYS.has(tokens[j]!))) j++;
    const value = tokens.slice(i + 1, j).join(" ");
    if (key === "default") defaultText = value;
    else if (key === "min") minText = value;
    else if (key === "max") maxText = value;
    else vars.push(value);
    i = j;
  }

  switch (type) {
    case "spin": {
      const min = int(minText);
      const max = int(maxText);
      let def = int(defaultText);
      if (def === undefined) def = min !== undefined && min > 0 ? min : max !== undefined && max < 0 ? max : 0;
      const out: UsiOption = { name, type, default: def };
      if (min !== undefined) out.min = min;
      if (max !== undefined) out.max = max;
      return out;
    }
    case "check":
      return { name, type, default: defaultText === "true" };
    case "combo": {
      const def = defaultText ?? vars[0] ?? "";
      return { name, type, default: def, vars };
    }
    case "string":
    case "filename":
      return { name, type, default: unempty(defaultText ?? "") };
    case "button":
      return { name, type };
  }
}

export type UsiId = { kind: "name"; value: string } | { kind: "author"; value: string };

/** Parses `id name ...` / `id author ...` (the value is the rest of the line). */
export function parseIdLine(line: string): UsiId | null {
  if (typeof line !== "string") return null;
  const m = /^\s*id\s+(name|author)(?:\s+(.*?))?\s*$/.exec(line);
  if (!m) return null;
  return { kind: m[1] as "name" | "author", value: m[2] ?? "" };
}

/** The text to send for a value: `setoption name <name> value <v>` (button: no value). */
export function setOptionCommand(name: string, value?: string | number | boolean): string {
  if (value === undefined) return `setoption name ${name}`;
  return `setoption name ${name} value ${typeof value === "boolean" ? (value ? "true" : "false") : String(value)}`;
}
