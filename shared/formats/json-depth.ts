// How deep a JSON text nests, found by one pass over its characters without parsing it: a
// crafted JKF nested 100,000 deep makes JSON.parse or the JKF reader's recursion overflow the
// stack ("Maximum call stack size exceeded"), so such a text is refused before either sees it.

/** A top-level piece of a JSON text: the whole text, or each element when the text is an array. */
export interface JsonPiece {
  start: number;
  end: number;
  /** Nesting of the piece itself: 0 for a number or string, 1 for `[]` or `{}`, ... */
  depth: number;
}

/**
 * The text's top-level pieces and how deep each nests. `array`: the text is an array, and the
 * pieces are its elements. Malformed text gives pieces JSON.parse will then refuse.
 */
export function jsonPieces(text: string): { array: boolean; depth: number; pieces: JsonPiece[] } {
  let i = 0;
  while (i < text.length && /\s/.test(text[i])) i++;
  const array = text[i] === "[";
  const pieces: JsonPiece[] = [];
  let depth = 0;
  let max = 0;
  let pieceStart = -1;
  let pieceMax = 0;
  const close = (end: number) => {
    if (pieceStart >= 0) pieces.push({ start: pieceStart, end, depth: pieceMax });
    pieceStart = -1;
    pieceMax = 0;
  };
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skipped whole, escapes included (a bracket in it is no nesting).
      if (array && depth === 1 && pieceStart < 0) pieceStart = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      if (array && depth === 1 && pieceStart < 0) pieceStart = i;
      depth++;
      if (depth > max) max = depth;
      if (array && depth - 1 > pieceMax) pieceMax = depth - 1;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (array && depth === 0) close(i);
    } else if (array && depth === 1) {
      if (c === 0x2c) close(i);
      else if (pieceStart < 0 && !(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) pieceStart = i;
    }
  }
  if (!array) return { array, depth: max, pieces: [{ start: 0, end: text.length, depth: max }] };
  return { array, depth: max, pieces };
}
