// Book upkeep from the GUI: importing other tools' books (.db, .bin, .ybb, .sbk) with
// progress, seeding whole folders, and backups (now, on a schedule, restore).
import { useEffect, useRef, useState } from "react";
import { act, call, hostClient, loadSide, useStore } from "../store";
import { useT } from "../useT";
import { electronBridge, filterLabels } from "../host/desktop";
import { formatBytes, formatCount, toBase64 } from "../logic";
import { BACKUP_MIN_MINUTES, UPLOAD_CHUNK_BYTES, type BackupView, type ImportReportView } from "../../../shared/api/contract";
import { openPickerOnKey } from "../parts/keys.js";

/** .db, .bin, .ybb and .sbk are books (imported as positions); everything else is a game record. */
export const BOOK_FILE = /\.(db|bin|ybb|sbk)$/i;

/**
 * A book file from the browser: sent in pieces (read one at a time from the file, so memory
 * stays flat whatever its size) with the upload's progress shown, then imported by the host
 * with its own progress. Any failure cancels the upload on the server.
 */
export async function uploadAndImport(f: File): Promise<ImportReportView[]> {
  const { id } = await call("upload.begin", { name: f.name, size: f.size });
  try {
    for (let offset = 0; offset < f.size;) {
      const bytes = new Uint8Array(await f.slice(offset, offset + UPLOAD_CHUNK_BYTES).arrayBuffer());
      await call("upload.chunk", { id, offset, base64: toBase64(bytes) });
      offset += bytes.length;
      useStore.setState({ importProgress: { file: f.name, phase: "upload", lines: 0, bytes: offset, total: f.size } });
    }
    return await call("book.importUpload", { id, strict: useStore.getState().importStrict });
  } catch (e) {
    await hostAbort(id);
    throw e;
  }
}

async function hostAbort(id: string): Promise<void> {
  try {
    // Straight to the host: a successful abort must not clear the banner saying why the import failed.
    await hostClient().call("upload.abort", { id });
  } catch {
    // gone already
  }
}

export async function importBookFiles(files: File[]): Promise<ImportReportView[] | undefined> {
  const bridge = electronBridge();
  useStore.setState({ busy: true, tab: "tools", importProgress: null });
  try {
    const paths = bridge ? files.map((f) => bridge.pathForFile(f)).filter(Boolean) : [];
    let reports: ImportReportView[] = [];
    // Why a file was refused stays on the banner after the book is reloaded below.
    let failed: string | null = null;
    const keep = () => {
      failed ??= useStore.getState().error;
      return [];
    };
    const strict = useStore.getState().importStrict;
    if (bridge && paths.length === files.length) reports = (await call("book.import", { paths, strict }).catch(keep)) ?? [];
    else for (const f of files) reports.push(...(await uploadAndImport(f).catch(keep)));
    useStore.setState({ importReports: reports });
    await loadSide();
    if (failed !== null) useStore.setState({ error: failed });
    return reports;
  } finally {
    // The report replaces the progress line: "100%" does not stay once the import is done.
    useStore.setState({ busy: false, importProgress: null });
  }
}

/** In horu web without --allow-server-paths, why the inputs that name files on the server are off. */
/** `hint`: what to say; the Match view has no upload buttons to offer instead (its own hint). */
export function ServerPathsOff({ hint = "serverPathsOffHint" }: { hint?: "serverPathsOffHint" | "serverPathsOffMatchHint" }) {
  const t = useT();
  const serverPaths = useStore((s) => s.serverPaths);
  if (serverPaths || electronBridge()) return null;
  return (
    <div className="dim small warn" data-testid="server-paths-off">
      {t(hint)}
    </div>
  );
}

/** What an import left out: the count, the first lines, and every listed line on demand (file:line: why). */
function LeftOut({ report: r }: { report: ImportReportView }) {
  const t = useT();
  const head = r.leftOut ? `${r.leftOut} ${t("importLeftOut")}` : String(r.errorCount);
  if (r.errors.length <= 3) return <>{`${head}: ${r.errors.join(" / ")}`}</>;
  return (
    <details>
      <summary>{`${head}: ${r.errors.slice(0, 3).join(" / ")} …`}</summary>
      <pre className="mono small">{r.errors.slice(0, 1000).join("\n")}</pre>
    </details>
  );
}

