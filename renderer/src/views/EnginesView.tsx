// Engines: add by command line (or a file dialog in Electron), test the connection, and
// set options through a form built from the engine's own `option` lines.
import { useEffect, useState } from "react";
import { act, call, loadSide, useStore } from "../store";
import { translateError } from "../i18n";
import { useT } from "../useT";
import { electronBridge } from "../host/desktop";
import type { EngineCandidateView, EngineConfigView, EngineTestResult, EnginesFoundView } from "../../../shared/api/contract";
import type { UsiOption } from "../../../shared/usi/option";
import { optionValueOk } from "../logic";

type Values = Record<string, string | number | boolean>;

/** Options horu sends itself on every think. */
const HORU_SETS = new Set(["multipv"]);

function quote(p: string): string {
  return /\s/.test(p) ? `"${p.replace(/"/g, '\\"')}"` : p;
}

function OptionField({
  o,
  value,
  onChange,
}: {
  o: UsiOption;
  value: string | number | boolean | undefined;
  onChange: (v: string | number | boolean | undefined) => void;
}) {
  const id = `opt-${o.name}`;
  switch (o.type) {
    case "spin":
      return (
        <input
          id={id}
          data-option={o.name}
          type="number"
          className={optionValueOk(o, value) ? undefined : "invalid"}
          aria-invalid={!optionValueOk(o, value)}
          min={o.min}
          max={o.max}
          value={value === undefined ? o.default : String(value)}
          onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
    case "check":
      return (
        <input
          id={id}
          data-option={o.name}
          type="checkbox"
          checked={value === undefined ? o.default : value === true || value === "true"}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
    case "combo":
      return (
        <select id={id} data-option={o.name} value={String(value ?? o.default)} onChange={(e) => onChange(e.target.value)}>
          {o.vars.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      );
    case "string":
    case "filename":
      return (
        <input id={id} data-option={o.name} type="text" value={String(value ?? o.default)} onChange={(e) => onChange(e.target.value)} />
      );
    case "button":
      return <span className="dim">(button)</span>;
  }
}

function EngineForm({ editing, onDone }: { editing: EngineConfigView | null; onDone: () => void }) {
  const t = useT();
  const lang = useStore((s) => s.lang);
  const bridge = electronBridge();
  const [name, setName] = useState(editing?.name ?? "");
  const [commandLine, setCommandLine] = useState(editing ? [editing.command, ...editing.args].map(quote).join(" ") : "");
  const [values, setValues] = useState<Values>(editing?.options ?? {});
  const [test, setTest] = useState<EngineTestResult | null>(null);
  const [testing, setTesting] = useState(false);

  const runTest = async () => {
    setTesting(true);
    try {
      const r = await call("engines.test", { name: name || undefined, commandLine, options: values });
      setTest(r);
      if (r.ok && !name && r.idName) setName(r.idName);
    } catch {
      setTest(null);
    } finally {
      setTesting(false);
    }
  };

  // Editing a saved engine asks it for its options at once, so they are there to change.
  useEffect(() => {
    if (editing) void runTest();
  }, []);

  // horu sets MultiPV itself for every think (fixed or widening, per the dig settings); offering
  // the engine's own option would only be overridden.
  const options = (test?.options ?? []).filter((o) => !HORU_SETS.has(o.name.toLowerCase()));
  // Every value the user touched is sent, even one equal to the default: an explicit
  // Threads=1 must stay 1 if a later engine build changes its default.
  const chosen = (): Values => ({ ...values });
  const outOfRange = options.filter((o) => !optionValueOk(o, values[o.name]));

  const save = async () => {
    const input = { name: name || undefined, commandLine, options: chosen() };
    const r = editing ? await act("engines.update", { ...input, id: editing.id }) : await act("engines.add", input);
    if (r) {
      await loadSide();
      onDone();
    }
  };

  return (
    <div className="engine-form" data-testid="engine-form">
      <div className="row">
        <label>
          {t("commandLine")}{" "}
          <input
            className="wide"
            type="text"
            value={commandLine}
            onChange={(e) => setCommandLine(e.target.value)}
            placeholder="/usr/games/fairy-stockfish   |   ssh host /path/engine"
            data-testid="engine-command"
          />
        </label>
        {bridge && (
          <button onClick={() => void bridge.pickPaths({ kind: "engine" }).then((p) => p[0] && setCommandLine(quote(p[0])))}>
            {t("browse")}
          </button>
        )}
      </div>
      <div className="row">
        <label>
          {t("name")} <input type="text" value={name} onChange={(e) => setName(e.target.value)} data-testid="engine-name" />
        </label>
        <button disabled={!commandLine.trim() || testing} onClick={() => void runTest()} data-testid="engine-test">
          {testing ? "…" : t("test")}
        </button>
        <button disabled={!commandLine.trim() || outOfRange.length > 0} onClick={() => void save()} data-testid="engine-save">
          {editing ? t("update") : t("add")}
        </button>
        <button onClick={onDone}>{t("cancel")}</button>
      </div>
      {test && (
        <div className={test.ok ? "ok" : "err"} data-testid="engine-test-result">
          {test.ok ? (
            `${t("testOk")}: ${test.idName ?? "?"}${test.idAuthor ? ` (${test.idAuthor})` : ""}`
          ) : (
            <pre className="engine-error">
              {test.key ? (
                translateError(lang, Object.assign(new Error(test.error), { key: test.key, params: test.params }))
              ) : (
                <span data-raw>{test.error}</span>
              )}
            </pre>
          )}
          {test.stderr && test.stderr.length > 0 && (
            <pre className="engine-error" data-raw>
              {test.stderr.join("\n")}
            </pre>
          )}
        </div>
      )}
      {options.length > 0 && <div className="dim small">{t("multipvByHoru")}</div>}
      {outOfRange.length > 0 && (
        <div className="banner err small" data-testid="engine-option-range">
          {t("optionOutOfRange")}:{" "}
          {outOfRange
            .map((o) => (o.type === "spin" && o.min !== undefined && o.max !== undefined ? `${o.name} (${o.min}..${o.max})` : o.name))
            .join(", ")}
        </div>
      )}
      {options.length > 0 && (
        <table className="grid-table options" data-testid="engine-options">
          <tbody>
            {options
              .filter((o) => o.type !== "button")
              .map((o) => (
                <tr key={o.name}>
                  <td>
                    <label htmlFor={`opt-${o.name}`}>{o.name}</label>
                  </td>
                  <td>
                    <OptionField
                      o={o}
                      value={values[o.name]}
                      onChange={(v) =>
                        setValues((old) => {
                          const next = { ...old };
                          if (v === undefined) delete next[o.name];
                          else next[o.name] = v;
                          return next;
                        })
                      }
                    />
                  </td>
                  <td className="dim small">
                    {o.type}
                    {o.type === "spin" && o.min !== undefined ? ` ${o.min}..${o.max}` : ""}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function EnginesView() {
  const t = useT();
  const engines = useStore((s) => s.engines);
  const book = useStore((s) => s.book);
  const [editing, setEditing] = useState<EngineConfigView | "new" | null>(null);
  const [found, setFound] = useState<EnginesFoundView | null>(null);
  useEffect(() => {
    void act("engines.found", {}).then((f) => f && setFound(f));
  }, [engines]);
  if (!book) return <div className="view dim">{t("noBook")}</div>;
  const inLibrary = (c: EngineCandidateView) =>
    engines.some((e) => [e.command, ...e.args].map(quote).join(" ") === c.commandLine || e.command === c.commandLine);
  const addFound = (c: EngineCandidateView) =>
    void act("engines.add", { name: c.name, commandLine: c.commandLine, cwd: c.cwd, options: c.options }).then(loadSide);
  const candidates = found ? [...found.detected, ...found.builtin] : [];
  return (
    <div className="view engines-view">
      <div className="dim small" data-testid="library-file">
        {t("libraryNote")} <span className="mono">{found?.libraryFile ?? ""}</span>
      </div>
      {found?.libraryProblem && (
        <div className="banner warn small" data-testid="library-problem">
          {found.libraryProblem}
        </div>
      )}
      <table className="grid-table" data-testid="engine-list">
        <thead>
          <tr>
            <th>{t("name")}</th>
            <th>{t("commandLine")}</th>
            <th>{t("options")}</th>
            <th>{t("enabled")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {engines.map((e) => (
            <tr key={e.id} data-testid="engine-config">
              <td data-raw>{e.name}</td>
              <td className="mono">{[e.command, ...e.args].map(quote).join(" ")}</td>
              <td className="mono small">
                {Object.entries(e.options)
                  .map(([k, v]) => `${k}=${String(v)}`)
                  .join(" ")}
              </td>
              <td>
                <input
                  type="checkbox"
                  checked={e.enabled}
                  onChange={(ev) =>
                    void act("engines.update", {
                      id: e.id,
                      name: e.name,
                      commandLine: [e.command, ...e.args].map(quote).join(" "),
                      cwd: e.cwd,
                      options: e.options,
                      enabled: ev.target.checked,
                    }).then(loadSide)
                  }
                />
              </td>
              <td>
                <button onClick={() => setEditing(e)} data-testid="engine-edit" title={t("edit")}>
                  ✎
                </button>
                <button onClick={() => void act("engines.remove", { id: e.id }).then(loadSide)}>{t("remove")}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {candidates.length > 0 && (
        <table className="grid-table" data-testid="engine-found">
          <thead>
            <tr>
              <th>
                {t("foundEngines")} / {t("builtinEngines")}
              </th>
              <th>{t("commandLine")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {candidates.map((c) => (
              <tr key={c.commandLine}>
                <td>
                  {/* Engine names are data; "built in" is said by the label beside it, in the UI's language. */}
                  <span data-raw>{c.source === "builtin" ? c.name.replace(/ \(built in\)$/, "") : c.name}</span>{" "}
                  <span className="dim small">
                    ({t(c.source === "builtin" ? "builtinEngines" : "foundEngines")}
                    {c.timeOnly ? `, ${t("timeOnly")}` : ""})
                  </span>
                </td>
                <td className="mono small">{c.commandLine}</td>
                <td>
                  <button disabled={inLibrary(c)} onClick={() => addFound(c)} data-testid="engine-found-add">
                    + {t("addToLibrary")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <EngineForm
          key={editing === "new" ? "new" : editing.id}
          editing={editing === "new" ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <button onClick={() => setEditing("new")} data-testid="engine-new">
          + {t("add")}
        </button>
      )}
    </div>
  );
}
