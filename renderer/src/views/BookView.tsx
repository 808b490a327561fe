// Browsing the book: the current node's moves (virtualized), its bound, a tree around it
// with transpositions marked, and the position as SFEN and KIF for copying.
import { memo, useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { goInto, goTo, setTreeDepth, useStore } from "../store";
import { useT } from "../useT";
import { stateLabel } from "../i18n";
import { formatValue, treePath } from "../logic";
import type { MoveView, TreeView } from "../../../shared/api/contract";
import { kifPosition } from "../../../shared/formats/notation";

const ROW_H = 26;
// Selectors must return stable references (zustand 5).
const NO_MOVES: MoveView[] = [];

const MoveRow = memo(function MoveRow({ m, selected, top, onClick, onOpen }: { m: MoveView; selected: boolean; top: number; onClick: () => void; onOpen: () => void }) {
  const lang = useStore((s) => s.lang);
  return (
    <div
      className={`vrow move-row state-${m.state}${selected ? " selected" : ""}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_H }}
      onClick={onClick}
      onDoubleClick={onOpen}
      data-testid="move-row"
      data-usi={m.usi}
    >
      <span className="c-kif">
        {m.kif}
        {m.kifu ? " ◆" : ""}
      </span>
      <span className="c-usi mono">{m.usi}</span>
      <span className="c-num">{formatValue(m.engineValue)}</span>
      <span className="c-num">{formatValue(m.searchValue)}</span>
      <span className="c-num">{m.engineDepth ?? "–"}</span>
      <span className="c-num">{m.games === null ? "–" : `${m.games}/${m.wins ?? 0}`}</span>
      <span className="c-state">{stateLabel(lang, "moveState", m.state)}</span>
    </div>
  );
});

function MovesTable() {
  const t = useT();
  const moves = useStore((s) => s.node?.moves ?? NO_MOVES);
  const selected = useStore((s) => s.selected);
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: moves.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 8 });
  useEffect(() => {
    if (moves.length) v.scrollToIndex(selected, { align: "auto" });
  }, [selected, moves.length, v]);
  return (
    <div className="moves">
      <div className="vrow head">
        <span className="c-kif">{t("move")}</span>
        <span className="c-usi">{t("usi")}</span>
        <span className="c-num">{t("engineValue")}</span>
        <span className="c-num">{t("searchValue")}</span>
        <span className="c-num">{t("depth")}</span>
        <span className="c-num">{t("games")}</span>
        <span className="c-state">{t("state")}</span>
      </div>
      <div className="vscroll" ref={scroller} data-testid="moves">
        <div style={{ height: v.getTotalSize(), position: "relative" }}>
          {v.getVirtualItems().map((item) => {
            const m = moves[item.index];
            return <MoveRow key={m.usi} m={m} top={item.start} selected={item.index === selected} onClick={() => useStore.setState({ selected: item.index })} onOpen={() => goInto(m.usi)} />;
          })}
        </div>
      </div>
    </div>
  );
}

function NodeHeader() {
  const t = useT();
  const node = useStore((s) => s.node);
  if (!node) return null;
  const b = node.bound;
  return (
    <div className="node-header" data-testid="node-header">
      <span className="badge">{node.side === "black" ? `☗ ${t("black")}` : `☖ ${t("white")}`}</span>
      <span className="badge" data-testid="bound">
        {t("bound")}: {b ? `${b.bound === "EXACT" ? "=" : b.bound === "LOWER" ? "≥" : "≤"} ${formatValue(b.value)}${b.cyclic ? ` (${t("cyclic")})` : ""}` : "–"}
      </span>
      {!node.thought && <span className="badge dim">{t("notThought")}</span>}
      {node.inFlight && <span className="badge warn">{t("inFlightNode")}</span>}
      {node.parents > 1 && (
        <span className="badge warn" data-testid="transposition">
          {t("transposition")}: {node.parents} {t("parents")}
        </span>
      )}
      {node.kifu && <span className="badge">◆ kifu</span>}
      {node.provenance && (
        <span className="dim">
          {t("provenance")}:{" "}
          {node.origin?.kind === "engine" ? (
            <>
              <span data-raw>{node.origin.engine}</span>, {t("nodes")} {node.origin.nodes}, {t("depth")} {node.origin.depth}, {node.origin.timeMs} ms
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

function Copyable({ label, text, testId }: { label: string; text: string; testId: string }) {
  const t = useT();
  const [done, setDone] = useState(false);
  return (
    <div className="copyable">
      <div className="row">
        <strong>{label}</strong>
        <button
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => {
              setDone(true);
              setTimeout(() => setDone(false), 1200);
            }, () => undefined);
          }}
        >
          {done ? t("copied") : t("copy")}
        </button>
      </div>
      <textarea readOnly value={text} rows={text.split("\n").length > 2 ? 8 : 2} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
    </div>
  );
}

function Notation() {
  const t = useT();
  const sfen = useStore((s) => s.node?.sfen ?? "");
  const kif = useMemo(() => (sfen ? kifPosition(sfen) : ""), [sfen]);
  if (!sfen) return null;
  return (
    <div className="notation">
      <Copyable label={t("sfen")} text={`sfen ${sfen}`} testId="sfen" />
      <Copyable label={t("kif")} text={kif} testId="kif" />
    </div>
  );
}

/** Lays the tree out in columns by distance from the centre node. */
function layoutTree(tree: TreeView, centre: string): { columns: string[][]; parentEdge: Map<string, TreeView["edges"][number]>; info: Map<string, TreeView["nodes"][number]> } {
  const depth = new Map([[centre, 0]]);
  const parentEdge = new Map<string, TreeView["edges"][number]>();
  // Edges by their parent, so the walk is linear in the tree's size (trees at depth 4 have thousands).
  const out = new Map<string, TreeView["edges"]>();
  for (const e of tree.edges) {
    const list = out.get(e.from);
    if (list) list.push(e);
    else out.set(e.from, [e]);
  }
  const queue = [centre];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i];
    for (const e of out.get(n) ?? []) {
      if (depth.has(e.to)) continue;
      depth.set(e.to, depth.get(n)! + 1);
      parentEdge.set(e.to, e);
      queue.push(e.to);
    }
  }
  const columns: string[][] = [];
  for (const n of queue) (columns[depth.get(n)!] ??= []).push(n);
  return { columns, parentEdge, info: new Map(tree.nodes.map((n) => [n.sfen, n])) };
}

function Tree() {
  const t = useT();
  const tree = useStore((s) => s.tree);
  const node = useStore((s) => s.node);
  const line = useStore((s) => s.line);
  const depth = useStore((s) => s.treeDepth);
  const layout = useMemo(() => (tree && node ? layoutTree(tree, node.sfen) : null), [tree, node]);
  if (!tree || !node || !layout) return null;
  const info = layout.info;
  const jump = (sfen: string) => {
    const path = treePath(tree, node.sfen, sfen);
    if (path) goTo([...line, ...path]);
  };
  return (
    <div className="tree" data-testid="tree">
      <div className="row">
        <strong>{t("tree")}</strong>
        <button disabled={depth >= 4} onClick={() => setTreeDepth(depth + 1)} data-testid="tree-expand">
          {t("expand")} ({depth})
        </button>
        <button disabled={depth <= 1} onClick={() => setTreeDepth(depth - 1)}>
          −
        </button>
      </div>
      <div className="tree-cols">
        {layout.columns.map((col, d) => (
          <div className="tree-col" key={d}>
            {col.slice(0, 60).map((s) => {
              const n = info.get(s);
              const e = layout.parentEdge.get(s);
              const multi = (n?.parents ?? 0) > 1;
              return (
                <button
                  key={s}
                  className={`tree-node${n?.thought ? " thought" : " leaf"}${multi ? " multi" : ""}${d === 0 ? " centre" : ""}`}
                  title={s}
                  onClick={() => jump(s)}
                  data-testid="tree-node"
                >
                  {e ? e.usi : "●"} <span className="dim">{formatValue(n?.value ?? e?.value ?? null)}</span>
                  {multi && <span className="multi-mark"> ⇉{n!.parents}</span>}
                </button>
              );
            })}
            {col.length > 60 && <span className="dim">+{col.length - 60}</span>}
          </div>
        ))}
      </div>
    </div>
  );
}

export function BookView() {
  const t = useT();
  return (
    <div className="view book-view">
      <NodeHeader />
      <div className="dim small">{t("keyHelp")}</div>
      <MovesTable />
      <Tree />
      <Notation />
    </div>
  );
}
