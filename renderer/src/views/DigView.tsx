// The dig: controls, counters, each engine's live search, and the two charts.
import { memo, useMemo, useState } from "react";
import { digControl, useStore, type LiveInfo } from "../store";
import { SettingsPanel } from "./SettingsPanel";
import { useT } from "../useT";
import { chartSeries, countText, formatCount, formatDuration, scoreText, sideOf, viewValue } from "../logic";
import { lineNotation } from "../../../shared/formats/notation";
import { lineTail } from "./BoardPanel";
import { fill, stateLabel, translate } from "../i18n";
import { Chart } from "../charts/Chart";
import type { DigStatus, EngineView } from "../../../shared/api/contract";
import type { UsiInfo } from "../../../shared/usi/info";
import { VALUE_MATE } from "../../../shared/rules/types";

// Selectors must return stable references (zustand 5), hence shared empty lists.
const NO_ENGINES: EngineView[] = [];
const NO_FLIGHT: DigStatus["inFlight"] = [];
const NO_PV: string[] = [];

export const SOURCE_LABEL = { library: "sourceLibrary", detected: "sourceDetected", builtin: "sourceBuiltin" } as const;

/** Engine names as data: a built-in engine's "(built in)" is said by the source label beside it, in the UI's language. */
export function engineNames(names: readonly string[]): string {
  return names.map((n) => n.replace(/ \(built in\)$/, "")).join(", ");
}

/** Why these engines, in the UI's language: the host's sentence is English, so Japanese says it by the source. */
export function choiceWhy(lang: "ja" | "en", choice: NonNullable<DigStatus["choice"]>): string {
  if (lang === "en") return choice.why;
  return fill(translate(lang, `why.${choice.source}`), { names: engineNames(choice.names) });
}

/** Processes per engine: a preference kept across reloads. */
function savedProcesses(): number {
  try {
    const n = Number(localStorage.getItem("horu.processes"));
    return Number.isInteger(n) && n >= 1 && n <= 64 ? n : 1;
  } catch {
    return 1;
  }
}

function Controls() {
  const t = useT();
  const lang = useStore((s) => s.lang);
  const state = useStore((s) => s.status?.state ?? "idle");
  const [processes, setProcessesState] = useState(savedProcesses);
  const setProcesses = (n: number) => {
    setProcessesState(n);
    try {
      localStorage.setItem("horu.processes", String(n));
    } catch {
      // preference only
    }
  };
  const choice = useStore((s) => s.status?.choice ?? null);
  const busyShare = useStore((s) => s.status?.busyShare ?? null);
  const waitingShare = useStore((s) => s.status?.waitingShare ?? null);
  const running = state === "digging" || state === "starting";
  const paused = state === "paused" || state === "pausing";
  // A read-only window (another process digs this book) only watches.
  const readonly = useStore((s) => s.book?.readonly ?? false);
  const active = running || paused || state === "stopping" || readonly;
  return (
    <div className="row controls">
      <label>
        {t("processes")}{" "}
        <input
          type="number"
          min={1}
          max={64}
          value={processes}
          disabled={active}
          onChange={(e) => setProcesses(Math.max(1, Math.min(64, Math.floor(Number(e.target.value)) || 1)))}
          data-testid="processes"
        />
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
      {choice && (
        <span className="engine-choice dim small" data-testid="engine-choice" title={choiceWhy(lang, choice)}>
          {t("engineChoice")}: <span data-raw>{engineNames(choice.names)}</span> ({t(SOURCE_LABEL[choice.source])})
        </span>
      )}
      {/* Beside the engines in use, not a counter of its own: the counters fill a 1024 x 700 window. */}
      {state !== "idle" && (
        <span className="dim small" data-testid="engine-shares" title={t("enginesSharesHelp")}>
          {t("enginesSearching")} <span data-testid="engines-busy">{shareText(busyShare)}</span> · {t("enginesWaiting")}{" "}
          <span data-testid="engines-waiting">{shareText(waitingShare)}</span> ⓘ
        </span>
      )}
    </div>
  );
}

function Stats() {
  const t = useT();
  const s = useStore((x) => x.status);
  const book = useStore((x) => x.book);
  const view = useStore((x) => x.viewpoint);
  const lang = useStore((x) => x.lang);
  const rootSide = sideOf(book?.rootSfen ?? "startpos");
  // A window following another process's dig has no dig of its own: its counters are unknown here, not 0.
  const follower = (book?.readonly ?? false) && (s?.state ?? "idle") === "idle";
  const stat = (k: Parameters<typeof t>[0], v: string, id?: string, help?: Parameters<typeof t>[0]) => (
    <div className="stat" title={help ? t(help) : undefined}>
      <div className="stat-label">
        {t(k)}
        {help ? " ⓘ" : ""}
      </div>
      <div className="stat-value" data-testid={id}>
        {v}
      </div>
    </div>
  );
  const mate = s?.bookValue !== null && s?.bookValue !== undefined && Math.abs(s.bookValue) >= VALUE_MATE - 1000;
  return (
    <>
      {mate && (
        <div className="banner" data-testid="finished-mate">
          {t(s?.rootValue === s?.bookValue ? "finishedMateOnly" : "finishedMate")}
        </div>
      )}
      <div className="stats">
        {stat("thought", follower ? "–" : countText(s?.thought ?? 0), "thought", follower ? "followerCountsHelp" : undefined)}
        {stat(
          "perHour",
          follower ? "–" : formatCount(Math.round(s?.perHour ?? 0), lang),
          undefined,
          follower ? "followerCountsHelp" : undefined,
        )}
        {stat("bookSize", countText(s && s.state !== "idle" ? s.bookSize : (book?.positions ?? 0)), "book-size")}
        {stat("elapsed", follower ? "–" : formatDuration(s?.elapsedMs ?? 0), "elapsed", follower ? "followerCountsHelp" : undefined)}
        {stat("rootValue", scoreText(s?.rootValue, rootSide, view), "root-value", "rootValueHelp")}
        {stat("bookValue", scoreText(s?.bookValue, rootSide, view), "book-value", "bookValueHelp")}
        {stat("bans", String(s?.bans ?? book?.bans ?? 0), "ban-stat")}
        {stat("selection", s?.lastSelection ? `${s.lastSelection.ms.toFixed(1)} ms` : "–")}
        {stat("cyclicShare", s && s.state !== "idle" ? `${(s.cyclicShare * 100).toFixed(2)}%` : "–", "cyclic-share")}
      </div>
    </>
  );
}

