// Copying a line or a position as KIF, KI2, CSA, USI or SFEN, with a preview of the text.
import { useMemo, useState } from "react";
import { useStore } from "../store";
import { useT } from "../useT";
import { COPY_FORMATS, lineText, type CopyFormat } from "../../../shared/formats/notation";

const NO_PV: string[] = [];

type Scope = "line" | "position" | "pv";

export function CopyBox({ line, testId = "copy" }: { line: string[]; testId?: string }) {
  const t = useT();
  const rootSfen = useStore((s) => s.book?.rootSfen ?? "startpos");
  const [format, setFormat] = useState<CopyFormat>("kif");
  const [scope, setScope] = useState<Scope>("line");
  // The PV changes with every dig status: only read (and re-format) while it is the one shown.
  const pv = useStore((s) => (scope === "pv" ? (s.status?.pv ?? NO_PV) : NO_PV));
  const [done, setDone] = useState(false);
  const text = useMemo(() => {
    if (scope === "position") {
      // The position alone: its SFEN (with its move number) as the start, no moves.
      const at = lineText("sfen", rootSfen, line).replace(/^sfen /, "");
      return lineText(format, at, []);
    }
    return lineText(format, rootSfen, scope === "pv" ? pv : line);
  }, [format, scope, rootSfen, line, pv]);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => {
        setDone(true);
        setTimeout(() => setDone(false), 1200);
      },
      () => undefined,
    );
  };
  return (
    <div className="copybox" data-testid={testId}>
      <div className="row">
        <strong>{t("copy")}</strong>
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value as Scope)}
          data-testid={`${testId}-scope`}
          aria-label={t("copyWhat")}
        >
          <option value="line">{t("copyLine")}</option>
          <option value="position">{t("copyPosition")}</option>
          <option value="pv">{t("copyPv")}</option>
        </select>
        <select
          value={format}
          onChange={(e) => setFormat(e.target.value as CopyFormat)}
          data-testid={`${testId}-format`}
          aria-label={t("format")}
        >
          {COPY_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f.toUpperCase()}
            </option>
          ))}
        </select>
        <button onClick={copy} data-testid={`${testId}-button`}>
          {done ? t("copied") : t("copy")}
        </button>
      </div>
      <textarea readOnly value={text} rows={6} data-testid={`${testId}-text`} onFocus={(e) => e.currentTarget.select()} />
    </div>
  );
}
