// Grows a book by hand, without an engine: each selected position gets its first few legal
// moves as candidates with made-up values. For tests that need stored results, fast.
import type { OpenBook } from "../book/open-book.js";
import { Position } from "../../shared/rules/position.js";
import { moveToUsi } from "../../shared/rules/usi.js";

/** Thinks `count` positions with fake candidates; returns the SFENs stored. */
export function growBook(book: OpenBook, count: number): string[] {
  const stored: string[] = [];
  for (let i = 0; i < count; i++) {
    const job = book.jobs.next();
    if (!job) break;
    const pos = Position.fromSfen(job.sfen);
    const moves = pos.legalMoves().slice(0, 4);
    const candidates = moves.map((m, k) => ({ move: moveToUsi(m), value: 40 - 15 * k + (i % 7), depth: 10, pv: [moveToUsi(m)] }));
    book.jobs.addResult(job, candidates, { kind: "engine", engine: "test", nodes: 1, depth: 10, timeMs: 1 });
    stored.push(job.sfen);
  }
  return stored;
}
