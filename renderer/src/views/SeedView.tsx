// Seeding from game records: chosen files are uploaded (base64) in the browser; in
// Electron, dropped or picked files go by path. The report lists each file's counts/errors.
import { useRef, useState } from "react";
import { act, loadSide, useStore } from "../store";
import { useT } from "../useT";
import { electronBridge, filterLabels } from "../host/desktop";
import { toBase64 } from "../logic";
import { BOOK_FILE, importBookFiles } from "./ToolsView";
import { fill, translate } from "../i18n";
import { moveNotation } from "../../../shared/formats/notation";
import { SEED_UPLOAD_MAX_BYTES, type SeedFileView } from "../../../shared/api/contract";
import { openPickerOnKey } from "../parts/keys.js";

/** Think the first N plies of each record (0: only seed them); kept for the session. */
let thinkPlies = 0;

/** Seeding changes the book's kifu count without a book.changed event: fetch it. */
async function afterSeed(): Promise<void> {
  const info = await act("book.info", {});
  if (info) useStore.setState({ book: info });
  await loadSide();
}

export async function seedFiles(files: File[]): Promise<void> {
  // .db/.bin are books, not game records: they are imported as positions (Tools).
  const books = files.filter((f) => BOOK_FILE.test(f.name));
  if (books.length) await importBookFiles(books);
  files = files.filter((f) => !BOOK_FILE.test(f.name));
  if (files.length === 0) return;
  const bridge = electronBridge();
  useStore.setState({ busy: true, tab: "seed" });
  try {
    const paths = bridge ? files.map((f) => bridge.pathForFile(f)).filter(Boolean) : [];
    const think = thinkPlies > 0 ? { thinkPlies } : {};
    const byPath = bridge && paths.length === files.length;
    // Refused here before a byte is read: the limit, said plainly, instead of a stalled upload.
    const total = files.reduce((n, f) => n + f.size, 0);
    if (!byPath && total > SEED_UPLOAD_MAX_BYTES) {
      const s = useStore.getState();
      useStore.setState({
        error: `${(total / 1048576).toFixed(1)} MiB: ${translate(s.lang, "seedUploadTooBig")} (${SEED_UPLOAD_MAX_BYTES / 1048576} MiB)`,
      });
      return;
    }
    const report = byPath
      ? await act("seed.paths", { paths, ...think })
      : await act("seed.upload", {
          files: await Promise.all(files.map(async (f) => ({ name: f.name, base64: toBase64(new Uint8Array(await f.arrayBuffer())) }))),
          ...think,
        });
    // The book's new kifu count first: the report never stands beside the count from before it.
    await afterSeed();
    if (report) useStore.setState({ seedReport: report });
  } finally {
    useStore.setState({ busy: false });
  }
}

