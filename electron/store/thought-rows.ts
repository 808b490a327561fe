// How a thought position is laid out in the positions and moves tables, both ways.
import type { Candidate, Provenance, ThoughtPosition } from "../../shared/book/records.js";
import { keyHiSql, keyLoSql } from "./keys.js";

/** A position key as the rules core gives it: two 32-bit halves (returned unsigned). */
export interface PositionKey {
  keyHi: number;
  keyLo: number;
}

export type KeyedThought = ThoughtPosition & PositionKey;
export type StoredThought = KeyedThought & { id: number };

export const POSITION_COLUMNS = `id, sfen, ${keyHiSql("key")}, ${keyLoSql("key")}, thought_at, source, engine, file, nodes, depth, time_ms`;
export type PositionRaw = [
  number,
  string,
  number,
  number,
  number,
  string | null,
  string | null,
  string | null,
  number | null,
  number | null,
  number | null,
];
export type MoveRaw = [number, string, number, number, string, number | null, number | null, string | null, number | null];
export const MOVE_COLUMNS = "position_id, move, value, depth, pv, count, flags, comment, mark";
/** moves.flags bits. */
export const NO_VALUE = 1;
export const NO_DEPTH = 2;

export function provenanceColumns(p: Provenance): [string, string | null, string | null, number | null, number | null, number | null] {
  return p.kind === "engine" ? ["engine", p.engine, null, p.nodes, p.depth, p.timeMs] : ["import", null, p.file, null, null, null];
}

function provenanceFrom(
  source: string | null,
  engine: string | null,
  file: string | null,
  nodes: number | null,
  depth: number | null,
  timeMs: number | null,
): Provenance {
  return source === "engine"
    ? { kind: "engine", engine: engine ?? "", nodes: nodes ?? 0, depth: depth ?? 0, timeMs: timeMs ?? 0 }
    : { kind: "import", file: file ?? "" };
}

const splitPv = (pv: string): string[] => (pv === "" ? [] : pv.split(" "));

/**
 * A position thought again (think deeper, a re-import) keeps what a person wrote on its
 * moves in an imported file, its comment and mark, and the file's play count, where the
 * new result lists the same move without them.
 */
export function keepFileNotes(next: Candidate[], old: Candidate[]): Candidate[] {
  if (!old.some((c) => c.comment !== undefined || c.mark !== undefined || c.count !== undefined)) return next;
  const byMove = new Map(old.map((c) => [c.move, c]));
  return next.map((c) => {
    const o = byMove.get(c.move);
    if (!o) return c;
    const out = { ...c };
    if (out.comment === undefined && o.comment !== undefined) out.comment = o.comment;
    if (out.mark === undefined && o.mark !== undefined) out.mark = o.mark;
    if (out.count === undefined && o.count !== undefined) out.count = o.count;
    return out;
  });
}

export function toCandidate(m: MoveRaw): Candidate {
  const c: Candidate = { move: m[1], value: m[2], depth: m[3], pv: splitPv(m[4]) };
  if (m[5] !== null) c.count = m[5]; // absent, not undefined, for engine results
  const flags = m[6];
  if (flags !== null) {
    if (flags & NO_VALUE) c.noValue = true;
    if (flags & NO_DEPTH) c.noDepth = true;
  }
  if (m[7] !== null) c.comment = m[7];
  if (m[8] !== null) c.mark = m[8];
  return c;
}

export function toThought(r: PositionRaw, candidates: Candidate[]): StoredThought {
  return {
    id: r[0],
    sfen: r[1],
    keyHi: r[2],
    keyLo: r[3],
    candidates,
    provenance: provenanceFrom(r[5], r[6], r[7], r[8], r[9], r[10]),
    thoughtAt: r[4],
  };
}
