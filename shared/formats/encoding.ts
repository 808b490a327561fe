// Byte -> text for game records and book files.
//
// Choice: UTF-8 goes through TextDecoder (every JS runtime has UTF-8, and `fatal` gives
// us a cheap strict validity test). Shift_JIS/CP932 and EUC-JP go through TextDecoder
// when the runtime has those labels (browsers, Node with full ICU: ~45x faster than a
// JS table, 8 ms vs 360 ms per MB, which matters for big collections) and through
// encoding-japanese otherwise (Node small-icu builds lack the legacy labels). Both
// follow the CP932 mapping; the tests check they agree on the shared records.
import Encoding from "encoding-japanese";

export type TextEncodingName = "utf-8" | "shift_jis" | "euc-jp" | "utf-16le" | "utf-16be";

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

const utf8Strict = new TextDecoder("utf-8", { fatal: true });
const utf8Lenient = new TextDecoder("utf-8");

/** Maps a declared charset label (CSA `'encoding=`, KIF `encoding=`) to ours. */
export function normalizeEncodingLabel(label: string): TextEncodingName | undefined {
  const l = label.trim().toLowerCase().replace(/[_\s]/g, "-");
  if (l === "utf-8" || l === "utf8") return "utf-8";
  if (l === "shift-jis" || l === "sjis" || l === "cp932" || l === "windows-31j" || l === "ms932" || l === "x-sjis") return "shift_jis";
  if (l === "euc-jp" || l === "eucjp" || l === "euc") return "euc-jp";
  return undefined;
}

/**
 * Looks for an encoding declaration in the first lines. The header is ASCII in every
 * encoding we read, so it can be read before decoding.
 */
function declaredEncoding(bytes: Uint8Array): TextEncodingName | undefined {
  const head = bytes.subarray(0, Math.min(bytes.length, 1024));
  let ascii = "";
  for (let i = 0; i < head.length; i++) ascii += head[i] < 0x80 ? String.fromCharCode(head[i]) : "\u0000";
  const lines = ascii.split(/\r\n|\r|\n/).slice(0, 8);
  for (const line of lines) {
    const s = line.replace(/^\uFEFF/, "");
    // CSA: "'encoding=Shift_JIS" (V2.2 practice), "'CSA encoding=UTF-8" (V3.0 header).
    let m = /^'\s*(?:CSA\s+)?encoding\s*=\s*([A-Za-z0-9_-]+)/i.exec(s);
    if (m) return normalizeEncodingLabel(m[1]);
    // KIF 2.0: "#KIF version=2.0 encoding=UTF-8".
    m = /^#\s*KIF\b.*\bencoding\s*=\s*([A-Za-z0-9_-]+)/i.exec(s);
    if (m) return normalizeEncodingLabel(m[1]);
  }
  return undefined;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    utf8Strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

/** Share of bytes that form well-formed Shift_JIS sequences (lead/trail ranges, half-width kana). */
function sjisScore(b: Uint8Array): number {
  let ok = 0;
  let bad = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c < 0x80) continue;
    if (c >= 0xa1 && c <= 0xdf) {
      ok++;
      continue;
    }
    const lead = (c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc);
    const t = b[i + 1];
    if (lead && t !== undefined && t >= 0x40 && t <= 0xfc && t !== 0x7f) {
      ok += 2;
      i++;
    } else bad++;
  }
  return bad === 0 ? ok : ok - 8 * bad;
}

/** Same for EUC-JP (two-byte 0xA1-0xFE pairs, SS2 kana, SS3 three-byte). */
function eucScore(b: Uint8Array): number {
  let ok = 0;
  let bad = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c < 0x80) continue;
    const t = b[i + 1];
    if (c >= 0xa1 && c <= 0xfe && t !== undefined && t >= 0xa1 && t <= 0xfe) {
      ok += 2;
      i++;
    } else if (c === 0x8e && t !== undefined && t >= 0xa1 && t <= 0xdf) {
      ok += 2;
      i++;
    } else if (c === 0x8f && t !== undefined && t >= 0xa1 && b[i + 2] !== undefined && b[i + 2] >= 0xa1) {
      ok += 3;
      i += 2;
    } else bad++;
  }
  return bad === 0 ? ok : ok - 8 * bad;
}

// Characters that fill every Japanese game record: when both legacy decodings are
// well formed, the one that produces shogi text is the right one.
const KIFU_CHARS = new Set(
  Array.from("歩香桂銀金角飛玉王と成龍竜馬同打▲△☗☖先後手数投了勝負一二三四五六七八九１２３４５６７８９０：開始日時棋戦平"),
);

function kifuCharCount(text: string): number {
  let n = 0;
  for (const ch of text) if (KIFU_CHARS.has(ch)) n++;
  return n;
}

const nativeDecoders: { [enc: string]: TextDecoder | null } = {};

