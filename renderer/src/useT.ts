import { useCallback } from "react";
import { translate, type Key } from "./i18n";
import { useStore } from "./store";

/** The label function for the current language. */
export function useT(): (k: Key) => string {
  const lang = useStore((s) => s.lang);
  return useCallback((k: Key) => translate(lang, k), [lang]);
}
