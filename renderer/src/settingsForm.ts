// The dig settings form without a DOM: text fields from DigSettings, and back to a
// validated partial DigSettings (only the fields that changed) with a message per bad field.
import { DigSettingsSchema, type DigPolicy, type DigSettings, type MultiPvMode } from "../../shared/dig/settings";
import { Position } from "../../shared/rules/position";

export type LimitKind = "nodes" | "depth" | "movetimeMs";
export type NumberField =
  | "windowCp"
  | "kifuBonus"
  | "drawBlack"
  | "drawWhite"
  | "maxPly"
  | "maxLeafPly"
  | "breadthPlies"
  | "coverOneIn"
  | "settleFactor"
  | "evalLimit"
  | "prefetch";
export const NUMBER_FIELDS: NumberField[] = [
  "windowCp",
  "kifuBonus",
  "drawBlack",
  "drawWhite",
  "maxPly",
  "maxLeafPly",
  "breadthPlies",
  "coverOneIn",
  "settleFactor",
  "evalLimit",
  "prefetch",
];

export interface SettingsForm {
  root: string;
  policy: DigPolicy;
  limitKind: LimitKind;
  limitValue: string;
  /** MultiPV: a fixed K, or one of the dig's own policies (shared/dig/settings.ts). */
  multipvMode: MultiPvMode | "fixed";
  multipv: string;
  windowCp: string;
  kifuBonus: string;
  drawBlack: string;
  drawWhite: string;
  maxPly: string;
  maxLeafPly: string;
  breadthPlies: string;
  coverOneIn: string;
  settleFactor: string;
  evalLimit: string;
  prefetch: string;
}

export type FormField = "root" | "limitValue" | "multipv" | NumberField;

/** Why a field is refused: not an integer in [min, max], or a root that cannot be read (detail). */
export type FieldError =
  { kind: "range"; min: number; max: number } | { kind: "root"; detail: string; problem: RootProblem; params: Record<string, string> };

/** What is wrong with a root, for a message in the UI's language (the detail is the parser's English). */
export type RootProblem = "empty" | "moveNotUsi" | "moveIllegal" | "board" | "side" | "hands" | "illegal" | "ply" | "unreadable";

/** The kind of a root's problem from the parser's message, with what the message names (a move and its number). */
export function classifyRoot(detail: string): { problem: RootProblem; params: Record<string, string> } {
  const move = /^move (\d+) "([^"]*)" is (not a USI move|illegal)/.exec(detail);
  if (move) return { problem: move[3] === "illegal" ? "moveIllegal" : "moveNotUsi", params: { n: move[1]!, move: move[2]! } };
  if (detail === "empty") return { problem: "empty", params: {} };
  if (/^board/.test(detail)) return { problem: "board", params: {} };
  if (/side to move/.test(detail)) return { problem: "side", params: {} };
  if (/^hands|no hands field/.test(detail)) return { problem: "hands", params: {} };
  if (/has no move|pawns on file|kings|too many|in check/.test(detail)) return { problem: "illegal", params: {} };
  if (/move number/.test(detail)) return { problem: "ply", params: {} };
  return { problem: "unreadable", params: {} };
}

/** Integer ranges of the number fields, as the schema has them (kept beside it by a unit test). */
export const RANGES: Record<NumberField | "nodes" | "depth" | "movetimeMs" | "multipv", [number, number]> = {
  nodes: [1, Number.MAX_SAFE_INTEGER],
  depth: [1, 127],
  movetimeMs: [1, Number.MAX_SAFE_INTEGER],
  multipv: [1, 600],
  windowCp: [0, 64000],
  kifuBonus: [0, 32000],
  drawBlack: [-32000, 32000],
  drawWhite: [-32000, 32000],
  maxPly: [1, 1024],
  maxLeafPly: [0, 1024],
  breadthPlies: [0, 64],
  coverOneIn: [0, 1_000_000],
  settleFactor: [0, 64],
  evalLimit: [0, 32000],
  prefetch: [0, 64],
};

export function formFromSettings(s: DigSettings): SettingsForm {
  const kind: LimitKind = "nodes" in s.limit ? "nodes" : "depth" in s.limit ? "depth" : "movetimeMs";
  const limitValue = "nodes" in s.limit ? s.limit.nodes : "depth" in s.limit ? s.limit.depth : s.limit.movetimeMs;
  return {
    root: s.root,
    policy: s.policy,
    limitKind: kind,
    limitValue: String(limitValue),
    multipvMode: typeof s.multipv === "number" ? "fixed" : s.multipv,
    multipv: typeof s.multipv === "number" ? String(s.multipv) : "4",
    windowCp: String(s.windowCp),
    kifuBonus: String(s.kifuBonus),
    drawBlack: String(s.drawBlack),
    drawWhite: String(s.drawWhite),
    maxPly: String(s.maxPly),
    maxLeafPly: String(s.maxLeafPly),
    breadthPlies: String(s.breadthPlies),
    coverOneIn: String(s.coverOneIn),
    settleFactor: String(s.settleFactor),
    evalLimit: String(s.evalLimit),
    prefetch: String(s.prefetch),
  };
}

/** A dig root as the host reads it: "startpos", "startpos moves ...", "sfen ... [moves ...]" or a bare SFEN. */
export function checkRoot(root: string): string | null {
  const text = root.trim();
  if (!text) return "empty";
  try {
    if (text.startsWith("startpos") || text.startsWith("sfen ") || text.startsWith("position ")) Position.fromUsi(text);
    else Position.fromSfen(text);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function integer(text: string, [min, max]: [number, number]): number | FieldError {
  const t = text.trim();
  const n = /^[-+]?\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) return { kind: "range", min, max };
  return n;
}

export interface FormResult {
  /** The changed fields, valid; empty when nothing changed. */
  patch: Partial<DigSettings>;
  errors: Partial<Record<FormField, FieldError>>;
}

/** Validates the form against the current settings; the patch holds only what differs. */
export function settingsPatch(form: SettingsForm, current: DigSettings): FormResult {
  const errors: FormResult["errors"] = {};
  const next: Record<string, unknown> = {};

  const rootProblem = checkRoot(form.root);
  if (rootProblem) errors.root = { kind: "root", detail: rootProblem, ...classifyRoot(rootProblem) };
  else next.root = form.root.trim();
  next.policy = form.policy;

  const lv = integer(form.limitValue, RANGES[form.limitKind]);
  if (typeof lv === "number") next.limit = { [form.limitKind]: lv };
  else errors.limitValue = lv;

  if (form.multipvMode !== "fixed") next.multipv = form.multipvMode;
  else {
    const k = integer(form.multipv, RANGES.multipv);
    if (typeof k === "number") next.multipv = k;
    else errors.multipv = k;
  }

  for (const f of NUMBER_FIELDS) {
    const v = integer(form[f], RANGES[f]);
    if (typeof v === "number") next[f] = v;
    else errors[f] = v;
  }

  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) {
    if (JSON.stringify(v) !== JSON.stringify(current[k as keyof DigSettings])) patch[k] = v;
  }
  // The schema has the last word (a mismatch here is a bug in RANGES, not the user's).
  const parsed = DigSettingsSchema.partial().safeParse(patch);
  if (!parsed.success) throw new Error(`settings form: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return { patch: parsed.data, errors };
}
