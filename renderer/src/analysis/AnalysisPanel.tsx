// Live analysis (検討) beside the book's moves: one click has an engine of the library search
// the browsed position in its own process (never a dig's), its lines updating a few times a
// second; browsing elsewhere restarts it on the new position, Stop (or leaving) ends it.
import { useEffect, useMemo, useState } from "react";
import { act, hostClient, useStore } from "../store";
import { useT } from "../useT";
import { EngineSelect, useChosenEngine } from "../parts/EngineSelect";
import { formatCount, scoreText } from "../logic";
import type { AnalysisUpdate } from "../../../shared/api/contract";
import { scoreValue } from "../../../shared/usi/info";
import { lineNotation } from "../../../shared/formats/notation";

/** Moves of a line shown (the rest is cut). */
const SHOWN_PLIES = 12;
/** MultiPV's range, as analysis.start takes it; 3 lines unless the user chose otherwise. */
const MULTIPV_MAX = 10;
const MULTIPV_KEY = "horu.analysis.multipv";

function savedMultiPv(): number {
  const n = Number(localStorage.getItem(MULTIPV_KEY));
  return Number.isInteger(n) && n >= 1 && n <= MULTIPV_MAX ? n : 3;
}

export function AnalysisPanel() {
  const t = useT();
  const lang = useStore((s) => s.lang);
  const engines = useStore((s) => s.engines);
  const sfen = useStore((s) => s.node?.sfen ?? "");
  const side = useStore((s) => s.node?.side ?? "black");
  const view = useStore((s) => s.viewpoint);
  const [on, setOn] = useState(false);
  const [runId, setRunId] = useState<number | null>(null);
  const [update, setUpdate] = useState<AnalysisUpdate | null>(null);
  const [multipv, setMultipv] = useState(savedMultiPv);
  const [chosen, setEngineId] = useChosenEngine(engines);

  const chosenId = chosen?.id;

  useEffect(
    () =>
      hostClient().onEvent((e) => {
        if (e.type === "analysis.update") setUpdate((u) => (u && u.id > e.update.id ? u : e.update));
      }),
    [],
  );

  // Analysing: (re)start on the browsed position; stopped when switched off or the panel goes.
  useEffect(() => {
    if (!on || chosenId === undefined || !sfen) return;
    let live = true;
    void act("analysis.start", { engineId: chosenId, sfen, multipv }).then((r) => {
      if (!live) return;
      if (r) setRunId(r.id);
      else setOn(false);
    });
    return () => {
      live = false;
    };
  }, [on, chosenId, sfen, multipv]);
  useEffect(() => {
    if (!on) return;
    return () => void act("analysis.stop", {});
  }, [on]);

  const shown = update && update.id === runId && update.sfen === sfen ? update : null;
  const lines = useMemo(
    () => (shown ? shown.lines.map((l) => ({ ...l, text: lineNotation(shown.sfen, l.moves.slice(0, SHOWN_PLIES)).join(" ") })) : []),
    [shown],
  );
  const running = on && shown?.state === "running";

  return (
    <div className="analysis" data-testid="analysis" data-sfen={sfen}>
      <div className="row">
        <b>{t("analysis")}</b>{" "}
        {engines.length === 0 ? (
          <span className="dim small">{t("analysisNone")}</span>
        ) : (
          <>
            <label>
              {t("analysisEngine")}{" "}
              <EngineSelect engines={engines} chosen={chosen} choose={setEngineId} disabled={on} testId="analysis-engine" />
            </label>{" "}
            <label title={t("analysisMultiPvHelp")}>
              {t("analysisMultiPv")}{" "}
              <input
                type="number"
                min={1}
                max={MULTIPV_MAX}
                value={multipv}
                onChange={(e) => {
                  const n = Math.round(Number(e.target.value));
                  if (!Number.isFinite(n) || n < 1 || n > MULTIPV_MAX) return; // half-typed: keep the last good one
                  setMultipv(n);
                  localStorage.setItem(MULTIPV_KEY, String(n));
                }}
                data-testid="analysis-multipv"
              />
            </label>{" "}
            {on ? (
              <button onClick={() => setOn(false)} data-testid="analysis-stop">
                {t("analysisStop")}
              </button>
            ) : (
              <button onClick={() => setOn(true)} data-testid="analysis-start" disabled={!sfen}>
                {t("analysisStart")}
              </button>
            )}{" "}
            <span className="dim small" data-testid="analysis-state">
              {running
                ? `${t("analysisRunning")} · ${shown.engine} · ${t("nodes")} ${formatCount(shown.nodes, lang)}`
                : on
                  ? "…"
                  : t("analysisIdle")}
            </span>
          </>
        )}
      </div>
      {on && shown?.error && <div className="warn small">{shown.error}</div>}
      {on && lines.length > 0 && (
        <table className="analysis-lines small" data-testid="analysis-lines">
          <tbody>
            {lines.map((l) => (
              <tr key={l.multipv} data-testid="analysis-line" data-moves={l.moves.join(" ")} data-depth={l.depth}>
                <td className="mono">{scoreText(scoreValue(l.score), side, view)}</td>
                <td className="dim">
                  {t("depth")} {l.depth}
                </td>
                <td>{l.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
