// A <label> that wraps a file <input> is not a button to the keyboard: Enter or Space opens its picker.
import type { KeyboardEvent } from "react";

export function openPickerOnKey(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== "Enter" && e.key !== " ") return;
  e.preventDefault();
  e.currentTarget.querySelector("input")?.click();
}
