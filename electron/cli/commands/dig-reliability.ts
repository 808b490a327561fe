// The reliability options of `horu dig` (scheduled backups, the think timeout), kept out
// of dig.ts so that command stays about digging.
import type { UsiEngineOptions } from "../../engines/usi/engine.js";
import type { BookStore } from "../../store/book-store.js";
import { BackupSchedule } from "../../book/backup.js";
import { UsageError, wholeNumber } from "../command.js";

export const reliabilityUsage = `  --backup-every MIN   back the book up every MIN minutes while digging (fractions allowed)
  --backup-dir DIR     where scheduled backups go (default: beside the book)
  --backup-keep N      keep the newest N scheduled backups (default 10)
  --think-timeout S    restart an engine that gives no bestmove within S seconds (default 300)`;

export const reliabilityOptions = {
  "backup-every": { type: "string" },
  "backup-dir": { type: "string" },
  "backup-keep": { type: "string" },
  "think-timeout": { type: "string" },
} as const;

type Values = { "backup-every"?: string; "backup-dir"?: string; "backup-keep"?: string; "think-timeout"?: string };

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`--${name} must be a positive number, not '${raw}'`);
  return n;
}

/** Validates the options before anything is opened (a usage error must not create a book). */
export function checkReliability(v: Values): void {
  if (v["backup-every"] !== undefined) positive("backup-every", v["backup-every"]);
  else if (v["backup-dir"] !== undefined || v["backup-keep"] !== undefined)
    throw new UsageError("--backup-dir/--backup-keep need --backup-every MIN");
  wholeNumber("backup-keep", v["backup-keep"], 1);
  if (v["think-timeout"] !== undefined) positive("think-timeout", v["think-timeout"]);
}

export function withThinkTimeout(engines: UsiEngineOptions[], v: Values): UsiEngineOptions[] {
  if (v["think-timeout"] === undefined) return engines;
  const thinkMs = Math.round(positive("think-timeout", v["think-timeout"]) * 1000);
  return engines.map((e) => ({ ...e, timeouts: { ...e.timeouts, thinkMs } }));
}

/** Starts the backup schedule when asked for; its events are reported through `say`. */
export function startBackups(store: BookStore, bookPath: string, v: Values, say: (line: string) => void): BackupSchedule | null {
  if (v["backup-every"] === undefined) return null;
  const everyMs = positive("backup-every", v["backup-every"]) * 60_000;
  const dir = v["backup-dir"] ?? (bookPath.includes("/") ? bookPath.slice(0, bookPath.lastIndexOf("/")) || "/" : ".");
  const keep = v["backup-keep"] === undefined ? 10 : Number(v["backup-keep"]);
  const s = new BackupSchedule(store, {
    everyMs,
    dir,
    keep,
    onEvent: (e) =>
      say(
        e.kind === "backup"
          ? `backup ${e.file} (${Math.round(e.ms)} ms)${e.removed.length ? `, removed ${e.removed.length} older` : ""}`
          : `backup failed: ${e.message} (digging goes on)`,
      ),
  });
  s.start();
  say(`backing up every ${v["backup-every"]} min to ${dir}, keeping ${keep}`);
  return s;
}
