// The engines a book digs with (table engines).
import type { EngineConfigView } from "../../shared/api/contract.js";
import type { StoreDb } from "./db.js";
import { BookDataError } from "./errors.js";

/** An engine as the book stores it: the contract's view is the one definition. */
export type EngineConfig = EngineConfigView;

interface EngineRow {
  id: number;
  name: string;
  command: string;
  args: string;
  cwd: string | null;
  options: string;
  enabled: number;
}

function toEngine(r: EngineRow): EngineConfig {
  return {
    id: r.id,
    name: r.name,
    command: r.command,
    args: field(r, "args", (v) => Array.isArray(v) && v.every((a) => typeof a === "string")) as string[],
    cwd: r.cwd,
    options: field(r, "options", (v) => typeof v === "object" && v !== null && !Array.isArray(v)) as EngineConfig["options"],
    enabled: r.enabled !== 0,
  };
}

/** A JSON column of an engine row as horu writes it; a crafted or damaged one is said so (BookDataError), naming the row. */
function field(r: EngineRow, column: "args" | "options", ok: (v: unknown) => boolean): unknown {
  let v: unknown;
  try {
    v = JSON.parse(r[column]);
  } catch {
    v = undefined;
  }
  if (v === undefined || !ok(v))
    throw new BookDataError(
      `the book's engines table is damaged: engine ${r.id} (${JSON.stringify(r.name.slice(0, 80))}) has ${column} ${JSON.stringify(String(r[column]).slice(0, 80))}, not a JSON ${column === "args" ? "list of strings" : "object"}`,
    );
  return v;
}

export class Engines {
  constructor(private readonly c: StoreDb) {}

  add(e: Omit<EngineConfig, "id">): number {
    return this.c.write(() =>
      Number(
        this.c
          .q("INSERT INTO engines (name, command, args, cwd, options, enabled) VALUES (?, ?, ?, ?, ?, ?)")
          .run(e.name, e.command, JSON.stringify(e.args), e.cwd, JSON.stringify(e.options), e.enabled ? 1 : 0).lastInsertRowid,
      ),
    );
  }

  update(e: EngineConfig): void {
    const changes = this.c.write(
      () =>
        this.c
          .q("UPDATE engines SET name = ?, command = ?, args = ?, cwd = ?, options = ?, enabled = ? WHERE id = ?")
          .run(e.name, e.command, JSON.stringify(e.args), e.cwd, JSON.stringify(e.options), e.enabled ? 1 : 0, e.id).changes,
    );
    if (changes === 0) throw new Error(`no engine with id ${e.id}`);
  }

  remove(id: number): boolean {
    return this.c.write(() => this.c.q("DELETE FROM engines WHERE id = ?").run(id).changes > 0);
  }

  get(id: number): EngineConfig | undefined {
    const row = this.c.q("SELECT * FROM engines WHERE id = ?").get(id) as EngineRow | undefined;
    return row && toEngine(row);
  }

  list(): EngineConfig[] {
    return (this.c.q("SELECT * FROM engines ORDER BY id").all() as EngineRow[]).map(toEngine);
  }
}
