// A node's state as the tree and the Book table show it: its icon and its name's message key.
import type { Key } from "../i18n";
import type { GraphNodeState } from "../../../shared/api/contract";

export const ICON: Record<GraphNodeState, string> = {
  thought: "●",
  "in-flight": "⟳",
  leaf: "○",
  banned: "✕",
  kifu: "◆",
  failed: "⚠",
  mate: "✓",
};

export const STATE_KEY: Record<GraphNodeState, Key> = {
  thought: "stThought",
  "in-flight": "stInFlight",
  leaf: "stLeaf",
  banned: "stBanned",
  kifu: "stKifu",
  failed: "stFailed",
  mate: "stMate",
};