function nativeDecoder(enc: "shift_jis" | "euc-jp"): TextDecoder | null {
  if (!(enc in nativeDecoders)) {
    try {
      nativeDecoders[enc] = new TextDecoder(enc);
    } catch {
      nativeDecoders[enc] = null;
    }
  }
  return nativeDecoders[enc];
}

/** The pure JS decoding (always available); exported for the agreement test. */
export function decodeLegacyJs(bytes: Uint8Array, enc: "shift_jis" | "euc-jp"): string {
  return Encoding.convert(bytes, { to: "UNICODE", from: enc === "shift_jis" ? "SJIS" : "EUCJP", type: "string" });
}

function decodeLegacy(bytes: Uint8Array, enc: "shift_jis" | "euc-jp"): string {
  const native = nativeDecoder(enc);
  return native ? native.decode(bytes) : decodeLegacyJs(bytes, enc);
}

/** Decodes with a known encoding; a UTF-8 BOM is dropped, malformed UTF-8 becomes U+FFFD. */
export function decodeAs(bytes: Uint8Array, encoding: TextEncodingName): string {
  switch (encoding) {
    case "utf-8":
      return utf8Lenient.decode(hasUtf8Bom(bytes) ? bytes.subarray(3) : bytes);
    case "utf-16le":
    case "utf-16be":
      // TextDecoder drops the byte-order mark itself.
      return new TextDecoder(encoding).decode(bytes);
    case "shift_jis":
    case "euc-jp":
      return decodeLegacy(bytes, encoding);
  }
}

/** A UTF-16 byte-order mark (Windows Notepad's "Unicode"): the file is UTF-16 in that order. */
function utf16Bom(b: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return "utf-16le";
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return "utf-16be";
  return null;
}

function hasUtf8Bom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/**
 * Decodes a record or book file: BOM, then a declaration in the header, then the file
 * name's convention (`.kifu`, `.ki2u`, `.jkf`, `.json` are UTF-8), then sniffing.
 * Never throws; undecodable bytes become replacement characters.
 */
export function decodeRecordBytes(bytes: Uint8Array, fileName?: string): DecodedText {
  if (hasUtf8Bom(bytes)) return { text: decodeAs(bytes, "utf-8"), encoding: "utf-8" };
  const wide = utf16Bom(bytes);
  if (wide) return { text: decodeAs(bytes, wide), encoding: wide };
  const declared = declaredEncoding(bytes);
  if (declared) {
    // A wrong declaration is common (files re-saved by editors): trust it only when
    // the bytes agree; UTF-8 is checked strictly, legacy encodings by their byte shape.
    if (declared === "utf-8" ? isValidUtf8(bytes) : (declared === "shift_jis" ? sjisScore(bytes) : eucScore(bytes)) >= 0) {
      const text = decodeAs(bytes, declared);
      // A file converted to UTF-8 keeps its old "encoding=Shift_JIS" line, and UTF-8 bytes
      // can have Shift_JIS's shape: the decoding that reads as a record wins.
      if (declared !== "utf-8" && !isAscii(bytes) && isValidUtf8(bytes)) {
        const utf8 = decodeAs(bytes, "utf-8");
        if (kifuCharCount(utf8) > kifuCharCount(text)) return { text: utf8, encoding: "utf-8" };
      }
      return { text, encoding: declared };
    }
  }
  if (isAscii(bytes)) return { text: decodeAs(bytes, "utf-8"), encoding: "utf-8" };
  const valid8 = isValidUtf8(bytes);
  const ext = fileName ? (/\.([A-Za-z0-9]+)$/.exec(fileName)?.[1] ?? "").toLowerCase() : "";
  if (valid8 && (ext === "kifu" || ext === "ki2u" || ext === "jkf" || ext === "json"))
    return { text: decodeAs(bytes, "utf-8"), encoding: "utf-8" };
  // Japanese text in Shift_JIS or EUC-JP is almost never valid UTF-8, while UTF-8
  // Japanese is always valid: validity decides.
  if (valid8) return { text: decodeAs(bytes, "utf-8"), encoding: "utf-8" };
  const sj = sjisScore(bytes);
  const eu = eucScore(bytes);
  if (sj >= 0 && eu < 0) return { text: decodeLegacy(bytes, "shift_jis"), encoding: "shift_jis" };
  if (eu >= 0 && sj < 0) return { text: decodeLegacy(bytes, "euc-jp"), encoding: "euc-jp" };
  const sjText = decodeLegacy(bytes, "shift_jis");
  const euText = decodeLegacy(bytes, "euc-jp");
  const sjHits = kifuCharCount(sjText) + sj / 1e6;
  const euHits = kifuCharCount(euText) + eu / 1e6;
  // Ties go to Shift_JIS: it is what Japanese Windows tools write.
  return euHits > sjHits ? { text: euText, encoding: "euc-jp" } : { text: sjText, encoding: "shift_jis" };
}
