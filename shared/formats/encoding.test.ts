import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Encoding from "encoding-japanese";
import { decodeLegacyJs, decodeRecordBytes, normalizeEncodingLabel } from "./encoding.js";

const DATA = fileURLToPath(new URL("./testdata/", import.meta.url));

const sjis = (s: string): Uint8Array => new Uint8Array(Encoding.convert(Encoding.stringToCode(s), { to: "SJIS", from: "UNICODE" }));
const euc = (s: string): Uint8Array => new Uint8Array(Encoding.convert(Encoding.stringToCode(s), { to: "EUCJP", from: "UNICODE" }));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const KIF = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)\n";

describe("decodeRecordBytes", () => {
  test("sniffs UTF-8, Shift_JIS and EUC-JP without declarations", () => {
    expect(decodeRecordBytes(utf8(KIF))).toEqual({ text: KIF, encoding: "utf-8" });
    expect(decodeRecordBytes(sjis(KIF))).toEqual({ text: KIF, encoding: "shift_jis" });
    expect(decodeRecordBytes(euc(KIF))).toEqual({ text: KIF, encoding: "euc-jp" });
  });

  test("drops a UTF-8 BOM", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(KIF)]);
    expect(decodeRecordBytes(bytes)).toEqual({ text: KIF, encoding: "utf-8" });
  });

  test("honours CSA 'encoding= and KIF #KIF encoding= declarations", () => {
    const csa = "'encoding=Shift_JIS\nV2.2\nN+先手\n";
    expect(decodeRecordBytes(sjis(csa))).toEqual({ text: csa, encoding: "shift_jis" });
    const kif = "#KIF version=2.0 encoding=UTF-8\n" + KIF;
    expect(decodeRecordBytes(utf8(kif)).encoding).toBe("utf-8");
    // An ASCII-only body reports what it declares.
    expect(decodeRecordBytes(utf8("'encoding=EUC-JP\nV2.2\n+\n")).encoding).toBe("euc-jp");
  });

  test("a file converted to UTF-8 that still declares Shift_JIS reads as UTF-8 (the real one, re-saved)", () => {
    const sj = readFileSync(DATA + "kifu/kif_fork.kif");
    const text = decodeRecordBytes(sj).text;
    expect(decodeRecordBytes(sj).encoding).toBe("shift_jis");
    expect(text).toMatch(/encoding=Shift_JIS/i);
    expect(decodeRecordBytes(utf8(text))).toEqual({ text, encoding: "utf-8" });
  });

  test("UTF-16 with a byte-order mark, either order (Notepad's Unicode)", () => {
    const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(KIF, "utf16le"))]);
    expect(decodeRecordBytes(le)).toEqual({ text: KIF, encoding: "utf-16le" });
    const be = Buffer.from(KIF, "utf16le");
    for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1]!, be[i]!];
    expect(decodeRecordBytes(new Uint8Array([0xfe, 0xff, ...be]))).toEqual({ text: KIF, encoding: "utf-16be" });
  });

  test("a wrong declaration loses to bytes that contradict it", () => {
    const lying = "#KIF version=2.0 encoding=UTF-8\n" + KIF;
    expect(decodeRecordBytes(sjis(lying))).toEqual({ text: lying, encoding: "shift_jis" });
  });

  test("the JS fallback decodes what the runtime decodes (EUC-JP, Shift_JIS)", () => {
    expect(decodeLegacyJs(euc(KIF), "euc-jp")).toBe(KIF);
    expect(decodeLegacyJs(sjis(KIF), "shift_jis")).toBe(KIF);
  });

  test("labels", () => {
    expect(normalizeEncodingLabel("Shift_JIS")).toBe("shift_jis");
    expect(normalizeEncodingLabel("windows-31j")).toBe("shift_jis");
    expect(normalizeEncodingLabel("UTF8")).toBe("utf-8");
    expect(normalizeEncodingLabel("EUC-JP")).toBe("euc-jp");
    expect(normalizeEncodingLabel("latin1")).toBeUndefined();
  });

  test("shared data: Shift_JIS files vs UTF-8 files", () => {
    const expected: { [file: string]: string } = {
      "book_source-with-score_src01.kifu": "utf-8",
      "book_source_src01.ki2": "shift_jis",
      "book_source_src03.csa": "utf-8",
      "book_source_src05.sfen": "utf-8",
      "conversion_input_csa-sjis.csa": "shift_jis",
      "conversion_input_kif-sjis.kif": "shift_jis",
      "conversion_input_kifu-utf8.kifu": "utf-8",
      "csa_v2.csa": "utf-8",
      "ki2_20091203.ki2": "shift_jis",
      "ki2_8mai.ki2u": "utf-8",
      "kif_fork.kif": "shift_jis",
      "kif_shogidokoro.kifu": "utf-8",
    };
    for (const [file, enc] of Object.entries(expected)) {
      const d = decodeRecordBytes(new Uint8Array(readFileSync(DATA + "kifu/" + file)), file);
      expect(d.encoding, file).toBe(enc);
      expect(d.text, file).not.toMatch(/\uFFFD/);
    }
    // The runtime's decoder and the JS tables agree on every legacy file.
    for (const [file, enc] of Object.entries(expected)) {
      if (enc === "utf-8") continue;
      const bytes = new Uint8Array(readFileSync(DATA + "kifu/" + file));
      expect(decodeRecordBytes(bytes, file).text, file).toBe(decodeLegacyJs(bytes, "shift_jis"));
    }
    // The KI2 in Shift_JIS reads as Japanese, not mojibake.
    expect(decodeRecordBytes(new Uint8Array(readFileSync(DATA + "kifu/ki2_20091203.ki2"))).text).toContain("伊奈祐介六段");
  });
});
