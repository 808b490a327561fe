// Lint rules that keep the architecture honest: `shared/` is pure TypeScript (no Node,
// no DOM, no Electron), and the renderer never reaches into Node or the main process.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import architecture from "./scripts/lint/architecture.js";
import reactHooks from "eslint-plugin-react-hooks";

// Bare Node built-in names are matched exactly (a folder called util/ is fine); node:* by pattern.
const nodeBuiltins = [
  "fs",
  "path",
  "child_process",
  "os",
  "worker_threads",
  "crypto",
  "stream",
  "net",
  "http",
  "https",
  "url",
  "util",
  "events",
  "readline",
  "buffer",
  "process",
];
const nodeModules = ["node:*"];
// Test helpers have folders of their own; the product never imports them. (The benchmarks
// are electron/bench/, a layer only the CLI sits above: see scripts/lint/architecture.js.)
const testingOnly = { group: ["**/testing/**", "**/e2e/**"], message: "Test helpers are not part of the product." };

/** What the renderer may not import: Node, the host, electron/ and, in its product code, the test helpers. */
const rendererImports = (product) => ({
  paths: nodeBuiltins.map((name) => ({ name, message: "The renderer never imports Node code." })),
  patterns: [
    { group: nodeModules, message: "The renderer never imports Node code." },
    { group: ["electron", "better-sqlite3", "ws"], message: "The renderer talks to the host through the API contract only." },
    { group: ["**/electron/**"], message: "The renderer must not import from electron/." },
    ...(product ? [testingOnly] : []),
  ],
});

export default tseslint.config(
  { ignores: ["dist/**", "out/**", "release/**", "node_modules/**", "e2e/artifacts/**", "renderer/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  ...[false, true].map((product) => ({
    files: product ? ["shared/**/*.ts"] : ["shared/testing/**/*.ts"],
    ignores: product ? ["shared/**/*.test.ts", "shared/testing/**"] : ["shared/**/*.test.ts"],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: nodeBuiltins.map((name) => ({ name, message: "shared/ is pure TypeScript: no Node modules." })),
          patterns: [
            { group: nodeModules, message: "shared/ is pure TypeScript: no Node modules." },
            { group: ["electron", "better-sqlite3", "ws", "react", "react-dom"], message: "shared/ has no host or UI dependencies." },
            { group: ["**/electron/**", "**/renderer/**"], message: "shared/ must not import from electron/ or renderer/." },
            ...(product ? [testingOnly] : []),
          ],
        },
      ],
      "no-restricted-globals": ["error", "window", "document", "process", "require", "Buffer"],
    },
  })),
  {
    files: ["renderer/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    // React's rules of hooks: hooks called in the same order on every render.
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "no-restricted-imports": ["error", rendererImports(true)],
    },
  },
  {
    // The renderer's tests may share test helpers (a fixture), as the other sides' tests do.
    files: ["renderer/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", rendererImports(false)] },
  },
  {
    files: ["electron/**/*.ts"],
    ignores: ["electron/**/*.test.ts", "electron/testing/**", "electron/**/testing/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [testingOnly] }] },
  },
  {
    // Test code too: the testing/ folders and e2e/ (their helpers join the import graph the
    // cycle check walks, and may not import test files); the layers apply to the product only.
    files: ["shared/**/*.ts", "electron/**/*.ts", "renderer/**/*.{ts,tsx}", "e2e/**/*.ts"],
    plugins: { architecture },
    rules: { "architecture/layers": "error", "architecture/no-cycle": "error", "architecture/testing": "error" },
  },
  {
    files: ["electron/**/*.ts", "scripts/**/*.{ts,mjs,js}", "e2e/**/*.ts", "bin/**/*.js", "*.config.{ts,js}", "shared/**/*.test.ts"],
    languageOptions: { globals: { ...globals.node } },
  },
);
