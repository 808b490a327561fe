// The Quality view (issue 41): how good the open book is, as `horu book quality` measures it.
// On the positions the book would play into, its move against an oracle (the same engine far
// deeper), beside the engine alone at the dig's limit; how long an opponent stays in the book;
// how much the root moved lately. Runs in the background with an engine of the library; the
// searches stay in the book, so "Show kept" reports again at once.
import { useEffect, useState } from "react";
import { act, hostClient, useStore } from "../store";
import { useT } from "../useT";
import { EngineSelect, useChosenEngine } from "../parts/EngineSelect";
import type { Key } from "../i18n";
import type { QualityStatusView } from "../../../shared/api/contract";
import type { BandFigures, Estimate, QualityProgress, QualityReport } from "../../../shared/book/quality";
import { lineNotation } from "../../../shared/formats/notation";
import { formatValue } from "../logic";

const STATE_KEY: Record<QualityStatusView["state"], Key> = {
  idle: "qIdle",
  running: "qRunning",
  done: "qDone",
  stopped: "qStopped",
  failed: "qFailed",
};

const PHASE_KEY: Record<QualityProgress["phase"], Key> = {
  sample: "qPhaseSample",
  engine: "qPhaseEngine",
  oracle: "qPhaseOracle",
  coverage: "qPhaseCoverage",
};

// Over JSON an estimate with no positions has nulls where NaN was.
const missing = (x: number | null | undefined): boolean => x === null || x === undefined || Number.isNaN(x);

/** A figure with its 95% interval under it. */
function Figure({ text, lo, hi }: { text: string; lo: string; hi: string }) {
  return (
    <>
      {text}
      <span className="ci">
        [{lo}, {hi}]
      </span>
    </>
  );
}

const signed = (v: number): string => `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(Math.round(v))}`;
const plain = (v: number): string => `${v < 0 ? "−" : ""}${Math.abs(Math.round(v))}`;
const one = (v: number): string => v.toFixed(1);
/** An interval's end, "–" where it is not known (one coverage run has none). */
const end =
  (f: (v: number) => string) =>
  (v: number | null | undefined): string =>
    missing(v) ? "–" : f(v!);

/** A share: "24%" with [13, 39] under it. */
function Pct({ e }: { e: Estimate }) {
  if (missing(e.value)) return <>–</>;
  const p = (v: number) => String(Math.round(100 * v));
  return <Figure text={`${p(e.value)}%`} lo={end(p)(e.lo)} hi={end(p)(e.hi)} />;
}

/** A mean in cp, signed (`sign`) or not (a loss is never negative). */
function Cp({ e, sign }: { e: Estimate; sign: boolean }) {
  if (missing(e.value)) return <>–</>;
  const f = sign ? signed : plain;
  return <Figure text={f(e.value)} lo={end(f)(e.lo)} hi={end(f)(e.hi)} />;
}

/** Points of best-move agreement, signed: the book's gain over its engine. */
function Points({ e }: { e: Estimate }) {
  if (missing(e.value)) return <>–</>;
  const f = (v: number) => signed(100 * v);
  return <Figure text={f(e.value)} lo={end(f)(e.lo)} hi={end(f)(e.hi)} />;
}

/** A mean count (plies, moves) with its interval, one decimal. */
const count = (e: Estimate): string => (missing(e.value) ? "–" : `${one(e.value)} [${end(one)(e.lo)}, ${end(one)(e.hi)}]`);

function BandRow({ b }: { b: BandFigures }) {
  const t = useT();
  return (
    <tr data-testid="quality-band" data-band={b.band}>
      <td>{b.band === "all" ? t("qAll") : b.band}</td>
      <td className="num">{b.played}</td>
      <td className="num" data-testid="quality-n">
        {b.book.best.n}
      </td>
      <td className="num" data-testid="quality-book-best">
        <Pct e={b.book.best} />
      </td>
      <td className="num" data-testid="quality-engine-best">
        <Pct e={b.engine.best} />
      </td>
      <td className="num">
        <Pct e={b.book.near} />
      </td>
      <td className="num">
        <Pct e={b.engine.near} />
      </td>
      <td className="num">
        <Cp e={b.book.loss} sign={false} />
      </td>
      <td className="num">
        <Cp e={b.engine.loss} sign={false} />
      </td>
      <td className="num">
        <Cp e={b.book.valueError} sign />
      </td>
      <td className="num" data-testid="quality-gain">
        <Points e={b.gainBest} />
      </td>
    </tr>
  );
}

