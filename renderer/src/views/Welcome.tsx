// The first screen when no book is open: the board, one clear action (dig a new book in the
// documents folder with the best engine found), the recent books below it, and what to do
// with files dropped here (offer a new book for them).
import { useEffect, useState } from "react";
import { act, useStore } from "../store";
import { useT } from "../useT";
import { Board } from "../board/Board";
import { seedFiles } from "./SeedView";
import { uploadAndImport } from "./ToolsView";
import { SOURCE_LABEL, choiceWhy, engineNames } from "./DigView";
import type { EnginesFoundView, MoveView } from "../../../shared/api/contract";

const START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const NO_MOVES: MoveView[] = [];
const NO_LEGAL: string[] = [];
const BOOK_FILE = /\.(db|bin|ybb|sbk)$/i;

/** Engines found and where a first book goes; asked again when the window comes back. */
function useFound(): EnginesFoundView | null {
  const [found, setFound] = useState<EnginesFoundView | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => void act("engines.found", {}).then((f) => live && f && setFound(f));
    load();
    window.addEventListener("focus", load);
    return () => {
      live = false;
      window.removeEventListener("focus", load);
    };
  }, []);
  return found;
}

/** Creates a book in the documents folder and digs it at once with the best engine found. */
export async function quickStart(): Promise<boolean> {
  const r = await act("book.quickStart", {});
  if (!r) return false;
  useStore.setState({ book: r.info, status: r.status, tab: "dig" });
  return true;
}

/** Files dropped with no book open: a new book (documents folder) that records seed and books import into. */
async function createForFiles(files: File[]): Promise<void> {
  const found = await act("engines.found", {});
  if (!found) return;
  const info = await act("book.create", { path: found.newBookPath });
  if (!info) return;
  useStore.setState({ book: info, pendingDrop: null });
  const books = files.filter((f) => BOOK_FILE.test(f.name));
  const records = files.filter((f) => !BOOK_FILE.test(f.name));
  for (const f of books) await uploadAndImport(f).catch(() => undefined);
  if (records.length) await seedFiles(records);
  const now = await act("book.info", {});
  if (now) useStore.setState({ book: now, tab: records.length ? "seed" : "book" });
}

export function Welcome() {
  const t = useT();
  const recent = useStore((s) => s.recent);
  const pending = useStore((s) => s.pendingDrop);
  const found = useFound();
  const lang = useStore((s) => s.lang);
  const [busy, setBusy] = useState(false);
  const open = (p: string) => void act("book.open", { path: p }).then((info) => info && useStore.setState({ book: info }));
  const start = () => {
    setBusy(true);
    void quickStart().finally(() => setBusy(false));
  };
  const engineLine = found ? `${engineNames(found.choice.names)} (${t(SOURCE_LABEL[found.choice.source])})` : "…";

  return (
    <main className="welcome" data-testid="welcome">
      <div className="welcome-board">
        <Board sfen={START_SFEN} flipped={false} lastMove={null} moves={NO_MOVES} legal={NO_LEGAL} onMove={() => undefined} />
      </div>
      <section className="welcome-side">
        <h1>{t("welcomeTitle")}</h1>
        {pending ? (
          <div className="welcome-drop" data-testid="drop-offer">
            <p>
              {t("dropOffer")} ({pending.map((f) => f.name).join(", ")})
            </p>
            <p className="dim mono small">{found?.newBookPath ?? ""}</p>
            <div className="row">
              <button className="primary" data-testid="drop-create" disabled={!found} onClick={() => void createForFiles(pending)}>
                {t("dropCreate")}
              </button>
              <button onClick={() => useStore.setState({ pendingDrop: null })}>{t("cancel")}</button>
            </div>
          </div>
        ) : (
          <>
            <button className="primary big" data-testid="quick-start" disabled={busy || !found} onClick={start}>
              {t("quickStart")}
            </button>
            <dl className="welcome-facts">
              <dt>{t("engine")}</dt>
              <dd data-raw data-testid="quick-engine" title={found ? choiceWhy(lang, found.choice) : undefined}>
                {engineLine}
              </dd>
              <dt>{t("path")}</dt>
              <dd className="mono small" data-testid="quick-path">
                {found?.newBookPath ?? "…"}
              </dd>
            </dl>
            {found?.libraryProblem && <div className="banner warn small">{found.libraryProblem}</div>}
            <p className="dim small">{t("welcomeDrop")}</p>
          </>
        )}
        <div className="row">
          <button onClick={() => useStore.setState({ tab: "match" })} data-testid="tab-match-nobook">
            {t("match")}
          </button>
        </div>
        <h2>{t("recent")}</h2>
        {recent.length === 0 ? (
          <p className="dim">{t("noRecent")}</p>
        ) : (
          <ul className="recent-list" data-testid="recent-list">
            {recent.map((r) => (
              <li key={r}>
                <button className="link mono" onClick={() => open(r)}>
                  {r}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
