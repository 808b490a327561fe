// Banned (position, move) pairs of this dig, each with the line that reaches it.
import { useEffect, useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { act, goTo, loadMoreBans, loadSide, useStore } from "../store";
import { useT } from "../useT";
import { moveNotation } from "../../../shared/formats/notation";
import { lineTail } from "./BoardPanel";
import { stateLabel } from "../i18n";

export function BansView() {
  const t = useT();
  const bans = useStore((s) => s.bans);
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const total = useStore((s) => s.banTotal);
  const lang = useStore((s) => s.lang);
  const readonly = useStore((s) => s.book?.readonly ?? true);
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: bans.length, getScrollElement: () => scroller.current, estimateSize: () => 28, overscan: 6 });
  // The next page is fetched when the last loaded row comes into view.
  const lastVisible = v.getVirtualItems().at(-1)?.index ?? -1;
  useEffect(() => {
    if (bans.length < total && lastVisible >= bans.length - 1) void loadMoreBans();
  }, [lastVisible, bans.length, total]);
  return (
    <div className="view bans-view">
      <div className="row">
        <strong>
          {t("bans")}: <span data-testid="ban-count">{total}</span>
        </strong>
        <button onClick={() => void loadSide()} title={t("bansReload")} aria-label={t("bansReload")} data-testid="bans-reload">
          ↻
        </button>
      </div>
      {bans.length === 0 ? (
        <div className="dim">{t("noBans")}</div>
      ) : (
        <div className="vscroll tall" ref={scroller}>
          <div style={{ height: v.getTotalSize(), position: "relative" }}>
            {v.getVirtualItems().map((item) => {
              const b = bans[item.index];
              return (
                <div
                  key={`${b.sfen} ${b.move}`}
                  className="vrow ban-row"
                  style={{ transform: `translateY(${item.start}px)`, height: 28 }}
                  data-testid="ban-row"
                  onClick={() => {
                    if (b.line) {
                      goTo(b.line);
                      useStore.setState({ tab: "book" });
                    }
                  }}
                >
                  <span className="c-kif" title={b.move}>
                    {moveNotation(b.sfen, b.move)}
                  </span>
                  <span className="dim">{stateLabel(lang, "banReason", b.reason)}</span>
                  <span className="dim line-text" title={b.line ? b.line.join(" ") : ""} data-usi-line={b.line ? b.line.join(" ") : ""}>
                    {b.line ? lineTail(rootSfen, b.line, 12) : "?"}
                  </span>
                  <button
                    className="small"
                    data-testid="ban-remove"
                    disabled={readonly}
                    onClick={(e) => {
                      e.stopPropagation();
                      void act("book.unban", { sfen: b.sfen, move: b.move }).then(() => loadSide());
                    }}
                  >
                    {t("removeBan")}
                  </button>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
