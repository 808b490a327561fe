// `horu select`: the next leaves selection would hand out, without thinking them.
import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { UsageError, wholeNumber, printJson, openProgress } from "../command.js";
import { OpenBook, type Job, type SelectionRecord } from "../../book/open-book.js";
import { signedValue, sideName } from "../value-text.js";

const usage = `usage: horu select --book FILE [--count N] [--json]

Prints the next N leaves (default 1) that selection would hand to free engines, each with
its line from the root, the root value (for the side to move there) and the value of the
move into the leaf (for the side that plays it), as if the earlier ones were
being thought; with --json also the bans each selection made (with the reason), the nodes
it searched and the cached cyclic values it trusted. The book is opened read-only: nothing
is stored.`;

export interface SelectedLeaf {
  sfen: string;
  line: string[];
  rootValue: number | null;
  /** The leaf's value as the selection searched it (kifu bonus included), from the side that moves into it; null for the unthought root. */
  leafValue: number | null;
  /** Bans this selection made before it found the leaf (kept for the dig in a writable book). */
  bans: Array<{ line: string[]; move: string; reason: string }>;
  nodes: number;
  searches: number;
  cyclicTrusted: number;
}

/** The next `count` leaves of an open book (each kept in flight so the next one differs). */
export function nextLeaves(book: OpenBook, count: number): { leaves: SelectedLeaf[]; ms: number[] } {
  const leaves: SelectedLeaf[] = [];
  const ms: number[] = [];
  const jobs: Job[] = [];
  for (let i = 0; i < count; i++) {
    book.jobs.lastSelection = null;
    const job = book.jobs.next();
    const sel = book.jobs.lastSelection as SelectionRecord | null;
    if (sel) ms.push(sel.ms);
    if (!job) break;
    jobs.push(job);
    leaves.push({
      sfen: job.sfen,
      line: job.line,
      rootValue: job.rootValue,
      leafValue: sel?.leafValue ?? null,
      bans: sel?.banList ?? [],
      nodes: sel?.stats.nodes ?? 0,
      searches: sel?.stats.searches ?? 0,
      cyclicTrusted: sel?.stats.cyclicTrusted ?? 0,
    });
  }
  for (const j of jobs) book.jobs.release(j);
  return { leaves, ms };
}

export const selectCommand: Command = {
  name: "select",
  summary: "show the next leaves selection would hand out",
  usage,
  async run(args) {
    const { values } = parseArgs({ args, options: { book: { type: "string" }, count: { type: "string" }, json: { type: "boolean" } } });
    if (!values.book) throw new UsageError("--book FILE is required");
    const count = wholeNumber("count", values.count, 1) ?? 1;
    const book = OpenBook.open(values.book, {}, { readonly: true, onProgress: openProgress() });
    try {
      const { leaves, ms } = nextLeaves(book, count);
      if (leaves.length === 0) process.stdout.write("nothing to select: every leaf is banned, failed or beyond the limits\n");
      leaves.forEach((l, i) => {
        // Each value from its own side, said with it: the root's side to move, and the side that plays the leaf's move.
        const rootSide = sideName(book.root.side);
        // The leaf's move is the root side's when the line has an odd number of moves.
        const leafSide = sideName(l.line.length % 2 === 1 ? book.root.side : 1 - book.root.side);
        const value =
          l.rootValue === null
            ? "root not thought yet"
            : `root value ${signedValue(l.rootValue)} for ${rootSide} (to move), leaf move's value ${signedValue(l.leafValue!)} for ${leafSide} (who plays it)`;
        const bans = l.bans.length
          ? `; banned ${l.bans.map((b) => `${b.move} after ${b.line.join(" ") || "(root)"} (${b.reason})`).join(", ")}`
          : "";
        process.stdout.write(
          `${i + 1}. ${l.line.join(" ") || "(root)"}  [${value}]\n   sfen ${l.sfen}\n   ${l.nodes} nodes in ${l.searches} search(es), ${l.cyclicTrusted} cyclic value(s) trusted${bans}\n`,
        );
      });
      if (values.json) printJson({ leaves, selectMs: ms, open: book.timings });
      return 0;
    } finally {
      book.close();
    }
  },
};
