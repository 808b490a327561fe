// The dig: controls, counters, each engine's live search, and the two charts.
import { memo, useMemo, useState } from "react";
import { digControl, useStore } from "../store";
import { SettingsPanel } from "./SettingsPanel";
import { useT } from "../useT";
import { stateLabel } from "../i18n";
import { formatCount, formatDuration, formatValue, rate } from "../logic";
import { Chart } from "../charts/Chart";
import type { EngineView } from "../../../shared/api/contract";
import type { UsiInfo } from "../../../shared/usi/info";

// Selectors must return stable references (zustand 5), hence shared empty lists.
const NO_ENGINES: EngineView[] = [];

function Controls() {
  const t = useT();
  const lang = useStore((s) => s.lang);
  const state = useStore((s) => s.status?.state ?? "idle");
  const [processes, setProcesses] = useState(1);
  const running = state === "digging" || state === "starting";
  const paused = state === "paused" || state === "pausing";
  // A read-only window (another process digs this book) only watches.
  const readonly = useStore((s) => s.book?.readonly ?? false);
  const active = running || paused || state === "stopping" || readonly;
  return (
    <div className="row controls">
      <label>
        {t("processes")}{" "}
        <input type="number" min={1} max={64} value={processes} disabled={active} onChange={(e) => setProcesses(Math.max(1, Number(e.target.value) || 1))} data-testid="processes" />
      </label>
      <button data-testid="dig-start" disabled={active} onClick={() => void digControl("dig.start", { processes })}>
        ▶ {t("start")}
      </button>
      <button data-testid="dig-pause" disabled={!running} onClick={() => void digControl("dig.pause", {})}>
        ‖ {t("pause")}
      </button>
      <button data-testid="dig-resume" disabled={!paused} onClick={() => void digControl("dig.resume", {})}>
        ▶ {t("resume")}
      </button>
      <button data-testid="dig-stop" disabled={!active} onClick={() => void digControl("dig.stop", {})}>
        ■ {t("stop")}
      </button>
      <span className={`state state-${state}`} data-testid="dig-state" data-state={state}>
        {readonly ? t("following") : stateLabel(lang, "digState", state)}
      </span>
    </div>
  );
}

function Stats() {
  const t = useT();
  const s = useStore((x) => x.status);
  const book = useStore((x) => x.book);
  const stat = (k: Parameters<typeof t>[0], v: string, id?: string) => (
    <div className="stat">
      <div className="stat-label">{t(k)}</div>
      <div className="stat-value" data-testid={id}>
        {v}
      </div>
    </div>
  );
  return (
    <div className="stats">
      {stat("thought", String(s?.thought ?? 0), "thought")}
      {stat("perHour", formatCount(Math.round(s?.perHour ?? 0)))}
      {stat("bookSize", String(s && s.state !== "idle" ? s.bookSize : (book?.positions ?? 0)), "book-size")}
      {stat("elapsed", formatDuration(s?.elapsedMs ?? 0))}
      {stat("rootValue", formatValue(s?.rootValue), "root-value")}
      {stat("bookValue", formatValue(s?.bookValue), "book-value")}
      {stat("bans", String(s?.bans ?? book?.bans ?? 0))}
      {stat("selection", s?.lastSelection ? `${s.lastSelection.ms.toFixed(1)} ms` : "–")}
      {stat("cyclicShare", s && s.state !== "idle" ? `${(s.cyclicShare * 100).toFixed(2)}%` : "–", "cyclic-share")}
    </div>
  );
}

const EngineRow = memo(function EngineRow({ e, info }: { e: EngineView; info: UsiInfo | undefined }) {
  const i = info ?? e.info ?? undefined;
  const lang = useStore((s) => s.lang);
  return (
    <tr data-testid="engine-row">
      <td data-raw>{e.name}</td>
      <td className={`state state-${e.state}`} data-state={e.state}>{stateLabel(lang, "engineState", e.state)}</td>
      <td className="mono sfen-cell" title={e.sfen ?? ""}>
        {e.sfen ?? "–"}
      </td>
      <td className="num">{i?.depth ?? "–"}</td>
      <td className="num">{formatCount(i?.nodes)}</td>
      <td className="num">{formatCount(i?.nps)}</td>
      <td className="num">{formatValue(i?.value)}</td>
      <td className="mono pv-cell">{i?.pv?.slice(0, 10).join(" ") ?? ""}</td>
      <td className="err">{e.lastError ?? ""}</td>
    </tr>
  );
});

function Engines() {
  const t = useT();
  const engines = useStore((s) => s.status?.engines ?? NO_ENGINES);
  const infos = useStore((s) => s.infos);
  return (
    <table className="grid-table">
      <thead>
        <tr>
          <th>{t("engine")}</th>
          <th>{t("state")}</th>
          <th>{t("position")}</th>
          <th>{t("depth")}</th>
          <th>{t("nodes")}</th>
          <th>{t("nps")}</th>
          <th>{t("score")}</th>
          <th>{t("pv")}</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {engines.map((e) => (
          <EngineRow key={e.index} e={e} info={infos[e.index]} />
        ))}
      </tbody>
    </table>
  );
}

function Charts() {
  const t = useT();
  const samples = useStore((s) => s.samples);
  const theme = useStore((s) => s.theme);
  const data = useMemo(() => {
    const xs = samples.map((s) => s.t / 1000);
    const values = samples.map((s) => s.rootValue);
    // Throughput over a sliding window of samples smooths the one-result-at-a-time steps.
    const rates = samples.map((s, i) => (i === 0 ? null : rate(samples[Math.max(0, i - 10)], s)));
    return { xs, values, rates };
  }, [samples]);
  return (
    <div className="charts">
      <Chart title={t("rootValueChart")} xs={data.xs} ys={data.values} label={t("rootValue")} color="#4a90d9" theme={theme} />
      <Chart title={t("throughputChart")} xs={data.xs} ys={data.rates} label={t("perHour")} color="#d98c4a" theme={theme} />
    </div>
  );
}

export function DigView() {
  const failures = useStore((s) => s.failures);
  const error = useStore((s) => s.status?.error);
  return (
    <div className="view dig-view">
      <Controls />
      <SettingsPanel />
      {error && <div className="err">{error}</div>}
      <Stats />
      <Engines />
      <Charts />
      {failures.length > 0 && (
        <ul className="failures">
          {failures.slice(-5).map((f, i) => (
            <li key={i} className="err">
              {f}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
