// The engine library: the engines this user has added, kept once for the whole app (not per
// book) in engines.json in the config folder. Every book can dig with them; a book still
// records which engine (name, options) thought each of its positions.
//
// The file is only ever replaced whole (written beside, then renamed). A file that is not
// valid, or that a newer horu wrote, is never rewritten: it is reported and left as it is.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { BookEngineView, EngineConfigView } from "../../shared/api/contract.js";
import { configDir } from "./places.js";
import { formatCommandLine } from "./argv.js";

export const LIBRARY_VERSION = 1;
export const LIBRARY_FILE = "engines.json";

const OptionValue = z.union([z.string(), z.number(), z.boolean()]);
const EntrySchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().min(1).max(200),
    command: z.string().min(1).max(4096),
    args: z.array(z.string().max(4096)),
    cwd: z.string().max(4096).nullable(),
    options: z.record(z.string(), OptionValue),
    enabled: z.boolean(),
  })
  .strict();
const FileSchema = z.object({ format: z.literal("horu-engines"), version: z.number().int(), engines: z.array(z.unknown()) }).passthrough();

export type LibraryEngine = EngineConfigView;

/** A library file horu must not write: damaged, or from a newer version. */
export class LibraryError extends Error {}

export interface LibraryState {
  engines: LibraryEngine[];
  /** Why the file cannot be used (and will not be written), or null. */
  problem: string | null;
}

function lineOf(text: string, message: string): string {
  const m = /position (\d+)/.exec(message);
  if (!m) return "";
  const line = text.slice(0, Number(m[1])).split("\n").length;
  return ` at line ${line}`;
}

export class EngineLibrary {
  readonly file: string;

  constructor(dir: string = configDir()) {
    this.file = path.join(dir, LIBRARY_FILE);
  }

  /** Reads the library; a missing file is an empty library, a bad one a problem (and no engines). */
  load(): LibraryState {
    if (!existsSync(this.file)) return { engines: [], problem: null };
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (e) {
      return { engines: [], problem: `${this.file}: cannot be read (${e instanceof Error ? e.message : String(e)})` };
    }
    const keep = "horu leaves it as it is; fix it, or move it away to start a new library";
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      return { engines: [], problem: `${this.file}${lineOf(text, msg)}: not a valid engine library (${msg}); ${keep}` };
    }
    const file = FileSchema.safeParse(json);
    if (!file.success)
      return {
        engines: [],
        problem: `${this.file}: not a horu engine library (expected {"format": "horu-engines", "version": ${LIBRARY_VERSION}, "engines": [...]}); ${keep}`,
      };
    if (file.data.version > LIBRARY_VERSION) {
      return {
        engines: [],
        problem: `${this.file}: written by a newer horu (library version ${file.data.version}; this horu reads version ${LIBRARY_VERSION}); it is left as it is: update horu to use it`,
      };
    }
    const engines: LibraryEngine[] = [];
    for (const [i, raw] of file.data.engines.entries()) {
      const e = EntrySchema.safeParse(raw);
      if (!e.success) {
        const issue = e.error.issues[0];
        return {
          engines: [],
          problem: `${this.file}: engine ${i + 1}${issue?.path.length ? ` field ${issue.path.join(".")}` : ""}: ${issue?.message ?? "invalid"}; ${keep}`,
        };
      }
      engines.push(e.data);
    }
    return { engines, problem: null };
  }

  /** The engines; throws a LibraryError naming the file and the problem when it cannot be read. */
  list(): LibraryEngine[] {
    const s = this.load();
    if (s.problem) throw new LibraryError(s.problem);
    return s.engines;
  }

  get(id: number): LibraryEngine | undefined {
    return this.list().find((e) => e.id === id);
  }

  /** Finds an engine by id ("3") or by name (exact, then case-insensitive). */
  find(ref: string): LibraryEngine | undefined {
    const all = this.list();
    if (/^\d+$/.test(ref)) {
      const byId = all.find((e) => e.id === Number(ref));
      if (byId) return byId;
    }
    return all.find((e) => e.name === ref) ?? all.find((e) => e.name.toLowerCase() === ref.toLowerCase());
  }

  add(e: Omit<LibraryEngine, "id">): LibraryEngine {
    const all = this.list();
    const same = all.find((x) => x.command === e.command && JSON.stringify(x.args) === JSON.stringify(e.args) && x.cwd === e.cwd);
    // Adding the same engine with the same options again is a no-op; other options need their own name.
    if (same && JSON.stringify(same.options) === JSON.stringify(e.options) && same.enabled === e.enabled) return same;
    if (same && same.name === e.name)
      throw new LibraryError(
        `that engine is already in the library as '${same.name}' (id ${same.id}) with other options: change them there, or add it under another name`,
      );
    const added = { ...e, id: all.reduce((m, x) => Math.max(m, x.id), 0) + 1 };
    this.save([...all, added]);
    return added;
  }

  update(e: LibraryEngine): LibraryEngine {
    const all = this.list();
    const i = all.findIndex((x) => x.id === e.id);
    if (i < 0) throw new LibraryError(`no engine with id ${e.id} in the library`);
    all[i] = e;
    this.save(all);
    return e;
  }

  remove(id: number): LibraryEngine {
    const all = this.list();
    const gone = all.find((x) => x.id === id);
    if (!gone) throw new LibraryError(`no engine with id ${id} in the library`);
    this.save(all.filter((x) => x.id !== id));
    return gone;
  }

  /**
   * The engines a book names (its `engines` table, from before the library) that are not in
   * this library (same command, args and folder). They are never added, enabled or run on
   * the book's say: a book file can come from anyone, and an engine is a program. The user
   * is shown their command lines and adds them if they trust them.
   */
  notInLibrary(configs: Array<Omit<LibraryEngine, "id">>): Array<Omit<LibraryEngine, "id">> {
    const state = this.load();
    const known = state.problem ? [] : state.engines;
    const same = (a: Omit<LibraryEngine, "id">, b: Omit<LibraryEngine, "id">) =>
      a.command === b.command && JSON.stringify(a.args) === JSON.stringify(b.args) && a.cwd === b.cwd;
    const out: Array<Omit<LibraryEngine, "id">> = [];
    for (const e of configs) if (!known.some((x) => same(x, e)) && !out.some((x) => same(x, e))) out.push(e);
    return out;
  }

  private save(engines: LibraryEngine[]): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ format: "horu-engines", version: LIBRARY_VERSION, engines }, null, 2) + "\n");
    renameSync(tmp, this.file);
  }
}

/** A shell word: single-quoted unless it is plainly safe. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The `horu engines add ...` that puts this engine into the library (for the user to run, if they trust it). */
export function engineAddCommand(e: Omit<LibraryEngine, "id">): string {
  const words = ["horu", "engines", "add", shellWord(formatCommandLine([e.command, ...e.args])), "--name", shellWord(e.name)];
  if (e.cwd) words.push("--cwd", shellWord(e.cwd));
  for (const [k, v] of Object.entries(e.options)) words.push("--option", shellWord(`${k}=${String(v)}`));
  return words.join(" ");
}

/** What the UI shows of an engine a book names and the library lacks. */
export function bookEngineView(e: Omit<LibraryEngine, "id">): BookEngineView {
  return {
    name: e.name,
    commandLine: formatCommandLine([e.command, ...e.args]),
    cwd: e.cwd,
    options: e.options,
    addCommand: engineAddCommand(e),
  };
}