export function SeedView() {
  const t = useT();
  const report = useStore((s) => s.seedReport);
  const busy = useStore((s) => s.busy);
  const book = useStore((s) => s.book);
  const input = useRef<HTMLInputElement>(null);
  const bridge = electronBridge();
  const [think, setThink] = useState(thinkPlies);
  if (!book) return <div className="view dim">{t("noBook")}</div>;
  return (
    <div className="view seed-view">
      <div className="row">
        {bridge ? (
          <button
            onClick={() =>
              void bridge.pickPaths({ kind: "records", labels: filterLabels(t) }).then(async (picked) => {
                // Books (.db, .bin, .ybb, .sbk) are imported as positions, not read as game records.
                const books = picked.filter((p) => BOOK_FILE.test(p)),
                  paths = picked.filter((p) => !BOOK_FILE.test(p));
                if (books.length) {
                  const reports = await act("book.import", { paths: books, strict: useStore.getState().importStrict });
                  useStore.setState({ importProgress: null, ...(reports ? { importReports: reports, tab: "tools" as const } : {}) });
                }
                if (!paths.length) return;
                const r = await act("seed.paths", { paths, ...(thinkPlies > 0 ? { thinkPlies } : {}) });
                await afterSeed();
                if (r) useStore.setState({ seedReport: r });
              })
            }
          >
            {t("chooseFiles")}
          </button>
        ) : (
          <label className="button" role="button" tabIndex={0} onKeyDown={openPickerOnKey} data-testid="seed-choose">
            {t("chooseFiles")}
            <input
              ref={input}
              type="file"
              multiple
              hidden
              accept=".kif,.kifu,.ki2,.ki2u,.csa,.sfen,.usi,.txt,.jkf"
              data-testid="seed-input"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                e.target.value = "";
                void seedFiles(files);
              }}
            />
          </label>
        )}
        <span className="dim">{t("dropHint")}</span>
        {busy && <span>…</span>}
      </div>
      <div className="row">
        <label>
          {t("thinkPlies")}{" "}
          <input
            type="number"
            min={0}
            max={512}
            value={think}
            data-testid="seed-think-plies"
            onChange={(e) => {
              thinkPlies = Math.max(0, Math.min(512, Math.floor(Number(e.target.value) || 0)));
              setThink(thinkPlies);
            }}
          />
        </label>
        <span className="dim small">{t("thinkPliesHelp")}</span>
      </div>
      <div className="dim">
        {t("kifuSeeds")}: <span data-testid="kifu-seeds">{book.kifuSeeds}</span>
      </div>
      {report && (
        <div data-testid="seed-report">
          <div>
            {t("positions")}: <strong data-testid="seed-positions">{report.positions}</strong> · {t("added")}:{" "}
            <strong data-testid="seed-added">{report.added}</strong>{" "}
            <span className="dim" data-testid="seed-change">
              ({t("kifuSeeds")} {report.kifuBefore} → {report.kifuAfter})
            </span>
            {report.queued > 0 && (
              <>
                {" "}
                · {t("queuedToThink")}: <strong data-testid="seed-queued">{report.queued}</strong>
              </>
            )}
            {report.statsGames > 0 && (
              <>
                {" "}
                · <span data-testid="seed-stats">{fill(t("seedStats"), { games: report.statsGames, moves: report.statsMoves })}</span>
              </>
            )}{" "}
            · {Math.round(report.ms)} ms
          </div>
          <div className="dim small" data-testid="seed-bonus">
            {fill(t("seedBonusHelp"), { bonus: report.bonusCp })}
          </div>
          <table className="grid-table">
            <thead>
              <tr>
                <th>{t("file")}</th>
                <th>{t("format")}</th>
                <th>{t("records")}</th>
                <th>{t("positions")}</th>
                <th>{t("seedNewCol")}</th>
                <th>{t("seedResult")}</th>
              </tr>
            </thead>
            <tbody>
              {report.files.map((f, i) => (
                <tr key={i} data-testid="seed-file">
                  <td>{f.file}</td>
                  <td>
                    {/* A file read as no record has no encoding worth naming (binary data showed "shift_jis"). */}
                    {f.format === "unknown" ? (
                      t("seedFormatUnknown")
                    ) : (
                      <>
                        {f.format} <span className="dim">{f.encoding}</span>
                      </>
                    )}
                  </td>
                  <td className="num">{f.records}</td>
                  <td className="num">{f.positions}</td>
                  <td className="num" data-testid="seed-file-added">
                    {f.added}
                  </td>
                  <td className="small">
                    <div className="err">
                      {f.errors.slice(0, 5).map((e, j) => (
                        <div key={j}>
                          {e.line !== undefined ? `${e.line}: ` : ""}
                          {e.message}
                        </div>
                      ))}
                      {f.errors.length > 5 ? `… +${f.errors.length - 5}` : ""}
                    </div>
                    <RecordLines file={f} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Why the dig stops following a record, as said to the user (SeedRecordView.stopsAt). */
const STOP_TEXT = { "not-listed": "seedStopNotListed", "below-best": "seedStopBelow", "book-ends": "seedStopBookEnds" } as const;

/** Per record: seeded, new, reachable by the bonus now, where it starts and where the dig stops following it (and why). */
function RecordLines({ file }: { file: SeedFileView }) {
  const t = useT();
  if (!file.perRecord.length) return null;
  const shown = file.perRecord.slice(0, 20);
  return (
    <div className="records small" data-testid="seed-records">
      {shown.map((r) => (
        <div key={r.record} className="dim" data-testid="seed-record" data-added={r.added}>
          #{r.record}
          {r.line !== undefined ? ` (${t("line")} ${r.line})` : ""}: {r.seeded} {t("seededShort")}, {r.added} {t("newShort")}, {r.onBook}{" "}
          {t("onBookShort")}
          {r.start === "outside" && (
            <span className="warn" data-testid="seed-outside">
              {" · "}
              {r.joinsAt !== undefined ? fill(t("seedJoinsAt"), { ply: r.joinsAt }) : t("seedOutside")}
            </span>
          )}
          {r.cutAt !== undefined && (
            <span data-testid="seed-cut">
              {" · "}
              {fill(t("seedCut"), { seeded: r.cutAt, plies: r.plies })}
            </span>
          )}
          {r.stopsAt && (
            <span data-testid="seed-stops" data-ply={r.stopsAt.ply} data-reason={r.stopsAt.reason}>
              {" · "}
              {fill(t(STOP_TEXT[r.stopsAt.reason]), {
                ply: r.stopsAt.ply,
                move: moveNotation(r.stopsAt.before, r.stopsAt.move),
                cp: r.stopsAt.gapCp ?? 0,
              })}
            </span>
          )}
        </div>
      ))}
      {file.perRecord.length > shown.length ? <div className="dim">… +{file.perRecord.length - shown.length}</div> : null}
    </div>
  );
}
