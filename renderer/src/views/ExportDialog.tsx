// Export: format, raw or minimax, shrink, max ply, eval limit; progress from export.progress.
// The host says where a path resolves (relative paths: the book's folder, shown here) and
// refuses the open book and any SQLite file; replacing another existing file is asked first.
import { useEffect, useState } from "react";
import { call, hostClient, useStore } from "../store";
import { translateError } from "../i18n";
import { useT } from "../useT";
import { electronBridge, filterLabels } from "../host/desktop";
import type { ExportPlan, ExportResult } from "../../../shared/api/contract";
import { folderOf, resolveIn } from "./export-path";

/** A relative default beside the book, never the book's own name. */
function defaultOut(bookPath: string): string {
  const base = bookPath.split(/[/\\]/).pop() ?? "book";
  const stem = base.replace(/\.[^.]*$/, "") || "book";
  return `${stem}.db` === base ? `${stem}-export.db` : `${stem}.db`;
}

/** A refusal in the UI's language (by its key), else the host's text. */
function refusalText(lang: "ja" | "en", plan: ExportPlan): string {
  return translateError(lang, Object.assign(new Error(plan.refused ?? ""), { key: plan.refusedKey, params: plan.refusedParams }));
}

export function ExportDialog() {
  const t = useT();
  const lang = useStore((s) => s.lang);
  const book = useStore((s) => s.book);
  const progress = useStore((s) => s.exportProgress);
  const bridge = electronBridge();
  const [format, setFormat] = useState<"db" | "bin" | "ybb" | "sbk">("db");
  const [mode, setMode] = useState<"raw" | "minimax">("minimax");
  const [shrink, setShrink] = useState(false);
  const [maxPly, setMaxPly] = useState(0);
  const [evalLimit, setEvalLimit] = useState(0);
  const [out, setOut] = useState(() => (book ? defaultOut(book.path) : ""));
  const [plan, setPlan] = useState<ExportPlan | null>(null);
  // The folder relative paths resolve in, as the host last said (the book's until it has): it
  // stays on screen while a path is refused outright, with where that path would have gone.
  const [folder, setFolder] = useState(() => (book ? folderOf(book.path) : ""));
  // The host's refusal of the path itself (outside the folder it may write): shown here, not behind the dialog.
  const [planError, setPlanError] = useState<string | null>(null);
  // The question names the path it asks about; Replace writes that path and no other.
  const [confirm, setConfirm] = useState<{ plan: ExportPlan; text: string } | null>(null);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ExportResult | null>(null);
  const close = () => useStore.setState({ exportOpen: false, exportProgress: null });
  const setExt = (f: "db" | "bin" | "ybb" | "sbk") => {
    setFormat(f);
    setOut((p) => (p ? p.replace(/\.(db|bin|ybb|sbk)$/, "") + `.${f}` : p));
  };
  useEffect(() => {
    let live = true;
    const p = out.trim();
    setResult(null); // a success line belongs to the path it wrote
    setConfirm(null); // a question about another path is no answer for this one
    if (!p) {
      setPlanError(null);
      return void setPlan(null);
    }
    // A control character (a NUL pasted in) is no file name: said here, not as the host's
    // argument check ("export.plan: invalid arguments ...").
    // eslint-disable-next-line no-control-regex -- control characters are what is looked for
    if (/[\x00-\x1f\x7f]/.test(p)) {
      setPlan(null);
      return void setPlanError(t("exportPathControl"));
    }
    const timer = setTimeout(() => {
      hostClient()
        .call("export.plan", { path: p })
        .then((r) => {
          if (!live) return;
          setPlan(r);
          setFolder(r.folder);
          setPlanError(null);
        })
        .catch((e: unknown) => {
          if (!live) return;
          setPlan(null);
          setPlanError(translateError(lang, e));
        });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [out, lang]);
  // Escape closes the dialog (a question open in it first).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      if (confirm) setConfirm(null);
      else close();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  const exportNow = async (overwrite: boolean, path = out.trim()) => {
    setConfirm(null);
    setRunning(true);
    setResult(null);
    useStore.setState({ exportProgress: null });
    try {
      setResult(await call("export.run", { path, format, mode, shrink, maxPly, evalLimit, overwrite }));
      useStore.setState({ error: null });
    } catch {
      // shown in the error bar
    } finally {
      setRunning(false);
    }
  };
  const run = async () => {
    setResult(null);
    let p: ExportPlan;
    try {
      p = await hostClient().call("export.plan", { path: out.trim() });
    } catch (e) {
      setPlanError(translateError(lang, e));
      return;
    }
    setPlan(p);
    if (p.refused) return void useStore.setState({ error: refusalText(lang, p) });
    if (p.exists) return void setConfirm({ plan: p, text: out.trim() });
    await exportNow(false);
  };
  const pct = progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : running ? 0 : result ? 100 : 0;
  return (
    <div className="modal-back" onClick={close}>
      <div className="modal" role="dialog" aria-modal="true" onClick={(e) => e.stopPropagation()} data-testid="export-dialog">
        <h3>{t("exportBook")}</h3>
        <div className="form">
          <label>{t("format")}</label>
          <div>
            {(["db", "bin", "ybb", "sbk"] as const).map((f) => (
              <label key={f}>
                <input type="radio" name="fmt" checked={format === f} onChange={() => setExt(f)} data-testid={`export-format-${f}`} /> .{f}
              </label>
            ))}
          </div>
          <label>{t("mode")}</label>
          <div>
            {(["raw", "minimax"] as const).map((m) => (
              <label key={m}>
                <input type="radio" name="mode" checked={mode === m} onChange={() => setMode(m)} /> {t(m)}
              </label>
            ))}
          </div>
          <label>{t("shrink")}</label>
          <input type="checkbox" checked={shrink} onChange={(e) => setShrink(e.target.checked)} />
          <label>{t("maxPly")}</label>
          <input type="number" min={0} max={1024} value={maxPly} onChange={(e) => setMaxPly(Math.max(0, Number(e.target.value) || 0))} />
          <label>{t("evalLimit")}</label>
          <input
            type="number"
            min={0}
            max={32000}
            value={evalLimit}
            onChange={(e) => setEvalLimit(Math.max(0, Number(e.target.value) || 0))}
          />
          <label>{t("outPath")}</label>
          <div className="row">
            <input className="wide" type="text" value={out} onChange={(e) => setOut(e.target.value)} data-testid="export-path" />
            {bridge && (
              <button
                onClick={() =>
                  void bridge
                    .pickPaths({ kind: "export", defaultPath: `book.${format}`, labels: filterLabels(t) })
                    .then((p) => p[0] && setOut(p[0]))
                }
              >
                {t("browse")}
              </button>
            )}
          </div>
          <label>{t("exportFolder")}</label>
          <span className="mono" data-testid="export-folder">
            {plan?.folder ?? folder}
          </span>
          <label>{t("exportWillWrite")}</label>
          <span className={plan?.refused || planError ? "mono bad" : "mono"} data-testid="export-target">
            {plan ? plan.path : planError ? `${resolveIn(folder, out.trim())} (${t("exportPathRefused")})` : ""}
            {plan?.refused ? ` (${t("exportRefused")})` : plan?.exists ? ` (${t("exportExists")})` : ""}
          </span>
          {planError && (
            <>
              <span />
              <span className="bad small" role="alert" data-testid="export-refused">
                {planError}
              </span>
            </>
          )}
          {plan?.refused && (
            <>
              <span />
              <span className="bad small" data-testid="export-refused">
                {refusalText(lang, plan)}
              </span>
            </>
          )}
        </div>
        <progress max={100} value={pct} data-testid="export-progress" />
        {result && (
          <div className="ok" data-testid="export-result">
            {t("wroteTo")} <span className="mono">{result.path}</span>:{" "}
            {t("exportSummary").replace(/\{(\w+)\}/g, (_, k: string) =>
              String(Math.round(result[k as "positions" | "moves" | "bytes" | "ms"])),
            )}
          </div>
        )}
        {confirm && (
          <div className="confirm" role="alertdialog" data-testid="export-confirm">
            <p>
              <span className="mono">{confirm.plan.path}</span> {t("exportReplaceAsk")}
            </p>
            <div className="row end">
              <button onClick={() => setConfirm(null)} data-testid="export-confirm-cancel">
                {t("cancel")}
              </button>
              <button onClick={() => void exportNow(true, confirm.text)} data-testid="export-confirm-replace">
                {t("exportReplace")}
              </button>
            </div>
          </div>
        )}
        <div className="row end">
          <button onClick={close} data-testid="export-cancel">
            {t("cancel")}
          </button>
          <button
            disabled={running || !out.trim() || confirm !== null || !!plan?.refused || planError !== null}
            title={plan?.refused ? refusalText(lang, plan) : (planError ?? undefined)}
            onClick={() => void run()}
            data-testid="export-run"
          >
            {t("run")}
          </button>
        </div>
      </div>
    </div>
  );
}
