// Working on the browsed position: think it now or deeper, add the move that
// reached it, retry it when the engines gave up, prune its subtree (undo kept), and its
// comment. Read-only windows (another process digs the book) show why nothing is offered.
import { useEffect, useState } from "react";
import { act, useStore } from "../store";
import { useT } from "../useT";

export function NodeActions() {
  const t = useT();
  const node = useStore((s) => s.node);
  const line = useStore((s) => s.line);
  const book = useStore((s) => s.book);
  const digging = useStore((s) => s.status?.state !== undefined && !["idle", "stopped"].includes(s.status.state));
  const [comment, setComment] = useState("");
  // What the last action did, as a message key (and a count): shown in the language of the
  // moment, so switching the language after a click does not leave the old one's text.
  const [note, setNote] = useState<{ key: Parameters<typeof t>[0]; count?: number } | null>(null);
  const sfen = node?.sfen ?? null;
  useEffect(() => {
    setComment(node?.comment ?? "");
    setNote(null);
  }, [sfen, node?.comment]);
  if (!book || !node) return null;
  if (book.readonly) return null; // the read-only banner says why
  const isRoot = line.length === 0;
  const parentSfen = async () => (await act("book.node", { line: line.slice(0, -1) }))?.sfen;
  const done = (key: Parameters<typeof t>[0], count?: number) => setNote({ key, count });
  return (
    <div className="node-actions" data-testid="node-actions">
      <div className="row wrap">
        <strong>{t("work")}</strong>
        {node.queued && (
          <span className="badge" data-testid="node-queued">
            {t(digging ? "queued" : "queuedIdle")}
          </span>
        )}
        {node.failed && (
          <span className="badge err" data-testid="node-failed">
            {t("failedState")}
          </span>
        )}
        {/* Only a move its parent's think did not list: a listed one is reached by selection (or "think now"). */}
        {!node.thought && !isRoot && !node.inFlight && node.listedInParent === false && (
          <button
            data-testid="act-add-move"
            title={t("addMoveHelp")}
            onClick={() =>
              void parentSfen().then(async (p) => {
                if (!p) return;
                if (await act("book.addMove", { sfen: p, move: line[line.length - 1] })) done("addedMove");
              })
            }
          >
            ＋ {t("addMove")}
          </button>
        )}
        {/* A finished position (mated, or a declaration win) has nothing to think. */}
        {!node.terminal && (
          <button
            data-testid="act-think-now"
            disabled={node.inFlight}
            title={t("thinkNowHelp")}
            onClick={() =>
              void act("book.thinkNow", { sfen: node.sfen }).then((r) => r && done(digging ? "queuedFirst" : "queuedFirstIdle"))
            }
          >
            ⚡ {t("thinkNow")}
          </button>
        )}
        {node.thought && !node.terminal && (
          <button
            data-testid="act-think-deeper"
            disabled={node.inFlight}
            title={t("thinkDeeperHelp")}
            onClick={() =>
              void act("book.thinkNow", { sfen: node.sfen, deeper: true }).then(
                (r) => r && done(digging ? "queuedDeeper" : "queuedDeeperIdle"),
              )
            }
          >
            ⤓ {t("thinkDeeper")}
          </button>
        )}
        {node.failed && (
          <button
            data-testid="act-retry"
            onClick={() => void act("book.retry", { sfen: node.sfen }).then((n) => n !== undefined && done("retried"))}
          >
            ↻ {t("retry")}
          </button>
        )}
        {node.thought && !isRoot && (
          <button
            data-testid="act-prune"
            className="danger"
            disabled={digging}
            title={digging ? t("stopDigFirst") : t("pruneHelp")}
            onClick={() => {
              if (!window.confirm(t("pruneConfirm"))) return;
              void act("book.prune", { sfen: node.sfen }).then((r) => r && done("pruned", r.positions));
            }}
          >
            ✂ {t("prune")}
          </button>
        )}
        {book.prunes.length > 0 && (
          <button
            data-testid="act-undo-prune"
            disabled={digging}
            onClick={() => void act("book.undoPrune", {}).then((r) => r && done("restored", r.positions))}
          >
            ↶ {t("undoPrune")} ({book.prunes[0].positions})
          </button>
        )}
        {book.failed > 0 && (
          <button data-testid="act-retry-all" onClick={() => void act("book.retry", {}).then((n) => n !== undefined && done("retried", n))}>
            ↻ {t("retryAll")} ({book.failed})
          </button>
        )}
      </div>
      {note && (
        <div className="dim small" data-testid="node-action-note">
          {t(note.key)}
          {note.count !== undefined && `: ${note.count}`}
        </div>
      )}
      <div className="row comment-row">
        <textarea
          data-testid="node-comment"
          placeholder={t("commentPlaceholder")}
          value={comment}
          rows={2}
          onChange={(e) => setComment(e.target.value)}
        />
        <button
          data-testid="comment-save"
          disabled={comment === (node.comment ?? "")}
          onClick={() =>
            void act("book.comment", { sfen: node.sfen, text: comment }).then(
              (r) => r !== undefined && useStore.setState({ node: { ...node, comment: comment.trim() ? comment : null } }),
            )
          }
        >
          {t("save")}
        </button>
      </div>
    </div>
  );
}

/** Who may write this book: this window, or another process (then this window only follows). */
export function WriterBanner() {
  const t = useT();
  const book = useStore((s) => s.book);
  if (!book) return null;
  const w = book.writer;
  if (book.readonly) {
    return (
      <div className="banner warn" data-testid="read-only">
        {t("readOnlyBanner")} {w ? `${t("writerIs")} pid ${w.pid} @ ` : ""}
        {w && <span data-raw>{w.host}</span>}
      </div>
    );
  }
  return w ? (
    <span className="dim small" data-testid="writer" title={t("writerHelp")}>
      ✎ pid {w.pid} @ <span data-raw>{w.host}</span>
    </span>
  ) : null;
}