/** A share of the engines' time, or a dash before any engine finished a think. */
function shareText(share: number | null | undefined): string {
  return share === null || share === undefined ? "–" : `${(share * 100).toFixed(1)}%`;
}

const PV_SHOWN = 8;

/**
 * What an engine row shows: the newer of the status's view and the last dig.info, and only
 * if it is of the think the row's position is: never an earlier position's PV or score.
 */
export function rowInfo(e: EngineView, live: LiveInfo | undefined): UsiInfo | null {
  if (e.sfen === null) return null;
  if (live && live.think === e.think && live.sfen === e.sfen) return live.info;
  return e.info;
}

const EngineRow = memo(function EngineRow({
  e,
  live,
  line,
  rootSfen,
}: {
  e: EngineView;
  live: LiveInfo | undefined;
  line: string[] | null;
  rootSfen: string;
}) {
  const t = useT();
  const view = useStore((x) => x.viewpoint);
  const i = rowInfo(e, live);
  const pv = i?.pv ?? NO_PV;
  const lang = useStore((s) => s.lang);
  const pvText = useMemo(
    () => (e.sfen && pv.length ? `${lineNotation(e.sfen, pv.slice(0, PV_SHOWN)).join(" ")}${pv.length > PV_SHOWN ? " …" : ""}` : ""),
    [e.sfen, pv],
  );
  // The position as the line that reaches it (in notation), not as raw SFEN.
  const where =
    e.sfen === null
      ? "–"
      : line
        ? line.length
          ? `${lineTail(rootSfen, line, 3)} (${line.length}${t("plySuffix")})`
          : t("startPosition")
        : `${t("position")} ${sideOf(e.sfen) === "black" ? "☗" : "☖"}`;
  return (
    <tr data-testid="engine-row" data-sfen={e.sfen ?? ""} data-think={e.think}>
      <td data-raw>{e.name}</td>
      <td className={`state state-${e.state}`} data-state={e.state}>
        {stateLabel(lang, "engineState", e.state)}
      </td>
      <td className="pos-cell" title={`${line?.join(" ") ?? ""}\n${e.sfen ?? ""}`} data-testid="engine-position">
        {where}
      </td>
      <td className="num">{i?.depth ?? "–"}</td>
      <td className="num">{formatCount(i?.nodes, lang)}</td>
      <td className="num">{formatCount(i?.nps, lang)}</td>
      <td className="num" data-testid="engine-score" data-value={i?.value ?? ""}>
        {e.sfen && i?.value !== undefined ? scoreText(i.value, sideOf(e.sfen), view) : "–"}
      </td>
      <td className="pv-cell" title={pv.join(" ")} data-testid="engine-pv" data-usi={pv.join(" ")}>
        {pvText}
      </td>
      <td className="err">{e.lastError ?? ""}</td>
    </tr>
  );
});

function Engines() {
  const t = useT();
  const engines = useStore((s) => s.status?.engines ?? NO_ENGINES);
  const inFlight = useStore((s) => s.status?.inFlight ?? NO_FLIGHT);
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const infos = useStore((s) => s.infos);
  const lines = useMemo(() => new Map(inFlight.map((f) => [f.sfen, f.line])), [inFlight]);
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
          <EngineRow key={e.index} e={e} live={infos[e.index]} line={e.sfen ? (lines.get(e.sfen) ?? null) : null} rootSfen={rootSfen} />
        ))}
      </tbody>
    </table>
  );
}

function Charts() {
  const t = useT();
  const samples = useStore((s) => s.samples);
  const theme = useStore((s) => s.theme);
  const lang = useStore((s) => s.lang);
  const view = useStore((s) => s.viewpoint);
  const rootSide = useStore((s) => sideOf(s.book?.rootSfen ?? "startpos"));
  const data = useMemo(() => {
    const series = chartSeries(samples);
    // The same side as every other value on screen.
    return { ...series, values: series.values.map((v) => viewValue(v, rootSide, view).value) };
  }, [samples, rootSide, view]);
  return (
    <div className="charts" title={t("diggingTimeHelp")}>
      <Chart
        testId="chart-root-value"
        title={t("rootValueChart")}
        xs={data.xs}
        ys={data.values}
        label={t("rootValue")}
        color="#4a90d9"
        theme={theme}
        lang={lang}
        xLabel={t("diggingTime")}
      />
      <Chart
        testId="chart-throughput"
        title={t("throughputChart")}
        xs={data.xs}
        ys={data.rates}
        label={t("perHour")}
        color="#d98c4a"
        theme={theme}
        lang={lang}
        xLabel={t("diggingTime")}
      />
    </div>
  );
}

export function DigView() {
  const failures = useStore((s) => s.failures);
  const error = useStore((s) => s.status?.error);
  return (
    <div className="view dig-view">
      <Controls />
      {error && <div className="err">{error}</div>}
      {/* What changes while digging comes first, so it stays in view on small screens. */}
      <Stats />
      <Engines />
      <Charts />
      <SettingsPanel />
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
