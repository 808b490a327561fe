// A book can name engines of its own (its engines table, from before the engine library). A
// book file can come from anyone, and an engine is a program run on this computer: horu never
// adds or runs one on the book's say. This asks, showing each command line exactly as it
// would run; only the user's click adds it to the library.
import { useEffect, useState } from "react";
import { act, declineBookEngines, loadSide, useStore } from "../store";
import { useT } from "../useT";
import type { BookEngineView } from "../../../shared/api/contract";

export function BookEnginesDialog() {
  const t = useT();
  const engines = useStore((s) => s.bookEngines);
  const [busy, setBusy] = useState(false);
  // Escape closes the question as "Decline all" does: nothing is added.
  useEffect(() => {
    if (engines.length === 0) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !busy) declineBookEngines(engines.map((x) => x.commandLine));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [engines, busy]);
  if (engines.length === 0) return null;
  const add = async (e: BookEngineView) => {
    setBusy(true);
    try {
      const added = await act("engines.add", { name: e.name, commandLine: e.commandLine, cwd: e.cwd, options: e.options, enabled: true });
      if (added) await loadSide();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="modal-back">
      <div className="modal" role="alertdialog" aria-labelledby="book-engines-title" data-testid="book-engines-dialog">
        <h3 id="book-engines-title">{t("bookEnginesTitle")}</h3>
        <p>{t("bookEnginesWhy")}</p>
        <ul className="book-engines">
          {engines.map((e) => (
            <li key={e.commandLine} data-testid="book-engine">
              <div>
                <b>{e.name}</b>
                {e.cwd ? (
                  <span className="dim">
                    {" "}
                    ({t("bookEngineIn")} <span className="mono">{e.cwd}</span>)
                  </span>
                ) : null}
              </div>
              <pre className="mono command" data-testid="book-engine-command">
                {e.commandLine}
              </pre>
              {/* The options go with it (a log file option writes wherever it says): shown too. */}
              {Object.keys(e.options).length > 0 && (
                <pre className="mono command small" data-testid="book-engine-options">
                  {Object.entries(e.options)
                    .map(([k, v]) => `setoption name ${k} value ${String(v)}`)
                    .join("\n")}
                </pre>
              )}
              <div className="row end">
                <button disabled={busy} onClick={() => declineBookEngines([e.commandLine])} data-testid="book-engine-decline">
                  {t("bookEngineDecline")}
                </button>
                <button disabled={busy} onClick={() => void add(e)} data-testid="book-engine-add">
                  {t("bookEngineAdd")}
                </button>
              </div>
            </li>
          ))}
        </ul>
        <div className="row end">
          <button
            disabled={busy}
            onClick={() => declineBookEngines(engines.map((e) => e.commandLine))}
            data-testid="book-engines-decline-all"
          >
            {t("bookEnginesDeclineAll")}
          </button>
        </div>
      </div>
    </div>
  );
}
