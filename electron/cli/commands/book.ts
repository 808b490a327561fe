// `horu book ACTION`: working on a book by hand, the same operations as the GUI's
// position panel (think now / deeper, add a move, retry failed, unban, prune and undo,
// comments). Each opens the book for writing, so it is refused while a dig holds it.
import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { qualityUsage, runBookQuality } from "./book-quality.js";
import { UsageError, printJson, openProgress } from "../command.js";
import { existsSync, statSync } from "node:fs";
import { OpenBook } from "../../book/open-book.js";
import { BookStore } from "../../store/book-store.js";
import { holderAlive } from "../../store/lock.js";
import { hostname } from "node:os";
import { removeSnapshot, snapshotPath } from "../../book/graph-snapshot.js";
import { Position } from "../../../shared/rules/position.js";
import { parseUsiMove } from "../../../shared/rules/usi.js";

const usage = `usage: horu book ACTION --book FILE [options] [--json]

Works on a book by hand (the GUI's position panel does the same). A position is given
as --sfen SFEN or as --line "7g7f 3c3d ..." (moves from the book's root).

  think       --sfen S | --line L      think this position next, ahead of selection
                                      (a thought position is thought again)
  deeper      --sfen S | --line L [--factor F]
                                      think it again with F times the book's limit
                                      (nodes/time x F, depth + F; default 4); the new
                                      result replaces the old one in one transaction
  add-move    --sfen S | --line L --move USI
                                      add a move: its position is thought next and the
                                      move becomes a book move
  retry       [--sfen S | --line L]    release positions the engines gave up on (all, or one)
  unban       --sfen S | --line L --move USI
                                      lift a ban: selection may choose the move again
  prune       --sfen S | --line L      remove the position and what is below it only
                                      through it (kept: undo-prune puts it back)
  undo-prune                          put the last pruned subtree back
  comment     --sfen S | --line L [--text T]
                                      show the comment, or set it (--text "" removes it)
  unlock                              free a book whose writer was on another machine (or
                                      container) and is gone: its lock cannot be checked
                                      from here, so it holds until this says so (a live
                                      writer on this machine is never unlocked)
  list        queued|failed|bans|prunes|comments
  graph                               rebuild the book's graph from its positions now and
                                      save it beside the book (<book>-graph), so the next
                                      open reads it instead of rebuilding (opens do this
                                      themselves when the file is missing, stale or damaged)

  quality                             how good the book is: accuracy against a deeper search,
                                      coverage, stability (horu book quality --help)

The queued work is done by the next \`horu dig\` (or the GUI's dig) on this book.`;

const ACTIONS = ["think", "deeper", "add-move", "retry", "unban", "prune", "undo-prune", "comment", "list", "graph", "unlock"] as const;
type Action = (typeof ACTIONS)[number];

/** The position an action works on, from --sfen or --line. */
function target(book: OpenBook, v: { sfen?: string; line?: string }, required: boolean): string | undefined {
  if (v.sfen !== undefined && v.line !== undefined) throw new UsageError("give --sfen or --line, not both");
  if (v.sfen !== undefined) return Position.fromSfen(v.sfen).sfenKey();
  if (v.line !== undefined) {
    const pos = book.root.clone();
    for (const [i, usi] of v.line.split(/\s+/).filter(Boolean).entries()) {
      const m = parseUsiMove(usi);
      // A wrong move is no misuse of the command: said alone, without the usage text.
      if (m === null || !pos.isLegal(m)) throw new Error(`--line: move ${i + 1} (${usi}) is not legal there`);
      pos.doMove(m);
    }
    return pos.sfenKey();
  }
  if (required) throw new UsageError('give the position: --sfen SFEN or --line "MOVES"');
  return undefined;
}

