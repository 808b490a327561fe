// The Match view: start a match between two engines (each with an optional book), or open a
// match folder to resume it or to watch a `horu match` another process plays; the table
// (W-D-L, score, Elo with its 95% interval from game pairs, SPRT), the games in progress on
// small boards, the finished games and the results by opening, all live.
import { useState } from "react";
import { END_REASONS } from "../../../shared/match/game";
import { Board } from "../board/Board";
import { act, useStore } from "../store";
import { useT } from "../useT";
import { formatValue } from "../logic";
import type { Key } from "../i18n";
import { ServerPathsOff } from "./ToolsView";
import type { MatchStatusView, MoveView } from "../../../shared/api/contract";

// Stable props for the memoized board (zustand 5 and memo compare by reference).
const NO_MOVES: MoveView[] = [];
const NO_LEGAL: string[] = [];
const noMove = () => {};

const STATE_KEY: Record<MatchStatusView["state"], Key> = {
  running: "mRunning",
  watching: "mWatching",
  done: "mDone",
  stopped: "mStopped",
  stopping: "mStopping",
  failed: "mFailed",
};

/** Elo as the host sends it: an unbounded end (a score of 0 or 1) comes as +-9999. */
function elo(x: number): string {
  if (x >= 9999) return "+∞";
  if (x <= -9999) return "−∞";
  return `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
}

function limitsText(l: MatchStatusView["limits"], t: (k: Key) => string): string {
  switch (l.kind) {
    case "nodes":
      return `${l.nodes.toLocaleString("en")} ${t("nodesMove")}`;
    case "movetime":
      return `${l.ms} ${t("msMove")}`;
    case "clock":
      return [
        l.timeMs ? `${l.timeMs / 1000} ${t("clockMain")}` : "",
        l.byoyomiMs ? `${l.byoyomiMs / 1000} ${t("clockByoyomi")}` : "",
        l.incMs ? `${l.incMs / 1000} ${t("clockInc")}` : "",
      ]
        .filter(Boolean)
        .join(" + ");
  }
}

function reasonLabel(r: string, t: (k: Key) => string): string {
  return (END_REASONS as readonly string[]).includes(r) ? t(`r_${r}` as Key) : r;
}

interface PlayerForm {
  engine: string;
  book: string;
  mode: "best" | "weighted";
  window: number;
}

const FAIRY = "/usr/games/fairy-stockfish";

function PlayerFields({ n, p, set }: { n: 1 | 2; p: PlayerForm; set: (p: PlayerForm) => void }) {
  const t = useT();
  return (
    <fieldset className="match-player" data-testid={`match-player${n}`}>
      <legend>{t(n === 1 ? "player1" : "player2")}</legend>
      <label className="field">
        <span className="field-label">{t("engineCmd")}</span>
        <input value={p.engine} onChange={(e) => set({ ...p, engine: e.target.value })} data-testid={`match-engine${n}`} />
      </label>
      <label className="field">
        <span className="field-label">{t("bookFile")}</span>
        <input value={p.book} onChange={(e) => set({ ...p, book: e.target.value })} data-testid={`match-book${n}`} />
      </label>
      <div className="field">
        <span className="field-label">{t("bookMode")}</span>
        <div className="pair">
          <select value={p.mode} onChange={(e) => set({ ...p, mode: e.target.value as PlayerForm["mode"] })}>
            <option value="best">{t("bookBest")}</option>
            <option value="weighted">{t("bookWeighted")}</option>
          </select>
          {p.mode === "weighted" && (
            <input type="number" min={0} value={p.window} onChange={(e) => set({ ...p, window: Number(e.target.value) })} />
          )}
          {p.mode === "weighted" && <span className="dim">cp</span>}
        </div>
      </div>
    </fieldset>
  );
}

/** The start form's values: kept while a match runs (the form is hidden then) and across reloads. */
const FORM_KEY = "horu.matchForm";
let savedForm: Record<string, unknown> | null = null;
function formValues(): Record<string, unknown> {
  if (savedForm) return savedForm;
  try {
    const v: unknown = JSON.parse(localStorage.getItem(FORM_KEY) ?? "{}");
    savedForm = v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    savedForm = {};
  }
  return savedForm;
}

/** useState for one field of the start form, remembered (same type as its default, else the default). */
function useFormField<T>(name: string, initial: T): [T, (v: T) => void] {
  const [v, setV] = useState<T>(() => {
    const saved = formValues()[name];
    return typeof saved === typeof initial && saved !== null ? (saved as T) : initial;
  });
  const set = (next: T) => {
    setV(next);
    savedForm = { ...formValues(), [name]: next };
    try {
      localStorage.setItem(FORM_KEY, JSON.stringify(savedForm));
    } catch {
      // preference only
    }
  };
  return [v, set];
}

function StartForm() {
  const t = useT();
  const serverPaths = useStore((s) => s.serverPaths);
  const [p1, setP1] = useFormField<PlayerForm>("p1", { engine: FAIRY, book: "", mode: "best", window: 30 });
  const [p2, setP2] = useFormField<PlayerForm>("p2", { engine: FAIRY, book: "", mode: "best", window: 30 });
  const [dir, setDir] = useFormField("dir", "");
  const [openings, setOpenings] = useFormField("openings", "");
  const [plies, setPlies] = useFormField("plies", "");
  const [games, setGames] = useFormField("games", 20);
  const [nodes, setNodes] = useFormField("nodes", 20000);
  const [jitter, setJitter] = useFormField("jitter", 5);
  const [concurrency, setConcurrency] = useFormField("concurrency", 1);
  const [maxMoves, setMaxMoves] = useFormField("maxMoves", 320);
  const [watchDir, setWatchDir] = useFormField("watchDir", "");
  const player = (p: PlayerForm) => ({
    engine: p.engine.trim(),
    options: { Threads: 1 },
    ...(p.book.trim() ? { book: p.book.trim() } : {}),
    bookMode: p.mode,
    bookWindow: p.window,
  });
  const start = () =>
    void act("match.start", {
      dir: dir.trim(),
      players: [player(p1), player(p2)],
      ...(openings.trim() ? { openings: openings.trim() } : {}),
      ...(plies.trim() ? { openingPlies: Number(plies) } : {}),
      games,
      nodes,
      jitterPct: jitter,
      concurrency,
      maxMoves,
    }).then((s) => s && useStore.setState({ match: s }));
  return (
    <div className="match-form">
      <ServerPathsOff hint="serverPathsOffMatchHint" />
      <fieldset className="plain" disabled={!serverPaths}>
        <div className="match-players">
          <PlayerFields n={1} p={p1} set={setP1} />
          <PlayerFields n={2} p={p2} set={setP2} />
        </div>
        <div className="match-common">
          <label className="field">
            <span className="field-label">{t("openingsFile")}</span>
            <input
              value={openings}
              onChange={(e) => setOpenings(e.target.value)}
              placeholder={t("openingsEmpty")}
              data-testid="match-openings"
            />
          </label>
          <label className="field">
            <span className="field-label">{t("openingPlies")}</span>
            <input type="number" min={0} value={plies} onChange={(e) => setPlies(e.target.value)} data-testid="match-plies" />
          </label>
          <label className="field">
            <span className="field-label">{t("gamesCount")}</span>
            <input
              type="number"
              min={2}
              step={2}
              value={games}
              onChange={(e) => setGames(Number(e.target.value))}
              data-testid="match-games"
            />
          </label>
          <label className="field">
            <span className="field-label">{t("nodesPerMove")}</span>
            <input type="number" min={1} value={nodes} onChange={(e) => setNodes(Number(e.target.value))} data-testid="match-nodes" />
          </label>
          <label className="field">
            <span className="field-label">{t("nodeJitter")}</span>
            <input
              type="number"
              min={0}
              max={50}
              step={1}
              value={jitter}
              onChange={(e) => setJitter(Number(e.target.value))}
              data-testid="match-jitter"
            />
          </label>
          <label className="field">
            <span className="field-label">{t("concurrency")}</span>
            <input
              type="number"
              min={1}
              max={64}
              value={concurrency}
              onChange={(e) => setConcurrency(Number(e.target.value))}
              data-testid="match-concurrency"
            />
          </label>
          <label className="field">
            <span className="field-label">{t("maxMoves")}</span>
            <input
              type="number"
              min={0}
              value={maxMoves}
              onChange={(e) => setMaxMoves(Number(e.target.value))}
              data-testid="match-maxmoves"
            />
          </label>
        </div>
        <div className="row">
          <label className="field grow">
            <span className="field-label">{t("matchFolder")}</span>
            <input value={dir} onChange={(e) => setDir(e.target.value)} data-testid="match-dir" />
          </label>
          <button onClick={start} disabled={!dir.trim() || !p1.engine.trim() || !p2.engine.trim()} data-testid="match-start">
            {t("startMatch")}
          </button>
        </div>
        <div className="row">
          <label className="field grow">
            <span className="field-label">{t("openMatch")}</span>
            <input value={watchDir} onChange={(e) => setWatchDir(e.target.value)} data-testid="match-open-dir" />
          </label>
          <button
            onClick={() => void act("match.open", { dir: watchDir.trim() }).then((s) => s && useStore.setState({ match: s }))}
            disabled={!watchDir.trim()}
            data-testid="match-open"
          >
            {t("open")}
          </button>
        </div>
      </fieldset>
    </div>
  );
}

function Table({ m }: { m: MatchStatusView }) {
  const t = useT();
  const tb = m.table;
  return (
    <table className="grid-table match-table" data-testid="match-table">
      <tbody>
        <tr>
          <td>{t("wdl")}</td>
          <td className="mono" data-testid="match-wdl">
            {tb.wdl.wins}-{tb.wdl.draws}-{tb.wdl.losses}
          </td>
          <td className="dim">
            {t("fromView")} {m.players[0]}
          </td>
        </tr>
        <tr>
          <td>{t("matchScore")}</td>
          <td className="mono" data-testid="match-score">
            {tb.points} / {m.played} = {(tb.score * 100).toFixed(1)}%
          </td>
          <td />
        </tr>
        <tr>
          <td>{t("distinctGames")}</td>
          <td className="mono" data-testid="match-distinct">
            {tb.distinctGames} / {m.played} · {tb.distinctPairs} / {tb.pairs}
          </td>
          <td className="dim">{m.jitter ? `${t("nodeJitter")} ±${m.jitter.nodesPct}% (seed ${m.jitter.seed})` : t("noJitter")}</td>
        </tr>
        <tr>
          <td>{t("eloInterval")}</td>
          <td className="mono" data-testid="match-elo">
            {!tb.elo
              ? "–"
              : tb.elo.low === null || tb.elo.high === null
                ? `${elo(tb.elo.elo)} (${t("noInterval")})`
                : `${elo(tb.elo.elo)} [${elo(tb.elo.low)}, ${elo(tb.elo.high)}]`}
          </td>
          <td className="dim">{tb.elo ? `n = ${tb.elo.samples} ${t("distinctSamples")}${tb.elo.why ? ` · ${tb.elo.why}` : ""}` : ""}</td>
        </tr>
        <tr>
          <td>{t("pentanomial")}</td>
          <td className="mono" data-testid="match-penta">
            [{tb.distinctPentanomial.join(", ")}]
          </td>
          <td className="dim">
            {t("allPairs")} [{tb.pentanomial.join(", ")}]
          </td>
        </tr>
        {tb.warning && (
          <tr>
            <td colSpan={3} className="warn" data-testid="match-warning">
              {t("mostGamesRepeat")} ({tb.warning})
            </td>
          </tr>
        )}
        {tb.sprt && (
          <tr>
            <td>{t("sprt")}</td>
            <td className="mono">
              LLR {tb.sprt.llr.toFixed(2)} [{tb.sprt.lower.toFixed(2)}, {tb.sprt.upper.toFixed(2)}]
            </td>
            <td>{tb.sprt.verdict === "continue" ? t("undecided") : `${t("accept")} ${tb.sprt.verdict}`}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

export function MatchView() {
  const t = useT();
  const m = useStore((s) => s.match);
  const active = m !== null && (m.state === "running" || m.state === "stopping" || m.state === "watching");
  return (
    <div className="view match-view" data-testid="match-view">
      {!active && <StartForm />}
      {!m ? (
        <div className="dim">{t("noMatch")}</div>
      ) : (
        <>
          <div className="row match-head">
            <strong data-testid="match-players">
              {m.players[0]} vs {m.players[1]}
            </strong>
            <span className={`badge state-${m.state}`} data-testid="match-state">
              {t(STATE_KEY[m.state])}
            </span>
            <span data-testid="match-played">
              {m.played} / {m.planned} {t("playedOf")}
            </span>
            {(m.state === "running" || m.state === "watching") && (
              <button onClick={() => void act("match.stop", {}).then((s) => s && useStore.setState({ match: s }))} data-testid="match-stop">
                {t("stopMatch")}
              </button>
            )}
          </div>
          <div className="dim mono" data-testid="match-setup">
            {t("limitsLabel")}: {limitsText(m.limits, t)} · {t("opening")}: {m.openings.count}{" "}
            {t(m.openings.count === 1 ? "openingsCountOne" : "openingsCount")} (
            {m.openings.source === "the start position" ? t("fromStart") : m.openings.source}) · {m.dir}
          </div>
          {m.error && <div className="banner err">{m.error}</div>}
          <Table m={m} />
          {m.live.length > 0 && (
            <>
              <h4>{t("liveGames")}</h4>
              <div className="match-live" data-testid="match-live">
                {m.live.slice(0, 4).map((g) => (
                  <div key={g.game} className="match-live-game" data-testid="match-live-game">
                    <div className="match-live-board">
                      <Board
                        sfen={g.sfen}
                        flipped={false}
                        lastMove={g.moves[g.moves.length - 1] ?? null}
                        moves={NO_MOVES}
                        legal={NO_LEGAL}
                        onMove={noMove}
                      />
                    </div>
                    <div className="mono">
                      #{g.game + 1} ☗{g.black} ☖{g.white}
                    </div>
                    <div className="mono" data-testid="match-live-ply">
                      {t("plies")} {g.moves.length} · {t("bookPlies")} {g.bookMoves} · {t("lastScore")} {formatValue(g.lastScore)}
                    </div>
                  </div>
                ))}
              </div>
            </>
          )}
          <h4>{t("finishedGames")}</h4>
          <table className="grid-table" data-testid="match-games-table">
            <thead>
              <tr>
                <th>#</th>
                <th>{t("black")}</th>
                <th>{t("white")}</th>
                <th>{t("result")}</th>
                <th>{t("reason")}</th>
                <th>{t("plies")}</th>
                <th>{t("bookPlies")}</th>
                <th>{t("opening")}</th>
              </tr>
            </thead>
            <tbody>
              {m.games.slice(0, 200).map((g) => (
                <tr key={g.game} data-testid="match-game-row">
                  <td className="mono">{g.game + 1}</td>
                  <td>{g.black}</td>
                  <td>{g.white}</td>
                  <td className="mono">{g.result}</td>
                  <td>{reasonLabel(g.reason, t)}</td>
                  <td className="mono">{g.plies}</td>
                  <td className="mono">
                    {g.bookPlies[0]} / {g.bookPlies[1]}
                  </td>
                  <td className="mono">{g.opening + 1}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {m.table.perOpening.length > 1 && (
            <>
              <h4>{t("perOpening")}</h4>
              <table className="grid-table" data-testid="match-openings-table">
                <thead>
                  <tr>
                    <th>{t("opening")}</th>
                    <th>
                      {t("points")} ({m.players[0]})
                    </th>
                    <th>{t("line")}</th>
                  </tr>
                </thead>
                <tbody>
                  {m.table.perOpening.slice(0, 50).map((o) => (
                    <tr key={o.opening}>
                      <td className="mono">{o.opening + 1}</td>
                      <td className="mono">
                        {o.points} / {o.games}
                      </td>
                      <td className="mono dim">{o.line}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
    </div>
  );
}
