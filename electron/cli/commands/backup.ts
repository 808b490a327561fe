// `horu backup`: a consistent snapshot of a book, also while another process digs it.
import { parseArgs } from "node:util";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError, printJson } from "../command.js";
import { BookStore } from "../../store/book-store.js";
import { backupInto } from "../../book/backup.js";
import { sameFile } from "../../paths/same-file.js";
import { entryExists } from "../../fs/safe-file.js";

const usage = `usage: horu backup --book FILE (--out FILE [--force] | --dir DIR) [--json]

Copies the book FILE with SQLite's online backup: a consistent snapshot even while a
dig writes to it (the book is opened read-only; the dig goes on). The copy is written
beside the target and renamed into place, so an existing file at --out is replaced only
by a complete backup, and only with --force: an earlier backup of the same book, or a file
that is no database (never a book, another book's backup or another program's database).
  --out FILE   the backup file
  --force      replace --out when it exists (an earlier backup of this book)
  --dir DIR    a timestamped backup in DIR (<book>.<UTC time>.backup.horu)
  --json       print {path, bytes, ms} as JSON on the last line
For backups on a schedule while digging, see horu dig --backup-every.`;

export const backupCommand: Command = {
  name: "backup",
  summary: "write a consistent snapshot of a book (also while it digs)",
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        book: { type: "string" },
        out: { type: "string" },
        force: { type: "boolean" },
        dir: { type: "string" },
        json: { type: "boolean" },
      },
    });
    if (!values.book) throw new UsageError("--book FILE is required");
    if (!values.out === !values.dir) throw new UsageError("give one of --out FILE or --dir DIR");
    if (values.out && (path.resolve(values.out) === path.resolve(values.book) || sameFile(values.out, values.book)))
      throw new UsageError("--out must not be the book itself");
    if (values.out && existsSync(values.out) && statSync(values.out).isDirectory())
      throw new UsageError(`--out ${values.out} is a directory; use --dir`);
    if (values.out && !values.force && entryExists(values.out))
      throw new UsageError(
        `--out ${values.out} exists: give --force to replace it (an earlier backup of this book), or choose another file`,
      );
    const t0 = performance.now();
    const store = BookStore.open(values.book, { readonly: true });
    let file: string;
    try {
      if (values.out) {
        await store.backup(values.out);
        file = values.out;
      } else file = await backupInto(store, values.dir!);
    } finally {
      store.close();
    }
    const r = { path: file, bytes: statSync(file).size, ms: performance.now() - t0 };
    process.stdout.write(`wrote ${r.path}: ${r.bytes.toLocaleString("en")} bytes in ${(r.ms / 1000).toFixed(2)} s\n`);
    if (values.json) printJson(r);
    return 0;
  },
};
