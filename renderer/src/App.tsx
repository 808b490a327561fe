// Layout: top bar, the board column on the left, tabbed views on the right. Keyboard
// browsing and window-wide file drops are handled here.
import { useEffect } from "react";
import { goBack, goInto, goTo, useStore, type Tab } from "./store";
import { useT } from "./useT";
import { BookBar } from "./views/BookBar";
import { BoardPanel } from "./views/BoardPanel";
import { DigView } from "./views/DigView";
import { BookView } from "./views/BookView";
import { TreeView } from "./tree/TreeView";
import { EnginesView } from "./views/EnginesView";
import { SeedView, seedFiles } from "./views/SeedView";
import { BansView } from "./views/BansView";
import { ExportDialog } from "./views/ExportDialog";
import { BookEnginesDialog } from "./views/BookEnginesDialog";
import { Welcome } from "./views/Welcome";
import { ToolsView, BOOK_FILE, importBookFiles } from "./views/ToolsView";
import { WriterBanner } from "./views/NodeActions";
import { MatchView } from "./views/MatchView";
import { SetupView } from "./setup/SetupView";
import { QualityView } from "./quality/QualityView";
import { ViewBoundary } from "./parts/ViewBoundary";
import { RecordView } from "./record/RecordView";
import { AnalysisPanel } from "./analysis/AnalysisPanel";

function onKey(e: KeyboardEvent): void {
  const el = e.target as HTMLElement | null;
  if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) return;
  // A view that handles its own keys (the tree) gets them alone.
  if (el?.closest?.("[data-own-keys]")) return;
  const s = useStore.getState();
  if (!s.book || s.exportOpen) return;
  // The Record tab's keys step the record (its pane takes them), never the book's board beside it.
  if (s.tab === "record") return;
  // Until the node of the current line has loaded, the rows on screen belong to another node.
  const fresh = s.node !== null && s.node.line.length === s.line.length && s.node.line.every((m, i) => m === s.line[i]);
  const moves = fresh ? (s.node?.moves ?? []) : [];
  switch (e.key) {
    case "ArrowUp":
      useStore.setState({ selected: Math.max(0, s.selected - 1) });
      break;
    case "ArrowDown":
      useStore.setState({ selected: Math.min(Math.max(0, moves.length - 1), s.selected + 1) });
      break;
    case "ArrowRight":
    case "Enter":
      if (moves[s.selected]) goInto(moves[s.selected].usi);
      break;
    case "ArrowLeft":
      goBack();
      break;
    case "Home":
      goTo([]);
      break;
    default:
      return;
  }
  e.preventDefault();
}

const TABS: Tab[] = ["dig", "book", "tree", "engines", "seed", "bans", "match", "quality", "tools", "setup", "record"];

export function App() {
  const t = useT();
  const tab = useStore((s) => s.tab);
  const theme = useStore((s) => s.theme);
  const lang = useStore((s) => s.lang);
  const book = useStore((s) => s.book);
  const error = useStore((s) => s.error);
  const connected = useStore((s) => s.connected);
  const tokenGone = useStore((s) => s.tokenGone);
  const exportOpen = useStore((s) => s.exportOpen);
  const bans = useStore((s) => s.banTotal);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.lang = lang;
  }, [theme, lang]);

  useEffect(() => {
    window.addEventListener("keydown", onKey);
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer?.files.length) return;
      e.preventDefault();
      const files = [...e.dataTransfer.files];
      // With no book open, the first screen offers a new book for the dropped files.
      if (!useStore.getState().book) {
        useStore.setState({ pendingDrop: files });
        return;
      }
      // Books (.db, .bin, .ybb, .sbk) are imported as positions; the rest are game records to seed.
      const books = files.filter((f) => BOOK_FILE.test(f.name));
      void (async () => {
        if (books.length) await importBookFiles(books);
        const records = files.filter((f) => !BOOK_FILE.test(f.name));
        if (records.length) await seedFiles(records);
      })();
    };
    window.addEventListener("dragover", over);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("dragover", over);
      window.removeEventListener("drop", drop);
    };
  }, []);

  return (
    <div className="app">
      <BookBar />
      {tokenGone ? (
        <div className="banner warn" data-testid="token-gone">
          {t("tokenGone")}
        </div>
      ) : (
        !connected && (
          <div className="banner warn" data-testid="connection-lost">
            {t("connection")}
          </div>
        )
      )}
      <OpeningBanner />
      {book?.readonly && <WriterBanner />}
      {error && (
        <div className="banner err" data-testid="error" onClick={() => useStore.setState({ error: null })}>
          {t("error")}: {error} ✕
        </div>
      )}
      {!book && tab === "match" ? (
        <main className="main match-only">
          <section className="right">
            <MatchView />
          </section>
        </main>
      ) : !book ? (
        <Welcome />
      ) : (
        <main className="main">
          <BoardPanel />
          <section className="right">
            <nav className="tabs" role="tablist">
              {TABS.map((k) => (
                <button
                  key={k}
                  role="tab"
                  aria-selected={k === tab}
                  className={k === tab ? "tab active" : "tab"}
                  onClick={() => useStore.setState({ tab: k })}
                  data-testid={`tab-${k}`}
                >
                  {t(k)}
                  {k === "bans" && bans > 0 ? ` (${bans})` : ""}
                </button>
              ))}
            </nav>
            <ViewBoundary key={tab} lang={lang}>
              {tab === "dig" && <DigView />}
              {tab === "book" && <BookView analysis={<AnalysisPanel />} />}
              {tab === "tree" && <TreeView />}
              {tab === "engines" && <EnginesView />}
              {tab === "seed" && <SeedView />}
              {tab === "bans" && <BansView />}
              {tab === "tools" && <ToolsView />}
              {tab === "match" && <MatchView />}
              {tab === "quality" && <QualityView />}
              {tab === "setup" && <SetupView />}
              {tab === "record" && <RecordView />}
            </ViewBoundary>
          </section>
        </main>
      )}
      {exportOpen && book && <ExportDialog />}
      {book && <BookEnginesDialog />}
    </div>
  );
}

/** While a book opens: which step, how far (a big book's first open rebuilds its graph). */
function OpeningBanner() {
  const t = useT();
  const o = useStore((s) => s.opening);
  if (!o) return null;
  const step = { snapshot: t("openSnapshot"), replay: t("openReplay"), positions: t("openPositions"), links: t("openLinks") }[o.phase];
  const pct = o.total > 0 ? Math.min(100, Math.floor((100 * o.done) / o.total)) : 100;
  return (
    <div className="banner" data-testid="opening">
      {t("openingBook")}: {step} {pct}% <progress max={100} value={pct} />
    </div>
  );
}
