import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["shared/**/*.test.ts", "electron/**/*.test.ts", "renderer/**/*.test.{ts,tsx}", "e2e/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ["scripts/vitest-global-setup.ts"],
    pool: "forks",
    reporters: ["default", "./scripts/summary-reporter.ts"],
  },
});
