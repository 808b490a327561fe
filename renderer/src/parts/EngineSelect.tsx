// Choosing an engine of the library for a job of its own (live analysis, a quality run): the
// one chosen, else the first enabled, else the first; the names are the user's words, not
// the UI's (data-raw: the Japanese check leaves them alone).
import { useState } from "react";
import type { EngineConfigView } from "../../../shared/api/contract";

/** The library engine a view works with, and how to choose another. */
export function useChosenEngine(engines: readonly EngineConfigView[]): [EngineConfigView | undefined, (id: number) => void] {
  const [engineId, setEngineId] = useState<number | null>(null);
  const chosen = engines.find((e) => e.id === engineId) ?? engines.find((e) => e.enabled) ?? engines[0];
  return [chosen, setEngineId];
}

export function EngineSelect(props: {
  engines: readonly EngineConfigView[];
  chosen: EngineConfigView | undefined;
  choose: (id: number) => void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <select
      value={props.chosen?.id ?? ""}
      onChange={(e) => props.choose(Number(e.target.value))}
      data-testid={props.testId}
      data-raw
      disabled={props.disabled}
    >
      {props.engines.map((e) => (
        <option key={e.id} value={e.id}>
          {e.name}
        </option>
      ))}
    </select>
  );
}
