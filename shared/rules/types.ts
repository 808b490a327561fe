// The small vocabulary of the rules core. Numbers, not objects: these values sit in
// typed arrays of a 15M-position graph and are touched on every node of every search.

/** Side to move: black (sente, moves first) or white (gote). */
export type Color = 0 | 1;
export const BLACK: Color = 0;
export const WHITE: Color = 1;
export const opposite = (c: Color): Color => (c ^ 1) as Color;

/**
 * Square 0..80, file-major as in USI and YaneuraOu: sq = (file - 1) * 9 + (rank - 1).
 * USI "1a" is 0, "9i" is 80, "7g" (file 7, rank g = 7) is 60.
 */
export type Square = number;
export const SQUARE_COUNT = 81;
export const squareOf = (file: number, rank: number): Square => (file - 1) * 9 + (rank - 1);
export const fileOf = (sq: Square): number => Math.floor(sq / 9) + 1;
export const rankOf = (sq: Square): number => (sq % 9) + 1;

/**
 * Piece type 1..14 in YaneuraOu/Apery order, so promotion is `| PROMOTED` for the six
 * promotable types and book formats convert without tables.
 */
export type PieceType = number;
export const PAWN = 1,
  LANCE = 2,
  KNIGHT = 3,
  SILVER = 4,
  BISHOP = 5,
  ROOK = 6,
  GOLD = 7,
  KING = 8;
export const PRO_PAWN = 9,
  PRO_LANCE = 10,
  PRO_KNIGHT = 11,
  PRO_SILVER = 12,
  HORSE = 13,
  DRAGON = 14;
export const PROMOTED = 8;
/** Types that can be held in hand, in index order (hand slots 1..7). */
export const HAND_TYPES: readonly PieceType[] = [PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD];

/** Piece on a square: (color << 4) | type; 0 is an empty square. */
export type Piece = number;
export const EMPTY = 0;
export const makePiece = (c: Color, t: PieceType): Piece => (c << 4) | t;
export const colorOf = (p: Piece): Color => (p >> 4) as Color;
export const typeOf = (p: Piece): PieceType => p & 15;

/**
 * Hands of both sides: Uint8Array(16), count of type t held by colour c at [c * 8 + t], t in 1..7.
 */
export type Hand = Uint8Array;

/**
 * A move in 15 bits (fits Uint16, and is Apery's `fromToPro` layout):
 * to | from << 7 | promote << 14. A drop has from = 81 + type - 1 (type 1..7).
 * 0 is "no move" (from == to is never a move).
 */
export type Move = number;
export const MOVE_NONE: Move = 0;
export const moveTo = (m: Move): Square => m & 127;
export const moveFrom = (m: Move): number => (m >> 7) & 127;
export const isDrop = (m: Move): boolean => ((m >> 7) & 127) >= 81;
export const dropType = (m: Move): PieceType => ((m >> 7) & 127) - 80;
export const isPromotion = (m: Move): boolean => (m & (1 << 14)) !== 0;
export const makeMove = (from: Square, to: Square, promote = false): Move => to | (from << 7) | (promote ? 1 << 14 : 0);
export const makeDrop = (t: PieceType, to: Square): Move => to | ((80 + t) << 7);

/** Values are centipawns from the side to move, clamped to +-VALUE_MATE. */
export const VALUE_MATE = 32000;
/** Values beyond this are mates (mate in up to 999 plies): a proof, not an estimate. */
export const VALUE_MATE_BOUND = VALUE_MATE - 1000;
/** Mate in n plies for the side to move. */
export const mateIn = (plies: number): number => VALUE_MATE - plies;
export const matedIn = (plies: number): number => -(VALUE_MATE - plies);
export const clampValue = (v: number): number => (v > VALUE_MATE ? VALUE_MATE : v < -VALUE_MATE ? -VALUE_MATE : v);
