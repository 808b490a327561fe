// The tree's keys: arrows walk the tree (right: first child or open, left: up a ply, up and
// down: siblings), Enter or space opens and closes, + - 0 zoom, Home goes to the root.
import { goTo } from "../store";
import type { Placed, TNode } from "./model";

export interface KeyTargets {
  /** The current node where it is drawn. */
  current: Placed | undefined;
  line: readonly string[];
  toggle: (n: TNode) => void;
  zoomAt: (factor: number) => void;
  zoomReset: () => void;
}

/** Does what a key asks; false when the key is not the tree's. */
export function treeKey(key: string, x: KeyTargets): boolean {
  const cur = x.current;
  const siblings = cur?.parent?.node.children ?? [];
  const i = cur ? siblings.indexOf(cur.node) : -1;
  switch (key) {
    case "ArrowRight":
      if (cur?.node.children?.length) goTo(cur.node.children[0].line);
      else if (cur && cur.node.state === "thought") x.toggle(cur.node);
      break;
    case "ArrowLeft":
      if (x.line.length > 0) goTo(x.line.slice(0, -1));
      break;
    case "ArrowUp":
      if (i > 0) goTo(siblings[i - 1].line);
      break;
    case "ArrowDown":
      if (i >= 0 && i + 1 < siblings.length) goTo(siblings[i + 1].line);
      break;
    case "Enter":
    case " ":
      if (cur) x.toggle(cur.node);
      break;
    case "+":
    case "=":
      x.zoomAt(1.25);
      break;
    case "-":
      x.zoomAt(0.8);
      break;
    case "0":
      x.zoomReset();
      break;
    case "Home":
      goTo([]);
      break;
    default:
      return false;
  }
  return true;
}

/** The canvas's keydown handler. */
export function onTreeKey(e: React.KeyboardEvent, x: KeyTargets): void {
  if (!treeKey(e.key, x)) return;
  e.preventDefault();
  e.stopPropagation();
}
