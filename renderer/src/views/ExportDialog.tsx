// Export: format, raw or minimax, shrink, max ply, eval limit; progress from export.progress.
import { useState } from "react";
import { call, useStore } from "../store";
import { useT } from "../useT";
import { electronBridge } from "../host/desktop";
import type { ExportResult } from "../../../shared/api/contract";

export function ExportDialog() {
  const t = useT();
  const book = useStore((s) => s.book);
  const progress = useStore((s) => s.exportProgress);
  const bridge = electronBridge();
  const [format, setFormat] = useState<"db" | "bin" | "ybb" | "sbk">("db");
  const [mode, setMode] = useState<"raw" | "minimax">("minimax");
  const [shrink, setShrink] = useState(false);
  const [maxPly, setMaxPly] = useState(0);
  const [evalLimit, setEvalLimit] = useState(0);
  const [out, setOut] = useState(() => (book ? book.path.replace(/\.[^./\\]*$/, "") + ".db" : ""));
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ExportResult | null>(null);
  const close = () => useStore.setState({ exportOpen: false, exportProgress: null });
  const setExt = (f: "db" | "bin" | "ybb" | "sbk") => {
    setFormat(f);
    setOut((p) => (p ? p.replace(/\.(db|bin|ybb|sbk)$/, "") + `.${f}` : p));
  };
  const run = async () => {
    setRunning(true);
    setResult(null);
    useStore.setState({ exportProgress: null });
    try {
      setResult(await call("export.run", { path: out, format, mode, shrink, maxPly, evalLimit }));
    } catch {
      // shown in the error bar
    } finally {
      setRunning(false);
    }
  };
  const pct = progress && progress.total > 0 ? Math.round((100 * progress.done) / progress.total) : running ? 0 : result ? 100 : 0;
  return (
    <div className="modal-back" onClick={close}>
      <div className="modal" onClick={(e) => e.stopPropagation()} data-testid="export-dialog">
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
          <input type="number" min={0} max={32000} value={evalLimit} onChange={(e) => setEvalLimit(Math.max(0, Number(e.target.value) || 0))} />
          <label>{t("outPath")}</label>
          <div className="row">
            <input className="wide" type="text" value={out} onChange={(e) => setOut(e.target.value)} data-testid="export-path" />
            {bridge && <button onClick={() => void bridge.pickPaths({ kind: "export" }).then((p) => p[0] && setOut(p[0]))}>{t("browse")}</button>}
          </div>
        </div>
        <progress max={100} value={pct} data-testid="export-progress" />
        {result && (
          <div className="ok" data-testid="export-result">
            {t("wroteTo")} <span className="mono">{result.path}</span>: {result.positions} {t("positions")}, {result.moves} moves, {result.bytes} bytes, {result.ms} ms
          </div>
        )}
        <div className="row end">
          <button onClick={close} data-testid="export-cancel">{t("cancel")}</button>
          <button disabled={running || !out.trim()} onClick={() => void run()} data-testid="export-run">
            {t("run")}
          </button>
        </div>
      </div>
    </div>
  );
}
