// Importing other programs' books (.db YaneuraOu DB2016, .bin Apery) into the open book's
// store, with progress events. The caller rebuilds the graph afterwards (it reopens the book).

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { HostEvent, ImportReportView } from "../../shared/api/contract.js";
import type { OpenBook } from "../book/open-book.js";
import { importDb2016, importAperyFile } from "../book/import.js";
import { keyed } from "./errors.js";
import type { UploadedFile } from "./uploads.js";

/** Refuses a path that does not exist before anything is imported. */
export function checkImportPaths(paths: string[]): void {
  for (const p of paths) if (!existsSync(p)) throw keyed("missingFile", `${p} does not exist`, { path: p });
}

/** Imports the files in order into the book's store, telling progress as it goes. */
export async function importBookFiles(book: OpenBook, paths: string[], emit: (e: HostEvent) => void): Promise<ImportReportView[]> {
  const out: ImportReportView[] = [];
  for (const p of paths) {
    const total = statSync(p).size;
    const name = path.basename(p);
    emit({ type: "import.progress", file: name, lines: 0, bytes: 0, total });
    if (/\.bin$/i.test(p)) {
      out.push(reportView(importAperyFile(book.store, p, book.settings.root)));
    } else if (/\.(db|txt)$/i.test(p)) {
      out.push(
        reportView(
          await importDb2016(book.store, p, {
            onProgress: (lines, bytes) => emit({ type: "import.progress", file: name, lines, bytes: bytes ?? 0, total }),
          }),
        ),
      );
    } else throw keyed("notABook", `${p}: not a book file (.db for YaneuraOu DB2016, .bin for Apery)`, { path: p });
    emit({ type: "import.progress", file: name, lines: 0, bytes: total, total });
  }
  return out;
}

/** The reports of an uploaded file name the user's file, not the temporary copy it was read from. */
export function asUploadReports(reports: ImportReportView[], up: UploadedFile): ImportReportView[] {
  return reports.map((f) => ({ ...f, file: up.name, errors: f.errors.map((e) => e.split(up.file).join(up.name)) }));
}

function reportView(r: {
  file: string;
  format: string;
  positions: number;
  moves: number;
  errors: string[];
  errorCount: number;
  ms: number;
}): ImportReportView {
  return {
    file: path.basename(r.file),
    format: r.format,
    positions: r.positions,
    moves: r.moves,
    errors: r.errors,
    errorCount: r.errorCount,
    ms: r.ms,
  };
}
