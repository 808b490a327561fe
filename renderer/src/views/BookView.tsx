// Browsing the book: the current node's moves (virtualized) in the notation players read,
// every value from one stated side, its bound, and the line or position for copying.
import { memo, useEffect, useMemo, useRef, type ReactNode } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { goInto, useStore } from "../store";
import { useT } from "../useT";
import { bookMoveOf, pvMoveAt, scoreText, type Side, type Viewpoint } from "../logic";
import type { MoveView, SbkMark } from "../../../shared/api/contract";
import { movesNotation } from "../../../shared/formats/notation";
import { CopyBox } from "../parts/CopyBox";
import { useCycleText, type CycleView } from "../parts/cycle";
import { STATE_KEY } from "../tree/states";
import type { Key } from "../i18n";

const ROW_H = 26;
// Selectors must return stable references (zustand 5).
const NO_MOVES: MoveView[] = [];

const MOVE_STATE: Record<MoveView["state"], Key> = { ...STATE_KEY, thought: "stThought" };
const MARK_KEY: Record<SbkMark, Key> = { forced: "mark.forced", good: "mark.good", bad: "mark.bad", blunder: "mark.blunder" };

const MoveRow = memo(function MoveRow({
  m,
  label,
  side,
  view,
  stateText,
  cycle,
  selected,
  bookMove,
  top,
  onClick,
  onOpen,
}: {
  m: MoveView;
  label: string;
  side: Side;
  view: Viewpoint;
  stateText: string;
  /** The cycle the move closes (parts/cycle.ts); null when none. */
  cycle: CycleView | null;
  selected: boolean;
  bookMove: boolean;
  top: number;
  onClick: () => void;
  onOpen: () => void;
}) {
  const t = useT();
  return (
    <div
      className={`vrow move-row state-${m.state}${selected ? " selected" : ""}${bookMove ? " book-move" : ""}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_H }}
      onClick={onClick}
      onDoubleClick={onOpen}
      data-testid="move-row"
      data-usi={m.usi}
      data-book-move={bookMove ? "true" : undefined}
      title={m.usi}
    >
      <span className="c-kif">
        {bookMove && (
          <span className="book-move-mark" data-testid="book-move" title={t("bookMoveHelp")}>
            ★{" "}
          </span>
        )}
        <span data-testid="move-text">
          {label}
          {m.kifu ? " ◆" : ""}
        </span>
      </span>
      {m.valueNone ? (
        // The imported file gave no value: unknown, not 0 (which engines read as a level position).
        <span className="c-num dim" data-testid="engine-value" data-none="true" title={t("valueNoneHelp")}>
          –
        </span>
      ) : m.engineValue === null && m.childValue !== null ? (
        <span className="c-num dim" data-testid="engine-value" data-child-value={m.childValue} title={t("childValueHelp")}>
          ({scoreText(m.childValue, side, view)})
        </span>
      ) : (
        <span className="c-num" data-testid="engine-value">
          {scoreText(m.engineValue, side, view)}
        </span>
      )}
      {cycle ? (
        // On this line the move is valued by the cycle's rule, whatever the position's own bound (reached by another line) says.
        <span className="c-num c-search" data-testid="search-value" data-cycle="true">
          {scoreText(cycle.value, side, view, "EXACT")} ↻
        </span>
      ) : (
        <span className="c-num c-search" data-testid="search-value">
          {scoreText(m.searchValue, side, view, m.searchBound)}
        </span>
      )}
      {m.depthNone ? (
        <span className="c-num dim" data-testid="engine-depth" data-none="true" title={t("depthNoneHelp")}>
          –
        </span>
      ) : (
        <span className="c-num" data-testid="engine-depth">
          {m.engineDepth ?? "–"}
        </span>
      )}
      <span className="c-num">{m.games === null ? "–" : `${m.games}/${m.wins ?? 0}`}</span>
      <span className="c-mark" data-testid="move-mark" data-mark={m.mark ?? undefined}>
        {m.mark && (
          <span className={`mark-badge mark-${m.mark}`} title={t("markHelp")}>
            {t(MARK_KEY[m.mark])}
          </span>
        )}
      </span>
      {cycle ? (
        <span className="c-state c-cycle" data-testid="move-cycle" title={cycle.text}>
          ↻ {cycle.text}
        </span>
      ) : (
        <span className="c-state">{stateText}</span>
      )}
    </div>
  );
});

function MovesTable() {
  const t = useT();
  const moves = useStore((s) => s.node?.moves ?? NO_MOVES);
  const sfen = useStore((s) => s.node?.sfen ?? "");
  const side = useStore((s) => s.node?.side ?? "black");
  const view = useStore((s) => s.viewpoint);
  const selected = useStore((s) => s.selected);
  const line = useStore((s) => s.line);
  const pv = useStore((s) => s.status?.pv);
  // The store sorted the moves with the book move first (sortedMoves): mark it when known.
  const bookMove = useMemo(() => bookMoveOf(moves, pvMoveAt(pv, line)), [moves, pv, line]);
  const cycleText = useCycleText();
  const cycles = useMemo(() => moves.map((m) => cycleText(line, m.usi)), [moves, line, cycleText]);
  const labels = useMemo(
    () =>
      sfen
        ? movesNotation(
            sfen,
            moves.map((m) => m.usi),
          )
        : [],
    [sfen, moves],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: moves.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 8 });
  useEffect(() => {
    if (moves.length) v.scrollToIndex(selected, { align: "auto" });
  }, [selected, moves.length, v]);
  return (
    <div className="moves">
      {moves.length > 0 && bookMove === null && (
        <div className="dim small" data-testid="book-move-unknown">
          {t("bookMoveUnknown")}
        </div>
      )}
      <div className="vrow head">
        <span className="c-kif" title={t("bookOrderHelp")}>
          {t("move")}
        </span>
        <span className="c-num" title={t("engineValueHelp")}>
          {t("engineValue")}
        </span>
        <span className="c-num c-search" title={t("searchValueHelp")}>
          {t("searchValue")}
        </span>
        <span className="c-num">{t("depth")}</span>
        <span className="c-num">{t("games")}</span>
        <span className="c-mark" title={t("markHelp")}>
          {t("markCol")}
        </span>
        <span className="c-state">{t("state")}</span>
      </div>
      <div className="vscroll" ref={scroller} data-testid="moves">
        <div style={{ height: v.getTotalSize(), position: "relative" }}>
          {v.getVirtualItems().map((item) => {
            const m = moves[item.index];
            return (
              <MoveRow
                key={m.usi}
                m={m}
                label={labels[item.index] ?? m.usi}
                side={side}
                view={view}
                stateText={t(MOVE_STATE[m.state])}
                cycle={cycles[item.index] ?? null}
                top={item.start}
                selected={item.index === selected}
                bookMove={item.index === bookMove}
                onClick={() => useStore.setState({ selected: item.index })}
                onOpen={() => goInto(m.usi)}
              />
            );
          })}
        </div>
      </div>
      {cycles[selected] && (
        // The row's cell is cut to its width: the selected move's cycle in full.
        <div className="small warn" data-testid="cycle-note">
          ↻ {labels[selected] ?? moves[selected]?.usi}: {cycles[selected].text}
        </div>
      )}
    </div>
  );
}

function NodeHeader() {
  const t = useT();
  const node = useStore((s) => s.node);
  const view = useStore((s) => s.viewpoint);
  if (!node) return null;
  const b = node.bound;
  return (
    <div className="node-header" data-testid="node-header">
      <span className="badge">{node.side === "black" ? `☗ ${t("black")}` : `☖ ${t("white")}`}</span>
      <span className="badge" data-testid="bound" title={t("boundHelp")}>
        {t("bound")}: {b ? `${scoreText(b.value, node.side, view, b.bound)}${b.cyclic ? ` (${t("cyclic")})` : ""}` : "–"}
      </span>
      {!node.thought && <span className="badge dim">{t("notThought")}</span>}
      {node.terminal && (
        <span className="badge" data-testid="terminal">
          {t(node.terminal === "mated" ? "mated" : "declarationWin")}
        </span>
      )}
      {node.inFlight && <span className="badge warn">{t("inFlightNode")}</span>}
      {node.parents > 1 && (
        <span className="badge warn" data-testid="transposition">
          {t("transposition")}: {node.parents} {t("parents")}
        </span>
      )}
      {node.kifu && <span className="badge">◆ {t("stKifu")}</span>}
      {node.provenance && !node.terminal && (
        <span className="dim">
          {t("provenance")}:{" "}
          {node.origin?.kind === "engine" ? (
            <>
              <span data-raw>{node.origin.engine}</span>, {t("nodes")} {node.origin.nodes}, {t("depth")}{" "}
              <span data-testid="think-depth">{node.origin.depth}</span>, {node.origin.timeMs} ms
            </>
          ) : node.origin?.kind === "import" ? (
            <>
              {t("importedFrom")} <span className="mono">{node.origin.file}</span>
            </>
          ) : (
            node.provenance
          )}
        </span>
      )}
    </div>
  );
}

/** `analysis`: the live analysis panel (renderer/src/analysis, a layer above the views), shown under the moves. */
export function BookView({ analysis }: { analysis?: ReactNode }) {
  const t = useT();
  const line = useStore((s) => s.line);
  return (
    <div className="view book-view">
      <NodeHeader />
      <div className="dim small">{t("keyHelp")}</div>
      <MovesTable />
      {analysis}
      <CopyBox line={line} />
    </div>
  );
}
