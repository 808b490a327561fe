// What a think produces and what the book stores: the records that cross from the
// engine layer to the store, the graph and the formats. Moves are USI text here;
// the graph turns them into numeric moves.

/** One candidate move of a thought position, as the engine valued it. */
export interface Candidate {
  /** USI move, e.g. "7g7f", "P*5e", "8h2b+". */
  move: string;
  /** Centipawns from the side to move in the thought position, clamped to +-32000; mate in n plies = 32000 - n. */
  value: number;
  /** Search depth the engine reported for this line (0 when unknown). */
  depth: number;
  /** The first moves of the engine's PV, starting with `move` (so pv[1] is the ponder move). */
  pv: string[];
  /** How often the move was played, from an imported book (DB2016 / Apery count); absent for engine results. */
  count?: number;
  /**
   * The imported file gave no value / no depth for the move (DB2016 `none`, a .sbk move
   * without an evaluation): `value` / `depth` then hold 0 for the graph, and the book's
   * files write "none" (or no evaluation) back instead of a made-up 0.
   */
  noValue?: true;
  noDepth?: true;
  /** The file's comment on the move (DB2016 `#` lines after it), lines joined by "\n". */
  comment?: string;
  /** ShogiGUI's mark on the move: 1 forced, 2 good, 3 bad, 4 blunder (.sbk Evaluation). */
  mark?: number;
}

/** One engine evaluation a ShogiGUI (.sbk) state carries, as written. */
export interface SbkEvalRecord {
  value: number;
  depth: number;
  selDepth: number;
  /** A 64-bit count as decimal text. */
  nodes: string;
  /** As written (ShogiGUI: Japanese notation, "△７二金(61) ▲..."). */
  variation: string;
  engine?: string;
}

/** What a ShogiGUI (.sbk) state carries besides its moves, kept so the file comes back as it went in. */
export interface SbkStateRecord {
  games: number;
  wonBlack: number;
  wonWhite: number;
  evals: SbkEvalRecord[];
  /** ShogiGUI's own position hash (64-bit, decimal) and hand key, written back unchanged. */
  boardKey?: string;
  handKey?: number;
}

/** Where a thought position came from. */
export type Provenance =
  { kind: "engine"; engine: string; nodes: number; depth: number; timeMs: number } | { kind: "import"; file: string };

/** A thought position: an engine (or an imported book) valued its candidate moves. */
export interface ThoughtPosition {
  /** Normalized SFEN without the ply: "<board> <b|w> <hands>". */
  sfen: string;
  /** Best first, as the engine ranked them. An empty list is allowed (no usable moves). */
  candidates: Candidate[];
  provenance: Provenance;
  /** When it was thought, epoch milliseconds. */
  thoughtAt: number;
  /** An imported file's comment on the position (kept; a comment the book already has wins). */
  comment?: string;
  /** An imported .sbk state's games, wins and evaluations. */
  sbk?: SbkStateRecord;
}
