import { describe, expect, it } from "vitest";
import { DEFAULT_DIG_SETTINGS, DigSettingsSchema } from "../../shared/dig/settings";
import { checkRoot, classifyRoot, formFromSettings, NUMBER_FIELDS, RANGES, settingsPatch } from "./settingsForm";

describe("dig settings form", () => {
  it("round-trips the defaults with nothing to save", () => {
    const r = settingsPatch(formFromSettings(DEFAULT_DIG_SETTINGS), DEFAULT_DIG_SETTINGS);
    expect(r).toEqual({ patch: {}, errors: {} });
  });

  it("sends only the changed fields, each of every kind", () => {
    const f = formFromSettings(DEFAULT_DIG_SETTINGS);
    const r = settingsPatch(
      {
        ...f,
        root: " startpos moves 7g7f 3c3d ",
        limitKind: "depth",
        limitValue: "12",
        multipvMode: "fixed",
        multipv: "8",
        drawWhite: "-50",
        prefetch: "2",
      },
      DEFAULT_DIG_SETTINGS,
    );
    expect(r.errors).toEqual({});
    expect(r.patch).toEqual({ root: "startpos moves 7g7f 3c3d", limit: { depth: 12 }, multipv: 8, drawWhite: -50, prefetch: 2 });
  });

  it("names each bad field with its range, and bad roots with the reason", () => {
    const f = formFromSettings(DEFAULT_DIG_SETTINGS);
    const r = settingsPatch(
      {
        ...f,
        root: "startpos moves 7g7e",
        limitKind: "depth",
        limitValue: "200",
        multipvMode: "fixed",
        multipv: "0",
        windowCp: "1.5",
        prefetch: "",
      },
      DEFAULT_DIG_SETTINGS,
    );
    expect(Object.keys(r.errors).sort()).toEqual(["limitValue", "multipv", "prefetch", "root", "windowCp"]);
    expect(r.errors.limitValue).toEqual({ kind: "range", min: 1, max: 127 });
    expect(r.errors.root).toMatchObject({
      kind: "root",
      detail: expect.stringContaining("7g7e"),
      problem: "moveIllegal",
      params: { n: "1", move: "7g7e" },
    });
    // Each kind of root problem has its own message key (the detail is the parser's English).
    const kind = (root: string) => (checkRoot(root) === null ? null : classifyRoot(checkRoot(root)!).problem);
    expect(kind("startpos moves 7g7f xx")).toBe("moveNotUsi");
    expect(kind("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1")).toBe("board");
    expect(kind("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1")).toBe("side");
    expect(kind("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Q 1")).toBe("hands");
    expect(kind("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSPL b - 1")).toBe("illegal");
    expect(kind("")).toBe("empty");
    expect(kind("hello")).toBe("unreadable");
    expect(r.patch).toEqual({});
  });

  it("reads the roots the host reads", () => {
    expect(checkRoot("startpos")).toBeNull();
    expect(checkRoot("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f")).toBeNull();
    expect(checkRoot("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")).toBeNull();
    expect(checkRoot("")).toBe("empty");
    expect(checkRoot("lnsgkgsnl/9 b - 1")).not.toBeNull();
  });

  it("keeps its ranges beside the schema's", () => {
    const shape = DigSettingsSchema.shape;
    for (const k of NUMBER_FIELDS) {
      const [min, max] = RANGES[k];
      expect(shape[k].safeParse(min).success && shape[k].safeParse(max).success).toBe(true);
      expect(shape[k].safeParse(min - 1).success || shape[k].safeParse(max + 1).success).toBe(false);
    }
  });
});
