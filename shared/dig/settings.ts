// Dig settings: what the user chooses once per book and the dig loop follows. They are
// stored in the book (settings table), edited in the UI and given on the command line.
import { z } from "zod";

export const ThinkLimitSchema = z.union([
  z.object({ nodes: z.number().int().positive() }).strict(),
  z.object({ depth: z.number().int().min(1).max(127) }).strict(),
  z.object({ movetimeMs: z.number().int().positive() }).strict(),
]);
export type ThinkLimit = z.infer<typeof ThinkLimitSchema>;

/**
 * A think limit as stored beside a queued position (think_queue.think_limit: a ThinkLimit's
 * JSON, `{"nodes":400000}`), read once where it is read from the file. A bad one is an error
 * that says what it is, not a silent fallback to the book's limit.
 */
export function parseStoredThinkLimit(text: string, where: string): ThinkLimit {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const r = ThinkLimitSchema.safeParse(value);
  if (!r.success)
    throw new Error(`${where}: the stored think limit ${JSON.stringify(text)} is not {"nodes":n}, {"depth":n} or {"movetimeMs":n}`);
  return r.data;
}

export const DIG_POLICIES = ["tera-shock", "breadth-first"] as const;
export const DigPolicySchema = z.enum(DIG_POLICIES);
/** The MultiPV policies with a name (the other choice is a fixed K); see DigSettings.multipv. */
export const MULTIPV_MODES = ["auto", "auto-bounded", "deep-best"] as const;
export type MultiPvMode = (typeof MULTIPV_MODES)[number];
export type DigPolicy = z.infer<typeof DigPolicySchema>;

export const DigSettingsSchema = z
  .object({
    /** "startpos", "startpos moves ...", or an SFEN (with or without "sfen "). */
    root: z.string().min(1),
    /**
     * What to think next: "tera-shock", the leaf at the end of the book's PV (Super
     * Tera-Shock selection); "breadth-first", every position reachable through moves within
     * the window, level by level (all of ply n before any of ply n+1; shared/book/breadth-first.ts).
     */
    policy: DigPolicySchema,
    limit: ThinkLimitSchema,
    /**
     * Fixed MultiPV K; "auto": 4 lines at the limit, then every move at a tenth of it while the
     * 4th line is within the window (docs/DESIGN.md §4); "deep-best": one line at the limit for
     * the best move and value (a player's own search), then "auto" at a quarter of it for the
     * other moves, valued no higher than the best (shared/usi/deep-best.ts, docs/MATCH.md).
     */
    multipv: z.union([z.number().int().min(1).max(600), z.enum(MULTIPV_MODES)]),
    /** Keep candidates within this many cp of the best (docs/DESIGN.md §11.1). */
    windowCp: z.number().int().min(0).max(64000),
    /** Selection bonus for leaves into seeded game-record positions. */
    kifuBonus: z.number().int().min(0).max(32000),
    /**
     * What a draw is worth to black and to white in selection, each from its own side. The
     * search is zero-sum only when drawWhite = -drawBlack (e.g. black avoids draws at -50,
     * white welcomes them at +50); other pairs make a draw's value depend on who reaches it.
     */
    drawBlack: z.number().int().min(-32000).max(32000),
    drawWhite: z.number().int().min(-32000).max(32000),
    /** Selection's ply cap (a line that long is a draw). */
    maxPly: z.number().int().min(1).max(1024),
    /** Do not think positions deeper than this many plies from the root (0 = no limit). */
    maxLeafPly: z.number().int().min(0).max(1024),
    /**
     * With "tera-shock": first think, breadth first, every position within the window up to
     * this many plies from the root, then select by Super Tera-Shock (0 = none). The opponent's
     * likely replies near the root are what decided book-against-book matches (docs/MATCH.md).
     */
    breadthPlies: z.number().int().min(0).max(64),
    /**
     * With "tera-shock": before selecting, think the positions where the book's games would
     * leave it (the book playing its minimax move, the opponent one of its engine's moves within
     * 50 cp of its best, at most 3), likeliest first, down to those reached in 1 game in this
     * many; the rarer are left to selection (0 = off; shared/book/cover.ts).
     */
    coverOneIn: z.number().int().min(0).max(1_000_000),
    /**
     * With "tera-shock" and a node limit: every 200 positions, think the positions the book
     * plays into again at this many times the limit (at most 25 a round, likeliest first), and
     * play the book's engine's own best there unless the minimax beats it by more than 50 cp
     * (0 = off; shared/book/settle.ts, docs/MATCH.md).
     */
    settleFactor: z.number().int().min(0).max(64),
    /** Do not dig below a leaf whose value is beyond +-evalLimit (0 = no limit). */
    evalLimit: z.number().int().min(0).max(32000),
    /**
     * Positions selected ahead of the free engines, so an engine does not wait for a
     * selection. On a huge book a selection now and then outlasts a think: the waiting
     * positions cover it, and the selections after it, over results taken in together, are
     * short (on a 15M made-up book, interleaved 120 s digs: 26.9-27.0 positions/s with 4,
     * 23.4-24.0 with 1).
     */
    prefetch: z.number().int().min(0).max(64),
    /** An engine that gives no bestmove within this many seconds is restarted (the position is tried again). */
    thinkTimeoutSec: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600),
  })
  .strict();
export type DigSettings = z.infer<typeof DigSettingsSchema>;

/**
 * A new book's settings. Deep best with settling is the dig whose books beat breadth first's,
 * no book and their own engine's moves over eighty openings (docs/MATCH.md, tenth session);
 * the older default ("auto", no settling) stays selectable.
 */
export const DEFAULT_DIG_SETTINGS: DigSettings = {
  root: "startpos",
  policy: "tera-shock",
  limit: { nodes: 100_000 },
  multipv: "deep-best",
  windowCp: 300,
  kifuBonus: 100,
  drawBlack: 0,
  drawWhite: 0,
  maxPly: 256,
  maxLeafPly: 0,
  breadthPlies: 0,
  coverOneIn: 0,
  settleFactor: 8,
  evalLimit: 0,
  prefetch: 4,
  thinkTimeoutSec: 300,
};

/**
 * What a stored book lacking a setting had: the defaults before they changed. A book made
 * before settling existed must not start settling (and so play other moves) when opened.
 */
export const OLDER_BOOK_DEFAULTS: Partial<DigSettings> = { multipv: "auto", settleFactor: 0 };

/**
 * A stored book's settings over the defaults it was made under (OLDER_BOOK_DEFAULTS where a
 * key is missing); unknown or invalid stored values fall back to those with a note.
 */
export function settingsFrom(stored: Record<string, unknown>): { settings: DigSettings; problems: string[] } {
  const settings: Record<string, unknown> = { ...DEFAULT_DIG_SETTINGS, ...OLDER_BOOK_DEFAULTS };
  const problems: string[] = [];
  const shape = DigSettingsSchema.shape;
  for (const [key, value] of Object.entries(stored)) {
    if (!(key in shape)) continue;
    const parsed = shape[key as keyof typeof shape].safeParse(value);
    if (parsed.success) settings[key] = parsed.data;
    else problems.push(`setting ${key}: ${parsed.error.issues[0]?.message ?? "invalid"}; using the default`);
  }
  return { settings: settings as DigSettings, problems };
}
