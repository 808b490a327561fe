// The contract says which actions run once at a time (a double click gets the first call's
// answer): the UI's `call` reads it from here (renderer/src/store-once.test.ts), for Electron
// IPC and the web mode alike; no list is kept beside it.
import { describe, expect, it } from "vitest";
import { METHODS, contract, onceAtATime } from "./contract.js";

describe("the calls that run once at a time", () => {
  it("are the actions whose second run would be refused, or start or write something again", () => {
    expect(METHODS.filter(onceAtATime).sort()).toEqual(
      [
        // Refused the second time ("already exists", "already digging", "a match is running",
        // "no such upload", "no engine N", "is being thought now") or run twice over.
        "book.create",
        "book.open",
        "book.quickStart",
        "book.prune",
        "book.undoPrune",
        "book.undoImport",
        "book.import",
        "book.importUpload",
        "book.thinkNow",
        "book.addMove",
        "dig.start",
        "export.run",
        "match.start",
        "match.open",
        "backup.now",
        "backup.restore",
        "engines.add",
        "engines.remove",
        // Starts an engine: a second process for the same answer (analysis: the first search killed).
        "engines.test",
        "analysis.start",
        "seed.paths",
        "seed.upload",
      ].sort(),
    );
  });

  it("never include reads, repeatable writes, or the start of an upload (two files alike are two uploads)", () => {
    for (const m of [
      "upload.begin",
      "upload.chunk",
      "book.node",
      "dig.status",
      "dig.pause",
      "dig.stop",
      "book.updateSettings",
      "book.comment",
    ] as const)
      expect(onceAtATime(m), m).toBe(false);
    // The flag is the method's own, read from its entry.
    expect((contract["dig.start"] as { once?: boolean }).once).toBe(true);
  });
});
