// The record pane: a KIF/KI2/CSA record read in the page (shared/formats/kifu.ts, tsshogi),
// stepped through with its branches (buttons or ← →, ↑ ↓ for the branch); at each ply the
// book's moves (book.node) beside the move played, the record's comment and evaluation beside
// the book's value, where the game left the book, and one click to seed the line so far or
// think the position.
import { useEffect, useMemo, useRef, useState } from "react";
import type { NodeView } from "../../../shared/api/contract";
import { lineNotation, moveNotation } from "../../../shared/formats/notation";
import { act, refreshNode, useStore } from "../store";
import { useT } from "../useT";
import type { Key } from "../i18n";
import { scoreText, sideOf, sortedMoves, toBase64 } from "../logic";
import { Board } from "../board/Board";
import { branchesAt, commentEval, keyAfter, readRecord, recordProblemJa } from "./model";
import { withMoveNumber } from "../../../shared/rules/sfen";
import { useRecordPane } from "./record-store";

const NO_LEGAL: string[] = [];

export function RecordView() {
  const t = useT();
  const view = useStore((s) => s.viewpoint);
  const lang = useStore((s) => s.lang);
  /** A reader's problem in the page's language (the reader writes English). */
  const said = (text: string) => (lang === "ja" ? recordProblemJa(text) : text);
  const book = useStore((s) => s.book);
  const { rec, error, current, ply } = useRecordPane();
  const setError = (e: string | null) => useRecordPane.setState({ error: e });
  const setCurrent = (c: number) => useRecordPane.setState({ current: c });
  const setPly = (p: number) => useRecordPane.setState({ ply: p });
  const [nodes, setNodes] = useState<Map<string, NodeView | null>>(new Map());
  const [message, setMessage] = useState<{ key: Key; ply?: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const pane = useRef<HTMLDivElement>(null);

  const open = async (f: File) => {
    const got = readRecord(new Uint8Array(await f.arrayBuffer()), f.name);
    if (typeof got === "string") {
      // Named: the record shown (if any) is still the one opened before.
      setError(`${f.name}: ${got}`);
      return;
    }
    useRecordPane.setState({ error: null, rec: got, current: 0, ply: 0 });
    setNodes(new Map());
    setMessage(null);
    pane.current?.focus();
  };

  const line = useMemo(() => rec?.lines[current] ?? [], [rec, current]);
  // The position key before each ply of the current line.
  const keys = useMemo(
    () => (rec ? line.map((_, i) => keyAfter(rec.start, line.slice(0, i))).concat(keyAfter(rec.start, line)) : []),
    [rec, line],
  );

  // The book's view of every position of the current line (a few dozen calls, once per line).
  useEffect(() => {
    let live = true;
    void (async () => {
      for (const k of keys) {
        if (!live) return;
        if (!k || nodes.has(k)) continue;
        const n = await act("book.node", { sfen: k });
        if (!live) return;
        setNodes((m) => new Map(m).set(k, n ?? null));
      }
    })();
    return () => {
      live = false;
    };
    // nodes is read as a cache only: refetching on every answer would loop.
  }, [keys]);

  if (!book) return <div className="view dim">{t("noBook")}</div>;

  const inBook = (i: number) => {
    const n = keys[i] ? nodes.get(keys[i]!) : undefined;
    return n === undefined ? undefined : !!n?.moves.some((m) => m.usi === line[i]);
  };
  // Where the game left the book: the first move the book does not list.
  const leftAt = rec ? line.findIndex((_, i) => inBook(i) === false) : -1;
  const allKnown = line.every((_, i) => inBook(i) !== undefined);
  const key = keys[ply] ?? null;
  const node = key ? nodes.get(key) : undefined;
  const played = line[ply];
  const branches = rec ? branchesAt(rec.lines, current, ply) : [];
  const labels = rec ? lineNotation(rec.start, line) : [];
  const sfen = key ? withMoveNumber(key) : (rec?.start ?? "");
  /** The side to move here: the record's evaluation is written from Black's side. */
  const mover = sideOf(sfen);
  // The record's comment on this position (after the move that reached it) and the evaluation it carries.
  const comment = rec?.notes.get(line.slice(0, ply).join(" "));
  const evaluation = commentEval(comment);

  const go = (p: number) => {
    setPly(Math.max(0, Math.min(line.length, p)));
    // A step button that becomes disabled (the record's end) drops the focus to the page,
    // where ← → moved the book's board instead: the pane keeps it.
    pane.current?.focus({ preventScroll: true });
  };
  const choose = (i: number) => setCurrent(branches[i]?.line ?? current);
  const onKey = (e: React.KeyboardEvent) => {
    if ((e.target as HTMLElement).tagName === "INPUT") return;
    const at = branches.findIndex((b) => b.line === current);
    if (e.key === "ArrowRight") go(ply + 1);
    else if (e.key === "ArrowLeft") go(ply - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(line.length);
    else if (e.key === "ArrowDown" && branches.length > 1) choose((at + 1) % branches.length);
    else if (e.key === "ArrowUp" && branches.length > 1) choose((at - 1 + branches.length) % branches.length);
    else return;
    e.preventDefault();
  };
  const seed = async () => {
    if (!rec) return;
    const text = `sfen ${rec.start} moves ${line.slice(0, ply).join(" ")}\n`;
    const report = await act("seed.upload", {
      files: [{ name: `${rec.file.replace(/\.[^.]*$/, "")}-${ply}.usi`, base64: toBase64(new TextEncoder().encode(text)) }],
      thinkPlies: Math.max(1, ply),
    });
    if (report) setMessage({ key: "recordSeeded", ply });
  };
  const think = async () => {
    if (!key) return;
    const r = await act("book.thinkNow", { sfen: key });
    if (r) setMessage({ key: "recordQueued" });
  };
  // A position the book has not thought (a leaf, the line's end) is shown as the move into it,
  // selected in its parent's moves.
  const viaParent = !node?.thought && ply > 0 && inBook(ply - 1) === true;
  const showInBook = async () => {
    const at = viaParent ? keys[ply - 1] : key;
    if (!at) return;
    const to = await act("book.lineTo", { sfen: at });
    if (!to) return;
    useStore.setState({ line: to, selected: 0, tab: "book" });
    await refreshNode(true);
    if (viaParent) {
      const i = useStore.getState().node?.moves.findIndex((m) => m.usi === line[ply - 1]) ?? -1;
      if (i >= 0) useStore.setState({ selected: i });
    }
  };

  return (
    <div
      className="view record-view"
      data-own-keys
      tabIndex={0}
      ref={pane}
      onKeyDown={onKey}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        const f = e.dataTransfer.files[0];
        if (!f) return;
        e.preventDefault();
        e.stopPropagation();
        void open(f);
      }}
      data-testid="record"
    >
      <div className="row">
        <button onClick={() => input.current?.click()} data-testid="record-open">
          {t("recordOpen")}
        </button>
        <input
          ref={input}
          type="file"
          accept=".kif,.kifu,.ki2,.ki2u,.csa"
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void open(f);
            e.target.value = "";
          }}
          data-testid="record-file"
        />
        {rec && <span className="mono dim">{rec.file}</span>}
      </div>
      {!rec && <p className="dim">{t("recordHelp")}</p>}
      {error && (
        <div className="banner err" data-testid="record-error">
          {said(error)}
        </div>
      )}
      {rec && rec.problems.length > 0 && (
        <div className="banner warn" data-testid="record-problems">
          {t("recordProblems")}
          <ul className="small mono">
            {rec.problems.slice(0, 5).map((p, i) => (
              <li key={i}>{said(p)}</li>
            ))}
            {rec.problems.length > 5 && <li>…</li>}
          </ul>
        </div>
      )}
      {rec && (
        <div className="record-main">
          <div className="record-board">
            <Board
              sfen={sfen}
              flipped={false}
              lastMove={ply > 0 ? line[ply - 1] : null}
              moves={node?.moves ?? []}
              legal={NO_LEGAL}
              onMove={() => undefined}
              moveNumber={ply + 1}
            />
            <div className="row">
              <button onClick={() => go(0)} data-testid="record-start">
                ⇤
              </button>
              <button onClick={() => go(ply - 1)} disabled={ply === 0} data-testid="record-prev">
                ◀ {t("recordPrev")}
              </button>
              <button onClick={() => go(ply + 1)} disabled={ply >= line.length} data-testid="record-next">
                {t("recordNext")} ▶
              </button>
              <button onClick={() => go(line.length)} data-testid="record-end">
                ⇥
              </button>
              <span className="dim" data-testid="record-ply" data-ply={ply}>
                {ply}
                {t("plySuffix")}
              </span>
            </div>
          </div>
          <div className="record-side">
            <div className="record-moves" data-testid="record-moves">
              {line.map((m, i) => (
                <button
                  key={i}
                  className={`ply${i === ply - 1 ? " active" : ""}${inBook(i) === false ? " off-book" : ""}`}
                  onClick={() => go(i + 1)}
                  data-usi={m}
                  data-in-book={inBook(i) === undefined ? "" : String(inBook(i))}
                  title={m}
                >
                  {i + 1}. {labels[i]}
                </button>
              ))}
            </div>
            <div className="row" data-testid="record-left-book">
              {leftAt >= 0 ? (
                <span>
                  {t("recordLeftBook")}: {leftAt + 1}
                  {t("plySuffix")} {labels[leftAt]}
                </span>
              ) : allKnown ? (
                <span>{t("recordStaysInBook")}</span>
              ) : (
                <span className="dim">…</span>
              )}
            </div>
            {branches.length > 1 && (
              <div className="row" data-testid="record-branches">
                <strong>{t("recordBranches")}:</strong>
                {branches.map((b, i) => (
                  <button
                    key={b.usi}
                    className={b.line === current ? "active" : ""}
                    onClick={() => choose(i)}
                    data-usi={b.usi}
                    data-testid="record-branch"
                  >
                    {moveNotation(sfen, b.usi)}
                  </button>
                ))}
              </div>
            )}
            <div className="row">
              <strong>{t("recordPlayed")}:</strong>
              <span data-testid="record-played" data-usi={played ?? ""}>
                {played ? moveNotation(sfen, played) : "–"}
              </span>
              {played && inBook(ply) !== undefined && (
                <span className={inBook(ply) ? "dim" : "warn"} data-testid="record-played-in-book">
                  ({inBook(ply) ? t("recordInBook") : t("recordNotInBook")})
                </span>
              )}
            </div>
            {evaluation !== null && (
              <div className="row" data-testid="record-eval" data-value={evaluation}>
                <strong>{t("recordEval")}:</strong> {scoreText(mover === "white" ? -evaluation : evaluation, mover, view)}
                {node?.bound && (
                  <span className="dim" data-testid="record-eval-book">
                    ({t("recordBookValue")}: {scoreText(node.bound.value, node.side, view, node.bound.bound)})
                  </span>
                )}
              </div>
            )}
            {comment && (
              <pre className="record-comment small" data-testid="record-comment" data-raw>
                {comment}
              </pre>
            )}
            <strong>{t("recordBookMoves")}</strong>
            {node && node.moves.length > 0 ? (
              <table className="record-book" data-testid="record-book-moves">
                <thead>
                  <tr>
                    <th></th>
                    <th>{t("move")}</th>
                    <th className="num">{t("engineValue")}</th>
                    <th className="num">{t("searchValue")}</th>
                  </tr>
                </thead>
                <tbody>
                  {/* The Book view's order: the book's move first, then by value. */}
                  {/* The Book view's columns too: the engine's value, then the search's (none for a move not searched into). */}
                  {sortedMoves(node.moves).map((m) => (
                    <tr key={m.usi} className={m.usi === played ? "played" : ""} data-usi={m.usi} data-testid="record-book-move">
                      <td>{m.usi === played ? "▶" : ""}</td>
                      <td>{moveNotation(sfen, m.usi)}</td>
                      <td className="num dim">{m.engineValue !== null ? scoreText(m.engineValue, node.side, view) : ""}</td>
                      <td className="num">{scoreText(m.searchValue, node.side, view, m.searchBound)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <div className="dim" data-testid="record-no-book">
                {node === undefined ? "…" : t("recordNoBookMoves")}
              </div>
            )}
            <div className="row">
              <button onClick={() => void seed()} disabled={book.readonly || ply === 0} data-testid="record-seed">
                {t("recordSeed")}
              </button>
              <button onClick={() => void think()} disabled={book.readonly} data-testid="record-think">
                {t("recordThink")}
              </button>
              <button onClick={() => void showInBook()} disabled={!node?.thought && !viaParent} data-testid="record-show">
                {t("recordShowInBook")}
              </button>
            </div>
            {message && (
              <div className="dim" data-testid="record-message">
                {t(message.key)}
                {message.ply !== undefined ? `: ${message.ply}${t("plySuffix")}` : ""}
              </div>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
