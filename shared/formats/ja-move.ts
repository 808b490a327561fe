// One move in Japanese notation as ShogiGUI writes its variations ("△７二金(61)", "▲２二角成",
// "▲５五角打"), read against the position it is played in, and written in KIF style. Used
// for .sbk evaluations: the variation's first move tells which book move it evaluates.
import type { Position } from "../rules/position.js";
import {
  EMPTY,
  fileOf,
  isDrop,
  dropType,
  isPromotion,
  moveFrom,
  moveTo,
  rankOf,
  squareOf,
  typeOf,
  PROMOTED,
  type Move,
} from "../rules/types.js";
import { parseUsiMove } from "../rules/usi.js";

const FILES = "１２３４５６７８９";
const RANKS = "一二三四五六七八九";
/** KIF names by piece type 1..14 (index 0 unused). */
const NAMES = ["", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍"];
/** Other spellings players and programs use. */
const ALIASES: Record<string, number> = { 王: 8, 竜: 14, 杏: 10, 圭: 11, 全: 12, 仝: 12 };

const MOVE_RE =
  /^[▲△☗☖▽]?\s*(?:([1-9１-９])([1-9１-９一二三四五六七八九])|同[\s\u3000]*)(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全仝馬龍竜])(左|直|右)?(上|寄|引|行|入)?(不成|成|生|打)?(?:\s*\(([1-9])([1-9])\))?/;

function digit(c: string): number {
  const full = FILES.indexOf(c);
  if (full >= 0) return full + 1;
  const kanji = RANKS.indexOf(c);
  if (kanji >= 0) return kanji + 1;
  return Number(c);
}

/**
 * The first move of `text` (a variation: Japanese notation or USI) in `pos`, or null when
 * it cannot be read there or is ambiguous. `previous` is the square of the last move, for
 * "同" (same square).
 */
export function firstMoveOf(pos: Position, text: string, previous: number | null = null): Move | null {
  const t = text.trim();
  const token = t.split(/\s+/, 1)[0] ?? "";
  const usi = parseUsiMove(token);
  if (usi !== null) return pos.isLegal(usi) ? usi : null;
  const m = MOVE_RE.exec(t);
  if (!m) return null;
  let to: number;
  if (m[1] !== undefined) to = squareOf(digit(m[1]), digit(m[2]!));
  else if (previous !== null) to = previous;
  else return null;
  const name = m[3]!;
  const type = NAMES.indexOf(name) > 0 ? NAMES.indexOf(name) : ALIASES[name];
  if (type === undefined) return null;
  const suffix = m[6];
  const from = m[7] !== undefined ? squareOf(Number(m[7]), Number(m[8])) : null;
  const promote = suffix === "成";
  const legal = pos.legalMoves().filter((mv) => {
    if (moveTo(mv) !== to) return false;
    if (isDrop(mv)) return from === null && suffix !== "成" && suffix !== "不成" && dropType(mv) === type;
    if (suffix === "打") return false;
    const f = moveFrom(mv);
    if (from !== null && f !== from) return false;
    if (typeOf(pos.board[f]!) !== type) return false;
    return isPromotion(mv) === promote;
  });
  // A piece on the board and one in hand can reach one square: without 打 the board move is meant.
  const board = legal.filter((mv) => !isDrop(mv));
  const pick = board.length > 0 && suffix !== "打" ? board : legal;
  return pick.length === 1 ? pick[0]! : null;
}

/** A move in KIF notation with the mover's mark: "▲７六歩(77)", "△２二角成(88)", "▲５五角打". */
export function kifMoveText(pos: Position, m: Move): string {
  const mark = pos.side === 0 ? "▲" : "△";
  const to = moveTo(m);
  const dest = FILES[fileOf(to) - 1]! + RANKS[rankOf(to) - 1]!;
  if (isDrop(m)) return `${mark}${dest}${NAMES[dropType(m)]}打`;
  const from = moveFrom(m);
  const piece = pos.board[from]!;
  const type = piece === EMPTY ? 0 : typeOf(piece);
  const promote = isPromotion(m) && type < PROMOTED ? "成" : "";
  return `${mark}${dest}${NAMES[type]}${promote}(${fileOf(from)}${rankOf(from)})`;
}

/** A line of USI moves from `pos` in KIF notation, space-separated; stops before a move that is not legal. */
export function kifLineText(pos: Position, usis: readonly string[]): string {
  const p = pos.clone();
  const out: string[] = [];
  for (const u of usis) {
    const m = parseUsiMove(u);
    if (m === null || !p.isLegal(m)) break;
    out.push(kifMoveText(p, m));
    p.doMove(m);
  }
  return out.join(" ");
}
