// Importing other programs' books (.db YaneuraOu DB2016, .bin Apery, .ybb YaneuraOu binary,
// .sbk ShogiGUI) into the open book's store, with progress events. A .db's damaged lines are
// left out and listed (or, strict, the file is refused whole naming the first); another damaged
// file is refused whole (nothing of it stored) with its name and the damaged places. The caller
// rebuilds the graph afterwards (it reopens the book).

import { statSync } from "node:fs";
import { checkRegular } from "../fs/safe-file.js";
import path from "node:path";
import type { HostEvent, ImportReportView } from "../../shared/api/contract.js";
import type { OpenBook } from "../book/open-book.js";
import { importDb2016, importAperyFile, importBookFile, type ImportReport } from "../book/import.js";
import { userError } from "../../shared/api/user-error.js";
import type { UploadedFile } from "./uploads.js";

/** Refuses a path that does not exist before anything is imported. */
export function checkImportPaths(paths: string[]): void {
  // A FIFO or device would block the reader (and the server with it): refused before any reading.
  for (const p of paths) checkRegular(p, { followLinks: true });
}

/** Imports the files in order into the book's store, telling progress as it goes. */
export async function importBookFiles(
  book: OpenBook,
  paths: string[],
  emit: (e: HostEvent) => void,
  opts: { strict?: boolean } = {},
): Promise<ImportReportView[]> {
  const out: ImportReportView[] = [];
  for (const p of paths) {
    const total = statSync(p).size;
    const name = path.basename(p);
    emit({ type: "import.progress", file: name, lines: 0, bytes: 0, total });
    try {
      const progress = (lines: number, bytes: number) => emit({ type: "import.progress", file: name, lines, bytes, total });
      out.push(reportView(await importOne(book, p, progress, opts.strict ?? false)));
    } catch (e) {
      throw refusal(
        e,
        p,
        out.map((r) => r.file),
      );
    }
    emit({ type: "import.progress", file: name, lines: 0, bytes: total, total });
  }
  return out;
}

async function importOne(
  book: OpenBook,
  p: string,
  onProgress: (lines: number, bytes: number) => void,
  strict: boolean,
): Promise<ImportReport> {
  if (/\.bin$/i.test(p)) return importAperyFile(book.store, p, book.settings.root);
  if (/\.(db|txt)$/i.test(p)) {
    const r = await importDb2016(book.store, p, { strict, onProgress: (lines, bytes) => onProgress(lines, bytes ?? 0) });
    // Nothing read and lines not understood: another kind of file under a .db name (binary
    // data), refused as such rather than listed as a damaged book of 0 positions.
    if (r.positions === 0 && r.errorCount > 0)
      throw new Error(
        `${p}: not a YaneuraOu DB2016 book: no position read, ${r.errorCount.toLocaleString("en")} line(s) not understood${r.errors[0] ? ` (first: ${r.errors[0]})` : ""}`,
      );
    return r;
  }
  if (/\.(ybb|sbk)$/i.test(p)) return importBookFile(book.store, p, /\.ybb$/i.test(p) ? "ybb" : "sbk");
  throw userError(`${p}: not a book file (.db for YaneuraOu DB2016, .bin for Apery, .ybb for YaneuraOu binary, .sbk for ShogiGUI)`, {
    key: "notABook",
    params: { path: p },
  });
}

/**
 * A file refused as damaged (its message starts with its path) is the user's to correct: said
 * with the file's name (an upload's temporary path means nothing to the user), and keyed so the
 * UI says in its language that nothing was stored. Other failures (a full disk...) pass as they are.
 */
function refusal(e: unknown, p: string, imported: string[]): unknown {
  if (!(e instanceof Error) || (e as { code?: string }).code === "user" || !e.message.startsWith(p)) return e;
  // The files before it were imported (each is its own import, undone on its own): said, so none is a surprise.
  const before = imported.length ? `\n(imported before it: ${imported.join(", ")})` : "";
  const detail = e.message.split(p).join(path.basename(p)) + before;
  return userError(detail, { key: "importRefused", params: { detail }, cause: e });
}

/** The reports of an uploaded file name the user's file, not the temporary copy it was read from. */
export function asUploadReports(reports: ImportReportView[], up: UploadedFile): ImportReportView[] {
  const tmp = path.basename(up.file);
  const named = (e: string) => (e.startsWith(tmp + ":") ? up.name + e.slice(tmp.length) : e.split(up.file).join(up.name));
  return reports.map((f) => ({ ...f, file: up.name, errors: f.errors.map(named) }));
}

/** The UI's view of an import report: the file by its name (in its listed lines too), no Apery-only counts. */
function reportView({ unreachable: _, ...r }: ImportReport): ImportReportView {
  const name = path.basename(r.file);
  return { ...r, file: name, errors: r.errors.map((e) => (e.startsWith(r.file) ? name + e.slice(r.file.length) : e)) };
}
