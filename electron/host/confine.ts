// What the page may do when `horu web` runs without --allow-server-paths (docs/SECURITY.md):
// run only the engines already in the library, found on this machine or built in; write
// exports and backups only into the open book's folder; restore only the book's own backups.
// The checks are lexical where they can be: a refused path is never looked at, so a refusal
// tells nothing about what is on the disk.

import path from "node:path";
import type { EngineConfigView } from "../../shared/api/contract.js";
import type { EngineLibrary } from "../engines/library.js";
import { builtinCandidates, detectedCandidates } from "../engines/choose.js";
import { parseCommandLine } from "../engines/argv.js";
import { isBuiltinCommand } from "../engines/builtin.js";
import { listBackups } from "../book/backup.js";
import { userError } from "../../shared/api/user-error.js";

type EngineRecord = Omit<EngineConfigView, "id">;

/** An engine's identity: what it runs, with what, where (its options and name may change). */
const sameProgram = (a: Pick<EngineRecord, "command" | "args" | "cwd">, b: Pick<EngineRecord, "command" | "args" | "cwd">) =>
  a.command === b.command && JSON.stringify(a.args) === JSON.stringify(b.args) && (a.cwd ?? null) === (b.cwd ?? null);

export class Confinement {
  constructor(private readonly library: EngineLibrary) {}

  /**
   * Refuses an engine the page names unless it is one horu already runs: in the library
   * (an update may change its name and options, not what it runs), detected on this machine,
   * or built in.
   */
  engine(method: string, e: EngineRecord): void {
    const known: Array<Pick<EngineRecord, "command" | "args" | "cwd">> = [];
    try {
      known.push(...this.library.list());
    } catch {
      // a library that cannot be read knows no engine
    }
    for (const c of [...detectedCandidates(), ...builtinCandidates()]) {
      const [command, ...args] = isBuiltinCommand(c.commandLine) ? [c.commandLine] : parseCommandLine(c.commandLine);
      if (command) known.push({ command, args, cwd: c.cwd });
    }
    if (known.some((k) => sameProgram(k, e))) return;
    // The program itself is one horu runs, started otherwise: say what differs, not "not found".
    const like = known.find((k) => k.command === e.command);
    if (like) {
      const what = JSON.stringify(like.args) !== JSON.stringify(e.args) ? "arguments" : "folder";
      throw userError(
        `${method}: ${e.command} runs here only as found on this machine; this one has another ${what === "arguments" ? "argument list" : `working folder (${e.cwd ?? "none"})`}; add it so with \`horu engines add\` on the server, or start horu web with --allow-server-paths`,
        { key: "serverEngineDiffers", params: { method, command: e.command, cwd: e.cwd ?? "-" } },
      );
    }
    throw userError(
      `${method}: this page runs only the engines in the library, found on this machine or built in; add another engine with \`horu engines add\` on the server, or start horu web with --allow-server-paths`,
      { key: "serverEnginesOff", params: { method } },
    );
  }

  /**
   * Engine options that name files (`Debug Log File`, `EvalDir`, `BookFile`, any name saying
   * File, Path, Dir or Log) are the server's files: the page may not set them. Run on every
   * engine the page adds, updates or tests.
   */
  engineOptions(method: string, e: Pick<EngineRecord, "command" | "args" | "cwd" | "options">): void {
    let same: EngineRecord[] = [];
    try {
      same = this.library.list().filter((k) => sameProgram(k, e));
    } catch {
      // a library that cannot be read sets no option
    }
    for (const [name, value] of Object.entries(e.options ?? {})) {
      // What the library (set on the server) already holds for this engine may be sent back as it is.
      if (same.some((k) => k.options?.[name] === value)) continue;
      if (FILE_OPTION.test(name.replace(/[\s_-]/g, "")))
        throw userError(
          `${method}: the option ${JSON.stringify(name)} names a file on the server; this page may not set it (set it with \`horu engines\` on the server, or start horu web with --allow-server-paths)`,
          { key: "engineFileOption", params: { method, name } },
        );
    }
  }

  /** The absolute path of a file the page writes: only a name in the open book's folder. */
  fileInBookFolder(method: string, bookFile: string, target: string): string {
    const folder = path.dirname(path.resolve(bookFile));
    const abs = path.resolve(folder, target);
    if (path.dirname(abs) !== folder) throw outside(method, folder);
    return abs;
  }

  /** A folder the page names for backups: only the open book's folder (a relative name is read from it); returns it. */
  folderIsBookFolder(method: string, bookFile: string, dir: string): string {
    const folder = path.dirname(path.resolve(bookFile));
    if (path.resolve(folder, dir) !== folder) throw outside(method, folder);
    return folder;
  }

  /**
   * A book the page creates: only in `folder` (the open book's, else the one horu web was
   * started in); a relative name is read from that folder, never from the server's working folder.
   */
  bookInFolder(method: string, folder: string, target: string): string {
    const abs = path.resolve(folder, target);
    if (path.dirname(abs) !== path.resolve(folder)) throw outside(method, path.resolve(folder));
    return abs;
  }

  /** A backup the page restores: only one horu made of this book, beside it. */
  ownBackup(bookFile: string, from: string): void {
    const folder = path.dirname(path.resolve(bookFile));
    const abs = path.resolve(folder, from);
    if (path.dirname(abs) !== folder || !listBackups(folder, bookFile).includes(abs))
      throw userError(
        `backup.restore: this page restores only the book's own backups (in ${folder}); restore another file with --allow-server-paths`,
        { key: "notOwnBackup", params: { folder } },
      );
  }
}

/** Option names (spaces, _ and - removed) that name a file or folder on the server. */
const FILE_OPTION = /file|path|dir|folder|log/i;

function outside(method: string, folder: string): Error {
  return userError(
    `${method}: this page writes only into the book's folder (${folder}); start horu web with --allow-server-paths to write elsewhere`,
    { key: "outsideBookFolder", params: { method, folder } },
  );
}
