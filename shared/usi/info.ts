// Parsing of USI `info` lines. Engines print all sorts of things here (and
// some print things that are not USI at all), so the parser never throws: it
// keeps the fields it understands and skips the rest.
import { VALUE_MATE, clampValue, mateIn, matedIn } from "../rules/types.js";

/**
 * `score mate +` / `score mate -` carry no ply count. We value them as a mate
 * in this many plies: far enough that any mate with a known length ranks above
 * it, yet still well inside the mate range (ordinary cp scores stay below it).
 */
export const MATE_UNKNOWN_PLIES = 256;

export type UsiScore =
  | { kind: "cp"; cp: number }
  /** plies: null when the engine printed only a sign; sign: +1 the side to move mates, -1 it is mated. */
  | { kind: "mate"; plies: number | null; sign: 1 | -1 };

export interface UsiInfo {
  depth?: number;
  seldepth?: number;
  timeMs?: number;
  nodes?: number;
  nps?: number;
  hashfull?: number;
  multipv?: number;
  currmove?: string;
  currmovenumber?: number;
  score?: UsiScore;
  /** The score as a book value: centipawns from the side to move, clamped; mates per docs/DESIGN.md §2. */
  value?: number;
  /** Set when the score is only a bound (aspiration fail); such lines are not final values. */
  bound?: "lower" | "upper";
  /** Only tokens that look like USI moves; stops at the first one that does not (e.g. "resign"). */
  pv?: string[];
  /** `string ...`: the rest of the line, verbatim. */
  string?: string;
}

const MOVE_RE = /^(?:[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$/;

/** True for USI move text: "7g7f", "8h2b+", "P*5e". */
export function isUsiMove(token: string): boolean {
  return MOVE_RE.test(token);
}

/** Integer token, or undefined for anything else ("12x", "", "1e9999"). */
function int(token: string | undefined): number | undefined {
  if (token === undefined || !/^[+-]?\d{1,16}$/.test(token)) return undefined;
  const n = Number(token);
  return Number.isSafeInteger(n) ? n : undefined;
}

function nonNegative(token: string | undefined): number | undefined {
  const n = int(token);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** The book value of a score. Mate 0 means the side to move is already mated. */
export function scoreValue(score: UsiScore): number {
  if (score.kind === "cp") return clampValue(score.cp);
  const plies = score.plies === null ? MATE_UNKNOWN_PLIES : Math.min(Math.abs(score.plies), VALUE_MATE);
  return score.sign > 0 ? mateIn(plies) : matedIn(plies);
}

function parseMate(token: string | undefined): UsiScore | undefined {
  if (token === undefined) return undefined;
  if (token === "+") return { kind: "mate", plies: null, sign: 1 };
  if (token === "-") return { kind: "mate", plies: null, sign: -1 };
  const n = int(token);
  if (n === undefined) return undefined;
  // "mate 0" and "mate -0": the side to move has no move and is mated.
  const negative = n < 0 || token.startsWith("-") || n === 0;
  return { kind: "mate", plies: Math.abs(n), sign: negative ? -1 : 1 };
}

const KEYWORDS = new Set([
  "depth",
  "seldepth",
  "time",
  "nodes",
  "nps",
  "hashfull",
  "multipv",
  "score",
  "currmove",
  "currmovenumber",
  "pv",
  "string",
  "cpuload",
  "tbhits",
  "sbhits",
  "refutation",
  "currline",
]);

/**
 * Parses one line. Returns null when the line is not an `info` line; otherwise
 * a record with whatever fields were understood (possibly none).
 */
export function parseInfoLine(line: string): UsiInfo | null {
  if (typeof line !== "string") return null;
  const text = line.trim();
  if (text !== "info" && !text.startsWith("info ") && !text.startsWith("info\t")) return null;
  const tokens = text.split(/\s+/);
  const info: UsiInfo = {};
  let i = 1;
  while (i < tokens.length) {
    const key = tokens[i++];
    switch (key) {
      case "depth": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.depth = v;
          i++;
        }
        break;
      }
      case "seldepth": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.seldepth = v;
          i++;
        }
        break;
      }
      case "time": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.timeMs = v;
          i++;
        }
        break;
      }
      case "nodes": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.nodes = v;
          i++;
        }
        break;
      }
      case "nps": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.nps = v;
          i++;
        }
        break;
      }
      case "hashfull": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.hashfull = v;
          i++;
        }
        break;
      }
      case "multipv": {
        const v = int(tokens[i]);
        if (v !== undefined && v >= 1) {
          info.multipv = v;
          i++;
        }
        break;
      }
      case "currmovenumber": {
        const v = nonNegative(tokens[i]);
        if (v !== undefined) {
          info.currmovenumber = v;
          i++;
        }
        break;
      }
      case "currmove": {
        const t = tokens[i];
        if (t !== undefined && !KEYWORDS.has(t)) {
          info.currmove = t;
          i++;
        }
        break;
      }
      case "score": {
        const kind = tokens[i];
        let score: UsiScore | undefined;
        if (kind === "cp") {
          const v = int(tokens[i + 1]);
          if (v !== undefined) score = { kind: "cp", cp: v };
        } else if (kind === "mate") {
          score = parseMate(tokens[i + 1]);
        }
        if (score) {
          info.score = score;
          info.value = scoreValue(score);
          i += 2;
          // Bounds may come right after the score or anywhere later; handled below too.
        } else if (kind === "cp" || kind === "mate") {
          i += 1;
        }
        break;
      }
      case "lowerbound":
        info.bound = "lower";
        break;
      case "upperbound":
        info.bound = "upper";
        break;
      case "pv": {
        const pv: string[] = [];
        while (i < tokens.length && isUsiMove(tokens[i]!)) pv.push(tokens[i++]!);
        // Anything after a non-move token (e.g. "resign", "win") is dropped: pv runs to the end.
        i = tokens.length;
        info.pv = pv;
        break;
      }
      case "string": {
        const at = text.search(/\sstring(\s|$)/);
        info.string = at < 0 ? "" : text.slice(at + " string".length).replace(/^\s/, "");
        i = tokens.length;
        break;
      }
      default:
        // Unknown token (or a value we could not read): skip it alone.
        break;
    }
  }
  return info;
}
