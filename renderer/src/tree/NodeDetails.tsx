// The panel beside the tree: the current node's numbers, every thought parent (each one a
// way to reach it), and the copy box.
import { memo, useMemo } from "react";
import { act, goTo, useStore } from "../store";
import { useT } from "../useT";
import { lineNotation, movesNotation } from "../../../shared/formats/notation";
import { CopyBox } from "../parts/CopyBox";
import { useCycleText } from "../parts/cycle";
import { boxValue, type TNode } from "./model";
import { STATE_KEY } from "./states";

const NO_PARENTS: NonNullable<TNode["info"]>["parents"] = [];

/** The current node: its numbers, every thought parent (each reachable), and copies. Memoised: a pan does not redraw it. */
export const NodeDetails = memo(function NodeDetails({ node, parentSfen }: { node: TNode | null; parentSfen: string | null }) {
  const t = useT();
  const view = useStore((s) => s.viewpoint);
  const line = useStore((s) => s.line);
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const parents = node?.info?.parents ?? NO_PARENTS;
  const parentLabels = useMemo(() => parents.map((p) => movesNotation(p.sfen, [p.usi])[0]), [parents]);
  const lastMove = useMemo(() => (line.length ? (lineNotation(rootSfen, line).at(-1) ?? "") : null), [rootSfen, line]);
  const label = lastMove ?? t("startPosition");
  const cycleText = useCycleText();
  const cycle = useMemo(() => (line.length ? cycleText(line.slice(0, -1), line.at(-1)!) : null), [line, cycleText]);
  const toParent = async (sfen: string) => {
    const to = await act("book.lineTo", { sfen });
    if (to) goTo(to);
    else useStore.setState({ error: t("noLineTo") });
  };
  return (
    <aside className="tree-details" data-testid="tree-details">
      <div className="row">
        <strong data-testid="tree-details-move">{label}</strong>
        <span className="dim">
          {line.length}
          {t("plySuffix")}
        </span>
      </div>
      {node && (
        <>
          <div data-testid="tree-details-value">
            {t("valueLabel")}: {boxValue(node, view)}
            {node.cyclic ? ` (${t("cyclic")})` : ""}
          </div>
          {cycle && (
            <div className="warn" data-testid="tree-details-cycle">
              ↻ {cycle.text}
            </div>
          )}
          <div>
            {t("state")}: {t(STATE_KEY[node.state])}
            {node.info?.thinkDepth ? ` · ${t("depth")} ${node.info.thinkDepth}` : ""}
          </div>
          <div className="tree-parents" data-testid="tree-parents">
            <div>
              {t("parentsLabel")}: {parents.length}
              {parents.length > 1 ? ` (${t("transposition")})` : ""}
            </div>
            {parents.map((p, i) => (
              <button
                key={`${p.sfen} ${p.usi}`}
                className={`link${p.sfen === parentSfen ? " here" : ""}`}
                title={`${p.usi}\n${p.sfen}`}
                onClick={() => void toParent(p.sfen)}
                data-testid="tree-parent"
              >
                {parentLabels[i]}
                {p.sfen === parentSfen ? ` ← ${t("viaThisLine")}` : ""}
              </button>
            ))}
          </div>
        </>
      )}
      <CopyBox line={line} testId="tree-copy" />
    </aside>
  );
});
