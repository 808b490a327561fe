// The USI text horu sends and the few answers it reads outside `info` and `option` lines
// (shared/usi parses those): positions, `go` from a typed limit, `bestmove`, option names.
// Pure: the session (engine.ts) decides when to send what.
import { formatUsiPosition, parseUsiPosition } from "../../../shared/rules/usi-position.js";
import type { UsiOption } from "../../../shared/usi/option.js";
import type { SearchLimit } from "./limit.js";

/** First words of the lines an engine may send; anything else counts towards a protocol error. */
export const USI_WORDS: ReadonlySet<string> = new Set(["info", "bestmove", "id", "option", "usiok", "readyok", "checkmate"]);

/**
 * The text after `position `: "startpos [moves ...]", "sfen ... [moves ...]", or a bare SFEN
 * (a book's key) made "sfen ..." with its move number. Throws UsiPositionError when the text
 * is not a position, rather than send the engine a line it would misread.
 */
export function positionArgument(sfen: string): string {
  return formatUsiPosition(parseUsiPosition(sfen));
}

/**
 * A line sent to the engine must be one line: a CR or LF inside an option's name or value (a
 * crafted book or page) would reach the engine as another command. Throws instead.
 */
export function assertOneLine(line: string): string {
  if (/[\r\n\0]/.test(line))
    throw new Error(`refusing to send the engine a command with a line break: ${JSON.stringify(line.slice(0, 80))}`);
  return line;
}

/** GPS Shogi aborts on `go nodes`/`go depth` and offers only clock limits. */
export function isClockOnly(idName: string): boolean {
  return /^gpsshogi/i.test(idName);
}

/** The `go` command for a limit; null when the limit is not a positive number (the caller says why). */
export function goCommand(l: SearchLimit): string | null {
  const pos = (n: number) => Number.isFinite(n) && n > 0;
  const f = (n: number) => Math.max(0, Math.floor(n));
  switch (l.kind) {
    case "nodes":
      return pos(l.nodes) ? `go nodes ${Math.floor(l.nodes)}` : null;
    case "depth":
      return pos(l.depth) ? `go depth ${Math.floor(l.depth)}` : null;
    case "movetime":
      // byoyomi with zero clocks is plain USI; `movetime` is a UCI-ism not every USI engine knows.
      return pos(l.ms) ? `go btime 0 wtime 0 byoyomi ${Math.floor(l.ms)}` : null;
    case "clock": {
      const tail = l.binc || l.winc ? `binc ${f(l.binc ?? 0)} winc ${f(l.winc ?? 0)}` : `byoyomi ${f(l.byoyomi)}`;
      return `go btime ${f(l.btime)} wtime ${f(l.wtime)} ${tail}`;
    }
  }
}

/** ok: candidates found; resign/win: the engine said so; nomoves: no legal move; noinfo: a bestmove without usable info lines. */
export type ThinkStatus = "ok" | "resign" | "win" | "nomoves" | "noinfo";

/** Whether a line ends a search. */
export function isBestmoveLine(trimmed: string): boolean {
  return trimmed === "bestmove" || trimmed.startsWith("bestmove ");
}

/** A `bestmove` line's move, ponder move and what it says (noinfo is for the caller to tell). */
export function parseBestmove(trimmed: string): { bestmove: string; ponder?: string; status: Exclude<ThinkStatus, "noinfo"> } {
  const [, bestmove = "", , ponder] = trimmed.split(/\s+/);
  let status: Exclude<ThinkStatus, "noinfo"> = "ok";
  if (bestmove === "resign") status = "resign";
  else if (bestmove === "win") status = "win";
  else if (bestmove === "" || bestmove === "(none)" || bestmove === "0000" || bestmove === "none") status = "nomoves";
  return { bestmove, ponder, status };
}

/** Our options first, then the engine's own spellings of the same thing. */
export const OPTION_ALIASES: Record<string, string[]> = {
  USI_Hash: ["Hash"],
  Hash: ["USI_Hash"],
  Threads: ["Thread", "USI_Threads"],
  USI_Ponder: ["Ponder"],
};

/** An engine's option by name (exact, then case-insensitive, then with a `USI_` prefix). */
export function findOption(options: UsiOption[], name: string): UsiOption | undefined {
  const lower = name.toLowerCase();
  // Fairy-Stockfish in USI mode (the WebAssembly build) spells its options USI_MultiPV, USI_Hash...
  return (
    options.find((x) => x.name === name) ??
    options.find((x) => x.name.toLowerCase() === lower) ??
    options.find((x) => x.name.toLowerCase() === `usi_${lower}`)
  );
}

/** Book-off settings, detected by option name (USI_OwnBook, YaneuraOu BookFile, GPS BookDepth, ...). */
export function bookOffSettings(options: UsiOption[]): [string, string | number | boolean][] {
  const out: [string, string | number | boolean][] = [];
  for (const o of options) {
    const n = o.name.toLowerCase();
    if (o.type === "check" && ["usi_ownbook", "ownbook", "usebook", "book", "usi_book"].includes(n)) out.push([o.name, false]);
    else if (o.type === "combo" && n === "bookfile" && o.vars.includes("no_book")) out.push([o.name, "no_book"]);
    else if (o.type === "spin" && (n === "bookdepth" || n === "bookmoves" || n === "book_depth"))
      out.push([o.name, Math.max(0, o.min ?? 0)]);
  }
  return out;
}
