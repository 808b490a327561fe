// `horu export`: writes a dug book as a YaneuraOu DB2016 text book or an Apery .bin.
import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { UsageError, wholeNumber, printJson, openProgress } from "../command.js";
import { OpenBook } from "../../book/open-book.js";
import { exportBook } from "../../export/export.js";
import { bookKindOfName } from "../../formats/book-files.js";
import { parseMoveChoice } from "../../../shared/book/quality.js";

const usage = `usage: horu export --book FILE --out OUT(.db|.bin|.ybb|.sbk) [--raw | --minimax [--choice C]] [--shrink] [--max-ply N] [--eval-limit V]
       [--draw-black V --draw-white V] [--force] [--json]

Writes the thought positions of the book FILE to OUT: a YaneuraOu DB2016 book (.db), an
Apery/dlshogi book (.bin), a YaneuraOu binary book (.ybb) or a ShogiGUI book (.sbk). OUT is
written beside its place and renamed into it. An existing OUT is replaced only with --force;
a horu book (or any SQLite file) is never replaced.
  --minimax        each move valued by the Peta-Shock minimax over the whole book (default)
  --choice C       with --minimax, the move each position lists first (what a player plays):
                   minimax (its best by the minimax) or robust[:CP] (the engine's own best
                   unless the minimax beats it by more than CP, default 50); default: the
                   book's own (robust:50 for a book dug with --settle, else minimax)
  --draw-black V   the minimax's value of a draw for black (black's view); default: the book's setting
  --draw-white V   the same for white (white's view); default: the book's setting
  --raw            the engine's values as thought (and an imported file's as it gave them:
                   moves in its order, "none", comments, marks, game counts)
  --shrink         keep only the moves whose value equals the best
  --max-ply N      only positions within N plies of the root (0, the default: no limit)
  --eval-limit V   leave out moves valued beyond +-V (0, the default: no limit)
  --force          replace OUT when it exists (never a horu book)`;

export const exportCommand: Command = {
  name: "export",
  summary: "write the book as a DB2016 .db, Apery .bin, YaneuraOu .ybb or ShogiGUI .sbk file",
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        book: { type: "string" },
        out: { type: "string" },
        raw: { type: "boolean" },
        minimax: { type: "boolean" },
        choice: { type: "string" },
        shrink: { type: "boolean" },
        "max-ply": { type: "string" },
        "eval-limit": { type: "string" },
        "draw-black": { type: "string" },
        "draw-white": { type: "string" },
        json: { type: "boolean" },
        force: { type: "boolean" },
      },
    });
    if (!values.book) throw new UsageError("--book FILE is required");
    if (!values.out) throw new UsageError("--out FILE is required");
    if (values.raw && values.minimax) throw new UsageError("give --raw or --minimax, not both");
    const format = bookKindOfName(values.out);
    if (!format) throw new UsageError(`--out must end in .db, .bin, .ybb or .sbk: ${values.out}`);
    const num = (name: string, raw: string | undefined) => wholeNumber(name, raw, 0) ?? 0;
    const draw = (name: string, raw: string | undefined): number | undefined => {
      if (raw === undefined) return undefined;
      if (!/^[+-]?\d+$/.test(raw) || Math.abs(Number(raw)) > 32000)
        throw new UsageError(`--${name} needs an integer within +-32000, got ${raw}`);
      return Number(raw);
    };
    const drawBlack = draw("draw-black", values["draw-black"]);
    const drawWhite = draw("draw-white", values["draw-white"]);
    if ((drawBlack !== undefined || drawWhite !== undefined) && values.raw)
      throw new UsageError("--draw-black/--draw-white apply to --minimax");
    if (values.choice !== undefined && values.raw) throw new UsageError("--choice applies to --minimax");
    let choice;
    try {
      choice = values.choice === undefined ? undefined : parseMoveChoice(values.choice);
    } catch (e) {
      throw new UsageError(`--choice: ${(e as Error).message}`);
    }
    const book = OpenBook.open(values.book, {}, { readonly: true, onProgress: openProgress() });
    try {
      const r = await exportBook(book, {
        path: values.out,
        format,
        mode: values.raw ? "raw" : "minimax",
        shrink: values.shrink ?? false,
        maxPly: num("max-ply", values["max-ply"]),
        evalLimit: num("eval-limit", values["eval-limit"]),
        drawBlack,
        drawWhite,
        ...(choice ? { choice } : {}),
        overwrite: values.force ?? false,
        folder: process.cwd(),
        overwriteHint: "give --force to replace it",
      });
      process.stdout.write(
        `wrote ${r.path}: ${r.positions.toLocaleString("en")} positions, ${r.moves.toLocaleString("en")} moves, ${r.bytes.toLocaleString("en")} bytes in ${(r.ms / 1000).toFixed(2)} s\n`,
      );
      if (r.dropped?.length)
        process.stdout.write(`${format} cannot hold everything; left out:\n${r.dropped.map((d) => `  ${d}\n`).join("")}`);
      if (values.json) printJson(r);
      return 0;
    } finally {
      book.close();
    }
  },
};
