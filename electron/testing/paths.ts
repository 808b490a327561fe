// Paths the Node-side tests share: real engines from Debian, the built CLI, the test data in
// the repository (files of other programs, with their licences).
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const HORU = path.join(REPO, "bin", "horu.js");
export const TEST_DATA = path.join(REPO, "shared", "formats", "testdata");
export const FAIRY = "/usr/games/fairy-stockfish";
export const GPSUSI = "/usr/games/gpsusi";
export const FAKE_ENGINE = path.join(REPO, "electron", "engines", "usi", "testing", "fake-engine.mjs");

export const haveFairy = existsSync(FAIRY);
export const haveGps = existsSync(GPSUSI);
export const NO_ENGINE = "needs /usr/games/fairy-stockfish (apt-get install fairy-stockfish); CI installs it";

export function tempDir(prefix = "horu-test-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** `horu dig` on `book` with fairy-stockfish as the tests run it (Threads=1, Hash=16), then `more` arguments. */
export function fairyDigArgs(book: string, o: { engines?: number; nodes?: number; multipv?: number } = {}, ...more: string[]): string[] {
  const { engines = 2, nodes = 2000, multipv = 3 } = o;
  return [
    HORU,
    "dig",
    "--book",
    book,
    "--engine",
    FAIRY,
    "--engines",
    String(engines),
    "--option",
    "Threads=1",
    "--option",
    "Hash=16",
    "--nodes",
    String(nodes),
    "--multipv",
    String(multipv),
    ...more,
  ];
}