function Report({ r }: { r: QualityReport }) {
  const t = useT();
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "");
  const rootMove = r.rootNow && rootSfen ? (lineNotation(rootSfen, [r.rootNow.move])[0] ?? r.rootNow.move) : null;
  return (
    <div data-testid="quality-report">
      <p className="small">
        {t("qSummary")
          .replace("{positions}", r.positions.toLocaleString("en"))
          .replace("{played}", r.played.toLocaleString("en"))
          .replace("{scored}", String(r.scored))
          .replace("{oracle}", r.oracleNodes.toLocaleString("en"))
          .replace("{dig}", r.digNodes === null ? "–" : r.digNodes.toLocaleString("en"))
          .replace("{searched}", String(r.searched))
          .replace("{reused}", String(r.reused))}
      </p>
      <table className="moves quality" data-testid="quality-bands">
        <thead>
          <tr>
            <th rowSpan={2}>{t("qBand")}</th>
            <th rowSpan={2}>{t("qPlayed")}</th>
            <th rowSpan={2}>{t("qScored")}</th>
            <th colSpan={2}>{t("qBest")}</th>
            <th colSpan={2}>{t("qNear")}</th>
            <th colSpan={2}>{t("qLoss")}</th>
            <th rowSpan={2} title={t("qValueErrorHelp")}>
              {t("qValueError")}
            </th>
            <th rowSpan={2} title={t("qGainHelp")}>
              {t("qGain")}
            </th>
          </tr>
          <tr>{[0, 1, 2].map((i) => [<th key={`b${i}`}>{t("qBook")}</th>, <th key={`e${i}`}>{t("qEngine")}</th>])}</tr>
        </thead>
        <tbody>
          {r.bands.map((b) => (
            <BandRow key={b.band} b={b} />
          ))}
        </tbody>
      </table>
      {r.coverage && (
        <p className="small" data-testid="quality-coverage">
          {t("qCoverage").replace("{nodes}", (r.coverageNodes ?? 0).toLocaleString("en"))}{" "}
          {r.coverage.map((c) => (
            <span key={c.side} data-side={c.side}>
              {t(c.side)}: {count(c.plies)} {t("qPlies")} ({t("qBookMoves")} {count(c.bookMoves)}){" "}
            </span>
          ))}
        </p>
      )}
      {r.stability && (
        <p className="small" data-testid="quality-stability">
          {t("qStability")
            .replace("{span}", r.stability.span.toLocaleString("en"))
            .replace("{changes}", String(r.stability.moveChanges))
            .replace("{min}", formatValue(r.stability.valueMin))
            .replace("{max}", formatValue(r.stability.valueMax))}
          {rootMove && (
            <>
              {" "}
              {t("qRootNow")} <span data-testid="quality-root-move">{rootMove}</span> {formatValue(r.rootNow!.value)}
            </>
          )}
        </p>
      )}
    </div>
  );
}

export function QualityView() {
  const t = useT();
  const engines = useStore((s) => s.engines);
  const [status, setStatus] = useState<QualityStatusView | null>(null);
  const [processes, setProcesses] = useState(1);
  const [factor, setFactor] = useState(30);
  const [perBand, setPerBand] = useState(20);
  const [runs, setRuns] = useState(8);
  const [chosen, setEngineId] = useChosenEngine(engines);

  // The status comes as events, but for the first: a call's answer can arrive after the event
  // of a run it started and already finished (a report from kept searches takes milliseconds).
  useEffect(() => {
    void act("quality.status", {}).then((s) => s && setStatus((now) => now ?? s));
    return hostClient().onEvent((e) => {
      if (e.type === "quality.status") setStatus(e.status);
    });
  }, []);

  const running = status?.state === "running";
  const numberField = (label: Key, value: number, set: (n: number) => void, min: number, max: number, id: string) => (
    <label className="field">
      <span className="field-label">{t(label)}</span>
      <input
        type="number"
        min={min}
        max={max}
        value={value}
        data-testid={id}
        onChange={(e) => set(Math.max(min, Math.min(max, Math.round(Number(e.target.value) || min))))}
      />
    </label>
  );
  return (
    <div className="quality-view" data-testid="quality-view">
      <p className="dim small">{t("qHelp")}</p>
      <div className="quality-fields">
        <label className="field">
          <span className="field-label">{t("qEngineField")}</span>
          <EngineSelect engines={engines} chosen={chosen} choose={setEngineId} disabled={running} testId="quality-engine" />
        </label>
        {numberField("qProcesses", processes, setProcesses, 1, 8, "quality-processes")}
        {numberField("qFactor", factor, setFactor, 2, 1000, "quality-factor")}
        {numberField("qPerBand", perBand, setPerBand, 1, 500, "quality-per-band")}
        {numberField("qRuns", runs, setRuns, 0, 64, "quality-runs")}
      </div>
      <div className="actions">
        <button
          disabled={running || !chosen}
          data-testid="quality-start"
          onClick={() => void act("quality.start", { engineId: chosen!.id, processes, oracleFactor: factor, perBand, coverageRuns: runs })}
        >
          {t("qStart")}
        </button>{" "}
        <button
          disabled={running}
          data-testid="quality-kept"
          title={t("qKeptHelp")}
          onClick={() => void act("quality.start", { oracleFactor: factor, perBand, coverageRuns: 0 })}
        >
          {t("qKept")}
        </button>{" "}
        <button disabled={!running} data-testid="quality-stop" onClick={() => void act("quality.stop", {})}>
          {t("stop")}
        </button>
        {status && (
          <span className="dim small" data-testid="quality-state" data-state={status.state}>
            {" "}
            {t(STATE_KEY[status.state])}
          </span>
        )}
      </div>
      {!chosen && <p className="dim small">{t("qNoEngine")}</p>}
      {status?.error && (
        <p className="err small" data-testid="quality-error">
          {status.error}
        </p>
      )}
      {running && status.progress && (
        <p className="dim small" data-testid="quality-progress">
          {t(PHASE_KEY[status.progress.phase])
            .replace("{done}", String(status.progress.done))
            .replace("{total}", String(status.progress.total))
            .replace("{nodes}", status.progress.nodes.toLocaleString("en"))}
        </p>
      )}
      {status?.report && <Report r={status.report} />}
    </div>
  );
}
