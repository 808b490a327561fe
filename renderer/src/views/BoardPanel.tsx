// The left column: the board at the browsed node, the line that reached it, and the
// book's PV from the root with the positions being thought.
import { VALUE_MATE } from "../../../shared/rules/types";
import { useMemo } from "react";
import { Board } from "../board/Board";
import { goBack, goInto, goTo, useStore } from "../store";
import { useT } from "../useT";
import { Position } from "../../../shared/rules/position";
import { parseRoot } from "../../../shared/dig/root";
import { moveToUsi } from "../../../shared/rules/usi";
import { scoreText, sideOf } from "../logic";
import { lineNotation } from "../../../shared/formats/notation";
import { NodeActions } from "./NodeActions";
import type { DigStatus, MoveView } from "../../../shared/api/contract";

// Selectors and memoized props need stable empty lists (zustand 5 compares by reference).
const NO_PV: string[] = [];
const NO_FLIGHT: DigStatus["inFlight"] = [];
const NO_MOVES: MoveView[] = [];

function legalMoves(sfen: string): string[] {
  try {
    return Position.fromSfen(sfen).legalMoves().map(moveToUsi);
  } catch {
    return [];
  }
}

/** A line from the root in the notation players read; the USI move shows on hover. */
function Line({
  start,
  moves,
  onPick,
  active,
  testId,
}: {
  start: string;
  moves: string[];
  onPick: (i: number) => void;
  active?: number;
  testId: string;
}) {
  const labels = useMemo(() => lineNotation(start, moves), [start, moves]);
  return (
    <div className="line" data-testid={testId}>
      {moves.map((m, i) => (
        <button key={i} className={`ply${i === active ? " active" : ""}`} onClick={() => onPick(i)} data-ply={i + 1} data-usi={m} title={m}>
          {labels[i]}
        </button>
      ))}
    </div>
  );
}

/** An in-flight line: its last moves in notation, an ellipsis when cut, the whole line in USI on hover. */
export function lineTail(start: string, line: string[], keep = 6): string {
  if (line.length === 0) return "";
  const labels = lineNotation(start, line);
  return `${line.length > keep ? "… " : ""}${labels.slice(-keep).join(" ")}`;
}

export function BoardPanel() {
  const t = useT();
  const node = useStore((s) => s.node);
  const book = useStore((s) => s.book);
  const line = useStore((s) => s.line);
  const flipped = useStore((s) => s.flipped);
  const pv = useStore((s) => s.status?.pv ?? NO_PV);
  const inFlight = useStore((s) => s.status?.inFlight ?? NO_FLIGHT);
  const rootValue = useStore((s) => s.status?.rootValue ?? null);
  const bookValue = useStore((s) => s.status?.bookValue ?? null);
  const bookPv = useStore((s) => s.status?.bookPv ?? NO_PV);
  // A finished book (it mates, or is mated): its line to the mate, which selection leaves out by design.
  const finished = bookValue !== null && Math.abs(bookValue) >= VALUE_MATE - 1000 && bookPv.length > 0;
  const view = useStore((s) => s.viewpoint);
  const rootSfen = book?.rootSfen ?? "startpos";
  const sfen = node?.sfen ?? rootSfen;
  const legal = useMemo(() => legalMoves(sfen), [sfen]);
  // The root's own move number (a root given as moves from the start, or an SFEN with its
  // counter), plus the plies from it: the book's keys carry no move number.
  const rootSetting = book?.settings.root ?? "startpos";
  const rootMove = useMemo(() => {
    try {
      return parseRoot(rootSetting).ply;
    } catch {
      return 1;
    }
  }, [rootSetting]);
  // The PV ply that matches where we are, to show our place on it.
  const onPv = line.length > 0 && line.every((m, i) => pv[i] === m) ? line.length - 1 : undefined;
  return (
    <div className="board-panel">
      <Board
        sfen={sfen}
        flipped={flipped}
        lastMove={line[line.length - 1] ?? null}
        moves={node?.moves ?? NO_MOVES}
        legal={legal}
        onMove={goInto}
        moveNumber={rootMove + line.length}
      />
      <div className="row">
        <button onClick={() => goTo([])} data-testid="nav-root">
          ⇤ {t("root")}
        </button>
        <button onClick={goBack} disabled={line.length === 0} data-testid="nav-back">
          ◀ {t("back")}
        </button>
        <button onClick={() => useStore.setState({ flipped: !flipped })} data-testid="flip">
          ⇅ {t("flip")}
        </button>
        <span className="dim" data-testid="ply">
          {line.length}
          {t("plySuffix")}
        </span>
      </div>
      <Line start={rootSfen} moves={line} onPick={(i) => goTo(line.slice(0, i + 1))} testId="current-line" />
      <NodeActions />
      <div className="pv-panel">
        {finished && (
          <>
            <div className="row" data-testid="finished-line" title={t("finishedMate")}>
              <strong>{t("finishedLine")}</strong>
              <span className="dim" data-testid="finished-value">
                {scoreText(bookValue, sideOf(rootSfen), view)}
              </span>
            </div>
            <Line start={rootSfen} moves={bookPv} onPick={(i) => goTo(bookPv.slice(0, i + 1))} testId="finished-pv" />
          </>
        )}
        <div className="row">
          <strong>{t(finished ? "selectionPv" : "bookPv")}</strong>
          <span className="dim" data-testid="pv-value" title={t("pvValueHelp")}>
            {/* Every line finished: no line is still dug, so it has no value (the finished line's stood here). */}
            {finished && pv.length === 0 ? "–" : scoreText(rootValue, sideOf(rootSfen), view)}
          </span>
        </div>
        {pv.length ? (
          <Line start={rootSfen} moves={pv} onPick={(i) => goTo(pv.slice(0, i + 1))} active={onPv} testId="book-pv" />
        ) : (
          <div className="dim">{t("none")}</div>
        )}
        <div className="row">
          <strong>{t("inFlight")}</strong>
        </div>
        <ul className="inflight" data-testid="in-flight">
          {inFlight.map((f) => (
            <li key={f.sfen}>
              <button
                className="link inflight-line"
                onClick={() => goTo(f.line)}
                title={`${f.line.join(" ")}\n${f.sfen}`}
                data-testid="in-flight-line"
              >
                {f.line.length ? lineTail(rootSfen, f.line) : t("startPosition")}{" "}
                <span className="dim">
                  ({f.line.length}
                  {t("plySuffix")})
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
