// Every dig setting of the open book, editable with a message under each bad field and
// saved with book.updateSettings (only the changed fields). The host applies them to the
// open book at once, also while a dig runs or is paused: the next positions follow them.
import { useMemo, useState } from "react";
import { call, useStore } from "../store";
import { useT } from "../useT";
import { fill, type Key } from "../i18n";
import {
  formFromSettings,
  NUMBER_FIELDS,
  settingsPatch,
  type FieldError,
  type FormField,
  type LimitKind,
  type NumberField,
  type SettingsForm,
} from "../settingsForm";
import type { DigPolicy, DigSettings } from "../../../shared/dig/settings";

const LABELS: Record<NumberField, Key> = {
  windowCp: "setWindow",
  kifuBonus: "setKifuBonus",
  drawBlack: "setDrawBlack",
  drawWhite: "setDrawWhite",
  maxPly: "setMaxPly",
  maxLeafPly: "setMaxLeafPly",
  breadthPlies: "setBreadthPlies",
  coverOneIn: "setCoverOneIn",
  settleFactor: "setSettleFactor",
  evalLimit: "setEvalLimit",
  prefetch: "setPrefetch",
};

/** What a short label cannot say, on hover (never the label again). */
const HINTS: Record<NumberField, Key> = {
  windowCp: "windowHint",
  kifuBonus: "kifuBonusHint",
  drawBlack: "drawBlackHint",
  drawWhite: "drawWhiteHint",
  maxPly: "maxPlyHint",
  maxLeafPly: "maxLeafPlyHint",
  breadthPlies: "breadthPliesHint",
  coverOneIn: "coverHint",
  settleFactor: "settleHint",
  evalLimit: "evalLimitHint",
  prefetch: "prefetchHint",
};

function ErrorText({ error }: { error: FieldError | undefined }) {
  const t = useT();
  const lang = useStore((s) => s.lang);
  if (!error) return null;
  // The parser's detail is English: Japanese says what kind of problem it is (and which move).
  const text =
    error.kind === "range"
      ? `${t("mustBeInteger")} ${error.min}…${error.max >= Number.MAX_SAFE_INTEGER ? "" : error.max}`
      : `${t("badRoot")}: ${lang === "en" ? error.detail : fill(t(`rootProblem.${error.problem}`), error.params)}`;
  return (
    <div className="field-error err" data-testid="settings-error">
      {text}
    </div>
  );
}

function Form({ settings, live }: { settings: DigSettings; live: boolean }) {
  const t = useT();
  const [form, setForm] = useState<SettingsForm>(() => formFromSettings(settings));
  const { patch, errors } = useMemo(() => settingsPatch(form, settings), [form, settings]);
  const changed = Object.keys(patch).length > 0;
  const bad = Object.keys(errors).length > 0;
  const set = <K extends keyof SettingsForm>(k: K, v: SettingsForm[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
  };
  const invalid = (f: FormField) => (errors[f] ? "invalid" : undefined);
  const save = () => {
    void call("book.updateSettings", { settings: patch })
      .then((info) => {
        // A new settings object re-keys this form (see SettingsPanel), which re-reads it.
        useStore.setState({ book: info });
      })
      .catch(() => undefined);
  };
  const num = (f: NumberField) => (
    <label className="field" key={f}>
      <span className="field-label" title={t(HINTS[f])}>
        {t(LABELS[f])}
      </span>
      <input type="number" className={invalid(f)} value={form[f]} onChange={(e) => set(f, e.target.value)} data-testid={`set-${f}`} />
      <ErrorText error={errors[f]} />
    </label>
  );
  return (
    <fieldset className="settings" data-testid="settings">
      <legend>{t("settings")}</legend>
      <div className="settings-grid">
        <label className="field field-root">
          <span className="field-label">{t("setRoot")}</span>
          <input
            type="text"
            className={`mono ${invalid("root") ?? ""}`}
            value={form.root}
            onChange={(e) => set("root", e.target.value)}
            placeholder="startpos moves 7g7f 3c3d"
            spellCheck={false}
            data-testid="set-root"
          />
          <ErrorText error={errors.root} />
        </label>
        <label className="field field-policy">
          <span className="field-label">{t("setPolicy")}</span>
          <select
            value={form.policy}
            onChange={(e) => set("policy", e.target.value as DigPolicy)}
            title={t(form.policy === "breadth-first" ? "policyBreadthFirstHint" : "policyTeraShockHint")}
            data-testid="set-policy"
          >
            <option value="tera-shock">{t("policyTeraShock")}</option>
            <option value="breadth-first">{t("policyBreadthFirst")}</option>
          </select>
        </label>
        <label className="field field-limit">
          <span className="field-label">{t("setLimit")}</span>
          <span className="pair">
            <select value={form.limitKind} onChange={(e) => set("limitKind", e.target.value as LimitKind)} data-testid="set-limit-kind">
              <option value="nodes">{t("nodes")}</option>
              <option value="depth">{t("depth")}</option>
              <option value="movetimeMs">{t("movetime")}</option>
            </select>
            <input
              type="number"
              className={invalid("limitValue")}
              value={form.limitValue}
              onChange={(e) => set("limitValue", e.target.value)}
              data-testid="set-limit-value"
            />
          </span>
          <ErrorText error={errors.limitValue} />
        </label>
        <label className="field">
          <span className="field-label">MultiPV</span>
          <span className="pair">
            <select
              value={form.multipvMode}
              onChange={(e) => set("multipvMode", e.target.value as typeof form.multipvMode)}
              data-testid="set-multipv-mode"
            >
              <option value="auto">{t("auto")}</option>
              <option value="auto-bounded" title={t("autoBoundedHint")}>
                {t("autoBounded")}
              </option>
              <option value="deep-best" title={t("deepBestHint")}>
                {t("deepBest")}
              </option>
              <option value="fixed">{t("fixed")}</option>
            </select>
            <input
              type="number"
              className={invalid("multipv")}
              value={form.multipv}
              disabled={form.multipvMode !== "fixed"}
              onChange={(e) => set("multipv", e.target.value)}
              data-testid="set-multipv"
            />
          </span>
          <ErrorText error={errors.multipv} />
        </label>
        {NUMBER_FIELDS.map(num)}
      </div>
      <div className="row">
        <button data-testid="settings-save" disabled={bad || !changed} onClick={save}>
          {t("save")}
        </button>
        <button data-testid="settings-reset" disabled={!changed && !bad} onClick={() => setForm(formFromSettings(settings))}>
          {t("revert")}
        </button>
        {live && (
          <span className="dim small" data-testid="settings-live">
            {t("settingsLive")}
          </span>
        )}
      </div>
    </fieldset>
  );
}

export function SettingsPanel() {
  const settings = useStore((s) => s.book?.settings);
  const path = useStore((s) => s.book?.path);
  const state = useStore((s) => s.status?.state ?? "idle");
  if (!settings) return null;
  const live = state !== "idle" && state !== "stopped";
  // A different book or newly saved settings start the form afresh from what the host has.
  return <Form key={`${path}\n${JSON.stringify(settings)}`} settings={settings} live={live} />;
}
