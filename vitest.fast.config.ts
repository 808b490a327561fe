// `npm run test:fast`: the suite without the slow tiers (a static split: the files are listed
// here, by folder or by name). Not run here: the e2e tests (e2e/: Chromium and `horu web`),
// the benchmarks and the soak (electron/bench/), the fuzzers that run for a time budget, and
// every test file that starts a real engine (fairy-stockfish, gpsusi, the built-in engine over
// USI), sshd or a terminal. `npm test` runs everything. A new test file that starts an engine
// or runs for long belongs in SLOW below.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

/** Test files too slow for the fast tier, by glob. */
export const SLOW = [
  "e2e/**",
  "electron/bench/**",
  // Real engines, terminals, sshd.
  "electron/book/backup.test.ts",
  "electron/cli/commands/horu-engine/dig-selfplay.test.ts",
  "electron/cli/commands/match.test.ts",
  "electron/cli/huge-pages.test.ts",
  "electron/dig/*.test.ts",
  "electron/engines/book-engines.test.ts",
  "electron/engines/builtin-dig.test.ts",
  "electron/engines/horu/**",
  "electron/engines/usi/engine.test.ts",
  "electron/engines/usi/pool.test.ts",
  "electron/engines/usi/ssh.test.ts",
  "electron/host/service.test.ts",
  "electron/host/trust.test.ts",
  "electron/main/packaging.test.ts",
  "electron/match/**",
  "electron/store/book-store.test.ts",
  // Fuzzers with a time budget, perft.
  "shared/formats/parsers-fuzz.test.ts",
  "shared/formats/fuzz.test.ts",
  "shared/rules/perft.test.ts",
  // Real `horu` processes or children killed on purpose, and long: the five took 238 s of the
  // fast tier's 897 s of test time (a verbose run at load 9-14, 2026-11-29), and pushed it over
  // its 3 minutes at low load. prepare: `horu export` and `horu import` of a big written book;
  // import-keeps: `horu import`; durability: children storing results, killed with -9;
  // engines: `horu engines add` on engines that never answer; import-fuzz: thousands of
  // mutated books, a fuzzer like the two above.
  "electron/book/prepare.test.ts",
  "electron/book/import-keeps.test.ts",
  "electron/store/durability.test.ts",
  "electron/cli/commands/engines.test.ts",
  "electron/book/import-fuzz.test.ts",
  // Real engines the tests of the second and third sessions start (the rule above): quality
  // and live analysis with fairy-stockfish, `horu dig` with it under a crafted name.
  "electron/book/quality.test.ts",
  "electron/host/analysis-session.test.ts",
  "electron/host/quality-session.test.ts",
  "electron/cli/commands/dig-terminal.test.ts",
];

export default mergeConfig(
  base,
  defineConfig({
    test: { exclude: ["**/node_modules/**", ...SLOW] },
  }),
);
