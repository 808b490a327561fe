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

/** A value set for an option, as the engine library and the command line keep it. */
export type OptionValue = string | number | boolean;

/** How many of a combo's values a message lists (fairy-stockfish's UCI_Variant has about a hundred). */
const COMBO_LISTED = 12;

/**
 * What the engine takes for option `o`, in words: "a whole number from 1 to 512", "true or
 * false", "one of usi, uci, ucci" (null for kinds that take any text, and for a button).
 */
export function optionTakes(o: UsiOption): string | null {
  switch (o.type) {
    case "spin":
      return o.min !== undefined && o.max !== undefined
        ? `a whole number from ${o.min} to ${o.max}`
        : o.min !== undefined
          ? `a whole number of at least ${o.min}`
          : o.max !== undefined
            ? `a whole number of at most ${o.max}`
            : "a whole number";
    case "check":
      return "true or false";
    case "combo": {
      const listed = o.vars.slice(0, COMBO_LISTED).join(", ");
      return `one of ${listed}${o.vars.length > COMBO_LISTED ? `, ... (${o.vars.length} values)` : ""}`;
    }
    default:
      return null;
  }
}

/**
 * Whether a value set for an option is one the engine takes: a spin's whole number within its
 * range, a check's true or false, one of a combo's values (as engines compare them, in any case);
 * text and buttons as they are. An engine ignores another value without a word (Threads -5 and
 * Hash 999999 were saved and used, and the engine kept its default): the page marks it, and the
 * command line and every engine start refuse it (electron/engines/usi/engine.ts).
 */
export function optionValueOk(o: UsiOption, value: OptionValue | undefined): boolean {
  if (value === undefined) return true;
  switch (o.type) {
    case "spin": {
      const n = typeof value === "boolean" || (typeof value === "string" && value.trim() === "") ? NaN : Number(value);
      return Number.isInteger(n) && (o.min === undefined || n >= o.min) && (o.max === undefined || n <= o.max);
    }
    case "check":
      return value === true || value === false || value === "true" || value === "false";
    case "combo": {
      const text = String(value).toLowerCase();
      // An engine that announced no values: nothing to hold it to.
      return o.vars.length === 0 || o.vars.some((v) => v.toLowerCase() === text);
    }
    default:
      return true;
  }
}

/**
 * The refusal of a value the engine does not take, naming the engine, the option, the value
 * and what it takes; null when the engine takes it. `as` is the name the value was set under
 * when it differs from the engine's (USI_Hash set on an engine whose option is Hash).
 */
export function optionValueProblem(engine: string, o: UsiOption, value: OptionValue | undefined, as = o.name): string | null {
  if (optionValueOk(o, value)) return null;
  const named = as === o.name ? `option ${o.name}` : `option ${as} (the engine's ${o.name})`;
  return `engine ${engine}: ${named} cannot be ${JSON.stringify(value)}: it takes ${optionTakes(o) ?? "another value"}`;
}