function ImportSection() {
  const t = useT();
  const bridge = electronBridge();
  const progress = useStore((s) => s.importProgress);
  const lang = useStore((s) => s.lang);
  const reports = useStore((s) => s.importReports);
  const busy = useStore((s) => s.busy);
  const [serverPath, setServerPath] = useState("");
  const serverPaths = useStore((s) => s.serverPaths);
  const book = useStore((s) => s.book);
  const strict = useStore((s) => s.importStrict);
  // The newest import can be undone (its positions removed, the thought positions it joined as they were).
  const lastImport = book?.imports?.[0];
  const pct = progress && progress.total > 0 ? Math.min(100, Math.round((progress.bytes / progress.total) * 100)) : null;
  return (
    <section className="tool" data-testid="tool-import">
      <h3>{t("importBooks")}</h3>
      <div className="dim small">{t("importBooksHelp")}</div>
      <label className="row" title={t("importStrictHelp")}>
        <input
          type="checkbox"
          checked={strict}
          data-testid="import-strict"
          onChange={(e) => useStore.setState({ importStrict: e.target.checked })}
        />
        {t("importStrict")}
      </label>
      <div className="row wrap">
        {bridge ? (
          <button
            onClick={() =>
              void bridge.pickPaths({ kind: "books", labels: filterLabels(t) }).then(async (paths) => {
                if (!paths.length) return;
                const r = await act("book.import", { paths, strict: useStore.getState().importStrict });
                useStore.setState({ importProgress: null, ...(r ? { importReports: r } : {}) });
              })
            }
          >
            {t("chooseBooks")}
          </button>
        ) : (
          <>
            <label className="button" role="button" tabIndex={0} onKeyDown={openPickerOnKey} data-testid="import-choose">
              {t("chooseBooks")}
              <input
                type="file"
                multiple
                hidden
                accept=".db,.bin,.ybb,.sbk"
                data-testid="import-input"
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = "";
                  void importBookFiles(files);
                }}
              />
            </label>
            <input
              type="text"
              className="path-input"
              placeholder={`${t("serverPath")}: /path/book.db`}
              value={serverPath}
              disabled={!serverPaths}
              onChange={(e) => setServerPath(e.target.value)}
              data-testid="import-path"
            />
            <button
              disabled={!serverPath.trim() || busy || !serverPaths}
              data-testid="import-path-run"
              onClick={() =>
                void act("book.import", { paths: [serverPath.trim()], strict }).then((r) =>
                  useStore.setState({ importProgress: null, ...(r ? { importReports: r } : {}) }),
                )
              }
            >
              {t("importRun")}
            </button>
          </>
        )}
      </div>
      {progress && (
        <div className="row" data-testid="import-progress">
          <span className="mono">{progress.file}</span>
          <progress max={100} value={pct ?? undefined} />
          <span className="dim" data-testid="import-phase" data-phase={progress.phase}>
            {t(progress.phase === "upload" ? "uploading" : "importing")} {pct !== null ? `${pct}%` : ""}{" "}
            {progress.lines > 0 ? `${formatCount(progress.lines, lang)} ${t("linesUnit")}` : ""}
          </span>
        </div>
      )}
      {reports && (
        <table className="grid-table" data-testid="import-report">
          <thead>
            <tr>
              <th>{t("file")}</th>
              <th>{t("format")}</th>
              <th>{t("positions")}</th>
              <th>{t("movesCount")}</th>
              <th>{t("importJoined")}</th>
              <th>{t("errors")}</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((r, i) => (
              <tr key={i}>
                <td className="mono">{r.file}</td>
                <td>{t(`format.${r.format}`)}</td>
                <td className="num" data-testid="import-positions">
                  {r.positions}
                </td>
                <td className="num">{r.moves}</td>
                <td className="num" data-testid="import-joined">
                  {r.joined}
                </td>
                <td className="err small" data-testid="import-errors">
                  {r.errorCount > 0 ? <LeftOut report={r} /> : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {lastImport && (
        <div className="row wrap">
          <button
            data-testid="import-undo"
            disabled={busy || book?.readonly}
            onClick={() =>
              void act("book.undoImport", {}).then((r) => {
                if (r) useStore.setState({ importReports: null });
              })
            }
          >
            {t("undoImport")}: <span className="mono">{lastImport.file}</span> ({lastImport.positions} {t("positions")})
          </button>
        </div>
      )}
    </section>
  );
}

function FolderSeedSection() {
  const t = useT();
  const bridge = electronBridge();
  const [folder, setFolder] = useState("");
  const serverPaths = useStore((s) => s.serverPaths);
  const seed = async (paths: string[]) => {
    const r = await act("seed.paths", { paths });
    // A refusal stays on screen: the next call's success would clear its banner.
    if (!r) return;
    const info = await act("book.info", {});
    useStore.setState({ seedReport: r, tab: "seed", ...(info ? { book: info } : {}) });
  };
  return (
    <section className="tool" data-testid="tool-folder">
      <h3>{t("seedFolder")}</h3>
      <div className="dim small">{t("seedFolderHelp")}</div>
      <div className="row wrap">
        {bridge ? (
          <button
            onClick={() =>
              void bridge.pickPaths({ kind: "folder" }).then(async (paths) => {
                if (paths.length) await seed(paths);
              })
            }
          >
            {t("chooseFolder")}
          </button>
        ) : (
          <>
            <input
              type="text"
              className="path-input"
              placeholder={`${t("serverPath")}: /path/records/`}
              value={folder}
              disabled={!serverPaths}
              onChange={(e) => setFolder(e.target.value)}
              data-testid="seed-folder-path"
            />
            <button disabled={!folder.trim() || !serverPaths} onClick={() => void seed([folder.trim()])} data-testid="seed-folder-run">
              {t("seedRun")}
            </button>
          </>
        )}
      </div>
    </section>
  );
}

function BackupSection() {
  const t = useT();
  const bridge = electronBridge();
  const book = useStore((s) => s.book);
  const lastBackup = useStore((s) => s.lastBackup);
  const [list, setList] = useState<BackupView[]>([]);
  const [every, setEvery] = useState(String(book?.backup?.everyMinutes ?? 60));
  const [keep, setKeep] = useState(String(book?.backup?.keep ?? 10));
  const [dir, setDir] = useState(book?.backup?.dir ?? "");
  const [restorePath, setRestorePath] = useState("");
  const serverPaths = useStore((s) => s.serverPaths);
  const refresh = useRef(() => {});
  refresh.current = () => void act("backup.list", {}).then((l) => l && setList(l));
  useEffect(() => refresh.current(), [book?.path, lastBackup]);
  if (!book) return null;
  const restore = (p: string) => {
    if (!p || !window.confirm(t("restoreConfirm"))) return;
    void act("backup.restore", { path: p }).then(() => refresh.current());
  };
  const everyN = Number(every),
    keepN = Number(keep);
  const valid = everyN >= BACKUP_MIN_MINUTES && everyN <= 7 * 24 * 60 && Number.isInteger(keepN) && keepN >= 1;
  return (
    <section className="tool" data-testid="tool-backup">
      <h3>{t("backups")}</h3>
      <div className="row wrap">
        <button data-testid="backup-now" onClick={() => void act("backup.now", {}).then((b) => b && refresh.current())}>
          {t("backupNow")}
        </button>
        <span className="dim" data-testid="backup-schedule-state">
          {book.backup
            ? `${t("backupEvery")} ${book.backup.everyMinutes} ${t("minutesUnit")} · ${t("backupKeep")} ${book.backup.keep}`
            : t("noSchedule")}
        </span>
      </div>
      <div className="row wrap">
        <label>
          {t("backupEvery")}{" "}
          <input
            type="number"
            min={BACKUP_MIN_MINUTES}
            value={every}
            onChange={(e) => setEvery(e.target.value)}
            data-testid="backup-every"
            className="narrow"
          />{" "}
          {t("minutesUnit")}
        </label>
        <label>
          {t("backupKeep")}{" "}
          <input
            type="number"
            min={1}
            value={keep}
            onChange={(e) => setKeep(e.target.value)}
            data-testid="backup-keep"
            className="narrow"
          />
        </label>
        {bridge ? (
          <button onClick={() => void bridge.pickPaths({ kind: "backup-dir" }).then((p) => p[0] && setDir(p[0]))}>
            {dir || t("backupDir")}
          </button>
        ) : (
          <input
            type="text"
            className="path-input"
            placeholder={`${t("backupDir")}: ${t("besideBook")}`}
            value={dir}
            onChange={(e) => setDir(e.target.value)}
            data-testid="backup-dir"
          />
        )}
        <button
          data-testid="backup-schedule"
          disabled={!valid || book.readonly}
          onClick={() => void act("backup.schedule", { schedule: { everyMinutes: everyN, keep: keepN, dir: dir.trim() || null } })}
        >
          {t("backupScheduleSet")}
        </button>
        {book.backup && (
          <button data-testid="backup-unschedule" disabled={book.readonly} onClick={() => void act("backup.schedule", { schedule: null })}>
            {t("backupScheduleOff")}
          </button>
        )}
      </div>
      {list.length === 0 && (
        <p className="dim small" data-testid="backup-none">
          {t("backupsNone")}
        </p>
      )}
      <table className="grid-table" data-testid="backup-list" hidden={list.length === 0}>
        <thead>
          <tr>
            <th>{t("file")}</th>
            <th>{t("when")}</th>
            <th>{t("size")}</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {list.map((b) => (
            <tr key={b.path} data-testid="backup-row">
              <td className="mono small">{b.path}</td>
              <td>{new Date(b.at).toLocaleString("ja-JP", { hour12: false })}</td>
              <td className="num">{formatBytes(b.bytes)}</td>
              <td>
                <button disabled={book.readonly} onClick={() => restore(b.path)} data-testid="backup-restore">
                  {t("restore")}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row wrap">
        {bridge ? (
          <button
            disabled={book.readonly}
            onClick={() => void bridge.pickPaths({ kind: "backup", labels: filterLabels(t) }).then((p) => p[0] && restore(p[0]))}
          >
            {t("restoreFrom")}
          </button>
        ) : (
          <>
            <input
              type="text"
              className="path-input"
              placeholder={`${t("restoreFrom")}: /path/….backup.horu`}
              value={restorePath}
              disabled={!serverPaths}
              onChange={(e) => setRestorePath(e.target.value)}
              data-testid="restore-path"
            />
            <button disabled={!restorePath.trim() || book.readonly || !serverPaths} onClick={() => restore(restorePath.trim())}>
              {t("restore")}
            </button>
          </>
        )}
      </div>
    </section>
  );
}

export function ToolsView() {
  const t = useT();
  const book = useStore((s) => s.book);
  if (!book) return <div className="view dim">{t("noBook")}</div>;
  return (
    <div className="view tools-view">
      <ServerPathsOff />
      <ImportSection />
      <FolderSeedSection />
      <BackupSection />
    </div>
  );
}
