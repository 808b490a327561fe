// Synthetic thought positions for tests and the benchmark. The SFEN text is fake but
// shaped like a real one (board, side, hands); keys are distinct for distinct i.
import type { KeyedThought } from "../../store/book-store.js";

const MOVES = ["7g7f", "2g2f", "5g5f", "6i7h", "3g3f", "P*5e", "8h2b+", "1g1f"];

export function fakeSfen(i: number): string {
  return `lnsgkgsnl/1r5b1/ppppppppp/9/9/${i}/PPPPPPPPP/1B5R1/LNSGKGSNL ${i % 2 === 0 ? "b" : "w"} -`;
}

export function fakeKey(i: number): { keyHi: number; keyLo: number } {
  return { keyHi: Math.imul(i ^ 0x5bd1e995, 0x9e3779b1) >>> 0, keyLo: i >>> 0 };
}

export function fakeThought(i: number, moves = 6): KeyedThought {
  const candidates = [];
  for (let r = 0; r < moves; r++) {
    const m = MOVES[(i + r) % MOVES.length]!;
    candidates.push({
      move: m,
      value: 100 - r * 17 + (i % 7),
      depth: 20 + (r % 3),
      pv: [m, MOVES[(i + r + 1) % MOVES.length]!, MOVES[(i + r + 2) % MOVES.length]!],
    });
  }
  return {
    sfen: fakeSfen(i),
    ...fakeKey(i),
    candidates,
    provenance:
      i % 5 === 0
        ? { kind: "import", file: "book.db" }
        : { kind: "engine", engine: "fake-engine", nodes: 1_000_000 + i, depth: 22, timeMs: 1500 },
    thoughtAt: 1_700_000_000_000 + i,
  };
}