export const bookCommand: Command = {
  name: "book",
  summary: "work on a book by hand: think now/deeper, add a move, retry, unban, prune/undo, comments",
  usage: `${usage}\n\n${qualityUsage}`,
  async run(args) {
    // quality has options of its own (book-quality.ts).
    if (args[0] === "quality") {
      if (args.includes("--help") || args.includes("-h")) {
        process.stdout.write(qualityUsage + "\n");
        return 0;
      }
      return runBookQuality(args.slice(1));
    }
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        book: { type: "string" },
        sfen: { type: "string" },
        line: { type: "string" },
        move: { type: "string" },
        factor: { type: "string" },
        text: { type: "string" },
        json: { type: "boolean" },
      },
    });
    const action = positionals[0] as Action | undefined;
    if (!action || !ACTIONS.includes(action)) throw new UsageError(action ? `unknown action '${action}'` : "give an action");
    if (!values.book) throw new UsageError("--book FILE is required");
    const needMove = action === "add-move" || action === "unban";
    if (needMove && !values.move) throw new UsageError(`${action} needs --move USI`);
    const factor = values.factor === undefined ? 4 : Number(values.factor);
    if (!Number.isInteger(factor) || factor < 2 || factor > 1000)
      throw new UsageError(`--factor must be a whole number 2-1000, not '${values.factor}'`);
    if (action === "list" && !["queued", "failed", "bans", "prunes", "comments"].includes(positionals[1] ?? "")) {
      throw new UsageError("list what? queued, failed, bans, prunes or comments");
    }
    // A line's moves without quotes (--line 7g7f 3c3d) would act on the position after its
    // first move: refuse the words left over rather than guess.
    const extra = positionals.slice(action === "list" ? 2 : 1);
    if (extra.length !== 0)
      throw new UsageError(
        `unexpected argument${extra.length === 1 ? "" : "s"} '${extra.join(" ")}'${values.line !== undefined ? `; a line of several moves goes in quotes: --line "${[values.line, ...extra].join(" ")}"` : ""}`,
      );

    if (action === "unlock") return unlock(values.book, values.json === true);

    const readonly = action === "list" || (action === "comment" && values.text === undefined);
    // A rebuild on purpose: whatever snapshot there is goes first (only a writable open saves one).
    if (action === "graph") {
      removeSnapshot(snapshotPath(values.book));
    }
    const book = OpenBook.open(values.book, {}, { readonly, onProgress: openProgress() });
    const out = (text: string, json: unknown) => {
      process.stdout.write(text + "\n");
      if (values.json) printJson(json);
    };
    try {
      switch (action) {
        case "think": {
          const r = book.edits.thinkNow(target(book, values, true)!);
          out(`queued first: ${r.sfen}${r.limit ? ` (limit ${JSON.stringify(r.limit)})` : ""}`, r);
          break;
        }
        case "deeper": {
          const r = book.edits.thinkDeeper(target(book, values, true)!, factor);
          out(`queued first, deeper: ${r.sfen} (limit ${JSON.stringify(r.limit)})`, r);
          break;
        }
        case "add-move": {
          const from = target(book, values, true)!;
          const r = book.edits.addMove(from, values.move!);
          out(
            r.limit === null && book.graph.find(Position.fromSfen(r.sfen).keyHi, Position.fromSfen(r.sfen).keyLo) >= 0
              ? `already in the book: ${r.sfen}`
              : `queued first: ${r.sfen}`,
            r,
          );
          break;
        }
        case "retry": {
          const n = book.edits.retry(target(book, values, false));
          out(`released ${n} failed position(s)`, { released: n });
          break;
        }
        case "unban": {
          const ok = book.edits.unban(target(book, values, true)!, values.move!);
          if (!ok) throw new Error(`${values.move} is not banned there`);
          out(`unbanned ${values.move}`, { unbanned: true });
          break;
        }
        case "prune": {
          const r = book.edits.prune(target(book, values, true)!);
          out(`pruned ${r.positions} position(s) (batch ${r.batch}; horu book undo-prune puts them back)`, r);
          break;
        }
        case "undo-prune": {
          const r = book.edits.undoPrune();
          if (!r) throw new Error("nothing to undo: no pruned subtree is kept");
          out(
            `restored ${r.positions} position(s) (batch ${r.batch})${r.kept ? `; ${r.kept} thought again since the prune kept as they are now` : ""}`,
            r,
          );
          break;
        }
        case "comment": {
          const sfen = target(book, values, true)!;
          if (values.text === undefined) {
            const text = book.store.notes.getComment(sfen);
            out(text ?? "(no comment)", { sfen, comment: text });
          } else {
            book.edits.comment(sfen, values.text);
            out(values.text.trim() ? "comment saved" : "comment removed", { sfen, comment: values.text.trim() ? values.text : null });
          }
          break;
        }
        case "graph": {
          const t = book.timings;
          // Books under SNAPSHOT_MIN_POSITIONS are not saved by the open itself.
          const saved = existsSync(snapshotPath(book.store.path)) || book.saveSnapshot();
          if (!saved) throw new Error(`could not save the graph snapshot beside ${book.store.path} (see the book's log)`);
          const bytes = statSync(snapshotPath(book.store.path)).size;
          out(
            `rebuilt ${t.positions.toLocaleString("en")} positions in ${(t.graphMs / 1000).toFixed(1)} s; saved ${snapshotPath(book.store.path)} (${(bytes / 2 ** 20).toFixed(0)} MiB)`,
            { positions: t.positions, graphMs: Math.round(t.graphMs), snapshot: snapshotPath(book.store.path), bytes },
          );
          break;
        }
        case "list": {
          const what = positionals[1]!;
          const at = (ms: number) => new Date(ms).toISOString();
          // The JSON has the rows as stored; the text, tab-separated under a header line, what a reader
          // needs of them (no hash keys), times in UTC (ISO 8601).
          let rows: unknown[], shown: Array<Record<string, unknown>>;
          if (what === "queued") {
            const q = book.store.queue.peek(1_000_000);
            rows = q;
            shown = q.map((r) => ({ sfen: r.sfen, source: r.source, ply: r.ply, limit: r.limit ?? null }));
          } else if (what === "failed") {
            rows = shown = [...book.store.failures.iterateFailed()].map((f) => ({ sfen: f.sfen }));
          } else if (what === "bans") {
            rows = shown = book.store.bans.list().map((b) => ({ sfen: b.sfen, move: b.move, reason: b.reason }));
          } else if (what === "prunes") {
            const p = book.store.prunes.list();
            rows = p;
            shown = p.map((r) => ({ batch: r.batch, root: r.rootSfen, positions: r.positions, at: at(r.at) }));
          } else {
            const c = book.store.notes.listComments();
            rows = c;
            shown = c.map((r) => ({ sfen: r.sfen, comment: r.text, at: at(r.updatedAt) }));
          }
          const cell = (v: unknown) => (v === null || v === undefined ? "-" : typeof v === "object" ? JSON.stringify(v) : String(v));
          if (shown.length) process.stdout.write(Object.keys(shown[0]!).join("\t") + "\n");
          for (const r of shown) process.stdout.write(Object.values(r).map(cell).join("\t") + "\n");
          const one: Record<string, string> = { bans: "ban", prunes: "prune", comments: "comment" };
          process.stderr.write(`${rows.length} ${rows.length === 1 ? (one[what] ?? what) : what}\n`);
          if (values.json) printJson({ [what]: rows });
          break;
        }
      }
    } finally {
      book.close();
    }
    return 0;
  },
};

/**
 * Frees a book whose writer lock names a process on another host (a container restarted under
 * a new name, a book copied off a server mid-dig): that holder cannot be checked from here. A
 * holder on this host is checked: a live one is never freed, a dead one is taken over anyway.
 */
function unlock(file: string, json: boolean): number {
  const reader = BookStore.open(file, { readonly: true });
  const holder = reader.lockHolder();
  reader.close();
  const say = (text: string, freed: boolean) => {
    process.stdout.write(text + "\n");
    if (json) printJson({ book: file, holder: holder ?? null, freed });
    return 0;
  };
  if (!holder) return say(`${file} is not locked: nothing to free`, false);
  const who = `pid ${holder.pid} on ${holder.host}, since ${new Date(holder.since).toISOString()}`;
  if (holder.host === hostname() && holderAlive({ ...holder, proc_start: null }))
    throw new Error(`${file} is being written by a live process on this machine (${who}): stop it; its lock is not freed`);
  // Taken over and let go at once: the book is left unlocked, checked and upgraded as any open.
  BookStore.open(file, { forceLock: true, writer: "horu book unlock" }).close();
  return say(`freed ${file} from the lock of ${who}; make sure that process is gone: two writers would corrupt the book`, true);
}
