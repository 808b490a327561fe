// A move back to a position already on the line, said in words: which ply it repeats and the
// rule that values it (shared/book/cycle.ts; docs/DESIGN.md §3.7). Without it, a move closing
// a cycle showed only its value, and nothing said why that value ignores what lies below.
import { useCallback } from "react";
import { cycleOf } from "../../../shared/book/cycle";
import { useStore } from "../store";
import { useT } from "../useT";
import { fill } from "../i18n";
import { scoreText, type Side } from "../logic";

/** A cycle in words, and the value the selection gives the closing move (from its mover's side). */
export interface CycleView {
  text: string;
  value: number;
}

/**
 * A function naming the cycle `move` closes after `line` (from the book's root), or null when
 * it closes none: "repeats the position at ply 2: valued as a draw (sennichite), 0".
 */
export function useCycleText(): (line: readonly string[], move: string) => CycleView | null {
  const t = useT();
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "");
  const drawBlack = useStore((s) => s.book?.settings.drawBlack ?? 0);
  const drawWhite = useStore((s) => s.book?.settings.drawWhite ?? 0);
  const view = useStore((s) => s.viewpoint);
  return useCallback(
    (line, move) => {
      const c = rootSfen ? cycleOf(rootSfen, line, move, [drawBlack, drawWhite]) : null;
      if (!c) return null;
      // The mover of the closing move: the side to move at the root, flipped once a ply.
      const rootSide: Side = rootSfen.split(" ")[1] === "w" ? "white" : "black";
      const mover: Side = line.length % 2 === 0 ? rootSide : rootSide === "black" ? "white" : "black";
      const text =
        c.rule === "draw"
          ? fill(t("cycleDraw"), { ply: c.ply, value: scoreText(c.value, mover, view) })
          : fill(t("cyclePerpetual"), { ply: c.ply, side: t(c.checker === "white" ? "white" : "black") });
      return { text, value: c.value };
    },
    [t, rootSfen, drawBlack, drawWhite, view],
  );
}
