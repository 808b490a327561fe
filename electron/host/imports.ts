// Importing other programs' books (.db YaneuraOu DB2016, .bin Apery, .ybb YaneuraOu binary,
// .sbk ShogiGUI) into the open book's store, with progress events. A damaged file is refused
// whole (nothing of it stored) with its name and the damaged places. The caller rebuilds the
// graph afterwards (it reopens the book).

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { HostEvent, ImportReportView } from "../../shared/api/contract.js";
import type { OpenBook } from "../book/open-book.js";
import { importDb2016, importAperyFile, importBookFile, type ImportReport } from "../book/import.js";
import { userError } from "../../shared/api/user-error.js";
import type { UploadedFile } from "./uploads.js";

/** Refuses a path that does not exist before anything is imported. */
export function checkImportPaths(paths: string[]): void {
  for (const p of paths) if (!existsSync(p)) throw userError(`${p} does not exist`, { key: "missingFile", params: { path: p } });
}

/** Imports the files in order into the book's store, telling progress as it goes. */
export async function importBookFiles(book: OpenBook, paths: string[], emit: (e: HostEvent) => void): Promise<ImportReportView[]> {
  const out: ImportReportView[] = [];
  for (const p of paths) {
    const total = statSync(p).size;
    const name = path.basename(p);
    emit({ type: "import.progress", file: name, lines: 0, bytes: 0, total });
    try {
      out.push(reportView(await importOne(book, p, (lines, bytes) => emit({ type: "import.progress", file: name, lines, bytes, total }))));
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

async function importOne(book: OpenBook, p: string, onProgress: (lines: number, bytes: number) => void): Promise<ImportReport> {
  if (/\.bin$/i.test(p)) return importAperyFile(book.store, p, book.settings.root);
  if (/\.(db|txt)$/i.test(p)) return importDb2016(book.store, p, { onProgress: (lines, bytes) => onProgress(lines, bytes ?? 0) });
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
  return reports.map((f) => ({ ...f, file: up.name, errors: f.errors.map((e) => e.split(up.file).join(up.name)) }));
}

/** The UI's view of an import report: the file by its name, no Apery-only counts. */
function reportView({ unreachable: _, ...r }: ImportReport): ImportReportView {
  return { ...r, file: path.basename(r.file) };
}
