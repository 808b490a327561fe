// The top bar: the open book, new/open (path field in the browser, dialogs in Electron),
// recent books, language and theme.
import { useState } from "react";
import { act, setLang, setTheme, setViewpoint, useStore } from "../store";
import { useT } from "../useT";
import { electronBridge, filterLabels } from "../host/desktop";
import { WriterBanner } from "./NodeActions";
import { nameStart } from "./export-path";

export function BookBar() {
  const t = useT();
  const book = useStore((s) => s.book);
  const recent = useStore((s) => s.recent);
  const lang = useStore((s) => s.lang);
  const theme = useStore((s) => s.theme);
  const viewpoint = useStore((s) => s.viewpoint);
  const [path, setPath] = useState("");
  // Another book open (from here, the recent list or a drop): the path typed for the last one is cleared.
  const [pathOf, setPathOf] = useState(book?.path);
  if (pathOf !== book?.path) {
    setPathOf(book?.path);
    setPath("");
  }
  const bridge = electronBridge();

  const digState = useStore((s) => (s.book?.readonly ? "idle" : (s.status?.state ?? "idle")));
  // Another book (or none) stops this book's dig: said, and asked, first.
  const leave = (key: "leaveOpenConfirm" | "leaveCloseConfirm") =>
    !["starting", "digging", "pausing", "paused"].includes(digState) || window.confirm(t(key));
  const open = (p: string) =>
    p && leave("leaveOpenConfirm") && void act("book.open", { path: p }).then((info) => info && useStore.setState({ book: info }));
  const create = (p: string) =>
    p && leave("leaveOpenConfirm") && void act("book.create", { path: p }).then((info) => info && useStore.setState({ book: info }));

  return (
    <header className="bookbar">
      <span className="logo">掘る horu</span>
      <BookPath path={book?.path ?? null} />
      {bridge ? (
        <>
          <button onClick={() => void bridge.pickPaths({ kind: "new-book", labels: filterLabels(t) }).then((p) => create(p[0] ?? ""))}>
            {t("newBook")}
          </button>
          <button onClick={() => void bridge.pickPaths({ kind: "open-book", labels: filterLabels(t) }).then((p) => open(p[0] ?? ""))}>
            {t("openBook")}
          </button>
        </>
      ) : (
        <>
          <input
            type="text"
            className="path-input"
            placeholder={`${t("path")}: /path/to/book.horu`}
            value={path}
            onChange={(e) => setPath(e.target.value)}
            data-testid="book-path-input"
          />
          <button disabled={!path.trim()} onClick={() => create(path.trim())} data-testid="book-create">
            {t("newBook")}
          </button>
          <button disabled={!path.trim()} onClick={() => open(path.trim())} data-testid="book-open">
            {t("openBook")}
          </button>
        </>
      )}
      <select value="" onChange={(e) => open(e.target.value)} data-testid="recent" title={t("recentHelp")}>
        <option value="">{t("recent")}…</option>
        {recent.map((r) => (
          <option key={r} value={r} className="mono">
            {r}
          </option>
        ))}
      </select>
      {book && (
        <button onClick={() => leave("leaveCloseConfirm") && void act("book.close", {})} data-testid="book-close">
          {t("closeBook")}
        </button>
      )}
      {book && (
        <button onClick={() => useStore.setState({ exportOpen: true })} data-testid="export-open">
          {t("export")}…
        </button>
      )}
      {book && !book.readonly && <WriterBanner />}
      <span className="spacer" />
      <button onClick={() => setViewpoint(viewpoint === "black" ? "mover" : "black")} data-testid="viewpoint" title={t("viewHelp")}>
        {viewpoint === "black" ? t("viewBlack") : t("viewMover")}
      </button>
      <button onClick={() => setLang(lang === "ja" ? "en" : "ja")} data-testid="lang">
        {t("language")}
      </button>
      <button onClick={() => setTheme(theme === "dark" ? "light" : "dark")} data-testid="theme">
        {theme === "dark" ? `☀ ${t("light")}` : `☾ ${t("dark")}`}
      </button>
    </header>
  );
}

/**
 * The open book's path on one line: the file's name whole, its folder cut from the front
 * ("…/books/main.horu") when the bar is short of room, the whole path on hover then.
 */
function BookPath({ path }: { path: string | null }) {
  if (path === null)
    return (
      <span className="book-path mono" data-testid="book-path">
        —
      </span>
    );
  const cut = nameStart(path);
  return (
    <span className="book-path mono" data-testid="book-path" title={path}>
      {cut > 0 && (
        <span className="book-dir" data-testid="book-dir">
          <bdi>{path.slice(0, cut)}</bdi>
        </span>
      )}
      <span className="book-file" data-testid="book-file">
        {path.slice(cut)}
      </span>
    </span>
  );
}
